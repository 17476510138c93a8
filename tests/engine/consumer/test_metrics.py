"""Balance metrics: the docstring example, weights, racks, and the moved count matches the engine."""

from __future__ import annotations

import pytest

from engine.consumer.assignment import moves, revoked_count
from engine.consumer.group import replay
from engine.consumer.metrics import (
    balance_metrics,
    cross_rack_count,
    load_per_member,
    max_over_mean,
)
from engine.scenario import GroupState, Member, Scenario, TopicPartition, parse_scenario
from helpers import load_vectors


def tps(topic: str, *parts: int) -> list[TopicPartition]:
    return [TopicPartition(topic, p) for p in parts]


def seed_a_state() -> GroupState:
    return GroupState({"t0": 10}, tuple(Member(f"C{i}", ("t0",)) for i in range(3)))


def test_docstring_example() -> None:
    a = {"C0": tps("t0", 0, 1, 2, 3), "C1": tps("t0", 4, 5, 6), "C2": tps("t0", 7, 8, 9)}
    m = balance_metrics(a, seed_a_state())
    assert (m.min_partitions, m.max_partitions, m.spread, m.idle_members) == (3, 4, 1, ())
    assert m.load_per_member is None and m.cross_rack_share is None


def test_idle_members_include_members_missing_from_the_assignment() -> None:
    state = GroupState({"t0": 1}, (Member("A", ("t0",)), Member("B", ("t0",))))
    m = balance_metrics({"A": tps("t0", 0)}, state)
    assert m.idle_members == ("B",) and m.min_partitions == 0 and m.spread == 1


def test_weighted_load() -> None:
    weights = {"t0": (10.0, 1.0, 1.0, 1.0)}
    a = {"A": tps("t0", 0, 1), "B": tps("t0", 2, 3)}
    assert load_per_member(a, weights) == {"A": 11.0, "B": 2.0}
    assert max_over_mean({"A": 11.0, "B": 2.0}) == pytest.approx(11 / 6.5)
    assert max_over_mean({"A": 0.0}) is None


def test_cross_rack_share() -> None:
    state = GroupState({"t0": 2}, (Member("A", ("t0",), "r1"), Member("B", ("t0",), None)),
                       {"t0": (("r1",), ("r2",))})
    assert cross_rack_count({"A": tps("t0", 0, 1)}, state) == (1, 2)
    m = balance_metrics({"A": tps("t0", 1), "B": tps("t0", 0)}, state)
    assert (m.cross_rack_partitions, m.cross_rack_share) == (1, 1.0)  # B has no rack: not counted


def test_eager_revocation_counts_remaining_members_only() -> None:
    before = {"A": tps("t0", 0), "B": tps("t0", 1, 2)}
    assert revoked_count(before, {"A": []}) == 1


def test_moves_match_the_engine_on_every_seed_case() -> None:
    cases = [c for c in load_vectors("assign.json")["cases"] if c["name"].startswith("seed-")]
    assert cases
    for case in cases:
        scenario = parse_scenario({"steps": case["steps"]})
        result = replay(scenario, case["strategy"])
        for prev, cur, expected in zip(result.steps, result.steps[1:], case["expected"][1:], strict=False):
            assert len(moves(prev.assignment, cur.assignment)) == cur.moved == expected["moved"], case["name"]


def test_seed_a_metrics_match_the_vector() -> None:
    case = next(c for c in load_vectors("assign.json")["cases"] if c["name"] == "seed-a-range")
    expected = {m: len(v) for m, v in case["expected"][0]["assignment"].items()}
    scenario = parse_scenario({"steps": case["steps"]})
    m = balance_metrics(replay(scenario, "range").steps[0].assignment, scenario.first)
    assert m.partitions_per_member == expected == {"C0": 4, "C1": 3, "C2": 3}
    assert isinstance(scenario, Scenario)
