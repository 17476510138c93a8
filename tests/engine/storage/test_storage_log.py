"""engine/storage/log_config.py and records.py: LogConfig / KafkaConfig defaults and precedence, and the exact
v2 record sizes (DefaultRecord.sizeInBytes, DefaultRecordBatch.RECORD_BATCH_OVERHEAD)."""

from __future__ import annotations

import pytest

from engine.errors import ScenarioError
from engine.storage.log_config import LogConfig
from engine.storage.records import RECORD_BATCH_OVERHEAD, Record, batch_size, record_size, size_of_varint
from engine.storage.unified_log import UnifiedLog


def test_defaults_are_kafkas() -> None:
    # LogConfig.DEFAULT_* and ServerLogConfigs.*_DEFAULT; internal.segment.bytes has no default
    c = LogConfig()
    assert (c.segment_bytes, c.segment_ms, c.segment_index_bytes, c.index_interval_bytes) == (
        1_073_741_824, 604_800_000, 10_485_760, 4096)
    assert (c.internal_segment_bytes, c.segment_size) == (None, 1_073_741_824)
    assert "internal.segment.bytes" not in c.to_dict()
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
    assert LogConfig.from_dict({"log.segment.bytes": 2**21, "segment.bytes": 2**22}).segment_bytes == 2**22


def test_segment_bytes_is_at_least_one_mib() -> None:
    # LogConfig: segment.bytes atLeast(1024 * 1024) (KIP-1030, KAFKA-16368)
    assert LogConfig.from_dict({"segment.bytes": 1_048_576}).segment_size == 1_048_576
    with pytest.raises(ScenarioError, match="^ConfigException: Invalid value 1048575 for configuration segment.bytes: "
                                            "Value must be at least 1048576$"):
        LogConfig.from_dict({"segment.bytes": 1_048_575})
    assert LogConfig.from_dict({"log.segment.bytes": 1_048_576}).segment_bytes == 1_048_576  # the broker name too
    with pytest.raises(ScenarioError, match="Invalid value 1000 for configuration log.segment.bytes: Value must be"):
        LogConfig.from_dict({"log.segment.bytes": 1000})


def test_internal_segment_bytes_overrides_segment_bytes() -> None:
    # LogConfig.segmentSize(): internal.segment.bytes when set (defineInternal, no validator), else segment.bytes
    c = LogConfig.from_dict({"segment.bytes": 2**21, "internal.segment.bytes": 5000})
    assert (c.segment_bytes, c.internal_segment_bytes, c.segment_size) == (2**21, 5000, 5000)
    assert c.to_dict()["internal.segment.bytes"] == 5000 and c.to_dict()["segment.bytes"] == 2**21
    assert LogConfig.from_dict({"internal.segment.bytes": 14}).segment_size == 14
    with pytest.raises(ScenarioError, match="^internal.segment.bytes: 13 is below 14 bytes"):
        LogConfig.from_dict({"internal.segment.bytes": 13})  # the lab's floor: one record's overhead
    with pytest.raises(ScenarioError, match="Invalid value 2147483648 for configuration internal.segment.bytes"):
        LogConfig.from_dict({"internal.segment.bytes": 2**31})  # an INT


