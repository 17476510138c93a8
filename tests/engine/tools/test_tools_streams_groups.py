"""kafka-streams-groups.sh --describe (StreamsGroupCommand, Kafka 4.2.0) -> a streams scenario whose step 0 is the
running group's next rebalance; the samples are built with the tool's own printf formats
(tests/support/streams_group_command.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.coordinator.streams.scenario import Change, streams_steps
from engine.errors import EngineError
from engine.scenario import StreamsSubtopology, dumps_scenario, loads_scenario, scenario_to_json
from engine.streams_scenario import ThreadTasks
from engine.tools.detect import parse_text
from engine.tools.records import PasteError
from engine.tools.streams_groups import parse_tasks
from engine.tools.to_scenario import to_scenario
from helpers import TESTS
from support.streams_group_command import Description, Thread, describe_members, describe_offsets

FIXTURES = TESTS / "fixtures" / "kafka_tools"
APP = "orders-enricher"
P1, P2 = "8d2f1c3e-5a7b-4e9f-b1c2-3d4e5f6a7b8c", "1f9e8d7c-6b5a-4c3d-a2e1-f0a9b8c7d6e5"


def client(process: str, thread: int) -> str:
    return f"{APP}-{process}-StreamThread-{thread}-consumer"  # Kafka Streams' default client id of a thread


ENRICHER = Description(APP, [
    Thread("J2x9QnVfRkOe4gYb7LmZ1w", P1, client(P1, 1), [("0", [0, 3]), ("1", [0])], [("0", [2])]),
    Thread("pT5cW8rHSM2aX0dK6uEjqA", P1, client(P1, 2), [("0", [1, 4])], [("0", [5])]),
    Thread("Zr4LmQ7xTnC0vB2yHs9dWg", P2, client(P2, 1), [("0", [2]), ("1", [1])], [("0", [0, 3])]),
    Thread("Vb6nK1pYQeS3wA8zJf5tXo", P2, client(P2, 2), [("0", [5]), ("1", [2])], [("0", [1, 4])]),
], offsets=[(t, p, 3 * p) for t, n in (("shipments", 3), ("orders", 6), ("payments", 6)) for p in range(n)])
CURRENT = {
    "J2x9QnVfRkOe4gYb7LmZ1w": ThreadTasks({"0": (0, 3), "1": (0,)}, {"0": (2,)}),
    "pT5cW8rHSM2aX0dK6uEjqA": ThreadTasks({"0": (1, 4)}, {"0": (5,)}),
    "Zr4LmQ7xTnC0vB2yHs9dWg": ThreadTasks({"0": (2,), "1": (1,)}, {"0": (0, 3)}),
    "Vb6nK1pYQeS3wA8zJf5tXo": ThreadTasks({"0": (5,), "1": (2,)}, {"0": (1, 4)}),
}


def test_the_fixture_is_the_tools_output() -> None:
    """--describe --members --verbose, then --describe --offsets, as a terminal shows them one after the other."""
    expected = describe_members(ENRICHER, verbose=True) + "\n" + describe_offsets(ENRICHER)
    assert (FIXTURES / "streams_group_42.txt").read_text() == expected


def test_the_assignments_cell_as_get_tasks_for_printing_writes_it() -> None:
    assert parse_tasks("ACTIVE: 0:[0,3]; 1:[0]; STANDBY: 0:[2]; TARGET-ACTIVE: 0:[0]; ", 4) == {
        "ACTIVE": {"0": (0, 3), "1": (0,)}, "STANDBY": {"0": (2,)}, "TARGET-ACTIVE": {"0": (0,)}}
    assert parse_tasks("", 4) == {}


@pytest.mark.parametrize("verbose", [False, True])
@pytest.mark.parametrize("offsets_verbose", [False, True])
def test_members_and_offsets_become_the_running_group(verbose: bool, offsets_verbose: bool) -> None:
    text = describe_members(ENRICHER, verbose) + "\n" + describe_offsets(ENRICHER, offsets_verbose)
    result = to_scenario(parse_text(text))
    scenario = result.scenario
    assert scenario.group_type == "streams" and scenario.name == f"{APP} (imported)"
    assert scenario.streams is not None
    assert scenario.streams.subtopologies == (StreamsSubtopology("0", ("orders", "payments"), True),
                                              StreamsSubtopology("1", ("shipments",), False))
    assert scenario.streams.num_standby_replicas == 1
    assert scenario.first.topics == {"orders": 6, "payments": 6, "shipments": 3}
    assert [(m.id, m.process) for m in scenario.first.members] == [(t.member_id, t.process_id)
                                                                   for t in ENRICHER.members]
    assert scenario.current_tasks == CURRENT
    assert result.streams is not None and result.group is None and result.weights_source == "none"
    assert [m.client_id for m in result.streams.members.values()] == [t.client_id for t in ENRICHER.members]
    notes = " | ".join(result.notes)
    assert "source topics matched by partition count" in notes and "0: `orders`, `payments`; 1: `shipments`" in notes
    assert "stateful is inferred" in notes and "stateful (0), the others stateless (1)" in notes
    assert "num.standby.replicas is inferred as 1" in notes
    assert "placeholder" not in notes
    unused = {u.text: u.reason for u in result.unused}
    lag = "CURRENT-OFFSET LEADER-EPOCH LOG-END-OFFSET OFFSET-LAG" if offsets_verbose else "OFFSET-LAG"
    assert "lag are not part" in unused[lag]
    if verbose:
        assert "member protocol" in unused["TARGET-ASSIGNMENT-EPOCH TOPOLOGY-EPOCH MEMBER-PROTOCOL MEMBER-EPOCH"]
    assert result.report()["group"]["protocol"] == "streams"
    assert loads_scenario(dumps_scenario(scenario)) == scenario


def test_without_the_offsets_view_each_subtopology_reads_a_placeholder_named_for_it() -> None:
    result = to_scenario(parse_text(describe_members(ENRICHER)))
    streams = result.scenario.streams
    assert streams is not None
    assert [(s.id, s.source_topics) for s in streams.subtopologies] == [("0", ("subtopology-0",)),
                                                                        ("1", ("subtopology-1",))]
    assert result.scenario.first.topics == {"subtopology-0": 6, "subtopology-1": 3}
    placeholder = [n for n in result.notes if "placeholder" in n]
    assert placeholder == ["kafka-streams-groups.sh does not print which topics a subtopology reads: 2 "
                           "subtopology(ies) read a placeholder topic named for it, with as many partitions as its "
                           "tasks (0: subtopology-0 (6); 1: subtopology-1 (3)); rename them in the builder"]
    assert any("--describe --offsets of the group too" in n for n in result.notes)
    assert result.scenario.current_tasks == CURRENT


def test_topics_are_matched_only_where_the_task_counts_tell() -> None:
    """Kafka's own DescribeStreamsGroupTest group: a word count whose two subtopologies (the input topic, then the
    aggregation's repartition topic) both have 2 tasks: which reads which cannot be told."""
    group = "streams-group-command-test"
    repartition = f"{group}-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition"
    d = Description(group, [
        Thread("AOuqYi2uTOeW8zGpXK3kBQ", "0c8e3d1a-2b4f-4a6c-9d7e-5f1a2b3c4d5e", "c1", [("0", [1]), ("1", [1])]),
        Thread("Hb0Y8cC5SeyK1jv3iMq9dA", "0c8e3d1a-2b4f-4a6c-9d7e-5f1a2b3c4d5e", "c2", [("0", [0]), ("1", [0])]),
    ], offsets=[(t, p, 0) for t in ("customInputTopic", repartition) for p in (0, 1)])
    result = to_scenario(parse_text(describe_members(d, True) + describe_offsets(d)))
    assert result.scenario.first.topics == {"subtopology-0": 2, "subtopology-1": 2}
    assert any("placeholder" in n for n in result.notes)
    assert any(u.text == f"customInputTopic, {repartition}" and "cannot be told" in u.reason for u in result.unused)
    assert "stateful (none), the others stateless (0, 1)" in " ".join(result.notes)


