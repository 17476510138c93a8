"""SharePartition's rules as Kafka's broker class applies them (kafka.server.share.SharePartition, 4.0 line),
on small hand-made cases, and its invariants over random cases (no error but a one-line refusal)."""

from __future__ import annotations

import random

from engine.errors import EngineError
from engine.share.cli import cli_share_deliver
from engine.share.log import ShareLog
from engine.share.settings import ShareSettings
from engine.share.share_partition import INVALID_RECORD_STATE, INVALID_REQUEST, AckBatch, SharePartition


def _partition(limit: int = 5, lock_ms: int = 5_000) -> SharePartition:
    return SharePartition(ShareSettings(lock_ms, limit, 200), ShareLog([(0, 4), (5, 9)]))


def test_a_lock_fires_only_strictly_after_its_expiry() -> None:
    p = _partition()
    p.fetch("A", 500, now=1_000)
    assert p.expire(6_000) == []
    assert [lock.expiry for lock in p.expire(6_001)] == [6_000]


def test_the_limit_applies_when_a_record_would_become_available_again() -> None:
    p = _partition(limit=2)
    p.fetch("A", 500, now=0)
    p.acknowledge("A", [AckBatch(0, 9, "RELEASE")])
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
        if rng.random() < 0.5:
            events.append({"t": t, "op": "fetch", "member": member, "max_records": rng.choice([1, 3, 500])})
        else:
            a = rng.randint(0, first + 2)
            events.append({"t": t, "op": "ack", "member": member, "batches": [
                {"first": a, "last": a + rng.randint(0, 5), "type": rng.choice(["ACCEPT", "RELEASE", "REJECT"])}]})
    return {"settings": {"group.share.record.lock.duration.ms": 30_000, "group.share.delivery.count.limit": 3,
                         "group.share.partition.max.record.locks": 100}, "log": log, "events": events}
