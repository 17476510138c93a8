"""The idempotent producer's bookkeeping: ``TransactionManager`` with ``TxnPartitionMap`` /
``TxnPartitionEntry`` (non-transactional use: producer id, epoch and per-partition sequence numbers).

* Sequences are per partition and count records: a drained batch gets ``sequenceNumber(tp)`` as base and the
  next one ``+ recordCount`` (``incrementSequenceNumber``).  A retried batch keeps its sequence.
* ``handleCompletedBatch``: ``lastAckedSequence = max(lastAckedSequence, batch.lastSequence)``.
* ``canRetry`` for ``OUT_OF_ORDER_SEQUENCE_NUMBER``: a batch that is *not* the next one (base sequence !=
  lastAcked + 1) is retried — an earlier batch failed and will come first; the next one with a real gap
  retries
  after an **epoch bump** (``requestEpochBumpForPartition``): epoch + 1, in-flight batches renumbered from 0
  (``startSequencesAtBeginning``), which the broker accepts as a new epoch.
* An expired batch that had been sent leaves its partition *unresolved* (``markSequenceUnresolved``): no new
  batch is drained until the in-flight ones finish; if the acknowledged sequence then does not reach it,
  ``maybeResolveSequences`` bumps the epoch.

Not modelled: the transactional state machine (``beginTransaction``, ``AddPartitionsToTxn``, ``EndTxn``,
abortable
and fatal errors), ``UNKNOWN_PRODUCER_ID`` handling, the epoch reaching Short.MAX_VALUE (a new producer id).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from engine.producer.accumulator import NO_SEQUENCE, ProducerBatch
from engine.storage.producer_state import increment_sequence

NO_LAST_ACKED: Final = -1
NONE_EPOCH: Final = (-1, -1)


@dataclass
class TxnPartitionEntry:
    """``TxnPartitionEntry``: one partition's producer id/epoch, next sequence and in-flight batches."""

    producer: tuple[int, int] = NONE_EPOCH
    next_sequence: int = 0
    last_acked_sequence: int = NO_LAST_ACKED
    last_acked_offset: int = -1
    in_flight: list[ProducerBatch] = field(
        default_factory=list
    )  # sorted by (producer id, epoch, base sequence)

    def add(self, batch: ProducerBatch) -> None:
        self.in_flight.append(batch)
        self.in_flight.sort(key=lambda b: (b.producer_id, b.producer_epoch, b.base_sequence))

    def start_sequences_at_beginning(self, producer: tuple[int, int]) -> None:
        """Renumber the in-flight batches from 0 under the new producer id/epoch."""
        sequence = 0
        for batch in self.in_flight:
            batch.producer_id, batch.producer_epoch = producer
            batch.base_sequence = sequence
            batch.reopened = True
            sequence += batch.record_count
        self.producer, self.next_sequence, self.last_acked_sequence = producer, sequence, NO_LAST_ACKED
        self.in_flight.sort(key=lambda b: (b.producer_id, b.producer_epoch, b.base_sequence))


