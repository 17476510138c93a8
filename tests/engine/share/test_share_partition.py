"""SharePartition's rules as Kafka's broker class (kafka.server.share.SharePartition) applies them, on small
hand-made cases, and its invariants over random cases (no error but a one-line refusal)."""

from __future__ import annotations

import random

import pytest

from engine.errors import EngineError, InputError
from engine.share.case import parse_case
from engine.share.cli import cli_share_deliver
from engine.share.in_flight import InFlightState
from engine.share.log import ShareLog
from engine.share.record_state import InvalidTransition, RecordState
from engine.share.settings import ShareSettings, parse_settings
from engine.share.share_partition import (
    INVALID_RECORD_STATE,
    INVALID_REQUEST,
    AckBatch,
    SharePartition,
    throttle_threshold,
)


def _partition(limit: int = 5, lock_ms: int = 5_000, locks: int = 200,
               log: tuple[tuple[int, int], ...] = ((0, 4), (5, 9))) -> SharePartition:
    return SharePartition(ShareSettings(lock_ms, limit, locks), ShareLog(log), "earliest")


def _release(p: SharePartition, member: str, first: int, last: int) -> None:
    assert p.acknowledge(member, [AckBatch(first, last, "RELEASE")]) is None


def test_a_lock_fires_only_strictly_after_its_expiry() -> None:
    p = _partition()
    p.fetch("A", 500, now=1_000)
    assert p.expire(6_000) == []
    assert [lock.expiry for lock in p.expire(6_001)] == [6_000]


def test_the_limit_applies_when_a_record_would_become_available_again() -> None:
    p = _partition(limit=2)
    p.fetch("A", 500, now=0)
    _release(p, "A", 0, 9)
    assert p.fetch("B", 500, now=1).acquired == [(0, 9, 2)]  # acquired a 2nd time: the limit is not checked here
    p.acknowledge("B", [AckBatch(0, 9, "RELEASE")])  # would be AVAILABLE with count 2 >= 2: ARCHIVED
    assert (p.start, p.end, p.in_flight_json()) == (10, 10, [])


def test_a_failed_partial_ack_leaves_the_batch_split_and_nothing_moved() -> None:
    """teach-14's rule: the first ack batch splits 0-9 and is undone when the second (past the window) fails."""
    p = _partition()
    p.fetch("A", 500, now=0)
    assert p.acknowledge("A", [AckBatch(0, 2, "ACCEPT"), AckBatch(8, 12, "ACCEPT")]) == INVALID_REQUEST
    batch = p.in_flight_json()[0]
    assert batch["offsets"] == [{"first": 0, "last": 9, "state": "ACQUIRED", "delivery_count": 1, "member": "A"}]
    assert p.start == 0
    assert p.acknowledge("B", [AckBatch(0, 2, "ACCEPT")]) == INVALID_RECORD_STATE  # not B's records


def test_the_in_flight_limit_caps_what_one_fetch_acquires() -> None:
    """KAFKA-19555: max.record.locks minus the window's width, rounded up to whole log batches."""
    p = _partition(locks=100, log=((0, 99), (100, 199), (200, 299)))
    assert p.fetch("A", 500, now=0).acquired == [(0, 99, 1)]
    assert p.fetch("B", 500, now=1).fetch_offset is None  # full: not even tried
    q = _partition(locks=100, log=tuple((f, f + 9) for f in range(0, 300, 10)))
    assert q.fetch("A", 85, now=0).acquired == [(0, 89, 1)]  # 85 records rounded up to a whole log batch
    assert q.fetch("B", 500, now=1).acquired == [(90, 99, 1)]  # at most 100 - 90 = 10 more


def test_a_full_window_still_redelivers_what_is_inside_it() -> None:
    p = _partition(locks=100, log=((0, 99), (100, 149)))
    p.fetch("A", 500, now=0)
    _release(p, "A", 10, 19)
    assert p.fetch("B", 500, now=1).acquired == [(10, 19, 2)]  # nothing past end, though the log has 100-149
    assert p.end == 99


def test_reacquired_offsets_of_one_batch_are_reported_as_merged_ranges() -> None:
    """KAFKA-19957: consecutive offsets with one delivery count form one range."""
    p = _partition()
    p.fetch("A", 500, now=0)
    _release(p, "A", 2, 4)
    _release(p, "A", 6, 7)
    assert p.fetch("B", 500, now=1).acquired == [(2, 4, 2), (6, 7, 2)]


