"""Unit tests of the KIP-848 server-side assignors, the Java models they rely on, and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.consumer.assignment import assignment_to_json
from engine.consumer.strategies import find_strategy
from engine.coordinator.target_assignment import (
    cli_server_assign,
    preferred_server_assignor,
    server_assign,
)
from engine.errors import EngineError
from engine.java.hashmap import JavaHashMap, integer_hash
from engine.java.uuid import Uuid
from engine.scenario import TopicPartition, parse_scenario
from helpers import REPO

IDS = {"t0": "AAAAAAAAAAAAAAAAAAAAAg", "t1": "AAAAAAAAAAAAAAAAAAAAAw"}


def _case(members: list[dict], topics: dict | None = None, assignor: str = "uniform") -> dict:
    return {"assignor": assignor, "steps": [{"topics": topics or {"t0": 5, "t1": 4}, "topic_ids": IDS,
                                             "members": members}]}


def test_uuid_docstring_example() -> None:
    u = Uuid.from_string("AAAAAAAAAAAAAAAAAAAAAg")
    assert (u.msb, u.lsb, u.hash_code(), str(u)) == (0, 2, 2, "AAAAAAAAAAAAAAAAAAAAAg")


def test_uuid_round_trip_signed_order_and_hash() -> None:
    neg = Uuid(-5, 7)
    assert Uuid.from_string(str(neg)) == neg
    assert neg < Uuid(0, -1) < Uuid(0, 0)  # signed msb, then signed lsb (Uuid.compareTo)
    x = (-5 ^ 7) & 0xFFFFFFFFFFFFFFFF
    expected = ((x >> 32) ^ (x & 0xFFFFFFFF))
    assert Uuid(-5, 7).hash_code() == expected - (1 << 32 if expected & 0x80000000 else 0)
    with pytest.raises(EngineError, match="16"):
        Uuid.from_string("AAAA")


def test_java_hashmap_docstring_example_and_compute_if_absent() -> None:
    s = JavaHashMap(integer_hash, 16)
    for p in (17, 1, 33, 0):
        s.put(p)
    assert s.keys() == [0, 17, 1, 33]
    m = JavaHashMap(integer_hash, 0)  # new HashMap<>(0): capacity 1
    m.compute_if_absent(1, lambda: "a")
    m.compute_if_absent(3, lambda: "b")  # resize to 2 first, then linked at the bucket head
    assert (m.capacity, m.keys()) == (2, [3, 1])
    m.compute_if_absent(3, lambda: "c")  # a hit still resizes when size > threshold
    assert (m.capacity, m.keys()) == (4, [1, 3])


def test_uniform_docstring_example() -> None:
    out = server_assign(_case([{"id": m, "topics": ["t0", "t1"]} for m in "abc"]))
    step = out.steps[0]
    assert step.subscription_type == "HOMOGENEOUS"
    assert [len(v) for v in step.assignment.values()] == [3, 3, 3]
    assert sorted(str(tp) for v in step.assignment.values() for tp in v) == sorted(
        [f"t0-{p}" for p in range(5)] + [f"t1-{p}" for p in range(4)])


def test_uniform_extra_partitions_go_to_members_holding_them() -> None:
    """An uneven split: a member that holds quota + 1 keeps its extra; one that holds less gives the extra up to a
    later member, and the last members take the extras nobody claimed (KAFKA-18688)."""
    one = {"t0": "AAAAAAAAAAAAAAAAAAAAAg"}
    fresh = cli_server_assign({"assignor": "uniform", "steps": [{"topics": {"t0": 3}, "topic_ids": one, "members": [
        {"id": "A", "topics": ["t0"]}, {"id": "B", "topics": ["t0"]}]}]})
    assert fresh["steps"][0]["assignment"] == {"A": ["t0-0"], "B": ["t0-1", "t0-2"]}
    held = cli_server_assign({"assignor": "uniform", "steps": [{"topics": {"t0": 3}, "topic_ids": one, "members": [
        {"id": "A", "topics": ["t0"], "current_assignment": ["t0-0", "t0-2"]},
        {"id": "B", "topics": ["t0"], "current_assignment": ["t0-1"]}]}]})
    assert held["steps"][0]["assignment"] == {"A": ["t0-0", "t0-2"], "B": ["t0-1"]}
    assert held["steps"][0]["moved"] == 0


def test_range_docstring_example_static_members_first() -> None:
    members = [{"id": "m-b", "topics": ["t0"], "instance_id": "pod-1"},
               {"id": "m-a", "topics": ["t0"], "instance_id": "pod-0"}, {"id": "c", "topics": ["t0"]}]
    out = server_assign(_case(members, {"t0": 5}, "range"))
    assert assignment_to_json(out.steps[0].assignment) == {"m-b": ["t0-2", "t0-3"], "m-a": ["t0-0", "t0-1"],
                                                            "c": ["t0-4"]}


def test_server_docstring_example() -> None:
    out = server_assign(
        {
            "steps": [
                {
                    "topics": {"t0": 4},
                    "topic_ids": {"t0": IDS["t0"]},
                    "members": [{"id": "a", "topics": ["t0"]}, {"id": "b", "topics": ["t0"]}],
                }
            ]
        },
        "range",
    )
    assert [(assignment_to_json(s.assignment), s.moved) for s in out.steps] == [
        ({"a": ["t0-0", "t0-1"], "b": ["t0-2", "t0-3"]}, 0)]
    assert out.steps[0].assignment["a"][0] == TopicPartition("t0", 0)  # strings only at the JSON edge


def test_uniform_is_sticky_and_static_restart_keeps_partitions() -> None:
    members = [{"id": m, "topics": ["t0", "t1"], "instance_id": f"pod-{m}"} for m in "abc"]
    restarted = [dict(members[0]), {"id": "b2", "topics": ["t0", "t1"], "instance_id": "pod-b"},
                 dict(members[2])]
    case = _case(members)
    case["steps"].append({"topics": {"t0": 5, "t1": 4}, "topic_ids": IDS, "members": restarted})
    first, second = server_assign(case).steps
    assert second.assignment["b2"] == first.assignment["b"]
    assert (second.moved, second.moved_from_remaining) == (3, 0)  # new member id = new owner


def test_member_leaving_moves_only_its_partitions() -> None:
    members = [{"id": m, "topics": ["t0", "t1"]} for m in "abc"]
    case = _case(members)
    case["steps"].append({"topics": {"t0": 5, "t1": 4}, "topic_ids": IDS, "members": members[:2]})
    first, second = server_assign(case).steps
    assert second.moved == len(first.assignment["c"]) and second.moved_from_remaining == 0
    for m in "ab":
        assert set(first.assignment[m]) <= set(second.assignment[m])


def test_heterogeneous_only_subscribers_get_partitions() -> None:
    members = [{"id": "a", "topics": ["t0"]}, {"id": "b", "topics": ["t0", "t1"]},
               {"id": "c", "topics": ["ghost"]}]
    step = server_assign(_case(members)).steps[0]
    assert step.subscription_type == "HETEROGENEOUS"
    assert step.assignment["c"] == []
    assert all(tp.topic == "t0" for tp in step.assignment["a"])
    assert len(step.assignment["a"]) + len(step.assignment["b"]) == 9


def test_scenario_input_and_strategy_mapping() -> None:
    scenario = parse_scenario({"topics": {"orders": 6}, "members": [{"id": "C0", "topics": ["orders"]},
                                                                   {"id": "C1", "topics": ["orders"]}]})
    out = server_assign(scenario, "range")
    assert assignment_to_json(out.steps[0].assignment) == {"C0": [f"orders-{p}" for p in range(3)],
                                                           "C1": [f"orders-{p}" for p in range(3, 6)]}
    names = ("range", "roundrobin", "sticky", "cooperative-sticky")
    mapping = [find_strategy(s).server_assignor for s in names]
    assert mapping == ["range", "uniform", "uniform", "uniform"]
    assert find_strategy("org.apache.kafka.clients.consumer.RangeAssignor").server_assignor == "range"
    assert preferred_server_assignor([None, None]) == "uniform"
    assert preferred_server_assignor(["range", "range", "uniform"]) == "range"


@pytest.mark.parametrize("bad, message", [
    ({"assignor": "sticky", "steps": []}, "assignor"),
    ({"steps": []}, "steps"),
    ({"steps": [{"topics": {"t0": 0}, "members": []}]}, "partitions"),
    ({"steps": [{"topics": {"t0": 2}, "topic_ids": {"t1": IDS["t1"]}, "members": []}]}, "no id for topic 't0'"),
    ({"steps": [{"topics": {"t0": 2}, "members": [{"id": "a", "topics": ["t0"], "current_assignment": ["t0-5"]}]}]},
     "does not exist"),
    ({"steps": [{"topics": {"t0": 2}, "members": [{"id": "a", "current_assignment": ["t0-1"]},
                                                  {"id": "b", "current_assignment": ["t0-1"]}]}]}, "also assigned"),
    ({"steps": [{"topics": {"t0": 2}, "members": [{"id": "a"}, {"id": "a"}]}]}, "duplicate"),
])
def test_malformed_input_is_one_line_engine_error(bad: dict, message: str) -> None:
    with pytest.raises(EngineError, match=message) as info:
        cli_server_assign(bad)
    assert "\n" not in str(info.value)


def test_cli_exit_codes_and_batch() -> None:
    good = _case([{"id": "a", "topics": ["t0"]}], {"t0": 2})
    run = subprocess.run(
        [sys.executable, "-m", "engine", "server-assign", "-"],
        cwd=REPO,
        capture_output=True,
        text=True,
        input=json.dumps([good, {"assignor": "nope"}]),
        timeout=60,
    )
    assert run.returncode == 0
    answers = json.loads(run.stdout)
    assert answers[0]["steps"][0]["assignment"] == {"a": ["t0-0", "t0-1"]} and "error" in answers[1]
    bad = subprocess.run(
        [sys.executable, "-m", "engine", "server-assign", "-"],
        cwd=REPO,
        capture_output=True,
        text=True,
        input='{"steps": 3}',
        timeout=60,
    )
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
