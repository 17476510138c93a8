"""Share groups' SimpleAssignor against ../shared/vectors/share_assign.json (real Kafka output), in process.

Assignments are compared as sets per member, as the conformance tool does (Kafka's own lists are HashSet order).
"""

from __future__ import annotations

import copy

import pytest

from engine.coordinator.share_assignment import cli_share_assign, share_assign
from engine.coordinator.simple import desired_counts
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
    """Dropping current_assignment and subscription_type: chaining must rebuild them (in Kafka's order, which
    decides what an overfilled member gives up next)."""
    failures = []
    for case in cases:
        data = copy.deepcopy({k: v for k, v in case.items() if k != "expected"})
        for step in data["steps"]:
            step.pop("subscription_type")
            for member in step["members"]:
                member.pop("current_assignment")
        if _differs(case, cli_share_assign(data)):
            failures.append(case["name"])
    assert not failures, f"{len(failures)} chained cases differ, first: {failures[:5]}"


def test_answers_in_kafkas_order_are_the_next_steps_current_assignments(cases: list[dict]) -> None:
    """Each step's ``current_assignment`` lists are Kafka's previous answers in Kafka's own order (its working
    copy's HashMap/HashSet iteration order): the engine's ``kafka_order`` reproduces them element by element."""
    compared = 0
    for case in cases:
        steps = share_assign({k: v for k, v in case.items() if k != "expected"}).steps
        for before, step in zip(steps, case["steps"][1:]):
            for member in step["members"]:
                if member["id"] in before.kafka_order:
                    assert [str(tp) for tp in before.kafka_order[member["id"]]] == member["current_assignment"]
                    compared += 1
    assert compared > 10_000


def test_vectors_share_partitions_and_leave_none_unread(cases: list[dict]) -> None:
    """The vectors hold shared partitions (more members than partitions), and every partition of a subscribed
    topic has a member: the fill step gives each one at least one while members still want more."""
    shared = unread = 0
    for case in cases:
        for step, exp in zip(case["steps"], case["expected"]):
            held = [tp for tps in exp["assignment"].values() for tp in tps]
            shared += len(held) != len(set(held))
            every = {f"{t}-{p}" for t, n in step["topics"].items() for p in range(n)
                     if any(t in m["topics"] for m in step["members"])}
            unread += len(every - set(held))
    assert shared > 0 and unread == 0


def test_vectors_are_kafkas_balanced_assignor(cases: list[dict]) -> None:
    """Homogeneous steps with at least as many partitions as members: every partition has exactly one member,
    and member sizes differ by at most one unless the doubles ask for one partition too many."""
    checked = 0
    for case in cases:
        for step, exp in zip(case["steps"], case["expected"]):
            members = len(step["members"])
            partitions = sum(n for t, n in step["topics"].items() if t in step["members"][0]["topics"])
            if step["subscription_type"] != "HOMOGENEOUS" or partitions < members:
                continue
            held = [tp for tps in exp["assignment"].values() for tp in tps]
            sizes = [len(tps) for tps in exp["assignment"].values()]
            assert len(held) == len(set(held)) == partitions, case["name"]
            assert max(sizes) - min(sizes) <= 1 or sum(desired_counts(members, partitions)) > partitions
            checked += 1
    assert checked > 50