def test_throttled_records_come_in_halving_portions() -> None:
    """KAFKA-17541: limit 6, threshold 3.  A batch of 8 at its 4th delivery comes 8 >> 1 = 4 at a time, at its
    5th 8 >> 2 = 2 at a time, at its 6th (the last) 8 >> 3 = 1 at a time."""
    assert throttle_threshold(6) == 3
    p = _partition(limit=6, log=((0, 7),))
    for delivery in (1, 2, 3):
        assert p.fetch("A", 500, now=delivery).acquired == [(0, 7, delivery)]
        _release(p, "A", 0, 7)
    assert p.fetch("A", 500, now=4).acquired == [(0, 3, 4)]
    assert p.fetch("A", 500, now=4).acquired == [(4, 7, 4)]
    _release(p, "A", 0, 7)
    assert p.fetch("A", 500, now=5).acquired == [(0, 1, 5)]
    _release(p, "A", 0, 1)
    assert p.fetch("A", 500, now=6).acquired == [(0, 0, 6)]
    assert p.fetch("A", 500, now=6).acquired == [(1, 1, 6)]
    assert p.fetch("A", 500, now=6).acquired == [(2, 3, 5)]


def test_a_record_on_its_last_delivery_is_delivered_alone() -> None:
    """Limit 5: 0-3 at delivery 1, 4-7 at delivery 4.  The fetch stops before 4 (its next delivery is its
    last), and the next fetches hand out 4, then 5, one at a time."""
    p = _partition(limit=5, log=((0, 7),))
    p.fetch("A", 500, now=0)
    _release(p, "A", 4, 7)
    for delivery in (2, 3, 4):
        assert p.fetch("B", 500, now=1).acquired == [(4, 7, delivery)]
        _release(p, "B", 4, 7)
    _release(p, "A", 0, 3)
    assert p.fetch("C", 500, now=2).acquired == [(0, 3, 2)]
    assert p.fetch("C", 500, now=3).acquired == [(4, 4, 5)]
    assert p.fetch("C", 500, now=4).acquired == [(5, 5, 5)]


def test_a_throttled_batch_ends_a_fetch_that_acquired_something_before_it() -> None:
    p = _partition(limit=5)
    p.fetch("A", 5, now=0)
    p.fetch("A", 5, now=0)
    for delivery in (2, 3):
        _release(p, "A", 5, 9)
        assert p.fetch("A", 5, now=1).acquired == [(5, 9, delivery)]
    _release(p, "A", 5, 9)
    _release(p, "A", 0, 4)  # 0-4 at delivery 1, 5-9 at delivery 3 (the threshold)
    assert p.fetch("B", 500, now=2).acquired == [(0, 4, 2)]
    assert p.fetch("B", 500, now=3).acquired == [(5, 6, 4)]  # a portion of 5 >> 1 = 2


def test_a_leave_skips_other_members_offsets_and_goes_on() -> None:
    """KAFKA-19953 (teach-16): A's offsets after B's inside one per-offset batch are released too."""
    p = _partition()
    p.fetch("A", 500, now=0)
    _release(p, "A", 0, 1)
    p.fetch("B", 1, now=1)
    p.release_acquired_records("A")
    states = [(r["first"], r["last"], r["state"], r["member"]) for r in p.in_flight_json()[0]["offsets"]]
    assert states == [(0, 1, "ACQUIRED", "B"), (2, 9, "AVAILABLE", None)]


def test_latest_starts_at_the_log_end_at_the_first_fetch() -> None:
    p = SharePartition(ShareSettings(), ShareLog([(0, 9)]), "latest")
    p.log.append(10, 11)  # produced before the first fetch: not delivered either
    assert (p.fetch("A", 500, now=0).fetch_offset, p.start, p.end) == (12, 12, 12)
    p.log.append(12, 14)
    assert p.fetch("A", 500, now=1).acquired == [(12, 14, 1)]
    assert p.start == 12


def test_available_offsets_the_log_no_longer_holds_are_archived_at_the_next_fetch() -> None:
    """KAFKA-17351: the read starts at the first log batch past the fetch offset; AVAILABLE offsets before it
    (a gap: compacted away) are ARCHIVED, and the start offset passes them at the next move."""
    p = _partition(log=((0, 4), (8, 12)))
    assert p.fetch("A", 500, now=0).acquired == [(0, 12, 1)]
    assert p.acknowledge("A", [AckBatch(0, 7, types=("ACCEPT",) * 5 + ("RELEASE",) * 3)]) is None
    assert (p.start, p.fetch_offset()) == (5, 5)
    p.expire(10_000)  # 8-12 AVAILABLE too
    assert p.fetch("B", 500, now=10_000).acquired == [(8, 12, 2)]
    runs = [(r["first"], r["last"], r["state"]) for r in p.in_flight_json()[0]["offsets"]]
    assert runs == [(0, 4, "ACKNOWLEDGED"), (5, 7, "ARCHIVED"), (8, 12, "ACQUIRED")]
    assert p.start == 5
    assert p.acknowledge("B", [AckBatch(8, 12, "ACCEPT")]) is None
    assert (p.start, p.end, p.in_flight_json()) == (13, 13, [])


