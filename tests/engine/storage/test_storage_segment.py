"""engine/storage/segment.py and unified_log.py: file names, index entries, the roll conditions and reads, as
LogSegment, LogFileUtils, LocalLog and UnifiedLog do them."""

from __future__ import annotations

import pytest

from engine.errors import ScenarioError
from engine.storage.log_config import LogConfig
from engine.storage.segment import filename_prefix
from engine.storage.unified_log import OffsetOutOfRangeError, UnifiedLog

BATCH = 1231  # 10 records, 8-byte keys, 100-byte values (test_storage_log)


def batch(ts: int, n: int = 10) -> list[tuple[int, str | None, int | None]]:
    return [(ts, "k0000001", 100)] * n


def log_of(batches: int, step_ms: int = 1000, **config) -> UnifiedLog:
    log = UnifiedLog(LogConfig.from_dict(config))
    for i in range(batches):
        log.append(batch(i * step_ms), i * step_ms)
    return log


def test_file_names_from_the_base_offset() -> None:
    # LogFileUtils.filenamePrefixFromOffset: 20 digits, zero-padded
    assert filename_prefix(133) == "00000000000000000133"
    assert filename_prefix(0) == "00000000000000000000"
    assert filename_prefix(2**63 - 1) == "09223372036854775807"  # Long.MAX_VALUE has 19 digits
    log = log_of(3, **{"internal.segment.bytes": 2 * BATCH})
    assert [s.files for s in log.segments][1] == (
        "00000000000000000020.log", "00000000000000000020.index", "00000000000000000020.timeindex")


def test_index_entry_every_index_interval_bytes() -> None:
    # LogSegment.append: if (bytesSinceLastIndexEntry > indexIntervalBytes) append (batch LAST offset,
    # position)
    # before adding this batch's bytes: the 5th batch (4 x 1,231 = 4,924 > 4,096), then every 4th
    log = log_of(12)
    segment = log.active
    assert list(zip(segment.offset_index.offsets, segment.offset_index.positions)) == [(49, 4924), (89, 9848)]
    assert list(zip(segment.time_index.timestamps, segment.time_index.offsets)) == [(4000, 49), (8000, 89)]


def test_index_interval_zero_indexes_every_batch_but_the_first() -> None:
    # bytesSinceLastIndexEntry > 0 is false only before the first batch
    log = log_of(4, **{"index.interval.bytes": 0})
    assert log.active.offset_index.offsets == [19, 29, 39]


def test_roll_on_segment_bytes() -> None:
    # LogSegment.shouldRoll: size > config.segmentSize() - messagesSize; 4 batches fit in 5,000 bytes, the 5th
    # does not (a segment this small needs internal.segment.bytes: segment.bytes is at least 1 MiB)
    log = log_of(10, **{"internal.segment.bytes": 5000})
    assert [s.base_offset for s in log.segments] == [0, 40, 80]
    assert [s.size for s in log.segments] == [4 * BATCH, 4 * BATCH, 2 * BATCH]
    assert log.rolls[0].reasons == ("segment.bytes",)
    assert log.segments[0].roll_reasons == ("segment.bytes",)


def test_internal_segment_bytes_overrides_segment_bytes_in_the_roll() -> None:
    # LogConfig.segmentSize() is internal.segment.bytes when set: the log rolls at 5,000 bytes although
    # segment.bytes is 1 MiB; without it the same 10 batches (12,310 bytes) stay in one segment
    log = log_of(10, **{"segment.bytes": 1_048_576, "internal.segment.bytes": 5000})
    assert [s.base_offset for s in log.segments] == [0, 40, 80]
    assert [s.base_offset for s in log_of(10, **{"segment.bytes": 1_048_576}).segments] == [0]
    # 851 batches of 1,231 bytes fill 1 MiB (851 x 1,231 = 1,047,581 > 1,048,576 - 1,231): the 852nd rolls
    assert [s.base_offset for s in log_of(852, **{"segment.bytes": 1_048_576}).segments] == [0, 8_510]


