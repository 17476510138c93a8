"""A topic's log configuration: ``LogConfig``'s topic configs (``TOPIC_CONFIG``) and the broker configs that
give their defaults (``BROKER_LOG_CONFIG``: ``ServerLogConfigs``, ``CleanerConfig``, ``ServerConfigs``), each
declared once with Kafka's type, default, validator and doc, as the release ``engine.release`` names for
``log-config`` defines them.

A mapping of names is read as Kafka reads it: the broker names first, as ``KafkaConfig`` parses them (its
``ConfigDef``, then ``validateValues``' rules on ``logRollTimeMillis`` and ``logRetentionTimeMillis``), turned
into topic defaults as ``KafkaConfig.extractLogConfigMap`` does (``log.roll.ms`` if set, else
``log.roll.hours`` x 3,600,000; retention ms, then minutes, then hours, any negative value meaning unlimited,
-1); then the topic names over them, as ``LogConfig.validate`` parses them: each value parsed into its type and
checked by its validator (``engine.common.config_def``) in the order ``LogConfig`` *defines* them, so where
several are invalid the first in that order is named; then ``validateValues`` refuses ``min.compaction.lag.ms``
above ``max.compaction.lag.ms``.  ``cleanup.policy`` is a list of ``compact`` and ``delete`` (case-sensitive,
an empty item refused): empty is valid and means neither (the log keeps everything).
``segment.index.bytes`` 4..11 passes ``LogConfig`` (at least 4) although no segment can be created with it
(``engine.storage.index``).

Worked example (also in ``tests/engine/storage/test_storage_log.py``)::

    >>> LogConfig.from_dict({"log.roll.hours": 1, "log.roll.ms": 5000}).segment_ms   # ms wins over hours
    5000
    >>> LogConfig().segment_bytes, LogConfig().index_interval_bytes, LogConfig().segment_index_bytes
    (1073741824, 4096, 10485760)
    >>> LogConfig.from_dict({"cleanup.policy": []}).cleanup_policy, LogConfig.from_dict({}).cleanup_policy
    ('', 'delete')
    >>> try:
    ...     LogConfig.from_dict({"min.cleanable.dirty.ratio": 2, "segment.ms": 0})
    ... except ScenarioError as refused:
    ...     print(refused)
    ConfigException: Invalid value 0 for configuration segment.ms: Value must be at least 1
    >>> key = TOPIC_CONFIG.keys["segment.bytes"]
    >>> key.type, key.default, key.validator
    ('INT', 1073741824, Range(low=1048576, high=None))
    >>> try:
    ...     LogConfig.from_dict({"log.retention.minutes": 0})
    ... except ScenarioError as refused:
    ...     print(refused)
    IllegalArgumentException: requirement failed: log.retention.ms must be unlimited (-1) or, greater than or
    equal to 1
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Final

from engine.common.config_def import (
    DOUBLE,
    INT,
    LIST,
    LONG,
    LONG_MAX,
    ConfigDef,
    Range,
    ValidList,
)
from engine.errors import ScenarioError, quote
from engine.release import follows

DAY_MS: Final = 86_400_000
HOUR_MS: Final = 3_600_000
MINUTE_MS: Final = 60_000
SEGMENT_BYTES_MIN: Final = 1024 * 1024  # LogConfig: segment.bytes atLeast(1 MiB) (KIP-1030)
RECORD_OVERHEAD_V0: Final = 14  # LegacyRecord.RECORD_OVERHEAD_V0: the smallest segment the lab can fill
OFFSET_ENTRY_SIZE: Final = 8  # OffsetIndex.ENTRY_SIZE: 4-byte relative offset + 4-byte position
TIME_ENTRY_SIZE: Final = 12  # TimeIndex.ENTRY_SIZE: 8-byte timestamp + 4-byte relative offset
RETENTION_CHECK_INTERVAL_MS: Final = 300_000  # log.retention.check.interval.ms
CLEANUP_POLICIES: Final = ("compact", "delete")


def _computable_ratio(name: str, value: float) -> None:
    """NaN passes Kafka's ``between(0, 1)`` (every comparison is false) but the lab cannot use it."""
    if math.isnan(value):
        raise ScenarioError(f"{name}: NaN passes Kafka's Range check (it compares false), but the lab cannot "
                            "compute a dirty ratio with it")


