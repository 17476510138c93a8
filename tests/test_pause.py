"""The pause model: the docstring example, crashes, cooperative moves, and bad timings."""

from __future__ import annotations

import pytest

from engine.errors import ScenarioError
from engine.pause import ProtocolTimings, pause_report
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
