"""A streams scenario's ``current_tasks`` (``engine.streams_scenario``): what step 0's threads run now, checked
against the topology, written to files and links for streams groups only."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.errors import ScenarioError
from engine.scenario import dumps_scenario, loads_scenario, parse_scenario, scenario_to_json
from engine.streams_scenario import ThreadTasks
from ui.frame.state import decode_scenario, encode_scenario

NOW = {"a1": {"active": {"0": [3, 0], "1": [1]}, "standby": {"0": [1]}},
       "b1": {"active": {"0": [1, 2]}, "standby": {"0": [0, 3]}},
       "a2": {"active": {"1": [0]}}}


def doc(**changes: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "group_type": "streams", "num_standby_replicas": 1,
        "subtopologies": [{"id": "0", "source_topics": ["orders"], "stateful": True},
                          {"id": "1", "source_topics": ["shipments"]}],
        "topics": {"orders": 4, "shipments": 2},
        "members": [{"id": "a1", "process": "app-a"}, {"id": "a2", "process": "app-a"},
                    {"id": "b1", "process": "app-b"}],
        "current_tasks": NOW}
    out.update(changes)
    return out


def test_current_tasks_are_read_sorted_and_round_trip_through_file_and_link() -> None:
    scenario = parse_scenario(doc())
    assert scenario.current_tasks == {
        "a1": ThreadTasks({"0": (0, 3), "1": (1,)}, {"0": (1,)}),
        "b1": ThreadTasks({"0": (1, 2)}, {"0": (0, 3)}),
        "a2": ThreadTasks({"1": (0,)}, {})}
    saved = dumps_scenario(scenario)
    assert json.loads(saved)["current_tasks"]["a2"] == {"active": {"1": [0]}, "standby": {}}
    assert loads_scenario(saved) == scenario and dumps_scenario(loads_scenario(saved)) == saved
    assert decode_scenario(encode_scenario(scenario)) == scenario


def test_only_streams_groups_read_or_write_them() -> None:
    consumer = parse_scenario({"topics": {"orders": 4}, "members": [{"id": "a1", "topics": ["orders"]}],
                               "current_tasks": {"a1": "anything"}})
    assert consumer.current_tasks == {} and "current_tasks" not in scenario_to_json(consumer)
    assert "current_tasks" not in scenario_to_json(parse_scenario(doc(current_tasks=None)))
    assert "current_tasks" not in scenario_to_json(parse_scenario(doc(current_tasks={"a1": {}})))


@pytest.mark.parametrize("tasks,message", [
    ({"z9": {"active": {"0": [0]}}}, "current_tasks['z9']: not a member of the first step"),
    ({"a1": {"active": {"7": [0]}}}, "current_tasks['a1'].active['7']: not a subtopology of the topology (0, 1)"),
    ({"a1": {"standby": {"1": [2]}}},
     "current_tasks['a1'].standby['1'][0]: must be a partition 0..1 (the subtopology has 2 task(s)), got 2"),
    ({"a1": {"active": {"0": [0]}}, "b1": {"active": {"0": [0]}}},
     "current_tasks['b1'].active['0'][0]: task 0_0 is already active on 'a1'"),
    ({"a1": {"active": {"0": [0]}, "standby": {"0": [0]}}},
     "current_tasks['a1'].standby['0'][0]: 'a1' already holds task 0_0"),
    ({"a1": {"active": {"0": [1, 1]}}}, "current_tasks['a1'].active['0'][1]: 'a1' already holds task 0_1"),
    ({"a1": {"active": [0]}}, "current_tasks['a1'].active: must map subtopology ids to partitions, got [0]"),
    ({"a1": {"warmup": {}}}, "current_tasks['a1']: must map active and standby to tasks by subtopology"),
    ({"a1": {"active": {"0": "0"}}}, "current_tasks['a1'].active['0']: must be a list of partitions, got '0'"),
    ({"a1": {"active": {"0": [True]}}}, "current_tasks['a1'].active['0'][0]: must be a partition 0..3"),
    (["a1"], "current_tasks: must map member ids to their tasks, got ['a1']"),
])
def test_current_tasks_that_cannot_be_are_refused(tasks: Any, message: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(doc(current_tasks=tasks))
    assert str(caught.value).startswith(message)
