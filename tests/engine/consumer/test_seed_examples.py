"""The seed articles' examples as real Kafka answers them, including where the articles are wrong
(../shared/vectors/README.md, "The seed articles vs real Kafka"), and every assignor docstring's
worked example asserted exactly."""

from __future__ import annotations

from engine.consumer.group import Assignment, replay
from engine.consumer.invariants import violations
from engine.scenario import Scenario, parse_scenario


def group(topics: dict[str, int], members: dict[str, list[str]], *later: dict[str, list[str]]) -> Scenario:
    steps = [members, *later]
    return parse_scenario({"steps": [
        {"topics": topics, "members": [{"id": m, "topics": ts} for m, ts in step.items()]} for step in steps
    ]})


def text(assignment: Assignment) -> dict[str, list[str]]:
    return {m: [str(tp) for tp in tps] for m, tps in assignment.items()}


def sets(assignment: Assignment) -> dict[str, set[str]]:
    return {m: {str(tp) for tp in tps} for m, tps in assignment.items()}


def check_invariants(scenario: Scenario, strategy: str) -> None:
    result = replay(scenario, strategy)
    for state, step in zip(scenario.steps, result.steps):
        assert violations(state, step.assignment) == []


ALL4 = ["t0", "t1", "t2", "t3"]


def test_article_004_range_4_partitions_is_not_interleaved() -> None:
    """The article shows round-robin's interleaving; Kafka's range splits each topic alone."""
    scenario = group({"t0": 4, "t1": 4}, {"C0": ["t0", "t1"], "C1": ["t0", "t1"]})
    got = text(replay(scenario, "range").steps[0].assignment)
    assert got == {"C0": ["t0-0", "t0-1", "t1-0", "t1-1"], "C1": ["t0-2", "t0-3", "t1-2", "t1-3"]}
    article = {"C0": ["t0-0", "t0-2", "t1-0", "t1-2"], "C1": ["t0-1", "t0-3", "t1-1", "t1-3"]}
    assert text(replay(scenario, "roundrobin").steps[0].assignment) == article
    check_invariants(scenario, "range")


def test_article_004_range_3_partitions_gives_c0_both_extras() -> None:
    scenario = group({"t0": 3, "t1": 3}, {"C0": ["t0", "t1"], "C1": ["t0", "t1"]})
    got = text(replay(scenario, "range").steps[0].assignment)
    assert got == {"C0": ["t0-0", "t0-1", "t1-0", "t1-1"], "C1": ["t0-2", "t1-2"]}
    check_invariants(scenario, "range")


def test_article_range_10_partitions_3_consumers() -> None:
    scenario = group({"t0": 10}, {"C0": ["t0"], "C1": ["t0"], "C2": ["t0"]})
    got = text(replay(scenario, "range").steps[0].assignment)
    assert got == {
        "C0": ["t0-0", "t0-1", "t0-2", "t0-3"], "C1": ["t0-4", "t0-5", "t0-6"], "C2": ["t0-7", "t0-8", "t0-9"]
    }


def test_sticky_after_c1_leaves_kafka_not_the_article() -> None:
    """Articles 002/004 show the pre-2.8 result; since KAFKA-9987 the freed partitions go
    round-robin to under-quota members sorted by id (the sticky module docstring's example)."""
    full = {m: ALL4 for m in ("C0", "C1", "C2")}
    scenario = group(dict.fromkeys(ALL4, 2), full, {"C0": ALL4, "C2": ALL4})
    result = replay(scenario, "sticky")
    assert text(result.steps[0].assignment) == {
        "C0": ["t0-0", "t1-1", "t3-0"], "C1": ["t0-1", "t2-0", "t3-1"], "C2": ["t1-0", "t2-1"]}
    assert sets(result.steps[1].assignment) == {
        "C0": {"t0-0", "t3-0", "t1-1", "t0-1"}, "C2": {"t1-0", "t2-1", "t2-0", "t3-1"}}
    article = {"C0": {"t0-0", "t1-1", "t3-0", "t2-0"}, "C2": {"t1-0", "t2-1", "t0-1", "t3-1"}}
    assert sets(result.steps[1].assignment) != article
    assert (result.steps[1].moved, result.steps[1].moved_from_remaining) == (3, 0)  # group module docstring
    check_invariants(scenario, "sticky")


def test_roundrobin_after_c1_leaves_has_no_duplicate() -> None:
    full = {m: ALL4 for m in ("C0", "C1", "C2")}
    scenario = group(dict.fromkeys(ALL4, 2), full, {"C0": ALL4, "C2": ALL4})
    got = text(replay(scenario, "roundrobin").steps[1].assignment)
    assert got == {"C0": ["t0-0", "t1-0", "t2-0", "t3-0"], "C2": ["t0-1", "t1-1", "t2-1", "t3-1"]}


def test_roundrobin_heterogeneous_after_c0_leaves() -> None:
    scenario = group({"t0": 1, "t1": 2, "t2": 3},
                     {"C0": ["t0"], "C1": ["t0", "t1"], "C2": ["t0", "t1", "t2"]},
                     {"C1": ["t0", "t1"], "C2": ["t0", "t1", "t2"]})
    got = text(replay(scenario, "roundrobin").steps[1].assignment)
    assert got == {"C1": ["t0-0", "t1-1"], "C2": ["t1-0", "t2-0", "t2-1", "t2-2"]}
    check_invariants(scenario, "roundrobin")


def test_roundrobin_docstring_example() -> None:
    scenario = group({"t0": 3, "t1": 3}, {"C0": ["t0", "t1"], "C1": ["t0", "t1"]})
    got = text(replay(scenario, "roundrobin").steps[0].assignment)
    assert got == {"C0": ["t0-0", "t0-2", "t1-1"], "C1": ["t0-1", "t1-0", "t1-2"]}


def test_cooperative_docstring_example_withholds_then_hands_over() -> None:
    scenario = group({"t0": 4}, {"C0": ["t0"]}, {"C0": ["t0"], "C1": ["t0"]})
    step = replay(scenario, "cooperative-sticky").steps[1]
    assert step.first_round_assignment is not None and step.revoked_first_round is not None
    assert text(step.first_round_assignment) == {"C0": ["t0-0", "t0-1"], "C1": []}
    assert text(step.revoked_first_round) == {"C0": ["t0-2", "t0-3"], "C1": []}
    assert sets(step.assignment) == {"C0": {"t0-0", "t0-1"}, "C1": {"t0-2", "t0-3"}}
    assert step.rounds == 2 and step.converged
    assert (step.moved, step.moved_from_remaining) == (2, 2)
    check_invariants(scenario, "cooperative-sticky")


def test_eager_strategies_report_one_round() -> None:
    scenario = group({"t0": 4}, {"C0": ["t0"]}, {"C0": ["t0"], "C1": ["t0"]})
    for strategy in ("range", "roundrobin", "sticky"):
        step = replay(scenario, strategy).steps[1]
        assert step.rounds == 1 and step.first_round_assignment is None
