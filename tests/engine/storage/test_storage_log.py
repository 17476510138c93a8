"""engine/storage/log_config.py and records.py: LogConfig / KafkaConfig defaults and precedence, and the exact
v2 record sizes (DefaultRecord.sizeInBytes, DefaultRecordBatch.RECORD_BATCH_OVERHEAD)."""

from __future__ import annotations

import pytest

from engine.errors import ScenarioError
from engine.storage.log_config import LogConfig
from engine.storage.records import RECORD_BATCH_OVERHEAD, Record, batch_size, record_size, size_of_varint


def test_defaults_are_kafka_4_0s() -> None:
    # LogConfig.DEFAULT_* and ServerLogConfigs.*_DEFAULT
    c = LogConfig()
    assert (c.segment_bytes, c.segment_ms, c.segment_index_bytes, c.index_interval_bytes) == (
        1_073_741_824, 604_800_000, 10_485_760, 4096)
    assert (c.retention_ms, c.retention_bytes, c.cleanup_policy) == (604_800_000, -1, "delete")
    assert (c.min_cleanable_dirty_ratio, c.delete_retention_ms, c.min_compaction_lag_ms) == (0.5,
    86_400_000, 0)


def test_roll_and_retention_precedence() -> None:
    # KafkaConfig.logRollTimeMillis: log.roll.ms over log.roll.hours;
    # KafkaConfig.logRetentionTimeMillis: ms over minutes over hours, negative -> -1
    assert LogConfig.from_dict({"log.roll.hours": 1, "log.roll.ms": 5000}).segment_ms == 5000
    assert LogConfig.from_dict({"log.roll.hours": 2}).segment_ms == 7_200_000
    assert LogConfig.from_dict({"log.retention.hours": 1, "log.retention.minutes": 5}).retention_ms == 300_000
    assert LogConfig.from_dict({"log.retention.minutes": 5, "log.retention.ms": 42}).retention_ms == 42
    assert LogConfig.from_dict({"log.retention.hours": -3}).retention_ms == -1
    # the topic name wins over the broker name
    assert LogConfig.from_dict({"log.segment.bytes": 100, "segment.bytes": 200}).segment_bytes == 200


@pytest.mark.parametrize("raw,message", [
    ({"segment.bytes": 13}, "segment.bytes: must be 14"),  # atLeast(LegacyRecord.RECORD_OVERHEAD_V0)
    ({"segment.ms": 0}, "segment.ms: must be 1"),
    ({"segment.index.bytes": 8}, "below the 12-byte time index entry"),  # AbstractIndex: Invalid max size
    ({"min.cleanable.dirty.ratio": 1.5}, "min.cleanable.dirty.ratio: must be 0..1"),
    ({"cleanup.policy": "forever"}, "cleanup.policy: one of"),
    ({"segment.bytes": "big"}, "segment.bytes: expected an integer"),
    ({"log.dirs": "/tmp"}, "unknown property 'log.dirs'"),
])
def test_bad_configs_are_refused_naming_the_property(raw: dict, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        LogConfig.from_dict(raw)


def test_cleanup_policy_list() -> None:
    # LogConfig cleanup.policy is a LIST: "compact,delete" enables both
    c = LogConfig.from_dict({"cleanup.policy": "delete, compact"})
    assert c.cleanup_policy == "compact,delete" and c.compact and c.delete


def test_varints() -> None:
    # ByteUtils.sizeOfVarint: zig-zag, so 63 fits one byte and 64 needs two; -1 is one byte
    assert [size_of_varint(v) for v in (0, 63, 64, -1, -64, -65, 8191, 8192)] == [1, 1, 2, 1, 1, 2, 2, 3]


def test_record_sizes_worked_example() -> None:
    # DefaultRecord.sizeInBytes: body 1 + 1 + 1 + (1 + 8) + (2 + 100) + 1 = 115, plus a 2-byte length
    assert record_size(0, 0, 8, 100) == 117
    assert record_size(0, 0, 8, None) == 15  # a tombstone: null value = one varint byte
    assert record_size(0, 0, None, 100) == 109
    assert record_size(64, 0, None, 100) == 110  # offset delta 64 takes two varint bytes
    records = [Record(i, 0, "k0000001", 100) for i in range(10)]
    assert batch_size(records, 0, 0) == RECORD_BATCH_OVERHEAD + 10 * 117 == 1231
