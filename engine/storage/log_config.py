"""A topic's log configuration: ``LogConfig`` (topic names) and ``ServerLogConfigs`` / ``KafkaConfig``
(broker names), with the defaults and validators of the release ``engine.release`` names for ``log-config``.

Values are read as Kafka's ``LogConfig.validate(Properties)`` reads them: each property is parsed into its
type and checked by its validator (``engine.common.config_def``) in the order ``LogConfig`` *defines* them,
so where several are invalid the first in that order is named; then ``validateValues`` refuses
``min.compaction.lag.ms`` above ``max.compaction.lag.ms``.  ``cleanup.policy`` is a list of ``compact`` and
``delete`` (case-sensitive, an empty item refused): empty is valid and means neither (the log keeps
everything).  ``segment.index.bytes`` 4..11 passes ``LogConfig`` (at least 4) although no segment can be
created with it (``engine.storage.index``).

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

``KafkaConfig.logRollTimeMillis``: ``log.roll.ms`` if set, else ``log.roll.hours`` x 3,600,000 (168 h by
default); ``logRetentionTimeMillis``: ms, then minutes, then hours, any negative value meaning unlimited (-1).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, Final

from engine.common.config_def import at_least, between, parse_double, parse_int, parse_list, parse_long, valid_list
from engine.errors import ScenarioError, quote
from engine.release import follows

DAY_MS: Final = 86_400_000
HOUR_MS: Final = 3_600_000
INT_MAX: Final = 2**31 - 1
LONG_MAX: Final = 2**63 - 1
SEGMENT_BYTES_MIN: Final = 1024 * 1024  # LogConfig: segment.bytes atLeast(1 MiB) (KIP-1030)
RECORD_OVERHEAD_V0: Final = 14  # LegacyRecord.RECORD_OVERHEAD_V0: the smallest segment the lab can fill
OFFSET_ENTRY_SIZE: Final = 8  # OffsetIndex.ENTRY_SIZE: 4-byte relative offset + 4-byte position
TIME_ENTRY_SIZE: Final = 12  # TimeIndex.ENTRY_SIZE: 8-byte timestamp + 4-byte relative offset
RETENTION_CHECK_INTERVAL_MS: Final = 300_000  # log.retention.check.interval.ms


@dataclass(frozen=True)
class LogConfig:
    """The settings that shape one partition's log (topic-level names, Kafka's defaults)."""

    segment_bytes: int = 1_073_741_824  # segment.bytes / log.segment.bytes
    internal_segment_bytes: int | None = None  # internal.segment.bytes: Kafka's test-only override, no minimum
    segment_ms: int = 7 * DAY_MS  # segment.ms / log.roll.ms / log.roll.hours = 168
    segment_index_bytes: int = 10_485_760  # segment.index.bytes / log.index.size.max.bytes
    index_interval_bytes: int = 4096  # index.interval.bytes / log.index.interval.bytes
    retention_ms: int = 7 * DAY_MS  # retention.ms / log.retention.{ms,minutes,hours}; -1 = unlimited
    retention_bytes: int = -1  # retention.bytes / log.retention.bytes, per partition; negative = unlimited
    cleanup_policy: str = "delete"  # cleanup.policy: "compact", "delete", "compact,delete" or "" (neither)
    min_cleanable_dirty_ratio: float = 0.5  # min.cleanable.dirty.ratio / log.cleaner.min.cleanable.ratio
    delete_retention_ms: int = DAY_MS  # delete.retention.ms: how long a tombstone outlives its first cleaning
    min_compaction_lag_ms: int = 0  # min.compaction.lag.ms
    max_message_bytes: int = 1_048_588  # max.message.bytes = 1 MiB + Records.LOG_OVERHEAD (12)
    max_compaction_lag_ms: int = LONG_MAX  # max.compaction.lag.ms (validated; not used by the cleaner model)

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
        """Topic or broker property names -> a config, refused as ``LogConfig.validate`` refuses it (unknown
        names are refused first)."""
        if not isinstance(raw, Mapping):
            raise ScenarioError(f"config: expected an object of Kafka properties, got {type(raw).__name__}")
        unknown = sorted(set(raw) - set(_ALIASES))
        if unknown:
            raise ScenarioError(
                f"config: unknown property '{quote(unknown[0])}' (known: {', '.join(sorted(_TOPIC))})"
            )
        values: dict[str, Any] = {}
        for definition in DEFINITIONS:
            given = [n for n in _precedence(raw) if _ALIASES[n][0] == definition.field]
            for name in given:  # every given name is parsed; the last in precedence wins
                values[definition.field] = _ALIASES[name][1](name, raw[name])
            if given:
                definition.check(given[-1], values[definition.field])
        config = cls(**values)
        if config.min_compaction_lag_ms > config.max_compaction_lag_ms:  # LogConfig.validateValues
            raise ScenarioError(
                "InvalidConfigurationException: conflict topic config setting min.compaction.lag.ms "
                f"({config.min_compaction_lag_ms}) > max.compaction.lag.ms ({config.max_compaction_lag_ms})"
            )
        return config

    def to_dict(self) -> dict[str, Any]:
        """Topic property names -> effective values (``internal.segment.bytes`` only when set)."""
        values = {_TOPIC_NAME[f.name]: getattr(self, f.name) for f in fields(self)}
        return {name: value for name, value in values.items() if value is not None}


@dataclass(frozen=True)
class Definition:
    """One ``LogConfigDef.define``: the field it sets and its validator (after ``parseType``)."""

    field: str
    check: Callable[[str, Any], None]


def _at_least(low: int) -> Callable[[str, Any], None]:
    return lambda name, value: at_least(name, value, low)


def _ratio(name: str, value: float) -> None:
    """``between(0, 1)``; NaN passes Kafka's Range (every comparison is false) but the lab cannot use it."""
    between(name, value, 0, 1)
    if math.isnan(value):
        raise ScenarioError(f"{name}: NaN passes Kafka's Range check (it compares false), but the lab cannot "
                            "compute a dirty ratio with it")


