"""engine/storage/capacity.py: the steady state of LogSegment.shouldRoll and UnifiedLog retention for a
partition's daily volume, and what a broker holds (file descriptors, memory maps, index bytes)."""

from __future__ import annotations

import pytest

from engine.errors import ScenarioError
from engine.storage.capacity import index_entries, partition_capacity
from engine.storage.log_config import LogConfig


def test_worked_example_100_gib_a_day() -> None:
    cap = partition_capacity(100 * 2**30, 1_000, LogConfig())
    assert cap.rolled_by == "segment.bytes" and cap.roll_period_ms == 864_000  # 14.4 minutes
    # ceil((7 d + 5 min) / 14.4 min) closed + 1 active
    assert cap.closed_segments == 701 and cap.segments_per_partition == 702
    assert cap.file_descriptors_per_broker == 702_000  # one FileChannel per segment .log
    assert cap.memory_maps_per_broker == 1_404_000  # .index and .timeindex are mmapped, their file closed


def test_slow_partitions_roll_on_segment_ms() -> None:
    cap = partition_capacity(10 * 2**20, 1, LogConfig())
    assert cap.rolled_by == "segment.ms" and cap.roll_period_ms == 604_800_000
    assert cap.segments_per_partition == 3  # the 7-day segment waits another 7 days: 2 closed + active


def test_size_retention_bounds_the_segments() -> None:
    config = LogConfig.from_dict({"retention.bytes": 10 * 2**30, "retention.ms": -1})
    cap = partition_capacity(100 * 2**30, 1, config)
    # ceil(10 GiB / 1 GiB) + ceil(rate x 5 min / 1 GiB) = 10 + 1 closed, + the active one
    assert cap.segments_per_partition == 12


def test_no_retention_is_unbounded() -> None:
    # retention.ms -1 and retention.bytes -1: deleteOldSegments never deletes
    cap = partition_capacity(2**30, 1, LogConfig.from_dict({"retention.ms": -1}))
    assert cap.segments_per_partition is None and cap.segments_per_day == 1.0


def test_index_entries_of_a_full_segment() -> None:
    # LogSegment.append: an entry every floor(4096 / 1231) + 1 = 4 batches, the first at the 5th
    assert index_entries(12 * 1231, 1231, 4096) == 2  # batches 5 and 9 (index 4 and 8) of 12
    assert index_entries(16_384, 16_384, 4096) == 0  # one batch per segment: never indexed


def test_index_memory_counts_the_preallocated_active_indexes() -> None:
    cap = partition_capacity(2**30, 1, LogConfig.from_dict({"retention.ms": 86_400_000}))
    active = 10_485_760 + 10_485_756  # offset index 1,310,720 x 8, time index 873,813 x 12
    assert cap.index_bytes_per_broker is not None and cap.index_bytes_per_broker > active


def test_bad_input() -> None:
    with pytest.raises(ScenarioError, match="bytes_per_day: a positive integer"):
        partition_capacity(0, 1, LogConfig())
    with pytest.raises(ScenarioError, match="batch_bytes"):
        partition_capacity(10, 1, LogConfig.from_dict({"internal.segment.bytes": 100}), batch_bytes=200)
