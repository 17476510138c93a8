"""What the broker remembers about each idempotent producer of a partition: ``ProducerStateManager``,
``ProducerStateEntry`` and ``ProducerAppendInfo`` (storage module), driven as ``UnifiedLog.append`` does.

For each producer id the entry keeps the producer epoch and the metadata of its last
``NUM_BATCHES_TO_RETAIN = 5`` batches (first/last sequence, last offset).  An incoming batch is:

* a **duplicate** (``ProducerStateEntry.findDuplicateBatch``) when its epoch is the entry's and its exact
  sequence range is one of those 5: nothing is appended and the client gets the *original* offset with no
  error
  (``UnifiedLog.analyzeAndValidateProducerState``; today's brokers never send ``DUPLICATE_SEQUENCE_NUMBER``);
* **out of order** (``ProducerAppendInfo.checkSequence``): same epoch and first sequence != last sequence + 1
  -> ``OUT_OF_ORDER_SEQUENCE_NUMBER``, nothing appended.  This includes an *old* retry whose batch is no
  longer
  among the 5 remembered ones — it is not silently dropped as seed article 004 says;
* for a new epoch, accepted only with sequence 0; for a producer the broker has no state for, any sequence;
* a smaller epoch than the entry's -> ``INVALID_PRODUCER_EPOCH``.

Sequences are per partition and count records: a batch of 3 records with base sequence 5 carries 5..7.
Five remembered batches is why the producer allows at most 5 in flight with idempotence: any retry of a batch
still in flight is then guaranteed to be recognised.

Worked example (``tests/engine/storage/test_storage_producer_state.py``): batches seq 0-1, 2-3, 4-5, 6-7, 8-9, 10-11
appended;
a retry of 2-3 is a duplicate (still remembered), a retry of 0-1 is OUT_OF_ORDER_SEQUENCE_NUMBER (evicted by
10-11),
and 14-15 is OUT_OF_ORDER_SEQUENCE_NUMBER (12-13 missing).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Final

NUM_BATCHES_TO_RETAIN: Final = 5
NO_PRODUCER_EPOCH: Final = -1
NO_SEQUENCE: Final = -1
INT_MAX: Final = 2**31 - 1


class ProduceError(Exception):
    """A broker-side rejection of one batch, carrying Kafka's error code name."""

    code = "UNKNOWN_SERVER_ERROR"


class OutOfOrderSequence(ProduceError):
    code = "OUT_OF_ORDER_SEQUENCE_NUMBER"


class InvalidProducerEpoch(ProduceError):
    code = "INVALID_PRODUCER_EPOCH"


class InvalidTxnState(ProduceError):
    code = "INVALID_TXN_STATE"


def increment_sequence(sequence: int, increment: int) -> int:
    """``DefaultRecordBatch.incrementSequence``: wraps after Integer.MAX_VALUE to 0."""
    if sequence > INT_MAX - increment:
        return increment - (INT_MAX - sequence) - 1
    return sequence + increment


def decrement_sequence(sequence: int, decrement: int) -> int:
    """``DefaultRecordBatch.decrementSequence``."""
    if sequence < decrement:
        return INT_MAX - (decrement - sequence) + 1
    return sequence - decrement


@dataclass(frozen=True)
class BatchMetadata:
    """``BatchMetadata``: enough to answer a duplicate with the original offsets."""

    last_seq: int
    last_offset: int
    offset_delta: int
    timestamp: int

    @property
    def first_seq(self) -> int:
        return decrement_sequence(self.last_seq, self.offset_delta)

    @property
    def first_offset(self) -> int:
        return self.last_offset - self.offset_delta


@dataclass
class ProducerStateEntry:
    """``ProducerStateEntry``: epoch and the last 5 batches of one producer id on one partition."""

    producer_id: int
    producer_epoch: int = NO_PRODUCER_EPOCH
    batch_metadata: deque[BatchMetadata] = field(default_factory=deque)
    current_txn_first_offset: int | None = None
    last_timestamp: int = -1

    @property
    def last_seq(self) -> int:
        return self.batch_metadata[-1].last_seq if self.batch_metadata else NO_SEQUENCE

    def copy(self) -> ProducerStateEntry:
        return ProducerStateEntry(
            self.producer_id,
            self.producer_epoch,
            deque(self.batch_metadata),
            self.current_txn_first_offset,
            self.last_timestamp,
        )

    def maybe_update_producer_epoch(self, epoch: int) -> bool:
        if self.producer_epoch != epoch:
            self.batch_metadata.clear()
            self.producer_epoch = epoch
            return True
        return False

    def add_batch(
        self, epoch: int, last_seq: int, last_offset: int, offset_delta: int, timestamp: int
    ) -> None:
        self.maybe_update_producer_epoch(epoch)
        if len(self.batch_metadata) == NUM_BATCHES_TO_RETAIN:
            self.batch_metadata.popleft()
        self.batch_metadata.append(BatchMetadata(last_seq, last_offset, offset_delta, timestamp))
        self.last_timestamp = timestamp

    def find_duplicate_batch(self, epoch: int, first_seq: int, last_seq: int) -> BatchMetadata | None:
        """``findDuplicateBatch``: same epoch and the exact sequence range of a remembered batch."""
        if epoch != self.producer_epoch:
            return None
        return next(
            (m for m in self.batch_metadata if m.first_seq == first_seq and m.last_seq == last_seq), None
        )