def test_record_states_move_only_as_kafka_allows() -> None:
    with pytest.raises(InvalidTransition, match="only be transitioned to ACQUIRED from AVAILABLE"):
        RecordState.AVAILABLE.validate_transition(RecordState.ACKNOWLEDGED)
    with pytest.raises(InvalidTransition, match="from the current state: ARCHIVED"):
        RecordState.ARCHIVED.validate_transition(RecordState.AVAILABLE)
    with pytest.raises(InvalidTransition, match="same as the current state"):
        RecordState.ACQUIRED.validate_transition(RecordState.ACQUIRED)
    s = InFlightState(RecordState.ACKNOWLEDGED, 1, None)
    assert not s.try_update(RecordState.ACQUIRED, 5, "A", deliver=True)
    assert s.key() == (RecordState.ACKNOWLEDGED, 1, None)


def test_group_config_and_settings_are_refused_in_kafkas_words() -> None:
    base = {"events": []}
    assert parse_case(base).auto_offset_reset == "latest"
    with pytest.raises(InputError, match=r"^group_config.share.auto.offset.reset: ConfigException: Invalid value "
                                         r"EARLIEST for configuration share.auto.offset.reset: Invalid value "
                                         r"`EARLIEST`"):
        parse_case({**base, "group_config": {"share.auto.offset.reset": "EARLIEST"}})
    with pytest.raises(InputError, match="by_duration strategy, which the lab does not model"):
        parse_case({**base, "group_config": {"share.auto.offset.reset": "by_duration:PT1H"}})
    with pytest.raises(InputError, match="'share.record.lock.duration.ms' is not a group config the lab reads"):
        parse_case({**base, "group_config": {"share.record.lock.duration.ms": 15_000}})
    with pytest.raises(InputError, match="^group_config.share.auto.offset.reset: ConfigException: Invalid value 1 for "
                                         "configuration share.auto.offset.reset: Expected value to be a string, but it "
                                         "was a java.lang.Integer$"):
        parse_case({**base, "group_config": {"share.auto.offset.reset": 1}})
    with pytest.raises(InputError, match="Invalid value 999 for configuration group.share.record.lock.duration.ms: "
                                         "Value must be at least 1000$"):
        parse_settings({"group.share.record.lock.duration.ms": 999})
    assert parse_settings({"group.share.record.lock.duration.ms": 3_600_000}).lock_duration_ms == 3_600_000


def test_random_cases_keep_the_window_consistent() -> None:
    rng = random.Random(11)
    for _ in range(300):
        case = _random_case(rng)
        try:
            steps = cli_share_deliver(case)["steps"]
        except EngineError:
            continue
        for step in steps:
            state, batches = step["state"], step["state"]["in_flight"]
            if not batches:
                assert state["start_offset"] == state["end_offset"]
                continue
            assert batches[0]["first"] <= state["start_offset"] <= batches[0]["last"]
            assert state["end_offset"] == batches[-1]["last"]
            assert all(a["last"] < b["first"] for a, b in zip(batches, batches[1:]))
            assert state["end_offset"] - state["start_offset"] + 1 < 100 + 11  # locks + the largest log batch


def _random_case(rng: random.Random) -> dict:
    log, first = [], 0
    for _ in range(rng.randint(0, 4)):
        last = first + rng.randint(0, 10)
        log.append([first, last])
        first = last + 1 + rng.choice([0, 0, 3])
    events, t = [], 0
    for _ in range(rng.randint(1, 25)):
        t += rng.choice([0, 1, 3_000, 31_000])
        member = rng.choice("AB")
        roll = rng.random()
        if roll < 0.4:
            events.append({"t": t, "op": "fetch", "member": member, "max_records": rng.choice([1, 3, 500])})
        elif roll < 0.8:
            a = rng.randint(0, first + 2)
            events.append({"t": t, "op": "ack", "member": member, "batches": [
                {"first": a, "last": a + rng.randint(0, 5), "type": rng.choice(["ACCEPT", "RELEASE", "REJECT"])}]})
        elif roll < 0.9:
            last = first + rng.randint(0, 10)
            events.append({"t": t, "op": "produce", "batch": [first, last]})
            first = last + 1 + rng.choice([0, 0, 3])
        else:
            events.append({"t": t, "op": "leave", "member": member})
    reset = rng.choice(["earliest", "earliest", "latest"])
    return {"settings": {"group.share.record.lock.duration.ms": 30_000, "group.share.delivery.count.limit": 3,
                         "group.share.partition.max.record.locks": 100},
            "group_config": {"share.auto.offset.reset": reset}, "log": log, "events": events}
