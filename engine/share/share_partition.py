"""``SharePartition``: record delivery inside one share partition, as Kafka's broker class does it.

The in-flight window runs from ``start`` to ``end`` (the *last* offset in flight, Kafka's own field; both are
the next offset when nothing is in flight).  A fetch acquires records in batches under a lock; an
acknowledgement moves them to ACKNOWLEDGED / AVAILABLE / ARCHIVED; a leaving member's records are released;
a lock that runs out makes its records AVAILABLE again.  **The limit rule**: a record that would become
AVAILABLE with ``delivery_count >= group.share.delivery.count.limit`` is ARCHIVED instead.  Each rule is that of
Kafka's 4.0-line class (``../shared/vectors/share_deliver.README.md`` restates them in Kafka's terms).

Worked example (run by ``tests/engine/test_worked_examples.py``): a log of two batches, A takes them all, B's
fetch finds nothing to re-deliver; A crashes, its lock runs out at 30,000 ms and B gets the records again
with their delivery count raised to 2::

    >>> from engine.share.log import ShareLog
    >>> from engine.share.settings import ShareSettings
    >>> p = SharePartition(ShareSettings(), ShareLog([(0, 4), (5, 9)]))
    >>> p.fetch("A", 500, now=0).acquired
    [(0, 9, 1)]
    >>> p.fetch("B", 500, now=10).acquired, p.start, p.end
    ([], 0, 9)
    >>> [lock.as_json() for lock in p.expire(30_001)]
    [{'at': 30000, 'member': 'A', 'first': 0, 'last': 9}]
    >>> p.fetch("B", 500, now=30_001).acquired
    [(0, 9, 2)]
    >>> p.acknowledge("B", [AckBatch(0, 9, "ACCEPT")]), p.start, p.end, p.in_flight_json()
    (None, 10, 10, [])
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.share.acquisition_lock import AcquisitionLock, LockTimer
from engine.share.in_flight import InFlightBatch, InFlightState
from engine.share.log import ShareLog
from engine.share.record_state import ACK_TARGETS, RecordState
from engine.share.settings import ShareSettings

AVAILABLE, ACQUIRED, ARCHIVED = RecordState.AVAILABLE, RecordState.ACQUIRED, RecordState.ARCHIVED
INVALID_RECORD_STATE = "INVALID_RECORD_STATE"
INVALID_REQUEST = "INVALID_REQUEST"
Move = tuple[InFlightState, RecordState, int, int]  # a tentative move of an ack: state, target, first, last


@dataclass(frozen=True)
class AckBatch:
    """One acknowledgement batch: ``type`` for all of ``first..last``, or ``types`` one per offset."""

    first: int
    last: int
    type: str | None = None
    types: tuple[str, ...] | None = None

    def target(self, offset: int) -> RecordState:
        kind = self.types[offset - self.first] if self.types is not None else self.type
        assert kind is not None
        return ACK_TARGETS[kind]


@dataclass(frozen=True)
class FetchResult:
    """``fetch_offset`` (None: the in-flight limit stopped the fetch) and the ranges acquired, in order,
    each ``(first, last, delivery_count)``."""

    fetch_offset: int | None
    acquired: list[tuple[int, int, int]]

    @property
    def records(self) -> int:
        return sum(last - first + 1 for first, last, _ in self.acquired)


class SharePartition:
    """One share partition of one share group, in virtual time (ms)."""

    def __init__(self, settings: ShareSettings, log: ShareLog) -> None:
        self.settings = settings
        self.log = log
        self.start = 0
        self.end = 0
        self.batches: list[InFlightBatch] = []
        self.firsts: list[int] = []
        self.timer = LockTimer()
        self.available = 0  # AVAILABLE records in flight: a fetch scans for one only when there is one
        #: told ``(first, last, state, at_limit)`` whenever records become final (the page's summary listens)
        self.on_final: Callable[[int, int, RecordState, bool], None] | None = None

    # ------------------------------------------------------------------------------------------ time

    def expire(self, now: int) -> list[AcquisitionLock]:
        """Fire every live lock with ``expiry < now``; each fired record becomes AVAILABLE (limit rule)."""
        fired = self.timer.due(now)
        for lock in fired:
            state = lock.guards
            if state is not None and state.state is ACQUIRED:
                state.lock = None
                self._make_available(state, lock.first, lock.last)
            self._advance_start()
        return fired

    # ----------------------------------------------------------------------------------------- fetch

    def fetch_offset(self) -> int:
        """``end`` when nothing is in flight, else the first AVAILABLE offset, else ``end + 1``."""
        if not self.batches:
            return self.end
        if self.available:
            for b in self.batches:
                if b.offsets is None:
                    if b.whole is not None and b.whole.state is AVAILABLE:
                        return b.first
                    continue
                for i, s in enumerate(b.offsets):
                    if s.state is AVAILABLE:
                        return b.first + i
        return self.end + 1

    def fetch(self, member: str, max_records: int, now: int) -> FetchResult:
        """A share fetch: the in-flight limit gates the attempt, then whole log batches are read and acquired."""
        offset = self.fetch_offset()
        if self.batches and offset == self.end + 1 and self.end - self.start + 1 >= self.settings.max_record_locks:
            return FetchResult(None, [])
        read = self.log.read_from(offset)
        if read is None:
            return FetchResult(offset, [])
        return FetchResult(offset, self._acquire(member, read[0], read[1], max_records, now))

    def _acquire(self, member: str, first: int, last: int, budget: int, now: int) -> list[tuple[int, int, int]]:
        base = first
        i = bisect_right(self.firsts, first) - 1
        if i >= 0 and self.batches[i].last >= first:
            base = self.batches[i].first
        overlap = self.batches[bisect_left(self.firsts, base):bisect_right(self.firsts, last)]
        if not overlap:
            return self._acquire_new(member, first, last, budget, now)
        acquired: list[tuple[int, int, int]] = []
        count = 0
        for b in overlap:
            if count >= budget:
                break
            if b.offsets is None:
                whole = b.whole
                assert whole is not None
                if whole.state is not AVAILABLE:
                    continue
                if b.first >= first:
                    self._take(whole, member, b.first, b.last, now)
                    acquired.append((b.first, b.last, whole.delivery_count))
                    count += b.width
                    continue
                b.split()
            offsets = b.split()
            for o in range(max(b.first, first), min(b.last, last) + 1):
                s = offsets[o - b.first]
                if s.state is AVAILABLE:
                    self._take(s, member, o, o, now)
                    acquired.append((o, o, s.delivery_count))
                    count += 1
        tail = overlap[-1].last
        if count < budget and tail < last:
            acquired += self._acquire_new(member, tail + 1, last, budget - count, now)
        return acquired

    def _acquire_new(self, member: str, first: int, last: int, budget: int, now: int) -> list[tuple[int, int, int]]:
        if not self.batches and self.end > first:
            first = self.end
        if first > last:
            return []
        if budget < last - first + 1:
            last = self.log.batch_end(first + budget - 1)
        state = InFlightState(ACQUIRED, 1, member)
        batch = InFlightBatch(first, last, state)
        state.lock = self.timer.start(AcquisitionLock(first, last, now + self.settings.lock_duration_ms, member,
                                                      state))
        if not self.batches:
            self.start = first
        at = bisect_left(self.firsts, first)
        self.firsts.insert(at, first)
        self.batches.insert(at, batch)
        self.end = last
        return [(first, last, 1)]

    def _take(self, s: InFlightState, member: str, first: int, last: int, now: int) -> None:
        s.state = ACQUIRED
        s.delivery_count += 1
        s.member = member
        s.lock = self.timer.start(AcquisitionLock(first, last, now + self.settings.lock_duration_ms, member, s))
        self.available -= last - first + 1

    # ----------------------------------------------------------------------------------- acknowledge

    def acknowledge(self, member: str, acks: Sequence[AckBatch]) -> str | None:
        """Kafka's ``acknowledge``: all moves or none (splits stay); the error name, or None on success."""
        moves: list[Move] = []
        for ack in acks:
            error = self._plan_ack(member, ack, moves)
            if error is not None:
                return error
        for s, target, first, last in moves:
            if s.lock is not None:
                s.lock.cancel()
                s.lock = None
            if target is AVAILABLE:
                self._make_available(s, first, last)
            else:
                s.state = target
                s.member = None
                if self.on_final is not None:
                    self.on_final(first, last, target, False)
        self._advance_start()
        return None

    def _plan_ack(self, member: str, ack: AckBatch, moves: list[Move]) -> str | None:
        if ack.last < self.start:
            return None
        i = bisect_right(self.firsts, ack.first) - 1
        if i < 0:
            if not ack.first < self.start <= ack.last:
                return INVALID_RECORD_STATE
            i = bisect_right(self.firsts, self.start) - 1
            if i < 0:
                return INVALID_RECORD_STATE
        span = self.batches[i:bisect_right(self.firsts, ack.last)]
        if span[-1].last < ack.first or span[-1].last < ack.last:
            return INVALID_REQUEST
        for b in span:
            if b.last < self.start:
                continue
            if b.offsets is None:
                whole = b.whole
                assert whole is not None
                if whole.member != member:
                    return INVALID_RECORD_STATE
                inside = ack.first <= b.first and b.last <= ack.last
                if inside and ack.types is None and not b.first < self.start <= b.last:
                    moves.append((whole, ack.target(b.first), b.first, b.last))
                    continue
                if whole.state is not ACQUIRED:
                    return INVALID_RECORD_STATE
                self._split(b)
            offsets = b.split()
            for o in range(max(b.first, ack.first, self.start), min(b.last, ack.last) + 1):
                s = offsets[o - b.first]
                if s.state is not ACQUIRED or s.member != member:
                    return INVALID_RECORD_STATE
                moves.append((s, ack.target(o), o, o))
        return None

    def _split(self, b: InFlightBatch) -> None:
        """Turn a whole batch per-offset; an ACQUIRED batch's lock becomes one lock per offset, same expiry."""
        whole = b.whole
        assert whole is not None
        lock = whole.lock
        offsets = b.split()
        if lock is not None and lock.live:
            lock.cancel()
            for o, s in enumerate(offsets, start=b.first):
                s.lock = self.timer.start(AcquisitionLock(o, o, lock.expiry, lock.member, s))

    # ----------------------------------------------------------------------------------------- leave

    def release_acquired_records(self, member: str) -> None:
        """A member closes its share session: its ACQUIRED records become AVAILABLE (limit rule); inside a
        per-offset batch the walk stops at the first offset another member holds."""
        for b in self.batches:
            if b.offsets is None:
                whole = b.whole
                assert whole is not None
                if whole.state is ACQUIRED and whole.member == member:
                    self._release(whole, b.first, b.last)
                continue
            for o, s in enumerate(b.offsets, start=b.first):
                if s.state is ACQUIRED:
                    if s.member != member:
                        break
                    self._release(s, o, o)
        self._advance_start()

    def _release(self, s: InFlightState, first: int, last: int) -> None:
        if s.lock is not None:
            s.lock.cancel()
            s.lock = None
        self._make_available(s, first, last)

    def _make_available(self, s: InFlightState, first: int, last: int) -> None:
        """The limit rule: AVAILABLE again, or ARCHIVED once the delivery count has reached the limit."""
        s.member = None
        if s.delivery_count >= self.settings.delivery_count_limit:
            s.state = ARCHIVED
            if self.on_final is not None:
                self.on_final(first, last, ARCHIVED, True)
        else:
            s.state = AVAILABLE
            self.available += last - first + 1

    # ---------------------------------------------------------------------------------- start offset

    def _advance_start(self) -> None:
        if not self.batches or not self.batches[0].state_at(self.start).state.is_final:
            return
        k, holder = self.start, 0
        for j, b in enumerate(self.batches):
            if b.offsets is None:
                assert b.whole is not None
                if not b.whole.state.is_final:
                    break
                k, holder = b.last, j
                continue
            done = True
            for o in range(max(b.first, self.start), b.last + 1):
                if not b.offsets[o - b.first].state.is_final:
                    done = False
                    break
                k, holder = o, j
            if not done:
                break
        if k == self.end:
            self.start = self.end = k + 1
            self.batches.clear()
            self.firsts.clear()
        elif k == self.batches[holder].last:
            self.start = self.batches[holder + 1].first
            del self.batches[:holder + 1], self.firsts[:holder + 1]
        else:
            self.start = k + 1
            del self.batches[:holder], self.firsts[:holder]

    # ------------------------------------------------------------------------------------------ views

    def in_flight_json(self) -> list[dict[str, Any]]:
        return [b.as_json() for b in self.batches]

    def state_json(self) -> dict[str, Any]:
        return {"start_offset": self.start, "end_offset": self.end, "in_flight": self.in_flight_json()}

    def in_flight_records(self) -> int:
        """The window's width as the in-flight limit counts it (gaps and final records inside included)."""
        return self.end - self.start + 1 if self.batches else 0
