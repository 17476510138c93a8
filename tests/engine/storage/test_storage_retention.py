"""engine/storage/unified_log.py retention against UnifiedLog.deleteOldSegments / deletableSegments /
deleteSegments: whole segments, oldest first, stopping at the first one kept."""

from __future__ import annotations

from engine.storage.log_config import LogConfig
from engine.storage.unified_log import UnifiedLog

BATCH = 1231


def segmented(timestamps: list[int], **config) -> UnifiedLog:
    """One batch (10 records) per segment: internal.segment.bytes fits exactly one 1,231-byte batch."""
    log = UnifiedLog(LogConfig.from_dict({"internal.segment.bytes": BATCH, **config}))
    for ts in timestamps:
        log.append([(ts, "k0000001", 100)] * 10, max(ts, log.now_ms))
    return log


def test_time_retention_deletes_old_segments_but_keeps_the_active_one() -> None:
    # deleteRetentionMsBreachedSegments: startMs - segment.largestTimestamp > retention.ms
    log = segmented([0, 1_000, 2_000, 3_000], **{"retention.ms": 1_500})
    deleted = log.delete_old_segments(3_400)
    assert [d["base_offset"] for d in deleted] == [0, 10]  # 3,400 - 1,000 > 1,500; 3,400 - 2,000 is not
    assert {d["reason"] for d in deleted} == {"retention.ms"}
    assert [s.base_offset for s in log.segments] == [20, 30]
    assert log.log_start_offset == 20


def test_a_future_timestamp_keeps_every_later_segment() -> None:
    # deletableSegments stops at the first segment the predicate keeps
    log = segmented([0, 99_999, 2_000, 3_000], **{"retention.ms": 1_000})
    assert [d["base_offset"] for d in log.delete_old_segments(10_000)] == [0]
    assert [s.base_offset for s in log.segments] == [10, 20, 30]


def test_size_retention_deletes_while_the_rest_stays_at_least_retention_bytes() -> None:
    # deleteRetentionSizeBreachedSegments: diff = size - retention.bytes; delete while diff - segment.size
    # >= 0
    log = segmented([0, 1, 2, 3, 4], **{"retention.bytes": 2 * BATCH + 1})
    deleted = log.delete_old_segments(5)
    assert [d["base_offset"] for d in deleted] == [0, 10]  # diff = 5B - 2B - 1: two whole segments fit in it
    assert log.size == 3 * BATCH
    assert segmented([0, 1], **{"retention.bytes": 3 * BATCH}).delete_old_segments(5) == []  # size < limit


def test_log_start_offset_retention() -> None:
    # deleteLogStartOffsetBreachedSegments: next segment's base offset <= logStartOffset (DeleteRecords)
    log = segmented([0, 1, 2, 3], **{"retention.ms": -1})
    log.maybe_increment_log_start_offset(25)
    deleted = log.delete_old_segments(10)
    assert [d["base_offset"] for d in deleted] == [0, 10]  # the segment holding 25 stays
    assert {d["reason"] for d in deleted} == {"log start offset"}
    assert log.log_start_offset == 25


def test_when_every_segment_goes_a_new_active_segment_is_rolled_first() -> None:
    # deleteSegments: numberOfSegments == numToDelete -> roll(); the partition keeps one (empty) segment
    log = segmented([0, 1, 2], **{"retention.ms": 100})
    deleted = log.delete_old_segments(10_000)
    assert [d["base_offset"] for d in deleted] == [0, 10, 20]
    assert [(s.base_offset, s.size) for s in log.segments] == [(30, 0)]
    assert log.rolls[-1].reasons == ("retention deletes every segment",)
    assert log.log_start_offset == 30
    assert log.delete_old_segments(10**9) == []  # a last empty segment is never deleted


def test_compact_only_topics_keep_time_and_size_but_not_the_start_offset_rule() -> None:
    # deleteOldSegments: without 'delete' in cleanup.policy only deleteLogStartOffsetBreachedSegments runs
    log = segmented([0, 1, 2], **{"retention.ms": 1, "retention.bytes": 1, "cleanup.policy": "compact"})
    assert log.delete_old_segments(10**9) == []
    log.maybe_increment_log_start_offset(20)
    assert [d["base_offset"] for d in log.delete_old_segments(10**9)] == [0, 10]


def test_unlimited_retention_deletes_nothing() -> None:
    # deleteRetentionMsBreachedSegments: retentionMs < 0 -> 0; size rule: retentionSize < 0 -> 0
    log = segmented([0, 1, 2], **{"retention.ms": -1, "retention.bytes": -1})
    assert log.delete_old_segments(10**12) == []