@pytest.mark.parametrize("raw,message", [
    # LogConfig.validate(Properties): ConfigDef.parseType, then the validator, in definition order
    ({"segment.bytes": 13}, "^ConfigException: Invalid value 13 for configuration segment.bytes: Value must be at "
                            "least 1048576$"),
    ({"segment.ms": 0}, "Invalid value 0 for configuration segment.ms: Value must be at least 1"),
    ({"min.cleanable.dirty.ratio": 1.5}, "Invalid value 1.5 for configuration min.cleanable.dirty.ratio: Value "
                                         "must be no more than 1"),
    ({"cleanup.policy": "forever"}, "Invalid value forever for configuration cleanup.policy: String must be one "
                                    "of: compact, delete"),
    ({"cleanup.policy": ",delete"}, "^ConfigException: Configuration 'cleanup.policy' values must not be "
                                    "empty\\.$"),  # an empty item
    ({"cleanup.policy": "Compact"}, "Invalid value Compact for configuration cleanup.policy"),  # case-sensitive
    ({"segment.bytes": "big"}, "Invalid value big for configuration segment.bytes: Not a number of type INT"),
    ({"segment.bytes": 2**31}, "segment.bytes: Expected value to be a 32-bit integer, but it was a java.lang.Long"),
    ({"log.dirs": "/tmp"}, "unknown property 'log.dirs'"),
    # several invalid: the first in LogConfig's definition order (segment.ms before min.cleanable.dirty.ratio)
    ({"min.cleanable.dirty.ratio": -0.1, "segment.ms": -1}, "Invalid value -1 for configuration segment.ms"),
    ({"min.compaction.lag.ms": 10, "max.compaction.lag.ms": 5},
     "^InvalidConfigurationException: conflict topic config setting min.compaction.lag.ms \\(10\\) > "
     "max.compaction.lag.ms \\(5\\)$"),
])
def test_bad_configs_are_refused_naming_the_property(raw: dict, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        LogConfig.from_dict(raw)


def test_empty_cleanup_policy_is_neither_delete_nor_compact() -> None:
    # ConfigDef LIST: "" and [] are the empty list, which ValidList accepts; LogConfig then has neither flag
    for raw in ("", [], "  "):
        c = LogConfig.from_dict({"cleanup.policy": raw})
        assert c.cleanup_policy == "" and not c.compact and not c.delete
    assert LogConfig.from_dict({"cleanup.policy": " compact , delete "}).cleanup_policy == "compact,delete"


def test_repeated_cleanup_policy_items_are_dropped() -> None:
    # ConfigDef.parseValue drops repeated items of a LIST (with a warning) before ValidList checks them
    assert LogConfig.from_dict({"cleanup.policy": "delete,delete"}).cleanup_policy == "delete"
    assert LogConfig.from_dict({"cleanup.policy": ["compact", "delete", "compact"]}).cleanup_policy == (
        "compact,delete")


def test_max_compaction_lag_is_known_and_checked_against_the_min() -> None:
    c = LogConfig.from_dict({"cleanup.policy": "compact", "min.compaction.lag.ms": 5, "max.compaction.lag.ms": 5})
    assert (c.min_compaction_lag_ms, c.max_compaction_lag_ms) == (5, 5)
    assert LogConfig().max_compaction_lag_ms == 2**63 - 1  # Long.MAX_VALUE by default
    with pytest.raises(ScenarioError, match="max.compaction.lag.ms: Value must be at least 1"):
        LogConfig.from_dict({"max.compaction.lag.ms": 0})


@pytest.mark.parametrize("size,index", [(4, "offset"), (7, "offset"), (8, "time"), (11, "time")])
def test_segment_index_bytes_4_to_11_passes_the_config_and_the_first_segment_fails(size: int, index: str) -> None:
    # LogConfig: atLeast(4); AbstractIndex on a new file: "Invalid max index size" below one entry (8 or 12 bytes)
    config = LogConfig.from_dict({"segment.index.bytes": size})
    assert config.segment_index_bytes == size
    with pytest.raises(ScenarioError, match=f"passes LogConfig .* the first segment fails: its {index} index "
                                            f"refuses it .*Invalid max index size: {size}"):
        UnifiedLog(config)
    assert UnifiedLog(LogConfig.from_dict({"segment.index.bytes": 12})).segments


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


def test_strings_are_read_as_javas_parsers_read_them() -> None:
    # ConfigDef.parseType: a String is trimmed, then Integer.parseInt / Long.parseLong / Double.parseDouble
    c = LogConfig.from_dict({"segment.bytes": " 1048576 ", "retention.ms": "-1",
                             "min.cleanable.dirty.ratio": "0.25d"})
    assert (c.segment_bytes, c.retention_ms, c.min_cleanable_dirty_ratio) == (1_048_576, -1, 0.25)
    with pytest.raises(ScenarioError, match="Invalid value 1_0 for configuration min.cleanable.dirty.ratio: Not a "
                                            "number of type DOUBLE"):
        LogConfig.from_dict({"min.cleanable.dirty.ratio": "1_0"})  # Python's float() would read 10.0
    with pytest.raises(ScenarioError, match="Invalid value Infinity .* Value must be no more than 1"):
        LogConfig.from_dict({"min.cleanable.dirty.ratio": "Infinity"})
    with pytest.raises(ScenarioError, match="NaN passes Kafka's Range check"):
        LogConfig.from_dict({"min.cleanable.dirty.ratio": "NaN"})


def test_a_lone_surrogate_key_counts_as_javas_getbytes_writes_it() -> None:
    """``String.getBytes(UTF_8)`` writes an unpaired surrogate as ``?``: one byte."""
    assert batch_size([Record(0, 0, "k\ud800", 1)], 0, 0) == batch_size([Record(0, 0, "k?", 1)], 0, 0)
