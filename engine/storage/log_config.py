"""A topic's log configuration: ``LogConfig`` (topic names) and ``ServerLogConfigs`` / ``KafkaConfig``
(broker names), with Kafka 4.0's defaults and validators.

Worked example (asserted in ``tests/test_storage_log.py``)::

    >>> LogConfig.from_dict({"log.roll.hours": 1, "log.roll.ms": 5000}).segment_ms   # ms wins over hours
    5000
    >>> LogConfig().segment_bytes, LogConfig().index_interval_bytes, LogConfig().segment_index_bytes
    (1073741824, 4096, 10485760)

``KafkaConfig.logRollTimeMillis``: ``log.roll.ms`` if set, else ``log.roll.hours`` x 3,600,000 (168 h by
default); ``logRetentionTimeMillis``: ms, then minutes, then hours, any negative value meaning unlimited (-1).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, Final

from engine.errors import ScenarioError

DAY_MS: Final = 86_400_000
HOUR_MS: Final = 3_600_000
INT_MAX: Final = 2**31 - 1
LONG_MAX: Final = 2**63 - 1
RECORD_OVERHEAD_V0: Final = (
    14  # LegacyRecord.RECORD_OVERHEAD_V0: the smallest segment.bytes LogConfig accepts
)
OFFSET_ENTRY_SIZE: Final = 8  # OffsetIndex.ENTRY_SIZE: 4-byte relative offset + 4-byte position
TIME_ENTRY_SIZE: Final = 12  # TimeIndex.ENTRY_SIZE: 8-byte timestamp + 4-byte relative offset
RETENTION_CHECK_INTERVAL_MS: Final = 300_000  # log.retention.check.interval.ms
POLICIES: Final = ("delete", "compact", "compact,delete")


@dataclass(frozen=True)
class LogConfig:
    """The settings that shape one partition's log (topic-level names; defaults are Kafka 4.0's)."""

    segment_bytes: int = 1_073_741_824  # segment.bytes / log.segment.bytes
    segment_ms: int = 7 * DAY_MS  # segment.ms / log.roll.ms / log.roll.hours = 168
    segment_index_bytes: int = 10_485_760  # segment.index.bytes / log.index.size.max.bytes
    index_interval_bytes: int = 4096  # index.interval.bytes / log.index.interval.bytes
    retention_ms: int = 7 * DAY_MS  # retention.ms / log.retention.{ms,minutes,hours}; -1 = unlimited
    retention_bytes: int = -1  # retention.bytes / log.retention.bytes, per partition; -1 = unlimited
    cleanup_policy: str = "delete"  # cleanup.policy / log.cleanup.policy
    min_cleanable_dirty_ratio: float = 0.5  # min.cleanable.dirty.ratio / log.cleaner.min.cleanable.ratio
    delete_retention_ms: int = DAY_MS  # delete.retention.ms: how long a tombstone outlives its first cleaning
    min_compaction_lag_ms: int = 0  # min.compaction.lag.ms
    max_message_bytes: int = 1_048_588  # max.message.bytes = 1 MiB + Records.LOG_OVERHEAD (12)

    @property
    def delete(self) -> bool:
        return "delete" in self.cleanup_policy.split(",")

    @property
    def compact(self) -> bool:
        return "compact" in self.cleanup_policy.split(",")

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> LogConfig:
        """Topic or broker property names -> a validated config; unknown names are refused."""
        if not isinstance(raw, Mapping):
            raise ScenarioError(f"config: expected an object of Kafka properties, got {type(raw).__name__}")
        unknown = sorted(set(raw) - set(_ALIASES))
        if unknown:
            raise ScenarioError(
                f"config: unknown property {unknown[0]!r} (known: {', '.join(sorted(_TOPIC))})"
            )
        values: dict[str, Any] = {}
        for name in _precedence(raw):
            field, convert = _ALIASES[name]
            values[field] = convert(name, raw[name])
        return cls(**values).validate()

    def validate(self) -> LogConfig:
        _check("segment.bytes", self.segment_bytes, RECORD_OVERHEAD_V0, INT_MAX)
        _check("segment.ms", self.segment_ms, 1, LONG_MAX)
        _check(
            "segment.index.bytes",
            self.segment_index_bytes,
            TIME_ENTRY_SIZE,
            INT_MAX,
            "AbstractIndex refuses a max index size below the 12-byte time index entry",
        )
        _check("index.interval.bytes", self.index_interval_bytes, 0, INT_MAX)
        _check("retention.ms", self.retention_ms, -1, LONG_MAX)
        _check("retention.bytes", self.retention_bytes, -LONG_MAX, LONG_MAX)
        _check("delete.retention.ms", self.delete_retention_ms, 0, LONG_MAX)
        _check("min.compaction.lag.ms", self.min_compaction_lag_ms, 0, LONG_MAX)
        _check("max.message.bytes", self.max_message_bytes, 0, INT_MAX)
        if not 0 <= self.min_cleanable_dirty_ratio <= 1:
            raise ScenarioError(
                f"min.cleanable.dirty.ratio: must be 0..1, got {self.min_cleanable_dirty_ratio}"
            )
        if self.cleanup_policy not in POLICIES:
            raise ScenarioError(f"cleanup.policy: one of {', '.join(POLICIES)}, got {self.cleanup_policy!r}")
        return self

    def to_dict(self) -> dict[str, Any]:
        return {_TOPIC_NAME[f.name]: getattr(self, f.name) for f in fields(self)}


def _check(name: str, value: int, low: int, high: int, why: str = "") -> None:
    if not low <= value <= high:
        reason = f" ({why})" if why else ""
        raise ScenarioError(f"{name}: must be {low:,}..{high:,}{reason}, got {value:,}")


def _integer(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(f"{name}: expected an integer, got {value!r}")
    return value


def _ratio(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ScenarioError(f"{name}: expected a number, got {value!r}")
    return float(value)


def _policy(name: str, value: Any) -> str:
    parts = value if isinstance(value, list) else str(value).split(",")
    cleaned = sorted({str(p).strip() for p in parts if str(p).strip()})
    return ",".join(cleaned)


def _scaled(factor: int) -> Callable[[str, Any], int]:
    def convert(name: str, value: Any) -> int:
        v = _integer(name, value)
        return -1 if v < 0 else v * factor

    return convert


_TOPIC: Final[dict[str, tuple[str, Callable[[str, Any], Any]]]] = {
    "segment.bytes": ("segment_bytes", _integer),
    "segment.ms": ("segment_ms", _integer),
    "segment.index.bytes": ("segment_index_bytes", _integer),
    "index.interval.bytes": ("index_interval_bytes", _integer),
    "retention.ms": ("retention_ms", _integer),
    "retention.bytes": ("retention_bytes", _integer),
    "cleanup.policy": ("cleanup_policy", _policy),
    "min.cleanable.dirty.ratio": ("min_cleanable_dirty_ratio", _ratio),
    "delete.retention.ms": ("delete_retention_ms", _integer),
    "min.compaction.lag.ms": ("min_compaction_lag_ms", _integer),
    "max.message.bytes": ("max_message_bytes", _integer),
}
_BROKER: Final[dict[str, tuple[str, Callable[[str, Any], Any]]]] = {
    "log.segment.bytes": ("segment_bytes", _integer),
    "log.roll.hours": ("segment_ms", _scaled(HOUR_MS)),
    "log.roll.ms": ("segment_ms", _integer),
    "log.index.size.max.bytes": ("segment_index_bytes", _integer),
    "log.index.interval.bytes": ("index_interval_bytes", _integer),
    "log.retention.hours": ("retention_ms", _scaled(HOUR_MS)),
    "log.retention.minutes": ("retention_ms", _scaled(60_000)),
    "log.retention.ms": ("retention_ms", _scaled(1)),
    "log.retention.bytes": ("retention_bytes", _integer),
    "log.cleanup.policy": ("cleanup_policy", _policy),
    "log.cleaner.min.cleanable.ratio": ("min_cleanable_dirty_ratio", _ratio),
    "log.cleaner.delete.retention.ms": ("delete_retention_ms", _integer),
    "log.cleaner.min.compaction.lag.ms": ("min_compaction_lag_ms", _integer),
    "message.max.bytes": ("max_message_bytes", _integer),
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