def test_a_reconciling_group_starts_from_its_current_tasks() -> None:
    moving = Description(APP, [
        Thread("m1", P1, "c1", [("0", [0, 1])], target_active=[("0", [0])]),
        Thread("m2", P2, "c2", [], target_active=[("0", [1])]),
    ])
    result = to_scenario(parse_text(describe_members(moving, True)))
    assert result.scenario.current_tasks == {"m1": ThreadTasks({"0": (0, 1)}, {})}
    assert any(n.startswith("2 stream thread(s) have target tasks different") for n in result.notes)


def test_step_0_keeps_each_task_on_its_current_thread() -> None:
    scenario = to_scenario(parse_text(describe_members(ENRICHER) + describe_offsets(ENRICHER))).scenario
    step = streams_steps(scenario)[0]
    answer = {(s, p): m for m, tasks in step.result.members.items() for s, ps in tasks.active.items() for p in ps}
    now = {(s, p): m for m, tasks in CURRENT.items() for s, ps in tasks.active.items() for p in ps}
    assert answer == now  # Kafka's assignor, given them as the previous assignment, keeps every one
    assert step.count(Change.KEPT) == 9 and "its previous owner" in step.tasks[0].explanation
    fresh = streams_steps(replace(scenario, current_tasks={}))[0]
    fresh_answer = {(s, p): m for m, tasks in fresh.result.members.items()
                    for s, ps in tasks.active.items() for p in ps}
    assert fresh_answer != now and fresh.count(Change.NEW) == 9  # a new group would be laid out otherwise


