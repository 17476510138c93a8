"""Work budgets (engine.budgets): each one at its edge, and each command refusing one unit over it.

The largest allowed inputs are run for real (timed) by ``python -m bench fuzz_cli``'s ``budgets`` family;
here the counting is checked at the edge and the refusal comes before any work is done.
"""

from __future__ import annotations

import pytest

from engine import budgets
from engine.budgets import (
    MAX_ASSIGN_WORK,
    MAX_GENERAL_STICKY_WORK,
    MAX_GROUP_ID_UNITS,
    MAX_HASH_CELLS,
    MAX_REPLICA_WORK,
    MAX_WHEEL_TASK_LEVELS,
    assign_work,
    general_path_work,
    wheel_levels,
)
from engine.consumer.group import cli_assign
from engine.coordinator.offsets_partition import cli_coordinator
from engine.coordinator.target_assignment import MAX_PARTITIONS_ALL_STEPS, cli_server_assign
from engine.errors import LimitError
from engine.producer.cli import cli_hash
from engine.scenario import parse_scenario
from engine.server.replicas import cli_replicas
from engine.server.timer.cases import cli_wheel
from engine.server.timer.driver import simulate
from engine.server.timer.model import TaskSpec, WheelConfig


def case(strategy: str, topics: dict[str, int], members: list[dict[str, object]], steps: int = 1) -> dict:
    step = {"topics": topics, "members": members}
    return {"strategy": strategy, "steps": [step] * steps}


def test_module_worked_example() -> None:
    doc = case("range", {"t0": 1_000}, [{"id": f"C{i}", "topics": ["t0"]} for i in range(10)], steps=2)
    assert assign_work(parse_scenario(doc), "range") == 2 * (1_000 + 10) == 2_020
    assert wheel_levels(1, 2, 2**40) == 41 and wheel_levels(1, 20, 25) == 2


def topics_worth(units: int) -> dict[str, int]:
    """Topics whose partitions + one subscription each (one member subscribed to all) make ``units``."""
    topics: dict[str, int] = {}
    while units > 0:
        partitions = min(99_999, units - 1)
        if units - partitions - 1 == 1:
            partitions -= 1
        topics[f"t{len(topics)}"] = partitions
        units -= partitions + 1
    return topics


