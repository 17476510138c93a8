"""engine/storage/cleaner.py against LogCleanerManager.cleanableOffsets / LogToClean.cleanableRatio and
Cleaner.buildOffsetMap / shouldRetainRecord / groupSegmentsBySize (core/src/main/scala/kafka/log)."""

from __future__ import annotations

from engine.storage.cleaner import clean, cleanable_offsets
from engine.storage.log_config import LogConfig
from engine.storage.unified_log import UnifiedLog

HORIZON = 86_400_000  # delete.retention.ms default


def keyed(rows: list[tuple[int, str, int | None]], **config) -> UnifiedLog:
    """One record per batch; segment.ms 1,000 rolls a segment whenever a timestamp jumps past it."""
    log = UnifiedLog(LogConfig.from_dict({"segment.ms": 1_000, "cleanup.policy": "compact", **config}))
    for ts, key, value in rows:
        log.append([(ts, key, value)], ts)
    return log


def records(log: UnifiedLog) -> list[tuple[int, str | None, bool]]:
    return [(r.offset, r.key, r.is_tombstone) for s in log.segments for b in s.batches for r in b.records]


WORKED = [(0, "a", 10), (100, "b", 10), (2_000, "a", 10), (2_100, "c", 10), (2_200, "b", None), (4_000, "d",
10)]


def test_worked_example_latest_value_per_key_and_the_tombstone_survives_once() -> None:
    log = keyed(WORKED)
    assert [s.base_offset for s in log.segments] == [0, 2, 5]  # [a, b] [a, c, b-tombstone] active [d]
    result = clean(log, None, 10_000)
    # the active segment is never cleaned; a0 and b1 have later offsets in the map; the tombstone b4 is kept
    # with
    # deleteHorizonMs = now + delete.retention.ms (MemoryRecords.filterTo)
    assert result["ran"] and result["first_dirty_offset"] == 0 and result["first_uncleanable_offset"] == 5
    assert result["records_removed"] == 2 and result["tombstones_removed"] == 0
    assert records(log) == [(2, "a", False), (3, "c", False), (4, "b", True), (5, "d", False)]
    assert log.segments[0].batches[-1].delete_horizon_ms == 10_000 + HORIZON
    assert [g["into"] for g in result["groups"]] == ["00000000000000000000.log"]  # two segments merged
    assert result["checkpoint"] == 5


def cleaned_twice(second_at: int) -> tuple[UnifiedLog, dict]:
    """Clean the worked example, then close d's segment (new dirty data) and clean again at ``second_at``:
    doClean rewrites the clean part too (logSegments(0, endOffset)), with the dirty part's offset map."""
    log = keyed(WORKED, **{"min.cleanable.dirty.ratio": 0.01})
    first = clean(log, None, 10_000)
    log.append([(6_000, "e", 10)], 6_000)
    return log, clean(log, first["checkpoint"], second_at)


def test_tombstone_goes_after_its_horizon() -> None:
    log, again = cleaned_twice(10_000 + HORIZON)  # now >= deleteHorizonMs: shouldRetainDeletes is false
    assert again["ran"] and again["first_dirty_offset"] == 5 and again["tombstones_removed"] == 1
    assert (4, "b", True) not in records(log)
    assert (2, "a", False) in records(log)


def test_tombstone_before_its_horizon_stays() -> None:
    # Cleaner.shouldRetainRecord: currentTime < batch.deleteHorizonMs retains the tombstone
    log, again = cleaned_twice(10_000 + HORIZON - 1)
    assert again["ran"] and again["tombstones_removed"] == 0
    assert (4, "b", True) in records(log)


def test_dirty_ratio_must_be_above_the_threshold() -> None:
    # grabFilthiestCompactedLog: cleanableRatio > minCleanableRatio (strictly); two equal segments, the first
    # clean: ratio = 0.5 exactly, not cleaned at 0.5
    log = keyed([(0, "a", 10), (2_000, "a", 10), (4_000, "a", 10)])
    span = cleanable_offsets(log, 1, 5_000)
    assert span.clean_bytes == span.cleanable_bytes and span.ratio == 0.5
    result = clean(log, 1, 5_000)
    assert not result["ran"] and "not above min.cleanable.dirty.ratio 0.5" in result["reason"]


def test_min_compaction_lag_keeps_young_segments_dirty() -> None:
    # cleanableOffsets: the first non-active segment with largestTimestamp > now - min.compaction.lag.ms
    # bounds it
    log = keyed(WORKED, **{"min.compaction.lag.ms": 5_000})
    # segment [a, b] at 0..100 is old enough, [a, c, b] at 2,000 is not
    span = cleanable_offsets(log, None, 6_000)
    assert span.first_uncleanable == 2


def test_only_the_active_segment_dirty_means_nothing_to_clean() -> None:
    # cleanableOffsets: the active segment is always uncleanable; cleanableBytes 0
    log = keyed([(0, "a", 10), (100, "a", 10)])
    assert clean(log, None, 1_000)["reason"].startswith("nothing cleanable")


def test_delete_policy_is_not_compacted() -> None:
    # grabFilthiestCompactedLog only considers logs with config.compact
    log = keyed(WORKED, **{"cleanup.policy": "delete"})
    assert not clean(log, None, 10_000)["ran"]


def test_records_without_a_key_are_dropped() -> None:
    # shouldRetainRecord: a record without a key is invalid for a compacted topic
    log = keyed([(0, None, 10), (100, "a", 10), (2_000, "a", 10), (4_000, "x", 10)])  # type: ignore[list-item]
    clean(log, None, 10_000)
    assert records(log)[0] == (2, "a", False)