def in_sequence(last_seq: int, next_seq: int) -> bool:
    """``ProducerAppendInfo.inSequence``."""
    return next_seq == last_seq + 1 or (next_seq == 0 and last_seq == INT_MAX)


def check_sequence(current: ProducerStateEntry, epoch: int, first_seq: int) -> None:
    """``ProducerAppendInfo.checkProducerEpoch`` + ``checkSequence`` (origin CLIENT, no verification
    guard)."""
    if epoch < current.producer_epoch:
        raise InvalidProducerEpoch(
            f"epoch {epoch} is smaller than the last seen epoch {current.producer_epoch}"
        )
    if epoch != current.producer_epoch:
        if first_seq != 0 and current.producer_epoch != NO_PRODUCER_EPOCH:
            raise OutOfOrderSequence(
                f"Invalid sequence number for new epoch {epoch}: {first_seq} (must be 0)"
            )
        return
    if current.producer_epoch != NO_PRODUCER_EPOCH and not in_sequence(current.last_seq, first_seq):
        raise OutOfOrderSequence(
            f"Out of order sequence number: {first_seq} (incoming seq. number), "
            f"{current.last_seq} (current end sequence number)"
        )


@dataclass(frozen=True)
class AppendDecision:
    """What ``UnifiedLog.append`` does with one producer batch: append, answer a duplicate, or reject."""

    outcome: str  # "append", "duplicate", or an error code
    message: str = ""
    duplicate: BatchMetadata | None = None


@dataclass
class ProducerStateManager:
    """``ProducerStateManager`` of one partition: producer id -> entry."""

    producers: dict[int, ProducerStateEntry] = field(default_factory=dict)

    def last_entry(self, producer_id: int) -> ProducerStateEntry | None:
        return self.producers.get(producer_id)

    def analyze(
        self, producer_id: int, epoch: int, first_seq: int, last_seq: int, transactional: bool = False
    ) -> AppendDecision:
        """``analyzeAndValidateProducerState`` for one client batch, before anything is written."""
        entry = self.last_entry(producer_id)
        if entry is not None:
            dup = entry.find_duplicate_batch(epoch, first_seq, last_seq)
            if dup is not None:
                return AppendDecision(
                    "duplicate", f"duplicate of offsets {dup.first_offset}..{dup.last_offset}", dup
                )
        current = entry or ProducerStateEntry(producer_id)
        try:
            check_sequence(current, epoch, first_seq)
            if current.current_txn_first_offset is not None and not transactional:
                raise InvalidTxnState("non-transactional write while a transaction is open")
        except ProduceError as exc:
            return AppendDecision(exc.code, str(exc))
        return AppendDecision("append")

    def update(
        self,
        producer_id: int,
        epoch: int,
        last_seq: int,
        first_offset: int,
        last_offset: int,
        timestamp: int,
        transactional: bool = False,
    ) -> None:
        """``ProducerAppendInfo.appendDataBatch`` + ``ProducerStateManager.update`` after the write."""
        entry = self.producers.setdefault(producer_id, ProducerStateEntry(producer_id))
        entry.add_batch(epoch, last_seq, last_offset, last_offset - first_offset, timestamp)
        if transactional and entry.current_txn_first_offset is None:
            entry.current_txn_first_offset = first_offset

    def complete_txn(self, producer_id: int) -> int | None:
        """An end-transaction marker: the transaction's first offset, and the entry leaves the transaction."""
        entry = self.producers.get(producer_id)
        if entry is None:
            return None
        first, entry.current_txn_first_offset = entry.current_txn_first_offset, None
        return first

    def first_unstable_offset(self) -> int | None:
        """The smallest first offset of an open transaction (what bounds the last stable offset)."""
        opens = [
            e.current_txn_first_offset
            for e in self.producers.values()
            if e.current_txn_first_offset is not None
        ]
        return min(opens) if opens else None