@pytest.mark.parametrize(
    ("strategy", "weight"), [("range", 1), ("roundrobin", 1), ("sticky", 2), ("cooperative-sticky", 4)]
)
def test_assign_budget_edge_per_strategy(strategy: str, weight: int) -> None:
    topics = topics_worth(MAX_ASSIGN_WORK // weight)
    edge = parse_scenario(case(strategy, topics, [{"id": "C0", "topics": list(topics)}]))
    assert assign_work(edge, strategy) == MAX_ASSIGN_WORK
    budgets.check_assign(edge, strategy)
    more = {**topics, "t0": topics["t0"] + 1}
    with pytest.raises(LimitError, match=f"assign: asks for {MAX_ASSIGN_WORK + weight:,} units"):
        cli_assign(case(strategy, more, [{"id": "C0", "topics": list(more)}]))


def test_assign_budget_counts_every_step() -> None:
    members = [{"id": "C0", "topics": ["t0"]}]
    steps = MAX_ASSIGN_WORK // (99_999 + 1)
    assert (
        assign_work(parse_scenario(case("range", {"t0": 99_999}, members, steps)), "range") == MAX_ASSIGN_WORK
    )
    with pytest.raises(LimitError, match="summed over steps"):
        cli_assign(case("range", {"t0": 99_999}, members, steps + 1))


def test_general_sticky_budget_edge() -> None:
    members = [{"id": f"C{i}", "topics": ["t1"]} for i in range(199)] + [{"id": "Z", "topics": ["t0"]}]
    edge = parse_scenario(case("sticky", {"t0": 99_999, "t1": 1}, members))
    assert general_path_work(edge, "sticky") == MAX_GENERAL_STICKY_WORK
    assert general_path_work(edge, "range") == 0  # range has no general path
    with pytest.raises(LimitError, match="differing subscriptions: partitions x members"):
        cli_assign(case("cooperative-sticky", {"t0": 99_999, "t1": 2}, members))
    same = [
        {"id": f"C{i}", "topics": ["t0", "t1"]} for i in range(200)
    ]  # equal subscriptions: no general path
    assert general_path_work(parse_scenario(case("sticky", {"t0": 99_999, "t1": 2}, same)), "sticky") == 0


def test_hash_budget_edge() -> None:
    budgets.check_hash(10_000, 100)
    assert 10_000 * 100 == MAX_HASH_CELLS
    with pytest.raises(LimitError, match="keys x partition counts"):
        cli_hash({"keys_hex": ["00"] * 10_001, "partitions": list(range(1, 101))})


def test_coordinator_budget_edge_counts_utf16_units() -> None:
    budgets.check_coordinator(["g" * 10_000] * 400)
    assert 400 * 10_000 == MAX_GROUP_ID_UNITS
    with pytest.raises(LimitError, match="characters of the group ids"):
        cli_coordinator({"group_ids": ["g" * 10_000] * 400 + ["x"]})
    assert budgets.utf16_length("\U0001f600\ud800a") == 4  # a pair counts 2, as String.length() does


def test_wheel_budget_edge() -> None:
    tasks = MAX_WHEEL_TASK_LEVELS // 41
    budgets.check_wheel(1, 2, [2**40] * tasks)
    doc = {
        "tick_ms": 1,
        "wheel_size": 2,
        "tasks": [{"id": f"t{i}", "delay_ms": 2**40} for i in range(tasks + 1)],
    }
    with pytest.raises(LimitError, match="41 levels for the largest delay"):
        cli_wheel(doc)


@pytest.mark.parametrize(
    ("tick", "size", "start", "delays"),
    [
        (1, 2, 0, [4096]),
        (1, 20, 0, [25, 7]),
        (1, 20, 13, [19]),
        (3, 2, 5, [100, 1]),
        (7, 5, 0, [10**6]),
        (1, 65_536, 0, [60_000]),
        (2, 3, 999, [0, 1, 2, 5_000]),
    ],
)
def test_wheel_levels_bound_the_levels_a_run_creates(
    tick: int, size: int, start: int, delays: list[int]
) -> None:
    trace = simulate(WheelConfig(tick, size, start), [TaskSpec(f"t{i}", d) for i, d in enumerate(delays)])
    assert 0 <= wheel_levels(tick, size, max(delays)) - len(trace.levels) <= 1


def test_replicas_budget_edge_on_uneven_racks() -> None:
    racks = ["A"] + ["B"] * 9_999  # one broker on A: the scan may walk past 9,998 brokers per replica
    assert budgets.replica_scan(racks) == 9_998
    budgets.check_replicas(racks, 500, 2)  # 1,000 replicas x 9,999 units
    assert 1_000 * 9_999 <= MAX_REPLICA_WORK < 1_002 * 9_999
    brokers = [{"id": i, "rack": r} for i, r in enumerate(racks)]
    with pytest.raises(LimitError, match="replicas x"):
        cli_replicas({"brokers": brokers, "partitions": 501, "replication_factor": 2, "fixed_start_index": 0})
    even = [f"r{i % 7}" for i in range(10_000)]  # even racks: a few brokers per replica at most
    assert budgets.replica_scan(even) == 10_000 - 7 * 1_428
    budgets.check_replicas(even, 100_000, 10)
    budgets.check_replicas([None] * 10_000, 100_000, 10)


def test_server_assign_budget_edge() -> None:
    members = [{"id": f"m{j}", "topics": ["t0", "t1"]} for j in range(2)]
    steps = [{"topics": {"t0": 50_000, "t1": 50_000}, "members": members}] * 10
    assert 10 * 100_000 == MAX_PARTITIONS_ALL_STEPS
    over = steps[:-1] + [{"topics": {"t0": 50_000, "t1": 50_001}, "members": members}]
    with pytest.raises(LimitError, match="partitions summed over all steps"):
        cli_server_assign({"steps": over})
