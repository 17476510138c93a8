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
    assert eager.stopped_consumer_seconds == 3.5 and coop.stopped_consumer_seconds == 0


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
    # C1 finishes its batch and sends its leave heartbeat at 1000; C0 gets t-2, t-3 on its next heartbeat:
    # expected half an interval later (2500), at most a full one (4000)
    kip = pause_report("consumer", BEFORE, AFTER_LEAVE, HB)
    assert kip.member_pauses == {"C0": ((1000, 2500),)}
    assert kip.partition_seconds == 3.0 and kip.partition_seconds_bound == 6.0 and kip.paused_partitions == 2
    assert kip.end_ms == 2500 and kip.stopped_consumer_seconds == 0


def test_kip848_a_moved_partition_waits_for_the_old_owners_revoke_then_the_new_owners_heartbeat() -> None:
    # C2 joins at 0 and takes t-1 from C0: C0 learns at its next heartbeat (expected 1500), finishes its batch,
    # revokes and acknowledges at once (2500); C2 receives t-1 on its next heartbeat (4000).  C1 never pauses.
    after = {"C0": [TP("t", 0)], "C1": [TP("t", 2), TP("t", 3)], "C2": [TP("t", 1)]}
    kip = pause_report("consumer", BEFORE, after, HB)
    assert kip.member_pauses == {"C0": ((2500, 4000),), "C1": (), "C2": ((2500, 4000),)}
    assert kip.paused_partitions == 1 and kip.partition_seconds == 1.5 and kip.partition_seconds_bound == 3.0
    assert kip.end_ms == 4000
    assert kip.member_stops == {"C0": (), "C1": ()}  # C0 keeps consuming t-0 while t-1 is in transit
    assert [p.name for p in kip.phases] == ["members' next heartbeat", "old owners finish batch, revoke",
                                            "new owners' next heartbeat"]
    faster = pause_report("consumer", BEFORE, after, ProtocolTimings(processing_ms=1_000, heartbeat_interval_ms=1_000))
    assert faster.member_pauses["C2"] == ((1500, 2000),)


def test_kip848_crash_waits_for_the_session_timeout_then_one_heartbeat() -> None:
    kip = pause_report("consumer", BEFORE, AFTER_LEAVE, HB, crashed=["C1"])
    assert kip.member_pauses == {"C0": ((0, 11_500),)}
    assert kip.phases[0].end_ms == 10_000 and kip.end_ms == 11_500


def test_only_stop_the_world_stops_a_consumer() -> None:
    """A member that keeps three of its four partitions while one is in transit is not
    stopped; eager stops every member that was consuming."""
    before = {"C0": [TP("t", p) for p in range(4)], "C1": [TP("t", p) for p in range(4, 8)]}
    after = {"C0": [TP("t", p) for p in range(3)], "C1": [TP("t", p) for p in range(4, 8)],
             "C2": [TP("t", 3)]}
    for protocol in ("cooperative", "consumer"):
        report = pause_report(protocol, before, after, HB, rounds=2)
        assert report.stopped_consumer_seconds == 0 and report.consumer_seconds > 0, protocol
        assert report.paused_partitions == 1
    eager = pause_report("eager", before, after, HB)
    assert eager.member_stops == {"C0": ((1000, 4500),), "C1": ((1000, 4500),)}
    assert eager.stopped_consumer_seconds == 7.0 and eager.partition_seconds == 8 * 3.5


def test_seed_d_the_new_protocol_costs_less_than_eager() -> None:
    from engine.comparison import ASSIGNORS, outcomes, step_pause
    from engine.presets import build_preset

    scenario, timings = build_preset("seed-d"), ProtocolTimings()
    cost = {}
    for a in ASSIGNORS:
        steps = outcomes(scenario, a)
        cost[a.label] = step_pause(a, steps[0].assignment, steps[1], timings, ())
    assert cost["uniform (KIP-848)"].partition_seconds < cost["sticky"].partition_seconds
    assert cost["uniform (KIP-848)"].partition_seconds_bound < cost["sticky"].partition_seconds
    assert cost["uniform (KIP-848)"].stopped_consumer_seconds == 0 < cost["sticky"].stopped_consumer_seconds


def test_kip848_heartbeat_interval_is_validated() -> None:
    with pytest.raises(ScenarioError, match="heartbeat_interval_ms"):
        ProtocolTimings(heartbeat_interval_ms=-5)
