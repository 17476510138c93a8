"""engine/server/replication.py: Kafka's ISR rules (Partition.appendRecordsToLeader, maybeIncrementLeaderHW,
PartitionChangeBuilder.electLeader / PartitionLeaderElectionAlgorithms.offlinePartitionLeaderElection)."""

from __future__ import annotations

import doctest

import pytest

from engine.errors import ScenarioError
from engine.server import replication
from engine.server.replication import (
    ReplicaState,
    elect_leader,
    fail_broker,
    high_watermark,
    lost_records,
    produce_error,
)


def test_worked_example_in_the_docstring() -> None:
    result = doctest.testmod(replication)
    assert result.attempted >= 6 and result.failed == 0


@pytest.mark.parametrize("isr,min_insync,acks,error", [
    ((0, 1, 2), 2, -1, "NONE"),
    ((0, 1), 2, -1, "NONE"),  # ISR size == min.insync.replicas: accepted
    ((0,), 2, -1, "NOT_ENOUGH_REPLICAS"),
    ((0,), 2, 1, "NONE"),  # acks=1 ignores min.insync.replicas
    ((0,), 2, 0, "NONE"),
    ((0, 1, 2), 4, -1, "NOT_ENOUGH_REPLICAS"),  # min.insync.replicas above the replication factor
])
def test_acks_all_needs_min_insync_replicas(isr, min_insync, acks, error) -> None:
    assert produce_error(ReplicaState((0, 1, 2), isr, 0, {}), acks, min_insync) == error


def test_high_watermark_is_the_smallest_isr_leo_and_freezes_under_min_isr() -> None:
    leo = {0: 100, 1: 70, 2: 90}
    assert high_watermark(ReplicaState((0, 1, 2), (0, 1, 2), 0, leo), 1) == 70
    assert high_watermark(ReplicaState((0, 1, 2), (0, 2), 0, leo), 1) == 90
    assert high_watermark(ReplicaState((0, 1, 2), (0,), 0, leo), 2, current=60) == 60  # isUnderMinIsr
    assert high_watermark(ReplicaState((0, 1, 2), (0, 1), 0, leo), 1, current=80) == 80  # never goes back


def test_election_follows_assignment_order_not_isr_order() -> None:
    assert elect_leader([2, 0, 1], [1, 0], {0, 1}, unclean=False) == (0, False)
    assert elect_leader([2, 0, 1], [2], {0, 1}, unclean=False) == (None, False)
    assert elect_leader([2, 0, 1], [2], {0, 1}, unclean=True) == (0, True)
    assert elect_leader([2, 0, 1], [2], set(), unclean=True) == (None, False)


def test_unclean_election_loses_what_the_new_leader_never_had() -> None:
    before = ReplicaState((0, 1, 2), (0,), 0, {0: 50, 1: 30, 2: 45})
    after = fail_broker(before, 0, unclean=True)
    assert (after.leader, after.isr, after.unclean) == (1, (1,), True)
    assert lost_records(after, 50) == 50 - 30
    clean = fail_broker(ReplicaState((0, 1, 2), (0, 2), 0, {0: 50, 1: 30, 2: 50}), 0, unclean=True)
    assert (clean.leader, clean.unclean) == (2, False) and lost_records(clean, 50) == 0


def test_a_follower_failing_keeps_the_leader() -> None:
    after = fail_broker(ReplicaState((0, 1, 2), (0, 1, 2), 0, {}), 2, unclean=False)
    assert (after.leader, after.isr) == (0, (0, 1))


@pytest.mark.parametrize("build,message", [
    (lambda: ReplicaState((0, 0), (0,), 0, {}), "distinct broker ids"),
    (lambda: ReplicaState((0, 1), (0, 5), 0, {}), "broker 5 is not a replica"),
    (lambda: ReplicaState((0, 1), (1,), 0, {}), "not in the ISR"),
    (lambda: produce_error(ReplicaState((0,), (0,), 0, {}), 2, 1), "acks: one of 0, 1, -1"),
    (lambda: fail_broker(ReplicaState((0,), (0,), 0, {}), 9, False), "9 is not a replica"),
])
def test_bad_input_names_the_value(build, message) -> None:
    with pytest.raises(ScenarioError, match=message):
        build()