@dataclass
class TransactionManager:
    """Idempotent (non-transactional) ``TransactionManager``."""

    producer_id: int = -1
    epoch: int = -1
    partitions: dict[int, TxnPartitionEntry] = field(default_factory=dict)
    unresolved: dict[int, int] = field(default_factory=dict)  # partition -> next sequence when marked
    to_rewrite: set[int] = field(default_factory=set)
    epoch_bump_required: bool = False
    bumps: list[tuple[int, int]] = field(default_factory=list)  # (new epoch, time)

    @property
    def producer(self) -> tuple[int, int]:
        return self.producer_id, self.epoch

    def has_producer_id(self) -> bool:
        return self.producer_id >= 0

    def entry(self, partition: int) -> TxnPartitionEntry:
        return self.partitions.setdefault(partition, TxnPartitionEntry())

    def has_in_flight(self, partition: int) -> bool:
        return bool(self.entry(partition).in_flight)

    def has_stale_producer(self, partition: int) -> bool:
        return self.producer != self.entry(partition).producer

    def maybe_update_producer_id_and_epoch(self, partition: int) -> None:
        if self.has_stale_producer(partition) and not self.has_in_flight(partition):
            self.entry(partition).start_sequences_at_beginning(self.producer)

    def first_in_flight_sequence(self, partition: int) -> int:
        flights = self.entry(partition).in_flight
        return flights[0].base_sequence if flights else NO_SEQUENCE

    def assign_sequence(self, batch: ProducerBatch) -> None:
        """``drainBatchesForOneNode``: set producer state, advance the sequence, track the batch."""
        self.maybe_update_producer_id_and_epoch(batch.partition)
        entry = self.entry(batch.partition)
        batch.producer_id, batch.producer_epoch = self.producer
        batch.base_sequence = entry.next_sequence
        entry.next_sequence = increment_sequence(entry.next_sequence, batch.record_count)
        entry.add(batch)

    def should_stop_drain(self, batch: ProducerBatch) -> bool:
        """``shouldStopDrainBatchesForPartition``."""
        if not self.has_producer_id():
            return True
        p = batch.partition
        if not batch.has_sequence:
            if self.has_in_flight(p) and self.has_stale_producer(p):
                return True
            if p in self.unresolved:
                return True
        first = self.first_in_flight_sequence(p)
        return first != NO_SEQUENCE and batch.has_sequence and batch.base_sequence != first

    def remove_in_flight(self, batch: ProducerBatch) -> None:
        flights = self.entry(batch.partition).in_flight
        if batch in flights:
            flights.remove(batch)

    def handle_completed_batch(self, batch: ProducerBatch, base_offset: int | None) -> None:
        entry = self.entry(batch.partition)
        entry.last_acked_sequence = max(entry.last_acked_sequence, batch.last_sequence)
        if base_offset is not None:
            entry.last_acked_offset = max(entry.last_acked_offset, base_offset + batch.record_count - 1)
        self.remove_in_flight(batch)

    def handle_failed_batch(self, batch: ProducerBatch, error: str, adjust_sequences: bool) -> None:
        self.remove_in_flight(batch)
        if error == "OUT_OF_ORDER_SEQUENCE_NUMBER" or adjust_sequences:
            self.request_epoch_bump(batch.partition)

    def request_epoch_bump(self, partition: int) -> None:
        self.epoch_bump_required = True
        self.to_rewrite.add(partition)

    def is_next_sequence(self, partition: int, sequence: int) -> bool:
        return sequence - self.entry(partition).last_acked_sequence == 1

    def can_retry(self, error: str, batch: ProducerBatch, retriable: bool) -> bool:
        """``TransactionManager.canRetry`` (idempotent producer)."""
        if error == "OUT_OF_ORDER_SEQUENCE_NUMBER":
            p = batch.partition
            if p not in self.unresolved and (
                batch.reopened or not self.is_next_sequence(p, batch.base_sequence)
            ):
                return True
            if p not in self.unresolved or self.unresolved[p] == batch.base_sequence:
                self.request_epoch_bump(p)
            return True
        return retriable

    def mark_sequence_unresolved(self, batch: ProducerBatch) -> None:
        nxt = batch.last_sequence + 1
        self.unresolved[batch.partition] = max(self.unresolved.get(batch.partition, nxt), nxt)

    def maybe_resolve_sequences(self) -> None:
        for p in sorted(self.unresolved):
            if self.has_in_flight(p):
                continue
            if not self.is_next_sequence(p, self.entry(p).next_sequence):
                self.request_epoch_bump(p)
            del self.unresolved[p]

    def bump_epoch_if_needed(self, now: int) -> bool:
        """``bumpIdempotentEpochAndResetIdIfNeeded`` -> ``bumpIdempotentProducerEpoch``."""
        if not self.epoch_bump_required:
            return False
        self.epoch += 1
        for p in sorted(self.to_rewrite):
            self.entry(p).start_sequences_at_beginning(self.producer)
            self.unresolved.pop(p, None)
        self.to_rewrite.clear()
        self.epoch_bump_required = False
        self.bumps.append((self.epoch, now))
        return True
