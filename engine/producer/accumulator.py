"""The producer's ``RecordAccumulator`` and ``ProducerBatch``: per-partition queues of batches, filled up to
``batch.size``, made ready by ``linger.ms`` (or by a second batch behind them), drained one batch per
partition per request, and re-enqueued at the front on retry.

* ``append`` / ``tryAppend``: a record goes into the last batch of its partition's queue if
  ``MemoryRecordsBuilder.hasRoomFor`` (the first record always fits; the write limit is
  ``max(batch.size, 61 + 21 + key + value)``), else that batch is closed and a new one is started.
* ``ready`` / ``batchReady``: the head batch is sendable when it is full (``dequeSize > 1`` or closed) or has
  waited ``linger.ms`` since it was created — or, on a retry, the backoff ``retry.backoff.ms x
  2^(attempts-1)``
  capped at ``retry.backoff.max.ms`` (``ExponentialBackoff``; its +-20% jitter is not modelled).  A muted
  partition (``max.in.flight = 1`` and a request in flight) is skipped.
* ``drainBatchesForOneNode``: at most one batch per partition per request, starting at the node's drain index;
  with idempotence a batch gets its producer id, epoch and base sequence here (``TransactionManager``), and
  ``shouldStopDrainBatchesForPartition`` holds back a retried batch until it is the first in flight by
  sequence.
* ``reenqueue``: without idempotence the batch goes back to the *front* of its queue (``addFirst``) — several
  failed batches of one partition come back in reverse order of processing; with idempotence
  ``insertInSequenceOrder`` puts it back by sequence.

Worked example (``tests/engine/producer/test_idempotence.py``): 100-byte values without keys, sent in the same
millisecond, are
109-byte records while the offset delta fits one varint byte (0..63) and 110 bytes after; the default
16,384-byte batch.size takes 64 x 109 + 84 x 110 = 16,216 bytes of them after the 61-byte header: 148 records.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from typing import Final

from engine.storage.records import RECORD_BATCH_OVERHEAD, record_size, size_of_varint

MAX_RECORD_OVERHEAD: Final = 21  # DefaultRecord.MAX_RECORD_OVERHEAD
NO_SEQUENCE: Final = -1


def backoff(initial: int, maximum: int, attempts: int) -> int:
    """``ExponentialBackoff(retry.backoff.ms, 2, retry.backoff.max.ms, jitter)`` at its mean (no jitter)."""
    initial = min(maximum, initial)
    if maximum <= initial:
        return initial
    exp_max = math.log(maximum / max(initial, 1)) / math.log(2)
    return min(int(initial * 2 ** min(attempts, exp_max)), maximum)


@dataclass(frozen=True)
class AppRecord:
    """A record the application sends: its number (send order), partition, send time, sizes."""

    number: int
    partition: int
    send_ms: int
    key_bytes: int | None
    value_bytes: int


@dataclass(eq=False)
class ProducerBatch:
    """``ProducerBatch``: records, timing, attempts and (with idempotence) producer id, epoch, sequence."""

    id: int
    partition: int
    created_ms: int
    write_limit: int
    records: list[AppRecord] = field(default_factory=list)
    size: int = RECORD_BATCH_OVERHEAD
    closed: bool = False
    attempts: int = 0
    last_attempt_ms: int = 0
    retry: bool = False
    producer_id: int = -1
    producer_epoch: int = -1
    base_sequence: int = NO_SEQUENCE
    reopened: bool = False  # sequenceHasBeenReset
    final_state: str | None = None  # "acked" or "failed"
    error: str = ""
    base_offset: int | None = None

    def __post_init__(self) -> None:
        self.last_attempt_ms = self.created_ms

    @property
    def record_count(self) -> int:
        return len(self.records)

    @property
    def has_sequence(self) -> bool:
        return self.base_sequence != NO_SEQUENCE

    @property
    def last_sequence(self) -> int:
        return self.base_sequence + self.record_count - 1

    @property
    def is_done(self) -> bool:
        return self.final_state is not None

    def is_full(self) -> bool:
        """``MemoryRecordsBuilder.isFull``: closed for appends, or exactly at its write limit."""
        return self.closed or (bool(self.records) and self.write_limit <= self.size)

    def _record_size(self, record: AppRecord) -> int:
        base_ts = self.records[0].send_ms if self.records else record.send_ms
        return record_size(len(self.records), record.send_ms - base_ts, record.key_bytes, record.value_bytes)

    def try_append(self, record: AppRecord) -> bool:
        """``ProducerBatch.tryAppend`` -> ``MemoryRecordsBuilder.hasRoomFor``."""
        if self.is_full():
            return False
        size = self._record_size(record)
        if self.records and self.write_limit < self.size + size:
            return False
        self.records.append(record)
        self.size += size
        return True

    def waited_ms(self, now: int) -> int:
        return max(0, now - self.last_attempt_ms)

    def reached_delivery_timeout(self, delivery_timeout_ms: int, now: int) -> bool:
        """``hasReachedDeliveryTimeout``: ``deliveryTimeoutMs <= now - createdMs``."""
        return delivery_timeout_ms <= now - self.created_ms

    def reenqueued(self, now: int) -> None:
        self.attempts += 1
        self.last_attempt_ms = max(self.last_attempt_ms, now)
        self.retry = True

    def label(self) -> str:
        first, last = self.records[0].number, self.records[-1].number
        return f"B{self.id}" + (f" r{first}" if first == last else f" r{first}-r{last}")


def write_limit(batch_size: int, record: AppRecord) -> int:
    """The buffer a new batch gets: ``max(batch.size, estimateSizeInBytesUpperBound(record))``."""
    key = 1 if record.key_bytes is None else size_of_varint(record.key_bytes) + record.key_bytes
    value = size_of_varint(record.value_bytes) + record.value_bytes
    return max(batch_size, RECORD_BATCH_OVERHEAD + MAX_RECORD_OVERHEAD + key + value + 1)


@dataclass
class RecordAccumulator:
    """Per-partition deques of batches (one broker leads every partition in this model)."""

    batch_size: int
    linger_ms: int
    retry_backoff_ms: int
    retry_backoff_max_ms: int
    delivery_timeout_ms: int
    partitions: int
    deques: dict[int, deque[ProducerBatch]] = field(default_factory=dict)
    muted: set[int] = field(default_factory=set)
    drain_index: int = 0
    next_id: int = 1

    def deque_of(self, partition: int) -> deque[ProducerBatch]:
        return self.deques.setdefault(partition, deque())

    def append(self, record: AppRecord, now: int) -> ProducerBatch:
        """``RecordAccumulator.append``: the last batch if it has room, else a new batch."""
        dq = self.deque_of(record.partition)
        if dq and dq[-1].try_append(record):
            return dq[-1]
        if dq:
            dq[-1].closed = True  # closeForRecordAppends
        batch = ProducerBatch(self.next_id, record.partition, now, write_limit(self.batch_size, record))
        self.next_id += 1
        batch.try_append(record)
        dq.append(batch)
        return batch

    def backing_off(self, batch: ProducerBatch, now: int) -> bool:
        """``shouldBackoff`` (the leader never changes in this model)."""
        return batch.attempts > 0 and batch.waited_ms(now) < backoff(
            self.retry_backoff_ms, self.retry_backoff_max_ms, batch.attempts - 1
        )

    def ready(self, now: int) -> tuple[bool, int | None]:
        """``ready`` for the single node: (is some partition sendable, ``nextReadyCheckDelayMs``).

        As ``batchReady`` does, partitions are only looked at while the node is not yet ready: once one is
        sendable the rest add nothing to the delay (the Sender then polls with a zero timeout anyway)."""
        ready, next_check = False, None
        for p in sorted(self.deques):
            dq = self.deques[p]
            if ready or not dq or p in self.muted:
                continue
            batch = dq[0]
            off = self.backing_off(batch, now)
            wait = (
                backoff(self.retry_backoff_ms, self.retry_backoff_max_ms, max(batch.attempts - 1, 0))
                if off
                else self.linger_ms
            )
            full = len(dq) > 1 or batch.is_full()
            if (full or batch.waited_ms(now) >= wait) and not off:
                ready = True
            else:
                left = max(wait - batch.waited_ms(now), 0)
                next_check = left if next_check is None else min(next_check, left)
        return ready, next_check

    def expired_batches(self, now: int) -> tuple[list[ProducerBatch], int | None]:
        """``expiredBatches``: queue heads past ``delivery.timeout.ms``, in sending order; and the earliest
        expiry among the heads left (``maybeUpdateNextBatchExpiryTime``)."""
        out: list[ProducerBatch] = []
        next_expiry: int | None = None
        for p in sorted(self.deques):
            dq = self.deques[p]
            while dq and dq[0].reached_delivery_timeout(self.delivery_timeout_ms, now):
                out.append(dq.popleft())
            if dq:
                expiry = dq[0].created_ms + self.delivery_timeout_ms
                next_expiry = expiry if next_expiry is None else min(next_expiry, expiry)
        return out, next_expiry

    def reenqueue(self, batch: ProducerBatch, now: int, idempotent: bool) -> None:
        """``reenqueue``: ``addFirst``, or ``insertInSequenceOrder`` with idempotence."""
        batch.reenqueued(now)
        dq = self.deque_of(batch.partition)
        if not idempotent:
            dq.appendleft(batch)
            return
        ahead: list[ProducerBatch] = []
        while dq and dq[0].has_sequence and dq[0].base_sequence < batch.base_sequence:
            ahead.append(dq.popleft())
        dq.appendleft(batch)
        for b in reversed(ahead):
            dq.appendleft(b)

    def has_undrained(self) -> bool:
        return any(self.deques.values())
