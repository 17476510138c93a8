"""Streams groups' StickyTaskAssignor against ../shared/vectors/streams_assign.json (Kafka 4.2.0's own classes).

Every case is one assignor call with its whole input (each sequence's previous assignment is Kafka's answer to the
step before, written into the case), so the vectors do not chain from case to case; chaining is checked here by
running the port on its own answers.  Assignments are compared per member as sets, as the conformance tool does.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from engine.cli import write_result
from engine.coordinator.streams.case import parse_case
from engine.coordinator.streams.cli import cli_streams_assign
from engine.coordinator.streams.sticky_task_assignor import assign
from engine.cost.streams import estimate_streams_assignment
from helpers import load_vectors

# The cases KAFKA-20899 (4.2 branch after 4.2.1) answers differently, found by running its StickyTaskAssignor on
# the vectors: a previous standby owner after the first one may take the replica there.
CHANGED_BY_KAFKA_20899 = ("sticky-partitions-change-021", "sticky-member-joins-041", "hash-collisions-02",
                          "edge-previous-warmups-1", "edge-previous-active-and-standby", "medium-08")


@pytest.fixture(scope="module")
def cases() -> list[dict[str, Any]]:
    return load_vectors("streams_assign.json")["cases"]


def _view(answer: dict[str, Any]) -> Any:
    if "error" in answer:
        return answer
    return {member: {kind: {s: sorted(set(ps)) for s, ps in tasks.get(kind, {}).items() if ps}
                     for kind in ("active", "standby", "warmup")}
            for member, tasks in answer["assignment"].items()}


def _input(case: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in case.items() if k != "expected"}


def test_every_case_matches_kafka(cases: list[dict[str, Any]]) -> None:
    failures = [c["name"] for c in cases if _view(cli_streams_assign(_input(c))) != _view(c["expected"])]
    assert len(cases) == 120
    assert not failures, f"{len(failures)} cases differ, first: {failures[:5]}"


def test_the_cases_a_later_fix_changes_keep_the_released_answer(cases: list[dict[str, Any]]) -> None:
    by_name = {c["name"]: c for c in cases}
    for name in CHANGED_BY_KAFKA_20899:
        assert _view(cli_streams_assign(_input(by_name[name]))) == _view(by_name[name]["expected"]), name


def test_the_batch_on_the_command_line_answers_every_case(cases: list[dict[str, Any]]) -> None:
    out: list[str] = []
    write_result("streams-assign", [_input(c) for c in cases], out.append)
    answers = json.loads("".join(out))
    assert [_view(a) for a in answers] == [_view(c["expected"]) for c in cases]


def test_chained_rebalances_keep_every_invariant(cases: list[dict[str, Any]]) -> None:
    """Each case's answer as the previous assignment of a rerun: every task active once, no process holding a task
    twice, standbys only for stateful tasks, no warm-ups; and a rerun of an unchanged group keeps every active task
    on its member."""
    for case in cases:
        if "error" in case["expected"]:
            continue
        again = _input(case)
        answer = case["expected"]["assignment"]
        again["members"] = [{**m, **answer[m["member_id"]]} for m in case["members"]]
        parsed = parse_case(again)
        result = assign(parsed.spec, parsed.topology)
        process_of = {m.member_id: m.process_id for m in parsed.spec.members}
        held: set[tuple[str, str, int]] = set()
        for member, tasks in result.members.items():
            for kind in (tasks.active, tasks.standby):
                for sub, ps in kind.items():
                    for p in ps:
                        assert (process_of[member], sub, p) not in held, case["name"]
                        held.add((process_of[member], sub, p))
        owners = result.owners()
        assert len(owners) == parsed.topology.active_task_count, case["name"]
        stateful = {s.id for s in parsed.topology.subtopologies if s.stateful}
        assert all(sub in stateful for t in result.members.values() for sub in t.standby), case["name"]
        if not parsed.spec.num_standby_replicas:
            before = {(s, p): m for m, t in answer.items() for s, ps in t["active"].items() for p in ps}
            assert {tuple(t): m for t, m in owners.items()} == before, case["name"]

def test_the_1000_members_x_5000_tasks_case_finishes_within_a_factor_of_3_of_its_estimate(
        cases: list[dict[str, Any]]) -> None:
    case = _input(next(c for c in cases if c["name"] == "large-1000x5000-fresh"))
    text = json.dumps(case)
    estimate = estimate_streams_assignment(parse_case(case).shape()).seconds
    runs = []
    for _ in range(3):
        start = time.perf_counter()
        json.dumps(cli_streams_assign(json.loads(text)))
        runs.append(time.perf_counter() - start)
    assert estimate / 3 <= min(runs) <= 3 * estimate, (min(runs), estimate)
