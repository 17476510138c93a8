"""The pause model: the docstring example, crashes, cooperative moves, and bad timings."""

from __future__ import annotations

import pytest

from engine.consumer.pause import ProtocolTimings, pause_report
from engine.errors import ScenarioError
from engine.scenario import TopicPartition as TP

T = ProtocolTimings(session_timeout_ms=10_000, rejoin_ms=3_000, sync_ms=500, processing_ms=1_000)
BEFORE = {"C0": [TP("t", 0), TP("t", 1)], "C1": [TP("t", 2), TP("t", 3)]}
AFTER_LEAVE = {"C0": [TP("t", 0), TP("t", 1), TP("t", 2), TP("t", 3)]}


def test_docstring_example_graceful_leave() -> None:
    eager = pause_report("eager", BEFORE, AFTER_LEAVE, T)
    assert eager.member_pauses == {"C0": ((1000, 4500),)}
    assert eager.consumer_seconds == 3.5 and eager.end_ms == 4500
    assert eager.partition_seconds == 4 * 3.5
    coop = pause_report("cooperative", BEFORE, AFTER_LEAVE, T)
    assert coop.member_pauses == {"C0": ((1000, 3500),)} and coop.consumer_seconds == 2.5
    assert coop.partition_seconds == 2 * 2.5 and coop.paused_partitions == 2


def test_crash_waits_for_the_session_timeout() -> None:
    eager = pause_report("eager", BEFORE, AFTER_LEAVE, T, crashed=["C1"])
    assert eager.phases[0].end_ms == 10_000
    assert eager.member_pauses["C0"] == ((0, 14_500),)  # C1's partitions are down from the crash on
    coop = pause_report("cooperative", BEFORE, AFTER_LEAVE, T, crashed=["C1"])
    assert coop.end_ms == 13_500


def test_cooperative_pauses_only_moving_partitions() -> None:
    after = {"C0": [TP("t", 0)], "C1": [TP("t", 2), TP("t", 3)], "C2": [TP("t", 1)]}
    coop = pause_report("cooperative", BEFORE, after, T, rounds=2)
    assert coop.paused_partitions == 1
    assert coop.member_pauses == {"C0": ((4500, 8000),), "C1": (), "C2": ((4500, 8000),)}
    eager = pause_report("eager", BEFORE, after, T)
    assert eager.paused_partitions == 4 and eager.consumer_seconds > coop.consumer_seconds


def test_bad_inputs() -> None:
    with pytest.raises(ScenarioError, match="rejoin_ms"):
        ProtocolTimings(rejoin_ms=-1)
    with pytest.raises(ScenarioError, match="'kip848'"):
        pause_report("kip848", BEFORE, AFTER_LEAVE, T)


HB = ProtocolTimings(session_timeout_ms=10_000, rejoin_ms=3_000, sync_ms=500, processing_ms=1_000,
                     heartbeat_interval_ms=3_000)


def test_kip848_docstring_example_graceful_leave() -> None:
    # C1 finishes its batch and sends its leave heartbeat at 1000; C0 gets t-2, t-3 on its next heartbeat at 4000
    kip = pause_report("consumer", BEFORE, AFTER_LEAVE, HB)
    assert kip.member_pauses == {"C0": ((1000, 4000),)}
    assert kip.consumer_seconds == 3.0 and kip.partition_seconds == 6.0 and kip.paused_partitions == 2
    assert kip.end_ms == 4000


def test_kip848_a_moved_partition_waits_for_the_old_owners_revoke_then_the_new_owners_heartbeat() -> None:
    # C2 joins at 0 and takes t-1 from C0: C0 learns at its next heartbeat (3000), finishes its batch and
    # revokes (4000); C2 receives t-1 on its next heartbeat (7000).  C1 neither loses nor gains: never pauses.
    after = {"C0": [TP("t", 0)], "C1": [TP("t", 2), TP("t", 3)], "C2": [TP("t", 1)]}
    kip = pause_report("consumer", BEFORE, after, HB)
    assert kip.member_pauses == {"C0": ((4000, 7000),), "C1": (), "C2": ((4000, 7000),)}
    assert kip.paused_partitions == 1 and kip.partition_seconds == 3.0 and kip.consumer_seconds == 6.0
    assert kip.end_ms == 7000
    assert [p.name for p in kip.phases] == ["members' next heartbeat", "old owners finish batch, revoke",
                                            "new owners' next heartbeat"]
    faster = pause_report("consumer", BEFORE, after, ProtocolTimings(processing_ms=1_000, heartbeat_interval_ms=1_000))
    assert faster.member_pauses["C2"] == ((2000, 3000),)


def test_kip848_crash_waits_for_the_session_timeout_then_one_heartbeat() -> None:
    kip = pause_report("consumer", BEFORE, AFTER_LEAVE, HB, crashed=["C1"])
    assert kip.member_pauses == {"C0": ((0, 13_000),)}
    assert kip.phases[0].end_ms == 10_000 and kip.end_ms == 13_000


def test_kip848_heartbeat_interval_is_validated() -> None:
    with pytest.raises(ScenarioError, match="heartbeat_interval_ms"):
        ProtocolTimings(heartbeat_interval_ms=-5)