def _fillable_segment(name: str, value: int | None) -> None:
    """``internal.segment.bytes`` has no validator in Kafka; the lab needs room for one record's overhead."""
    if value is not None and value < RECORD_OVERHEAD_V0:
        raise ScenarioError(f"{name}: {value} is below {RECORD_OVERHEAD_V0} bytes, a segment no record fits in "
                            "(Kafka sets no minimum for this test-only setting; the lab needs one)")


# LogConfig.CONFIG (Kafka 4.2.0 LogConfig.java lines 187-250), the topic configs the lab models, in definition
# order; the docs are TopicConfig's, shortened
TOPIC_CONFIG: Final = (
    ConfigDef("org.apache.kafka.storage.internals.log.LogConfig")
    .define("segment.bytes", INT, 1024 * 1024 * 1024, Range.at_least(SEGMENT_BYTES_MIN),
            "This configuration controls the segment file size for the log.")
    .define("segment.ms", LONG, 7 * DAY_MS, Range.at_least(1),
            "The period of time after which Kafka will force the log to roll even if the segment file isn't full.")
    .define("segment.index.bytes", INT, 10 * 1024 * 1024, Range.at_least(4),
            "The size of the index that maps offsets to file positions.")
    .define("retention.bytes", LONG, -1, None,
            "The maximum size a partition can grow to before old log segments are discarded (-1: no limit).")
    .define("retention.ms", LONG, 7 * DAY_MS, Range.at_least(-1),
            "The maximum time we will retain a log before we will discard old log segments (-1: no limit).")
    .define("max.message.bytes", INT, 1024 * 1024 + 12, Range.at_least(0),
            "The largest record batch size allowed by Kafka (after compression if compression is enabled).")
    .define("index.interval.bytes", INT, 4096, Range.at_least(0),
            "How frequently Kafka adds entries to its offset index and, conditionally, to its time index.")
    .define("delete.retention.ms", LONG, DAY_MS, Range.at_least(0),
            "The amount of time to retain delete tombstone markers for log compacted topics.")
    .define("min.compaction.lag.ms", LONG, 0, Range.at_least(0),
            "The minimum time a message will remain uncompacted in the log.")
    .define("max.compaction.lag.ms", LONG, LONG_MAX, Range.at_least(1),
            "The maximum time a message will remain ineligible for compaction in the log.")
    .define("min.cleanable.dirty.ratio", DOUBLE, 0.5, Range.between(0, 1),
            "How frequently the log compactor will attempt to clean the log.", lab_check=_computable_ratio)
    .define("cleanup.policy", LIST, "delete", ValidList(CLEANUP_POLICIES),
            "The retention policy to use on log segments: delete, compact, or both.")
    .define("internal.segment.bytes", INT, None, None,
            "The maximum size of a single log file. This should be used for testing only.",
            lab_check=_fillable_segment)
)