def test_roll_on_segment_ms_uses_record_timestamps_not_the_clock() -> None:
    # LogSegment.timeWaitedForRoll: messageTimestamp - rollingBasedTimestamp (the first batch's max
    # timestamp),
    # so it is the *records'* time that counts (seed article 002 says "the current system time")
    log = UnifiedLog(LogConfig.from_dict({"segment.ms": 10_000}))
    log.append(batch(0), 0)
    log.append(batch(6_000), 6_000)
    log.append(batch(0), 50_000)  # wall clock past segment.ms, record timestamp not: no roll
    assert len(log.segments) == 1
    log.append(batch(12_000), 60_000)  # 12,000 - 0 > 10,000
    assert [s.base_offset for s in log.segments] == [0, 30]
    assert log.rolls[0].reasons == ("segment.ms",)


def test_roll_when_the_time_index_is_full() -> None:
    # segment.index.bytes 36: time index maxEntries 3, TimeIndex.isFull at 2 entries; offset index holds 4
    log = log_of(5, **{"segment.index.bytes": 36, "index.interval.bytes": 0})
    assert [s.base_offset for s in log.segments] == [0, 30]
    assert log.rolls[0].reasons == ("time index full",)
    assert len(log.segments[0].time_index.timestamps) == 2


def test_roll_on_offset_overflow() -> None:
    # shouldRoll: !canConvertToRelativeOffset(maxOffsetInMessages); the new base is the batch's first offset
    log = log_of(1)
    log.log_end_offset = 2**31 - 5  # a gap, as a compacted log replicated to a follower can have
    log.append(batch(1000), 1000)
    assert [s.base_offset for s in log.segments] == [0, 2**31 - 5]
    assert log.rolls[0].reasons == ("offset overflow",)
    assert log.active.name == "00000000002147483643.log"


def test_a_batch_larger_than_a_segment_or_max_message_bytes_is_refused() -> None:
    # UnifiedLog.append: RecordBatchTooLargeException when the batch exceeds segment.bytes;
    # analyzeAndValidateRecords: RecordTooLargeException above max.message.bytes (checked first)
    log = UnifiedLog(LogConfig.from_dict({"internal.segment.bytes": 1000}))
    with pytest.raises(ScenarioError, match="RecordBatchTooLargeException: .* configured segment size of 1,000"):
        log.append(batch(0), 0)
    log = UnifiedLog(LogConfig.from_dict({"max.message.bytes": 1230, "internal.segment.bytes": 1000}))
    with pytest.raises(ScenarioError, match="RecordTooLargeException: the record batch size is 1,231 bytes"):
        log.append(batch(0), 0)


def test_read_an_offset_step_by_step() -> None:
    # LocalLog.read -> floorSegment; LogSegment.translateOffset -> OffsetIndex.lookup +
    # searchForOffsetWithSize
    log = log_of(12)
    found = log.read(75)
    assert found["segment"] == "00000000000000000000.log"
    assert found["index_entry"] == [49, 4924]  # largest entry <= 75
    assert [s["base_offset"] for s in found["scan"]] == [40, 50, 60, 70]  # batch headers read from 4,924
    assert found["batch"] == [70, 79, 70 // 10 * BATCH]
    assert found["bytes_skipped"] == 3 * BATCH


def test_offset_inside_an_indexed_batch_uses_the_previous_entry() -> None:
    # The index key is the batch's last offset: 45 < 49, so the lookup falls back to the segment start
    found = log_of(12).read(45)
    assert found["index_entry"] == [0, 0]
    assert found["batch"] == [40, 49, 4 * BATCH]


def test_offsets_outside_the_log_are_out_of_range() -> None:
    log = log_of(2)
    with pytest.raises(OffsetOutOfRangeError, match="OffsetOutOfRangeException"):
        log.read(21)
    assert log.read(20)["segment"] is None  # at the log end offset: an empty fetch


def test_find_by_timestamp() -> None:
    # searchOffsetInLocalLog: first segment with largestTimestamp >= target; findOffsetByTimestamp: time index
    # (4000, 49) -> offset index lookup(49) = (49, 4924) -> scan for maxTimestamp >= target
    log = log_of(12)
    found = log.fetch_offset_by_timestamp(5_500)
    assert found["time_entry"] == [4000, 49]
    assert found["index_entry"] == [49, 4924]
    assert found["offset"] == 60 and found["record_timestamp"] == 6000
    assert log.fetch_offset_by_timestamp(99_999)["offset"] is None
