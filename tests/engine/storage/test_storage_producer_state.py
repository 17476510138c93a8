"""engine/storage/producer_state.py against ProducerStateEntry, ProducerAppendInfo.checkSequence /
checkProducerEpoch and UnifiedLog.analyzeAndValidateProducerState (Kafka 4.0 storage module)."""

from __future__ import annotations

from engine.storage.producer_state import (
    INT_MAX,
    NUM_BATCHES_TO_RETAIN,
    ProducerStateManager,
    decrement_sequence,
    increment_sequence,
)

PID = 1000


def appended(pairs: list[tuple[int, int]], epoch: int = 0) -> ProducerStateManager:
    """Batches (first seq, last seq) appended in order; offsets follow the sequence numbers."""
    manager = ProducerStateManager()
    for first, last in pairs:
        assert manager.analyze(PID, epoch, first, last).outcome == "append"
        manager.update(PID, epoch, last, first, last, 0)
    return manager


SIX = [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11)]


def test_worked_example_duplicates_within_the_last_five_batches() -> None:
    # ProducerStateEntry.NUM_BATCHES_TO_RETAIN = 5; findDuplicateBatch matches the exact sequence range
    assert NUM_BATCHES_TO_RETAIN == 5
    manager = appended(SIX)
    retry = manager.analyze(PID, 0, 2, 3)
    assert retry.outcome == "duplicate" and retry.duplicate is not None
    assert (retry.duplicate.first_offset, retry.duplicate.last_offset) == (2, 3)  # the original offsets
    assert manager.analyze(PID, 0, 0, 1).outcome == "OUT_OF_ORDER_SEQUENCE_NUMBER"  # evicted by 10-11
    assert manager.analyze(PID, 0, 14, 15).outcome == "OUT_OF_ORDER_SEQUENCE_NUMBER"  # 12-13 missing
    assert manager.analyze(PID, 0, 12, 15).outcome == "append"


def test_a_partial_overlap_is_not_a_duplicate() -> None:
    # batchWithSequenceRange needs firstSeq and lastSeq equal
    assert appended(SIX).analyze(PID, 0, 10, 10).outcome == "OUT_OF_ORDER_SEQUENCE_NUMBER"


def test_a_producer_without_state_may_start_at_any_sequence() -> None:
    # checkSequence: currentEntry.producerEpoch() == NO_PRODUCER_EPOCH accepts any sequence number
    assert ProducerStateManager().analyze(PID, 0, 7, 9).outcome == "append"


def test_a_new_epoch_must_start_at_zero() -> None:
    # checkSequence: producerEpoch != updatedEntry.producerEpoch() and appendFirstSeq != 0 ->
    # OutOfOrderSequence
    manager = appended(SIX)
    assert manager.analyze(PID, 1, 12, 13).outcome == "OUT_OF_ORDER_SEQUENCE_NUMBER"
    assert manager.analyze(PID, 1, 0, 0).outcome == "append"
    manager.update(PID, 1, 0, 12, 12, 0)
    entry = manager.last_entry(PID)
    # maybeUpdateProducerEpoch cleared the batches of the old epoch
    assert entry is not None and entry.producer_epoch == 1 and len(entry.batch_metadata) == 1
    assert manager.analyze(PID, 0, 2, 3).outcome == "INVALID_PRODUCER_EPOCH"  # checkProducerEpoch


def test_duplicate_needs_the_same_epoch() -> None:
    # findDuplicateBatch: batch.producerEpoch() != producerEpoch -> empty
    manager = appended(SIX)
    assert manager.analyze(PID, 1, 10, 11).outcome == "OUT_OF_ORDER_SEQUENCE_NUMBER"


def test_sequences_wrap_after_integer_max_value() -> None:
    # DefaultRecordBatch.incrementSequence / decrementSequence; ProducerAppendInfo.inSequence
    assert increment_sequence(INT_MAX, 1) == 0
    assert increment_sequence(INT_MAX - 1, 3) == 1
    assert decrement_sequence(1, 3) == INT_MAX - 1
    manager = appended([(INT_MAX - 1, INT_MAX)])
    assert manager.analyze(PID, 0, 0, 4).outcome == "append"


def test_transactional_state() -> None:
    # ProducerAppendInfo.appendDataBatch: a non-transactional write while a transaction is open is refused
    manager = ProducerStateManager()
    manager.update(PID, 0, 0, 0, 0, 0, transactional=True)
    assert manager.first_unstable_offset() == 0
    assert manager.analyze(PID, 0, 1, 1).outcome == "INVALID_TXN_STATE"
    assert manager.complete_txn(PID) == 0 and manager.first_unstable_offset() is None
