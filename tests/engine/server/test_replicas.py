"""Replica placement (AdminUtils), leader failover, preferred-leader election, decommission plans."""

from __future__ import annotations

import random

import pytest

from engine.errors import EngineError
from engine.server.reassignment import decommission_generate, decommission_minimal, reassignment_plan
from engine.server.replicas import (
    Broker,
    KafkaAdminError,
    assign_replicas_to_brokers,
    cli_replicas,
    elect_after_failure,
    leader_counts,
    leader_imbalance_ratio,
    leader_skew,
    preferred_leader_election,
    preferred_leaders,
    rack_alternated_broker_list,
)


def test_docstring_example() -> None:
    placement = assign_replicas_to_brokers([Broker(i) for i in range(5)], 10, 3, 0)
    assert placement.assignment[0] == [0, 1, 2]
    assert placement.assignment[5] == [0, 2, 3]


def test_rack_alternated_list_example() -> None:
    assert rack_alternated_broker_list({0: "a", 1: "a", 2: "b", 3: "c", 4: "c"}) == [0, 2, 3, 1, 4]


def test_rack_aware_spreads_replicas_over_racks() -> None:
    brokers = [Broker(i, f"r{i % 3}") for i in range(6)]
    placement = assign_replicas_to_brokers(brokers, 12, 3, 0)
    for replicas in placement.assignment.values():
        assert len({brokers[b].rack for b in replicas}) == 3


def test_random_start_uses_the_rng(seeded_rng: random.Random) -> None:
    brokers = [Broker(i) for i in range(7)]
    seed = seeded_rng.randrange(2**31)
    a = assign_replicas_to_brokers(brokers, 20, 3, -1, -1, random.Random(seed))
    b = assign_replicas_to_brokers(brokers, 20, 3, -1, -1, random.Random(seed))
    assert a == b
    for replicas in a.assignment.values():
        assert len(set(replicas)) == 3


@pytest.mark.parametrize("args, name", [
    (([Broker(0)], 0, 1), "InvalidPartitionsException"),
    (([Broker(0)], 1, 0), "InvalidReplicationFactorException"),
    (([Broker(0)], 1, 2), "InvalidReplicationFactorException"),
    (([Broker(0, "a"), Broker(1)], 1, 1), "AdminOperationException"),
])
def test_kafka_errors(args: tuple, name: str) -> None:
    with pytest.raises(KafkaAdminError) as info:
        assign_replicas_to_brokers(*args, fixed_start_index=0)
    assert info.value.name == name


def test_cli_errors_are_results_and_malformed_raises() -> None:
    assert cli_replicas({"brokers": [{"id": 0, "rack": None}], "partitions": 1, "replication_factor": 2})[
        "error"].startswith("InvalidReplicationFactorException: ")
    with pytest.raises(EngineError, match="brokers"):
        cli_replicas({"brokers": "0,1", "partitions": 1, "replication_factor": 1})
    with pytest.raises(EngineError, match="partitions"):
        cli_replicas({"brokers": [{"id": 0}], "partitions": "3", "replication_factor": 1})


def test_leader_failover_hand_checked() -> None:
    # 3 brokers, 6 partitions, rf 2, start 0: leaders 0,1,2,0,1,2
    placement = assign_replicas_to_brokers([Broker(i) for i in range(3)], 6, 2, 0)
    a = placement.assignment
    assert a == {0: [0, 1], 1: [1, 2], 2: [2, 0], 3: [0, 2], 4: [1, 0], 5: [2, 1]}
    leaders = preferred_leaders(a)
    after = elect_after_failure(a, leaders, {1})
    # partitions 1 and 4 lose leader 1 -> their next live replica: 2 and 0
    assert after == {0: 0, 1: 2, 2: 2, 3: 0, 4: 0, 5: 2}
    assert leader_counts(after, [0, 1, 2]) == {0: 3, 1: 0, 2: 3}
    assert leader_skew(leader_counts(after, [0, 1, 2]), [0, 2]) == 1.0
    # broker 1 comes back: leadership does not return by itself ...
    assert leader_imbalance_ratio(a, after, 1) == 1.0
    # ... until a preferred-leader election
    assert preferred_leader_election(a, after, set()) == leaders
    # both replicas dead -> offline
    assert elect_after_failure(a, leaders, {1, 2})[1] is None


def test_decommission_plans() -> None:
    brokers = [Broker(i) for i in range(4)]
    current = assign_replicas_to_brokers(brokers, 8, 2, 0).assignment
    minimal = decommission_minimal(brokers, current, 3)
    assert all(3 not in r and len(set(r)) == 2 for r in minimal.values())
    plan = reassignment_plan(current, minimal, preferred_leaders(current), 1_000_000)
    on_3 = sum(3 in r for r in current.values())
    assert len(plan.moves) == on_3 and plan.bytes_to_copy == on_3 * 1_000_000
    busiest = max([*plan.inbound_bytes.values(), *plan.outbound_bytes.values()])
    assert plan.seconds_under_throttle(500_000) == busiest / 500_000
    with pytest.raises(EngineError, match="throttle"):
        plan.seconds_under_throttle(0)
    generated = decommission_generate(brokers, current, 3, 0)
    assert all(3 not in r for r in generated.values())
    full = reassignment_plan(current, generated, preferred_leaders(current), 1)
    assert len(full.moves) >= len(plan.moves)
