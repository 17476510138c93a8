"""The one assignment shape: owners, moves, revocations, the JSON edge (engine/consumer/assignment.py)."""

from __future__ import annotations

import pytest

from engine.consumer.assignment import (
    assignment_from_json,
    assignment_to_json,
    count_moves,
    merged,
    moves,
    owners,
    records,
    revoked,
    revoked_count,
)
from engine.consumer.group import replay, revocations
from engine.errors import ScenarioError
from engine.scenario import TopicPartition as TP
from engine.scenario import parse_scenario
from helpers import load_vectors


def test_docstring_example() -> None:
    before = {"C0": [TP("t0", 0)], "C1": [TP("t0", 1), TP("t0", 2)], "C2": [TP("t0", 3)]}
    after = {"C0": [TP("t0", 1)], "C2": [TP("t0", 3), TP("t0", 2), TP("t0", 0)]}
    assert count_moves(before, after) == (3, 1)
    assert revoked_count(before, {"C0": [], "C2": []}) == 2
    assert revoked_count(before, after) == 1
    assert revoked(before, after) == {"C0": [TP("t0", 0)], "C2": []}
    assert [(m.tp, m.before, m.after) for m in moves(before, after)] == [
        (TP("t0", 1), "C1", "C0"), (TP("t0", 2), "C1", "C2"), (TP("t0", 0), "C0", "C2")]


def test_first_step_moves_nothing_and_owners_is_the_inverse() -> None:
    a = {"A": [TP("t", 0)], "B": [TP("t", 1)]}
    assert count_moves(None, a) == (0, 0)
    assert owners(a) == {TP("t", 0): "A", TP("t", 1): "B"}


def test_json_edge_round_trips_and_names_bad_partitions() -> None:
    a = {"A": [TP("orders-eu", 12)], "B": []}
    assert assignment_to_json(a) == {"A": ["orders-eu-12"], "B": []}
    assert assignment_from_json(assignment_to_json(a)) == a
    assert assignment_to_json(None) is None
    with pytest.raises(ScenarioError, match="'t0'"):
        assignment_from_json({"A": ["t0"]})


def test_merged_and_records() -> None:
    assert merged({"A": [TP("t", 0)]}, None, {"A": [TP("t", 1)], "B": []}) == {"A": [TP("t", 0), TP("t", 1)],
                                                                                  "B": []}
    assert records({"A": [TP("t", 2)]}, strategy="range") == [
        {"strategy": "range", "member": "A", "topic": "t", "partition": 2}]


def test_counts_equal_the_vectors_and_revocations_follow_the_protocol() -> None:
    """``count_moves`` is the vectors' moved count; eager revokes what remaining members owned."""
    case = next(c for c in load_vectors("assign.json")["cases"] if c["name"] == "seed-d-sticky")
    steps = replay(parse_scenario({"steps": case["steps"]}), "sticky").steps
    assert count_moves(steps[0].assignment, steps[1].assignment) == (
        case["expected"][1]["moved"], case["expected"][1]["moved_from_remaining"])
    eager = revocations(steps[0].assignment, steps[1])
    assert sum(map(len, eager.values())) == sum(len(steps[0].assignment[m]) for m in steps[1].assignment)
    coop = replay(parse_scenario({"steps": case["steps"]}), "cooperative-sticky").steps
    assert revocations(coop[0].assignment, coop[1]) == merged(coop[1].revoked_before_join,
                                                              coop[1].revoked_first_round)