def test_a_task_active_on_two_threads_is_not_used_and_said() -> None:
    twice = Description(APP, [Thread("m1", P1, "c1", [("0", [0, 1])]), Thread("m2", P2, "c2", [("0", [1])])])
    result = to_scenario(parse_text(describe_members(twice)))
    assert result.scenario.current_tasks == {}
    assert any("task 0_1 is already active on 'm1'" in n and "forms the group anew" in n for n in result.notes)
    assert "current_tasks" not in scenario_to_json(result.scenario)


@pytest.mark.parametrize("text,message", [
    (describe_members(ENRICHER) + "\n" + describe_members(Description("billing-app", ENRICHER.members[:1])),
     "2 streams groups in the input ('billing-app', 'orders-enricher'): paste one group's kafka-streams-groups.sh "
     "output at a time"),
    (describe_members(ENRICHER) + "\n" + (FIXTURES / "cg_members_verbose_4x.txt").read_text(),
     "the input holds streams group 'orders-enricher' and consumer group(s) "),
    (describe_members(Description(APP, [])), "streams group 'orders-enricher' has no active members"),
    (describe_offsets(ENRICHER), "streams group 'orders-enricher' has no active members"),
    (describe_members(Description(APP, [Thread("m1", P1, "c1")])),
     "streams group 'orders-enricher': no thread lists a task"),
])
def test_what_cannot_become_one_streams_scenario_is_refused(text: str, message: str) -> None:
    with pytest.raises(EngineError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        to_scenario(parse_text(text))


@pytest.mark.parametrize("text,message", [
    (describe_members(ENRICHER).replace("ACTIVE: 0:[0,3];", "ACTIVE: 0:[0;3];"),
     "line 2: cannot read the tasks 'ACTIVE: 0:[0;3]; 1:[0]; STANDBY: 0:[2];' at '0:[0;3];'"),
    (describe_members(ENRICHER).replace("ACTIVE: 0:[0,3];", "0:[0,3];"), "line 2: cannot read the tasks"),
    (describe_members(ENRICHER) + f"{APP} J2x9QnVfRkOe4gYb7LmZ1w {P1} c9 ACTIVE: 0:[1];\n",
     "line 6: member 'J2x9QnVfRkOe4gYb7LmZ1w' of streams group 'orders-enricher' is listed twice"),
    (describe_offsets(ENRICHER).replace("orders          0", "orders          x"), "line "),
    ("GROUP MEMBER PROCESS CLIENT-ID ASSIGNMENTS\nhello\n", "line 2: expected 5 columns"),
    ("streams are fun\n", "line 1: nothing recognised; paste the output of kafka-consumer-groups.sh"),
])
def test_garbage_is_refused_with_its_line(text: str, message: str) -> None:
    with pytest.raises(PasteError, match="^" + message.replace("(", r"\(").replace("[", r"\[")):
        parse_text(text)


def test_the_tools_message_is_recognised() -> None:
    data = parse_text("\nError: Streams group 'orders-enricher' has no active members.\n")
    assert data.streams[APP].state == "Empty" and not data.streams[APP].members
    assert data.sources == ["kafka-streams-groups.sh messages: line 2 (1 line)"]


def test_the_other_tools_output_is_listed_as_not_used() -> None:
    text = (TESTS / "fixtures" / "kafka_tools" / "topics_4x.txt").read_text() + "\n" + describe_members(ENRICHER)
    result = to_scenario(parse_text(text))
    assert result.scenario.group_type == "streams"
    assert any(u.text.endswith("broker(s) from the other tools") and "--describe --offsets" in u.reason
               for u in result.unused)