# The broker configs the lab reads, in KafkaConfig's definition order (AbstractKafkaConfig.CONFIG_DEF merges
# ServerConfigs, CleanerConfig, LogConfig.SERVER_CONFIG_DEF): Kafka 4.2.0 ServerConfigs.java line 130,
# CleanerConfig.java lines 88-92, LogConfig.java lines 149-165; the docs are theirs, shortened
BROKER_LOG_CONFIG: Final = (
    ConfigDef("kafka.server.KafkaConfig")
    .define("message.max.bytes", INT, 1024 * 1024 + 12, Range.at_least(0),
            "The largest record batch size allowed by Kafka; max.message.bytes per topic.")
    .define("log.cleaner.min.cleanable.ratio", DOUBLE, 0.5, Range.between(0, 1),
            "The minimum ratio of dirty log to total log for a log to eligible for cleaning.",
            lab_check=_computable_ratio)
    .define("log.cleaner.delete.retention.ms", LONG, DAY_MS, Range.at_least(0),
            "The amount of time to retain tombstone message markers for log compacted topics.")
    .define("log.cleaner.min.compaction.lag.ms", LONG, 0, Range.at_least(0),
            "The minimum time a message will remain uncompacted in the log.")
    .define("log.cleaner.max.compaction.lag.ms", LONG, LONG_MAX, Range.at_least(1),
            "The maximum time a message will remain ineligible for compaction in the log.")
    .define("log.segment.bytes", INT, 1024 * 1024 * 1024, Range.at_least(SEGMENT_BYTES_MIN),
            "The maximum size of a single log file")
    .define("log.roll.ms", LONG, None, None,
            "The maximum time before a new log segment is rolled out (in milliseconds). If not set, the value in "
            "log.roll.hours is used")
    .define("log.roll.hours", INT, 168, Range.at_least(1),
            "The maximum time before a new log segment is rolled out (in hours), secondary to log.roll.ms property")
    .define("log.retention.ms", LONG, None, None,
            "The number of milliseconds to keep a log file before deleting it. If not set, the value in "
            "log.retention.minutes is used. If set to -1, no time limit is applied.")
    .define("log.retention.minutes", INT, None, None,
            "The number of minutes to keep a log file before deleting it, secondary to log.retention.ms property. "
            "If not set, the value in log.retention.hours is used.")
    .define("log.retention.hours", INT, 168, None,
            "The number of hours to keep a log file before deleting it, tertiary to log.retention.ms property")
    .define("log.retention.bytes", LONG, -1, None, "The maximum size of the log before deleting it")
    .define("log.cleanup.policy", LIST, "delete", ValidList(CLEANUP_POLICIES),
            "The retention policy to use on log segments: delete, compact, or both.")
    .define("log.index.size.max.bytes", INT, 10 * 1024 * 1024, Range.at_least(4),
            "The maximum size in bytes of the offset index")
    .define("log.index.interval.bytes", INT, 4096, Range.at_least(0),
            "The interval with which we add an entry to the offset index.")
)


def _policy_flags(items: list[str]) -> str:
    """``cleanup.policy``'s items as the two flags ``LogConfig`` keeps: "compact,delete", "compact", "delete"
    or "" for neither."""
    return ",".join(p for p in CLEANUP_POLICIES if p in items)


def _topic_default(name: str) -> Any:
    return TOPIC_CONFIG.keys[name].default


@dataclass(frozen=True)
class LogConfig:
    """The settings that shape one partition's log: one field per ``TOPIC_CONFIG`` key (its name with ``_`` for
    ``.``), defaulting to Kafka's default; ``cleanup_policy`` as its flags ("compact,delete", "compact", "delete"
    or "" for neither), ``internal_segment_bytes`` None when not set."""

    segment_bytes: int = _topic_default("segment.bytes")
    internal_segment_bytes: int | None = _topic_default("internal.segment.bytes")
    segment_ms: int = _topic_default("segment.ms")
    segment_index_bytes: int = _topic_default("segment.index.bytes")
    index_interval_bytes: int = _topic_default("index.interval.bytes")
    retention_ms: int = _topic_default("retention.ms")  # -1 = unlimited
    retention_bytes: int = _topic_default("retention.bytes")  # per partition; negative = unlimited
    cleanup_policy: str = _policy_flags(_topic_default("cleanup.policy"))
    min_cleanable_dirty_ratio: float = _topic_default("min.cleanable.dirty.ratio")
    delete_retention_ms: int = _topic_default("delete.retention.ms")  # how long a tombstone outlives its cleaning
    min_compaction_lag_ms: int = _topic_default("min.compaction.lag.ms")
    max_message_bytes: int = _topic_default("max.message.bytes")
    max_compaction_lag_ms: int = _topic_default("max.compaction.lag.ms")  # validated; not used by the cleaner

    @property
    def segment_size(self) -> int:
        """``LogConfig.segmentSize()``: ``internal.segment.bytes`` when set, else ``segment.bytes``."""
        return self.segment_bytes if self.internal_segment_bytes is None else self.internal_segment_bytes

    @property
    def delete(self) -> bool:
        return "delete" in self.cleanup_policy.split(",")

    @property
    def compact(self) -> bool:
        return "compact" in self.cleanup_policy.split(",")

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> LogConfig:
        """Topic or broker config names -> a config, refused as Kafka refuses it: unknown names first, then the
        broker's (``KafkaConfig``), then the topic's (``LogConfig.validate``)."""
        if not isinstance(raw, Mapping):
            raise ScenarioError(f"config: expected an object of Kafka properties, got {type(raw).__name__}")
        unknown = sorted(set(raw) - set(TOPIC_CONFIG.keys) - set(BROKER_LOG_CONFIG.keys))
        if unknown:
            raise ScenarioError(
                f"config: unknown property '{quote(unknown[0])}' (known: {', '.join(sorted(TOPIC_CONFIG.keys))})"
            )
        broker = BROKER_LOG_CONFIG.parse({name: raw[name] for name in BROKER_LOG_CONFIG.keys if name in raw})
        topic = TOPIC_CONFIG.parse({**_extract_log_config_map(broker),
                                    **{name: raw[name] for name in TOPIC_CONFIG.keys if name in raw}})
        values = {name.replace(".", "_"): value for name, value in topic.items()}
        config = cls(**{**values, "cleanup_policy": _policy_flags(values["cleanup_policy"])})
        if config.min_compaction_lag_ms > config.max_compaction_lag_ms:  # LogConfig.validateValues
            raise ScenarioError(
                "InvalidConfigurationException: conflict topic config setting min.compaction.lag.ms "
                f"({config.min_compaction_lag_ms}) > max.compaction.lag.ms ({config.max_compaction_lag_ms})"
            )
        return config

    def to_dict(self) -> dict[str, Any]:
        """Topic property names -> effective values (``internal.segment.bytes`` only when set)."""
        values = {f.name.replace("_", "."): getattr(self, f.name) for f in fields(self)}
        return {name: value for name, value in values.items() if value is not None}


