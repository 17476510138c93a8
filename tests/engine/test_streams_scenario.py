"""A group can be a streams group (KIP-1071): the scenario model's topology, threads and processes, refusals, the
save format and share links, and the presets; files of the other group types stay byte for byte as they were."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.errors import ScenarioError
from engine.presets import PRESETS, build_preset
from engine.scenario import (
    StreamsSubtopology,
    StreamsTopology,
    dumps_scenario,
    loads_scenario,
    parse_scenario,
)
from ui.frame.state import decode_scenario, encode_scenario

STREAMS_FIELDS = {"process", "subtopologies", "num_standby_replicas"}


def streams_doc(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "name": "join", "group_type": "streams", "num_standby_replicas": 1,
        "subtopologies": [{"id": "0", "source_topics": ["orders", "payments"], "stateful": True},
                          {"id": "1", "source_topics": ["shipments"], "stateful": False}],
        "steps": [{"topics": {"orders": 6, "payments": 4, "shipments": 3},
                   "members": [{"id": "a1", "process": "app-a"}, {"id": "a2", "process": "app-a"},
                               {"id": "b1", "process": "app-b"}]},
                  {"topics": {"orders": 8, "payments": 4, "shipments": 3},
                   "members": [{"id": "a1", "process": "app-a"}, {"id": "b1", "process": "app-b"}]}]}
    doc.update(changes)
    return doc


def test_a_streams_document_round_trips_through_file_and_link() -> None:
    scenario = parse_scenario(streams_doc())
    assert scenario.streams == StreamsTopology(
        (StreamsSubtopology("0", ("orders", "payments"), True), StreamsSubtopology("1", ("shipments",), False)), 1)
    assert [m.process for m in scenario.first.members] == ["app-a", "app-a", "app-b"]
    assert scenario.first.members[0].topics == ("orders", "payments", "shipments")  # the topology's topics
    saved = dumps_scenario(scenario)
    assert loads_scenario(saved) == scenario and dumps_scenario(loads_scenario(saved)) == saved
    assert decode_scenario(encode_scenario(scenario)) == scenario
    written = json.loads(saved)
    assert written["group_type"] == "streams" and written["num_standby_replicas"] == 1
    assert written["subtopologies"][0] == {"id": "0", "source_topics": ["orders", "payments"], "stateful": True}
    assert all("process" in m for step in written["steps"] for m in step["members"])


def test_tasks_per_subtopology_follow_the_largest_source_topic_of_each_step() -> None:
    scenario = parse_scenario(streams_doc())
    topology = scenario.topology
    assert [topology.task_counts(s.topics) for s in scenario.steps] == [{"0": 6, "1": 3}, {"0": 8, "1": 3}]


def test_without_a_topology_each_topic_of_the_first_step_is_a_stateless_subtopology() -> None:
    doc = streams_doc()
    del doc["subtopologies"], doc["num_standby_replicas"]
    scenario = parse_scenario(doc)
    assert scenario.streams == StreamsTopology(tuple(
        StreamsSubtopology(str(i), (t,)) for i, t in enumerate(("orders", "payments", "shipments"))), 0)


@pytest.mark.parametrize("changes,message", [
    ({"subtopologies": [{"id": "0", "source_topics": ["orders", "refunds"]}]},
     "subtopologies[0].source_topics[1]: 'refunds' is not in steps[0].topics "
     '(Kafka: "Source topics refunds are missing.")'),
    ({"subtopologies": [{"id": "0", "source_topics": []}]},
     "subtopologies[0].source_topics: must be a non-empty list of topic names, got []"),
    ({"subtopologies": [{"id": "", "source_topics": ["orders"]}]}, "subtopologies[0].id: must not be empty"),
    ({"subtopologies": [{"id": "0", "source_topics": ["orders"]}, {"id": "0", "source_topics": ["payments"]}]},
     "subtopologies[1].id: duplicate '0'"),
    ({"subtopologies": [{"id": "0", "source_topics": ["orders"]}, {"id": "1", "source_topics": ["orders"]}]},
     "subtopologies[1].source_topics[0]: 'orders' is already a source topic of subtopology '0'"),
    ({"subtopologies": [{"id": "0", "source_topics": ["orders v2"]}]},
     "subtopologies[0].source_topics[0]: not a legal Kafka topic name, got 'orders v2'"),
    ({"subtopologies": [{"id": "0", "source_topics": ["orders"], "stateful": "yes"}]},
     "subtopologies[0].stateful: must be true or false, got 'yes'"),
    ({"subtopologies": "0"}, "subtopologies: must be a non-empty list, got '0'"),
    ({"num_standby_replicas": -1}, "num_standby_replicas: must be a whole number 0..10, got -1"),
    ({"num_standby_replicas": 1.5}, "num_standby_replicas: must be a whole number 0..10, got 1.5"),
    ({"current_assignment": {"a1": ["orders-0"]}}, "current_assignment: a streams group's members hold tasks"),
])
def test_refusals_name_the_field_and_the_value(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(streams_doc(**changes))
    assert str(caught.value).startswith(message), str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_member_with_no_process_and_a_later_step_missing_a_source_topic_are_refused() -> None:
    doc = streams_doc()
    doc["steps"][1]["members"][1] = {"id": "b1"}
    with pytest.raises(ScenarioError, match=r"^steps\[1\]\.members\[1\]\.process: a stream thread must name its "
                                            r"application instance, got None$"):
        parse_scenario(doc)
    doc = streams_doc()
    doc["steps"][1]["topics"] = {"orders": 8, "payments": 4}
    with pytest.raises(ScenarioError, match=r"'shipments' is not in steps\[1\]\.topics"):
        parse_scenario(doc)


def test_the_other_group_types_ignore_the_streams_fields() -> None:
    doc = streams_doc(group_type="consumer")
    for step in doc["steps"]:
        for member in step["members"]:
            member["topics"] = ["orders"]
    consumer = parse_scenario(doc)
    assert consumer.streams is None and all(m.process is None for m in consumer.first.members)
    assert not STREAMS_FIELDS & set(json.loads(dumps_scenario(consumer)))


CONSUMER_FILE = """{
  "name": "n",
  "description": "d",
  "topics": {
    "t0": 2
  },
  "members": [
    {
      "id": "C0",
      "topics": [
        "t0"
      ],
      "rack": null,
      "instance_id": null
    }
  ]
}"""


@pytest.mark.parametrize("key", [k for k in PRESETS if not k.startswith("streams-")])
def test_files_of_the_other_group_types_are_written_as_before(key: str) -> None:
    written = json.loads(dumps_scenario(build_preset(key)))
    members = [m for step in [written, *written.get("steps", [])] for m in step["members"]]
    assert not STREAMS_FIELDS & (set(written) | {k for m in members for k in m})
    assert dumps_scenario(loads_scenario(CONSUMER_FILE)) == CONSUMER_FILE


def test_the_streams_presets_are_the_advertised_apps() -> None:
    stateful, restart = build_preset("streams-stateful"), build_preset("streams-rolling-restart")
    for scenario in (stateful, restart):
        assert scenario.group_type == "streams" and scenario.topology.num_standby_replicas == 1
        assert loads_scenario(dumps_scenario(scenario)) == scenario
    assert stateful.topology.task_counts(stateful.first.topics) == {"0": 6, "1": 3}
    assert [s.stateful for s in stateful.topology.subtopologies] == [True, False]
    processes = [sorted({m.process for m in step.members}) for step in restart.steps]
    assert processes == [["app-1", "app-2", "app-3"], ["app-1", "app-3"], ["app-1", "app-2", "app-3"]]
    threads = [[m.id for m in step.members if m.process == "app-2"] for step in restart.steps]
    assert threads == [["app-2-t1", "app-2-t2"], [], ["app-2-t1-restarted", "app-2-t2-restarted"]]
