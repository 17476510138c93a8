"""The three broker configs a share partition runs on: names, Kafka ranges, released defaults, the release.

The vectors follow Kafka's 4.0-line ``SharePartition`` (``VECTORS_COMMIT``), whose in-flight lock default was
200; released Kafka (4.2, share groups production-ready) defaults to 2,000, and a missing setting takes the
released default (``../shared/spec/README.md`` section 10).  Each answer names both (``RELEASE_FOLLOWED``).

>>> s = parse_settings({"group.share.delivery.count.limit": 3})
>>> (s.lock_duration_ms, s.delivery_count_limit, s.max_record_locks)
(30000, 3, 2000)
>>> parse_settings({"group.share.delivery.count.limit": 11})
Traceback (most recent call last):
...
engine.errors.InputError: settings.group.share.delivery.count.limit: 11 is outside Kafka's range 2-10
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from engine.errors import InputError

LOCK_DURATION: Final = "group.share.record.lock.duration.ms"
DELIVERY_COUNT_LIMIT: Final = "group.share.delivery.count.limit"
MAX_RECORD_LOCKS: Final = "group.share.partition.max.record.locks"

#: name -> (released default, lowest, highest), Kafka's ``ShareGroupConfig`` ranges
SETTINGS: Final[dict[str, tuple[int, int, int]]] = {
    LOCK_DURATION: (30_000, 1_000, 60_000),
    DELIVERY_COUNT_LIMIT: (5, 2, 10),
    MAX_RECORD_LOCKS: (2_000, 100, 10_000),
}
VECTORS_COMMIT: Final = "e3e579e7d69ffef5ce5f6ba2fdd992bb8bcb9f33"
RELEASE_FOLLOWED: Final = (
    "Apache Kafka SharePartition, 4.0 line (commit e3e579e), checked against its vectors; "
    "defaults of released Kafka 4.2"
)


@dataclass(frozen=True)
class ShareSettings:
    lock_duration_ms: int = SETTINGS[LOCK_DURATION][0]
    delivery_count_limit: int = SETTINGS[DELIVERY_COUNT_LIMIT][0]
    max_record_locks: int = SETTINGS[MAX_RECORD_LOCKS][0]

    def as_json(self) -> dict[str, int]:
        return {LOCK_DURATION: self.lock_duration_ms, DELIVERY_COUNT_LIMIT: self.delivery_count_limit,
                MAX_RECORD_LOCKS: self.max_record_locks}


def check_setting(name: str, value: Any, field: str) -> int:
    """One setting as a whole number inside Kafka's range, or an ``InputError`` naming it."""
    _, low, high = SETTINGS[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{field}: {value!r} is not a whole number")
    if not low <= value <= high:
        raise InputError(f"{field}: {value} is outside Kafka's range {low}-{high}")
    return value


def parse_settings(raw: Any, field: str = "settings") -> ShareSettings:
    """``settings`` of a case; a missing one takes released Kafka's default, an unknown one is refused."""
    if raw is None:
        return ShareSettings()
    if not isinstance(raw, dict):
        raise InputError(f"{field}: expected an object, got {type(raw).__name__}")
    unknown = sorted(set(raw) - set(SETTINGS))
    if unknown:
        raise InputError(f"{field}: unknown setting {unknown[0]!r} (known: {', '.join(SETTINGS)})")
    values = {name: check_setting(name, raw[name], f"{field}.{name}") if name in raw else SETTINGS[name][0]
              for name in SETTINGS}
    return ShareSettings(values[LOCK_DURATION], values[DELIVERY_COUNT_LIMIT], values[MAX_RECORD_LOCKS])
