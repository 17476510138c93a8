"""Every case of ../shared/vectors/assign.json (real Kafka 4.0 client code) through the engine."""

from __future__ import annotations

from typing import Any

import pytest

from engine.consumer.group import cli_assign
from engine.consumer.invariants import violations
from engine.scenario import TopicPartition, parse_scenario
from helpers import load_vectors

pytestmark = pytest.mark.conformance
CASES: list[dict[str, Any]] = load_vectors("assign.json")["cases"]


def as_sets(assignment: dict[str, list[str]] | None) -> dict[str, list[str]]:
    return {m: sorted(tps) for m, tps in (assignment or {}).items()}


def non_empty(assignment: dict[str, list[str]] | None) -> dict[str, list[str]]:
    return {m: v for m, v in as_sets(assignment).items() if v}


def _check_step(case: dict[str, Any], i: int, expected: dict[str, Any], got: dict[str, Any]) -> None:
    where = f"{case['name']} step {i}"
    assert as_sets(got["assignment"]) == as_sets(expected["assignment"]), where
    assert (got["moved"], got["moved_from_remaining"]) == (expected["moved"], expected["moved_from_remaining"]), where
    assert (got["generation"], got["leader"]) == (expected["generation"], expected["leader"]), where
    if case["strategy"] == "cooperative-sticky":
        assert as_sets(got["first_round_assignment"]) == as_sets(expected["first_round_assignment"]), where
        for key in ("revoked_before_join", "revoked_first_round"):
            assert non_empty(got[key]) == non_empty(expected[key]), f"{where}: {key}"
        assert got["rounds"] == expected["rounds"], where


def _check_invariants(case: dict[str, Any], result: dict[str, Any]) -> None:
    scenario = parse_scenario(case)
    for i, (state, step) in enumerate(zip(scenario.steps, result["steps"])):
        assignment = {m: [TopicPartition.parse(t) for t in tps] for m, tps in step["assignment"].items()}
        problems = violations(state, assignment)
        # Kafka's known quirk: allSubscriptionsEqual with an empty, hash-first subscription
        quirk = all("does not subscribe" in p for p in problems) and any(not m.topics for m in state.members)
        assert not problems or quirk, f"{case['name']} step {i}: {problems[:3]}"


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_case_matches_kafka(case: dict[str, Any]) -> None:
    result = cli_assign({k: v for k, v in case.items() if k != "expected"})
    assert len(result["steps"]) == len(case["expected"])
    for i, (expected, got) in enumerate(zip(case["expected"], result["steps"])):
        _check_step(case, i, expected, got)
    _check_invariants(case, result)


@pytest.mark.parametrize("strategy", ["range", "roundrobin", "cooperative-sticky"])
def test_member_lists_in_kafkas_exact_order(strategy: str) -> None:
    """Beyond sets: the lists come out in the order Kafka's assignor returned them (HashMap
    order of topics for range, first-round order for cooperative)."""
    for case in (c for c in CASES if c["strategy"] == strategy):
        result = cli_assign({k: v for k, v in case.items() if k != "expected"})
        for i, (expected, got) in enumerate(zip(case["expected"], result["steps"])):
            assert got["assignment"] == expected["assignment"], f"{case['name']} step {i}"


def test_empty_subscription_quirk_is_reproduced() -> None:
    """Kafka's allSubscriptionsEqual bug: the hash-first member 'A' subscribes to nothing yet gets
    partitions (see ../shared/vectors/README.md, Surprises 1)."""
    case = next(c for c in CASES if c["name"] == "edge-empty-subscription-iterated-first-sticky")
    got = cli_assign(case)["steps"][0]["assignment"]
    assert sorted(got["A"]) == sorted(case["expected"][0]["assignment"]["A"]) and got["A"]
