"""``SharePartition``: record delivery inside one share partition, as Kafka's broker class does it.

The in-flight window runs from ``start`` to ``end`` (the *last* offset in flight, Kafka's own field; both are
the next offset when nothing is in flight).  A fetch acquires records in batches under a lock; an
acknowledgement moves them to ACKNOWLEDGED / AVAILABLE / ARCHIVED; a leaving member's records are released;
a lock that runs out makes its records AVAILABLE again.  **The limit rule** (``InFlightState.try_update``): a
record that would become AVAILABLE with ``delivery_count >= group.share.delivery.count.limit`` is ARCHIVED
instead.  Each rule is that of Kafka's class (``../shared/vectors/share_deliver.README.md`` restates them in
Kafka's terms):

- the partition starts at its first fetch, at offset 0 (``share.auto.offset.reset`` ``earliest``) or at the
  log end (``latest``);
- the in-flight limit gates a fetch and caps what it acquires: at most ``max.record.locks`` minus the
  window's width (KAFKA-19555);
- records at or past the throttle threshold (half the delivery limit, at least 2) are handed out in halving
  portions, a record on its last delivery goes alone, and a throttled batch ends the acquisition when something
  was acquired before it (KAFKA-17541);
- offsets re-acquired from one per-offset batch are reported as ranges of consecutive offsets with the same
  delivery count (KAFKA-19957);
- a leave releases the member's offsets inside a per-offset batch, skipping other members' (KAFKA-19953);
- AVAILABLE records between the fetch offset and the first log batch read are archived: the log no longer
  holds them (KAFKA-17351).

Worked example (run by ``tests/test_worked_examples.py``): a log of two batches, A takes them all, B's
fetch finds nothing to re-deliver; A crashes, its lock runs out at 30,000 ms and B gets the records again
with their delivery count raised to 2::

    >>> from engine.share.log import ShareLog
    >>> from engine.share.settings import ShareSettings
    >>> p = SharePartition(ShareSettings(), ShareLog([(0, 4), (5, 9)]), "earliest")
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

Under ``latest`` the first fetch starts the partition at the log end: only records produced later are
delivered::

    >>> q = SharePartition(ShareSettings(), ShareLog([(0, 9)]), "latest")
    >>> q.fetch("A", 500, now=0), (q.start, q.end)
    (FetchResult(fetch_offset=10, acquired=[]), (10, 10))
    >>> q.log.append(10, 14); q.fetch("A", 500, now=1).acquired
    [(10, 14, 1)]
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.share.acquisition_lock import AcquisitionLock, LockTimer
from engine.share.in_flight import InFlightBatch, InFlightState
from engine.share.log import ShareLog
from engine.share.record_state import ACK_TARGETS, RecordState
from engine.share.settings import AUTO_OFFSET_RESET_DEFAULT, EARLIEST, ResetStrategy, ShareSettings

AVAILABLE, ACQUIRED, ARCHIVED = RecordState.AVAILABLE, RecordState.ACQUIRED, RecordState.ARCHIVED
INVALID_RECORD_STATE: Final = "INVALID_RECORD_STATE"
INVALID_REQUEST: Final = "INVALID_REQUEST"
MIN_THROTTLE_DELIVERIES: Final = 2  # Kafka's MINIMUM_THROTTLE_RECORDS_DELIVERY_LIMIT
Move = tuple[InFlightState, RecordState, int, int]  # a tentative move of an ack: state, target, first, last
Acquired = tuple[int, int, int]  # first, last, delivery count


@dataclass(frozen=True)
class AckBatch:
    """One acknowledgement batch: ``type`` for all of ``first..last``, or ``types`` one per offset."""

    first: int
    last: int
    type: str | None = None
    types: tuple[str, ...] | None = None

    def target(self, offset: int) -> RecordState:
        """The state the acknowledgement asks for at ``offset``."""
        kind = self.types[offset - self.first] if self.types is not None else self.type
        assert kind is not None
        return ACK_TARGETS[kind]


@dataclass(frozen=True)
class FetchResult:
    """``fetch_offset`` (None: the in-flight limit stopped the fetch) and the ranges acquired, in order,
    each ``(first, last, delivery_count)``."""

    fetch_offset: int | None
    acquired: list[Acquired]

    @property
    def records(self) -> int:
        """Offsets acquired (gap offsets inside a range included)."""
        return sum(last - first + 1 for first, last, _ in self.acquired)


def throttle_threshold(delivery_count_limit: int) -> int:
    """Deliveries from which a record is throttled: half the limit rounded up, at least 2.

    >>> [throttle_threshold(limit) for limit in (2, 3, 4, 5, 6, 10)]
    [2, 2, 2, 3, 3, 5]
    """
    return max(MIN_THROTTLE_DELIVERIES, -(-delivery_count_limit // 2))


class SharePartition:
    """One share partition of one share group, in virtual time (ms); ``auto_offset_reset`` is the group's
    ``share.auto.offset.reset``."""

    def __init__(self, settings: ShareSettings, log: ShareLog,
                 auto_offset_reset: ResetStrategy = AUTO_OFFSET_RESET_DEFAULT) -> None:
        self.settings = settings
        self.log = log
        self.auto_offset_reset = auto_offset_reset
        self.initialized = False
        self.start = 0
        self.end = 0
        self.batches: list[InFlightBatch] = []
        self.firsts: list[int] = []
        self.timer = LockTimer()
        self.available = 0  # AVAILABLE records in flight: a fetch scans for one only when there is one
        self.limit = settings.delivery_count_limit
        self.throttle_from = throttle_threshold(self.limit)
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
                self._release(state, lock.first, lock.last)
                self._advance_start()
        return fired

    # ----------------------------------------------------------------------------------------- fetch

    def initialize(self) -> None:
        """Start the partition (Kafka's ``maybeInitialize`` with no stored state), once: at offset 0 under
        ``earliest``, at the log end under ``latest``; nothing in flight."""
        if not self.initialized:
            self.start = self.end = 0 if self.auto_offset_reset == EARLIEST else self.log.end
            self.initialized = True

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
        """A share fetch: the partition starts if it has not, the in-flight limit gates the attempt, then whole
        log batches are read from the fetch offset to the log end and acquired."""
        self.initialize()
        offset = self.fetch_offset()
        if offset == self.end + 1 and self.in_flight_records() >= self.settings.max_record_locks:
            return FetchResult(None, [])
        read = self.log.read_from(offset)
        if read is None:
            return FetchResult(offset, [])
        return FetchResult(offset, self._acquire(member, offset, read[0], read[1], max_records, now))

    def _acquire_bounds(self, fetch_offset: int, max_records: int, last: int) -> tuple[int, int]:
        """``(last offset, most records)`` an acquisition may take: ``max_records`` up to the in-flight limit
        (``max.record.locks`` minus the window's width); a full window still re-delivers what is inside it."""
        budget = min(max_records, self.settings.max_record_locks - self.in_flight_records())
        if budget <= 0 and fetch_offset <= self.end:
            budget = min(max_records, self.end - fetch_offset + 1)
            last = min(last, self.end)
        return last, budget

    def _acquire(self, member: str, fetch_offset: int, first: int, last: int, max_records: int,
                 now: int) -> list[Acquired]:
        """Kafka's ``acquire`` of the log batches ``first..last`` read from ``fetch_offset``."""
        if last < self.start:
            return []
        last, budget = self._acquire_bounds(fetch_offset, max_records, last)
        if budget <= 0:
            return []
        self._archive_unread(fetch_offset, first)
        base = first
        i = bisect_right(self.firsts, first) - 1
        if i < 0:
            base = max(first, self.start)
        elif self.batches[i].last >= first:
            base = self.batches[i].first
        overlap = self.batches[bisect_left(self.firsts, min(first, base)):bisect_right(self.firsts, last)]
        if not overlap:
            return self._acquire_new(member, base, last, budget, now)
        acquired: list[Acquired] = []
        count = 0
        for b in overlap:
            if count >= budget:
                break
            throttled = self._throttled(b, first, last)
            if throttled and count > 0:
                return acquired
            if b.offsets is None:
                whole = b.whole
                assert whole is not None
                if whole.state is not AVAILABLE:
                    continue
                if not throttled and b.first >= first and b.last <= last:
                    self._take(whole, member, b.first, b.last, now)
                    acquired.append((b.first, b.last, whole.delivery_count))
                    count += b.width
                    continue
                self._split(b)
            taken = self._acquire_offsets(b, member, first, last, now, acquired)
            count += taken
            if throttled and taken:
                return acquired
        tail = overlap[-1].last
        if count < budget and tail < last:
            acquired += self._acquire_new(member, tail + 1, last, budget - count, now)
        return acquired

    def _throttled(self, b: InFlightBatch, first: int, last: int) -> bool:
        """A whole AVAILABLE batch delivered at least ``throttle_from`` times, or a per-offset batch whose
        AVAILABLE offsets in ``first..last`` reach that count."""
        if b.offsets is None:
            assert b.whole is not None
            return b.whole.state is AVAILABLE and b.whole.delivery_count >= self.throttle_from
        low, high = max(b.first, first) - b.first, min(b.last, last) - b.first
        return any(s.state is AVAILABLE and s.delivery_count >= self.throttle_from
                   for s in b.offsets[low:high + 1])

    def _acquire_offsets(self, b: InFlightBatch, member: str, first: int, last: int, now: int,
                         acquired: list[Acquired]) -> int:
        """The AVAILABLE offsets of a per-offset batch in ``first..last``, in order: a record on its last
        delivery goes alone, throttled records in a portion halved per delivery past the threshold.  Appends
        runs of consecutive offsets with one delivery count; returns the offsets taken."""
        offsets = b.split()
        limit, portion, taken = self.limit, 0, 0
        runs: list[list[int]] = []
        for o in range(max(b.first, first), min(b.last, last) + 1):
            s = offsets[o - b.first]
            if s.state is not AVAILABLE:
                continue
            delivered = s.delivery_count
            if limit > 2 and delivered == limit - 1 and taken > 0:
                break
            if delivered >= self.throttle_from and not portion:
                portion = max(1, b.width >> (delivered - self.throttle_from + 1))
            self._take(s, member, o, o, now)
            taken += 1
            if runs and runs[-1][1] == o - 1 and runs[-1][2] == s.delivery_count:
                runs[-1][1] = o
            else:
                runs.append([o, o, s.delivery_count])
            if (limit > 2 and s.delivery_count == limit) or taken == portion:
                break
        acquired.extend((f, la, d) for f, la, d in runs)
        return taken

    def _acquire_new(self, member: str, first: int, last: int, budget: int, now: int) -> list[Acquired]:
        """Records not yet in flight, ``first..last``, as one whole batch: cut after ``budget`` records,
        rounded up to the end of the log batch holding the cut."""
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
        at = bisect_left(self.firsts, first)
        self.firsts.insert(at, first)
        self.batches.insert(at, batch)
        if at == 0:
            self.start = first
        self.end = max(self.end, last)
        return [(first, last, 1)]

    def _take(self, s: InFlightState, member: str, first: int, last: int, now: int) -> None:
        if s.try_update(ACQUIRED, self.limit, member, deliver=True):
            s.lock = self.timer.start(AcquisitionLock(first, last, now + self.settings.lock_duration_ms, member,
                                                      s))
            self.available -= last - first + 1

    def _archive_unread(self, fetch_offset: int, first: int) -> None:
        """AVAILABLE records from ``fetch_offset`` up to the first offset the log read (``first``) are
        ARCHIVED: the log no longer holds them (Kafka's ``maybeArchiveStaleBatches``)."""
        if not self.batches or fetch_offset >= first:
            return
        low = fetch_offset
        i = bisect_right(self.firsts, fetch_offset) - 1
        if i >= 0 and self.batches[i].last >= fetch_offset:
            low = self.batches[i].first
        for b in self.batches[bisect_left(self.firsts, low):bisect_left(self.firsts, first)]:
            if b.offsets is None:
                whole = b.whole
                assert whole is not None
                if whole.state is not AVAILABLE:
                    continue
                if b.first >= fetch_offset and b.last < first:
                    self._archive(whole, b.first, b.last)
                    continue
                self._split(b)
            offsets = b.split()
            for o in range(max(b.first, fetch_offset), min(b.last, first - 1) + 1):
                if offsets[o - b.first].state is AVAILABLE:
                    self._archive(offsets[o - b.first], o, o)

    def _archive(self, s: InFlightState, first: int, last: int) -> None:
        s.archive()
        self.available -= last - first + 1
        if self.on_final is not None:
            self.on_final(first, last, ARCHIVED, False)

    # ----------------------------------------------------------------------------------- acknowledge

    def acknowledge(self, member: str, acks: Sequence[AckBatch]) -> str | None:
        """Kafka's ``acknowledge``: all moves or none (splits stay); the error name, or None on success."""
        moves: list[Move] = []
        for ack in acks:
            error = self._plan_ack(member, ack, moves)
            if error is not None:
                return error
        for s, target, first, last in moves:
            s.release_lock()
            if target is AVAILABLE:
                self._make_available(s, first, last)
            elif s.try_update(target, self.limit, None) and self.on_final is not None:
                self.on_final(first, last, target, False)
        if moves:
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
            if i < 0:  # Kafka throws a NullPointerException here; the lab answers as for a missing batch
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
                    if whole.state is not ACQUIRED:
                        return INVALID_RECORD_STATE
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
        per-offset batch the walk skips offsets other members hold and goes on."""
        moved = False
        for b in self.batches:
            if b.offsets is None:
                whole = b.whole
                assert whole is not None
                if whole.state is ACQUIRED and whole.member == member:
                    self._release(whole, b.first, b.last)
                    moved = True
                continue
            for o, s in enumerate(b.offsets, start=b.first):
                if s.state is ACQUIRED and s.member == member:
                    self._release(s, o, o)
                    moved = True
        if moved:
            self._advance_start()

    def _release(self, s: InFlightState, first: int, last: int) -> None:
        """An ACQUIRED record (or whole batch) released by a leave or its lock: AVAILABLE (limit rule), or
        ARCHIVED when it lies before the start offset."""
        s.release_lock()
        if last < self.start:
            if s.try_update(ARCHIVED, self.limit, None) and self.on_final is not None:
                self.on_final(first, last, ARCHIVED, False)
            return
        self._make_available(s, first, last)

    def _make_available(self, s: InFlightState, first: int, last: int) -> None:
        """The limit rule: AVAILABLE again, or ARCHIVED once the delivery count has reached the limit."""
        if not s.try_update(AVAILABLE, self.limit, None):
            return
        if s.state is ARCHIVED:
            if self.on_final is not None:
                self.on_final(first, last, ARCHIVED, True)
        else:
            self.available += last - first + 1

    # ---------------------------------------------------------------------------------- start offset

    def _advance_start(self) -> None:
        """Kafka's ``maybeUpdateCachedStateAndOffsets``: past the final records from ``start`` on.  Every offset
        before ``start`` is final, and ``start`` lies in the first in-flight batch."""
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
        """The in-flight batches in the vectors' shape."""
        return [b.as_json() for b in self.batches]

    def state_json(self) -> dict[str, Any]:
        """``start_offset``, ``end_offset`` and the in-flight batches, as a step's ``state``."""
        return {"start_offset": self.start, "end_offset": self.end, "in_flight": self.in_flight_json()}

    def in_flight_records(self) -> int:
        """The window's width as the in-flight limit counts it (gaps and final records inside included)."""
        return self.end - self.start + 1 if self.batches else 0