def _fillable_segment(name: str, value: int) -> None:
    """``internal.segment.bytes`` has no validator in Kafka; the lab needs room for one record's overhead."""
    if value < RECORD_OVERHEAD_V0:
        raise ScenarioError(f"{name}: {value} is below {RECORD_OVERHEAD_V0} bytes, a segment no record fits in "
                            "(Kafka sets no minimum for this test-only setting; the lab needs one)")


def _any(name: str, value: Any) -> None:
    """``retention.bytes`` has no validator: any long (negative = unlimited)."""


# LogConfig's CONFIG.define(...) order, for the properties the lab models
DEFINITIONS: Final = (
    Definition("segment_bytes", _at_least(SEGMENT_BYTES_MIN)),
    Definition("segment_ms", _at_least(1)),
    Definition("segment_index_bytes", _at_least(4)),
    Definition("retention_bytes", _any),
    Definition("retention_ms", _at_least(-1)),
    Definition("max_message_bytes", _at_least(0)),
    Definition("index_interval_bytes", _at_least(0)),
    Definition("delete_retention_ms", _at_least(0)),
    Definition("min_compaction_lag_ms", _at_least(0)),
    Definition("max_compaction_lag_ms", _at_least(1)),
    Definition("min_cleanable_dirty_ratio", lambda name, value: _ratio(name, value)),
    Definition("cleanup_policy", lambda name, value: None),  # checked item by item as it is parsed
    Definition("internal_segment_bytes", _fillable_segment),  # defineInternal: no validator in Kafka
)


def _policy(name: str, value: Any) -> str:
    """``cleanup.policy``: a ``LIST`` whose items are each ``compact`` or ``delete``; written back as the two
    flags ``LogConfig`` keeps ("compact,delete", "compact", "delete" or "" for neither)."""
    items = parse_list(name, value)
    items = valid_list(name, items, ("compact", "delete"))
    return ",".join(p for p in ("compact", "delete") if p in items)


