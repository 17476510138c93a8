"""The configs a share partition runs on: three broker configs and one group config, with Kafka's ranges,
released defaults and refusals.

The broker configs are Kafka's ``ShareGroupConfig`` (``group.share.record.lock.duration.ms``,
``group.share.delivery.count.limit``, ``group.share.partition.max.record.locks``); a missing one takes the
released default (``../shared/spec/README.md`` section 10) and a value outside the range is refused in the words
of Kafka's ``ConfigDef.Range``.  The group config is ``GroupConfig``'s ``share.auto.offset.reset``: where a share
partition with no stored state starts, ``earliest`` (the log start, offset 0 here) or ``latest`` (the log end
at its first fetch); Kafka's default is ``latest`` (KAFKA-16726) and a bad value is refused in the words of
``ShareGroupAutoOffsetResetStrategy.Validator``.

>>> s = parse_settings({"group.share.delivery.count.limit": 3})
>>> (s.lock_duration_ms, s.delivery_count_limit, s.max_record_locks)
(30000, 3, 2000)
>>> parse_settings({"group.share.delivery.count.limit": 11})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.InputError: settings...: Invalid value 11 for configuration ...: Value must be no more than 10
>>> parse_group_config(None), parse_group_config({"share.auto.offset.reset": "earliest"})
('latest', 'earliest')
>>> parse_group_config({"share.auto.offset.reset": "none"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.InputError: group_config...: Invalid value none ... The value must be either 'earliest', 'latest' or ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from engine.errors import InputError

LOCK_DURATION: Final = "group.share.record.lock.duration.ms"
DELIVERY_COUNT_LIMIT: Final = "group.share.delivery.count.limit"
MAX_RECORD_LOCKS: Final = "group.share.partition.max.record.locks"

#: name -> (released default, lowest, highest), Kafka's ``ShareGroupConfig`` ranges
SETTINGS: Final[dict[str, tuple[int, int, int]]] = {
    LOCK_DURATION: (30_000, 1_000, 3_600_000),
    DELIVERY_COUNT_LIMIT: (5, 2, 10),
    MAX_RECORD_LOCKS: (2_000, 100, 10_000),
}

AUTO_OFFSET_RESET: Final = "share.auto.offset.reset"
ResetStrategy = Literal["earliest", "latest"]
EARLIEST: Final[ResetStrategy] = "earliest"
LATEST: Final[ResetStrategy] = "latest"
AUTO_OFFSET_RESET_DEFAULT: Final[ResetStrategy] = LATEST
MAX_SHOWN_CHARS: Final = 100  # a refused string value is quoted up to this many characters


@dataclass(frozen=True)
class ShareSettings:
    """The three broker configs, released defaults unless given."""

    lock_duration_ms: int = SETTINGS[LOCK_DURATION][0]
    delivery_count_limit: int = SETTINGS[DELIVERY_COUNT_LIMIT][0]
    max_record_locks: int = SETTINGS[MAX_RECORD_LOCKS][0]

    def as_json(self) -> dict[str, int]:
        """The three configs by Kafka's names, as a case's ``settings`` states them."""
        return {LOCK_DURATION: self.lock_duration_ms, DELIVERY_COUNT_LIMIT: self.delivery_count_limit,
                MAX_RECORD_LOCKS: self.max_record_locks}


def check_setting(name: str, value: Any, field: str) -> int:
    """One setting as a whole number inside Kafka's range, or an ``InputError`` naming it (Kafka's words for
    a value out of range)."""
    _, low, high = SETTINGS[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{field}: {value!r} is not a whole number"[:240])
    if value < low:
        raise InputError(f"{field}: Invalid value {value} for configuration {name}: Value must be at least {low}")
    if value > high:
        raise InputError(f"{field}: Invalid value {value} for configuration {name}: Value must be no more than "
                         f"{high}")
    return value


def parse_settings(raw: Any, field: str = "settings") -> ShareSettings:
    """``settings`` of a case; a missing one takes released Kafka's default, an unknown one is refused."""
    if raw is None:
        return ShareSettings()
    if not isinstance(raw, dict):
        raise InputError(f"{field}: expected an object, got {type(raw).__name__}")
    unknown = sorted(set(raw) - set(SETTINGS))
    if unknown:
        raise InputError(f"{field}: unknown setting {unknown[0]!r} (known: {', '.join(SETTINGS)})"[:240])
    values = {name: check_setting(name, raw[name], f"{field}.{name}") if name in raw else SETTINGS[name][0]
              for name in SETTINGS}
    return ShareSettings(values[LOCK_DURATION], values[DELIVERY_COUNT_LIMIT], values[MAX_RECORD_LOCKS])


def check_reset_strategy(value: Any, field: str) -> ResetStrategy:
    """``earliest`` or ``latest``; any other string Kafka refuses is refused in Kafka's words, and a
    ``by_duration:`` strategy (valid in Kafka) is refused as not modelled: the lab's log has no timestamps."""
    if not isinstance(value, str):
        raise InputError(f"{field}: {value!r} is not a string"[:240])
    if value == EARLIEST or value == LATEST:
        return value
    shown = value if len(value) <= MAX_SHOWN_CHARS else value[:MAX_SHOWN_CHARS] + "..."
    if value.startswith("by_duration:"):
        raise InputError(f"{field}: {shown!r} is a by_duration strategy, which the lab does not model (its log "
                         "has no timestamps); use 'earliest' or 'latest'")
    raise InputError(f"{field}: Invalid value {shown} for configuration {AUTO_OFFSET_RESET}: Invalid value `{shown}` "
                     f"for configuration {AUTO_OFFSET_RESET}. The value must be either 'earliest', 'latest' or of "
                     "the format 'by_duration:<PnDTnHnMn.nS>'.")


def parse_group_config(raw: Any, field: str = "group_config") -> ResetStrategy:
    """A case's optional ``group_config``: its ``share.auto.offset.reset`` (Kafka's default ``latest`` when
    missing); any other group config is refused by name."""
    if raw is None:
        return AUTO_OFFSET_RESET_DEFAULT
    if not isinstance(raw, dict):
        raise InputError(f"{field}: expected an object, got {type(raw).__name__}")
    other = sorted(str(name) for name in raw if name != AUTO_OFFSET_RESET)
    if other:
        raise InputError(f"{field}: {other[0]!r} is not a group config the lab reads (it reads "
                         f"{AUTO_OFFSET_RESET} only)"[:240])
    if AUTO_OFFSET_RESET not in raw:
        return AUTO_OFFSET_RESET_DEFAULT
    return check_reset_strategy(raw[AUTO_OFFSET_RESET], f"{field}.{AUTO_OFFSET_RESET}")