def _extract_log_config_map(broker: Mapping[str, Any]) -> dict[str, Any]:
    """``KafkaConfig.validateValues``' rules on the log's times, then ``KafkaConfig.extractLogConfigMap``: the
    broker's values as topic defaults, by topic name (Kafka 4.2.0 KafkaConfig.scala lines 325, 425-437, 502-504
    and 663-680)."""
    roll_ms = broker["log.roll.ms"] if broker["log.roll.ms"] is not None else HOUR_MS * broker["log.roll.hours"]
    retention_ms = next(value for value in (
        broker["log.retention.ms"],
        None if broker["log.retention.minutes"] is None else MINUTE_MS * broker["log.retention.minutes"],
        HOUR_MS * broker["log.retention.hours"]) if value is not None)
    retention_ms = -1 if retention_ms < 0 else retention_ms
    if roll_ms < 1:
        raise ScenarioError("IllegalArgumentException: requirement failed: log.roll.ms must be greater than or equal "
                            "to 1")
    if retention_ms == 0:
        raise ScenarioError("IllegalArgumentException: requirement failed: log.retention.ms must be unlimited (-1) "
                            "or, greater than or equal to 1")
    return {
        "segment.bytes": broker["log.segment.bytes"],
        "segment.ms": roll_ms,
        "segment.index.bytes": broker["log.index.size.max.bytes"],
        "retention.bytes": broker["log.retention.bytes"],
        "retention.ms": retention_ms,
        "max.message.bytes": broker["message.max.bytes"],
        "index.interval.bytes": broker["log.index.interval.bytes"],
        "delete.retention.ms": broker["log.cleaner.delete.retention.ms"],
        "min.compaction.lag.ms": broker["log.cleaner.min.compaction.lag.ms"],
        "max.compaction.lag.ms": broker["log.cleaner.max.compaction.lag.ms"],
        "min.cleanable.dirty.ratio": broker["log.cleaner.min.cleanable.ratio"],
        "cleanup.policy": broker["log.cleanup.policy"],
    }


def cli_log_config(document: Any) -> dict[str, Any]:
    """``python -m engine log-config``: ``{"config": {...}}`` -> the effective values, or Kafka's refusal as
    bad input (exit 2, or ``{"error": ...}`` in a batch).  Batchable; the work is one pass over at most the
    known property names, so it needs no budget beyond the document's size."""
    if not isinstance(document, dict) or set(document) - {"config"}:
        raise ScenarioError(f"input: expected {{\"config\": {{...}}}}, got {str(document)[:80]!r}")
    config = LogConfig.from_dict(document.get("config", {}))
    return {"follows": follows("log-config"), "config": config.to_dict()}