def _scaled(factor: int, parse: Callable[[str, Any], int] = parse_int) -> Callable[[str, Any], int]:
    """A broker time in hours or minutes (an ``INT``) or ms (a ``LONG``), in ms; negative = unlimited."""

    def convert(name: str, value: Any) -> int:
        v = parse(name, value)
        return -1 if v < 0 else v * factor

    return convert


_TOPIC: Final[dict[str, tuple[str, Callable[[str, Any], Any]]]] = {
    "segment.bytes": ("segment_bytes", parse_int),
    "segment.ms": ("segment_ms", parse_long),
    "segment.index.bytes": ("segment_index_bytes", parse_int),
    "index.interval.bytes": ("index_interval_bytes", parse_int),
    "retention.ms": ("retention_ms", parse_long),
    "retention.bytes": ("retention_bytes", parse_long),
    "cleanup.policy": ("cleanup_policy", _policy),
    "min.cleanable.dirty.ratio": ("min_cleanable_dirty_ratio", parse_double),
    "delete.retention.ms": ("delete_retention_ms", parse_long),
    "min.compaction.lag.ms": ("min_compaction_lag_ms", parse_long),
    "max.compaction.lag.ms": ("max_compaction_lag_ms", parse_long),
    "max.message.bytes": ("max_message_bytes", parse_int),
    "internal.segment.bytes": ("internal_segment_bytes", parse_int),
}
_BROKER: Final[dict[str, tuple[str, Callable[[str, Any], Any]]]] = {
    "log.segment.bytes": ("segment_bytes", parse_int),
    "log.roll.hours": ("segment_ms", _scaled(HOUR_MS)),
    "log.roll.ms": ("segment_ms", parse_long),
    "log.index.size.max.bytes": ("segment_index_bytes", parse_int),
    "log.index.interval.bytes": ("index_interval_bytes", parse_int),
    "log.retention.hours": ("retention_ms", _scaled(HOUR_MS)),
    "log.retention.minutes": ("retention_ms", _scaled(60_000)),
    "log.retention.ms": ("retention_ms", _scaled(1, parse_long)),
    "log.retention.bytes": ("retention_bytes", parse_long),
    "log.cleanup.policy": ("cleanup_policy", _policy),
    "log.cleaner.min.cleanable.ratio": ("min_cleanable_dirty_ratio", parse_double),
    "log.cleaner.delete.retention.ms": ("delete_retention_ms", parse_long),
    "log.cleaner.min.compaction.lag.ms": ("min_compaction_lag_ms", parse_long),
    "log.cleaner.max.compaction.lag.ms": ("max_compaction_lag_ms", parse_long),
    "message.max.bytes": ("max_message_bytes", parse_int),
}
_ALIASES: Final = {**_TOPIC, **_BROKER}
_TOPIC_NAME: Final = {field: name for name, (field, _) in _TOPIC.items()}
# later names win: hours < minutes < ms (KafkaConfig.logRollTimeMillis / logRetentionTimeMillis); topic >
# broker
_ORDER: Final = [
    "log.roll.hours",
    "log.roll.ms",
    "log.retention.hours",
    "log.retention.minutes",
    "log.retention.ms",
]


def _precedence(raw: Mapping[str, Any]) -> list[str]:
    broker = [n for n in _BROKER if n in raw and n not in _ORDER] + [n for n in _ORDER if n in raw]
    return broker + [n for n in _TOPIC if n in raw]


def cli_log_config(document: Any) -> dict[str, Any]:
    """``python -m engine log-config``: ``{"config": {...}}`` -> the effective values, or Kafka's refusal as
    bad input (exit 2, or ``{"error": ...}`` in a batch).  Batchable; the work is one pass over at most the
    known property names, so it needs no budget beyond the document's size."""
    if not isinstance(document, dict) or set(document) - {"config"}:
        raise ScenarioError(f"input: expected {{\"config\": {{...}}}}, got {str(document)[:80]!r}")
    config = LogConfig.from_dict(document.get("config", {}))
    return {"follows": follows("log-config"), "config": config.to_dict()}
