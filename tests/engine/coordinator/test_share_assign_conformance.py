"""Share groups' SimpleAssignor against ../shared/vectors/share_assign.json (real Kafka output), in process.

Assignments are compared as sets per member, as the conformance tool does (Kafka's own lists are HashSet order).
"""

from __future__ import annotations

import copy

import pytest

from engine.coordinator.share_assignment import cli_share_assign
from helpers import load_vectors


@pytest.fixture(scope="module")
def cases() -> list[dict]:
    return load_vectors("share_assign.json")["cases"]


def _as_sets(assignment: dict[str, list[str]]) -> dict[str, set[str]]:
    return {m: set(tps) for m, tps in assignment.items()}


def _differs(case: dict, answer: dict) -> bool:
    got = answer["steps"]
    return len(got) != len(case["expected"]) or any(
        _as_sets(e["assignment"]) != _as_sets(g["assignment"]) for e, g in zip(case["expected"], got))


def test_every_case_matches_kafka(cases: list[dict]) -> None:
    failures = [c["name"] for c in cases if _differs(c, cli_share_assign({k: v for k, v in c.items()
                                                                          if k != "expected"}))]
    assert len(cases) == 150
    assert not failures, f"{len(failures)} cases differ, first: {failures[:5]}"


def test_chaining_without_current_assignment_or_type_reproduces_kafka(cases: list[dict]) -> None:
    """Dropping current_assignment and subscription_type: chaining must rebuild them."""
    failures = []
    for case in cases[:60]:
        data = copy.deepcopy({k: v for k, v in case.items() if k != "expected"})
        for step in data["steps"]:
            step.pop("subscription_type")
            for member in step["members"]:
                member.pop("current_assignment")
        if _differs(case, cli_share_assign(data)):
            failures.append(case["name"])
    assert not failures, f"{len(failures)} chained cases differ, first: {failures[:5]}"


def test_vectors_exercise_shared_and_orphaned_partitions(cases: list[dict]) -> None:
    """The vectors hold both behaviours the dashboard explains: shared partitions and partitions left with none."""
    shared = orphaned = 0
    for case in cases:
        for step, exp in zip(case["steps"], case["expected"]):
            held = [tp for tps in exp["assignment"].values() for tp in tps]
            shared += len(held) != len(set(held))
            every = {f"{t}-{p}" for t, n in step["topics"].items() for p in range(n)
                     if any(t in m["topics"] for m in step["members"])}
            orphaned += len(every - set(held))
    assert shared > 0 and orphaned > 0
