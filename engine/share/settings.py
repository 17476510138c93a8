"""The configs a share partition runs on, declared once as Kafka's config classes define them (type, default,
validator, doc) in the release ``engine.release`` names for ``share-deliver``: three broker configs of
``ShareGroupConfig`` (``SHARE_GROUP_CONFIG``) and one group config of ``GroupConfig`` (``GROUP_CONFIG``).

The broker configs are ``group.share.delivery.count.limit``, ``group.share.record.lock.duration.ms`` and
``group.share.partition.max.record.locks``; a missing one takes its default (``../shared/spec/README.md``
section 10) and a bad value is refused as Kafka's ``ConfigDef`` refuses it (``parseType``, then ``Range``), in
``ShareGroupConfig``'s definition order.  The group config is ``share.auto.offset.reset``: where a share
partition with no stored state starts, ``earliest`` (the log start, offset 0 here) or ``latest`` (the log end
at its first fetch); Kafka's default is ``latest`` (KAFKA-16726) and a bad value is refused in the words of
``ShareGroupAutoOffsetResetStrategy.Validator``.  A ``by_duration:`` strategy is refused by the lab: its log has
no timestamps.  A refusal names the case's field, then gives Kafka's text.

>>> s = parse_settings({"group.share.delivery.count.limit": 3})
>>> (s.lock_duration_ms, s.delivery_count_limit, s.max_record_locks)
(30000, 3, 2000)
>>> parse_settings({"group.share.delivery.count.limit": 11})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.InputError: settings.group.share.delivery.count.limit: ConfigException: Invalid value 11 for
configuration group.share.delivery.count.limit: Value must be no more than 10
>>> key = SHARE_GROUP_CONFIG.keys[LOCK_DURATION]
>>> key.type, key.default, key.validator
('INT', 30000, Range(low=1000, high=3600000))
>>> try:
...     SHARE_GROUP_CONFIG.parse({LOCK_DURATION: 0})
... except ConfigException as refused:
...     print(refused)
ConfigException: Invalid value 0 for configuration group.share.record.lock.duration.ms: Value must be at least
1000
>>> parse_group_config(None), parse_group_config({"share.auto.offset.reset": " earliest "})
('latest', 'earliest')
>>> parse_group_config({"share.auto.offset.reset": "none"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.InputError: group_config.share.auto.offset.reset: ConfigException: Invalid value none ... The
value must be either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS>'.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from engine.common.config_def import INT, STRING, ConfigDef, ConfigException, Range, invalid, java_string
from engine.errors import InputError, quote

LOCK_DURATION: Final = "group.share.record.lock.duration.ms"
DELIVERY_COUNT_LIMIT: Final = "group.share.delivery.count.limit"
MAX_RECORD_LOCKS: Final = "group.share.partition.max.record.locks"

# ShareGroupConfig.CONFIG_DEF (Kafka 4.2.0 ShareGroupConfig.java lines 77, 78 and 81), in definition order
SHARE_GROUP_CONFIG: Final = (
    ConfigDef("org.apache.kafka.coordinator.group.modern.share.ShareGroupConfig")
    .define(DELIVERY_COUNT_LIMIT, INT, 5, Range.between(2, 10),
            "The maximum number of delivery attempts for a record delivered to a share group.")
    .define(LOCK_DURATION, INT, 30_000, Range.between(1_000, 3_600_000),
            "The record acquisition lock duration in milliseconds for share groups.")
    .define(MAX_RECORD_LOCKS, INT, 2_000, Range.between(100, 10_000),
            "Share-group record lock limit per share-partition.")
)


def _default_and_range(name: str) -> tuple[int, int, int]:
    key = SHARE_GROUP_CONFIG.keys[name]
    bounds = key.validator
    assert isinstance(bounds, Range) and bounds.high is not None
    return key.default, int(bounds.low), int(bounds.high)


#: name -> (default, lowest, highest), read from ``SHARE_GROUP_CONFIG`` for the pages' number inputs
SETTINGS: Final = {name: _default_and_range(name) for name in (LOCK_DURATION, DELIVERY_COUNT_LIMIT, MAX_RECORD_LOCKS)}

AUTO_OFFSET_RESET: Final = "share.auto.offset.reset"
ResetStrategy = Literal["earliest", "latest"]
EARLIEST: Final[ResetStrategy] = "earliest"
LATEST: Final[ResetStrategy] = "latest"
BY_DURATION_PREFIX: Final = "by_duration:"


class ShareAutoOffsetResetValidator:
    """``ShareGroupAutoOffsetResetStrategy.Validator``: ``earliest``, ``latest`` or ``by_duration:<duration>``
    (exact case; ``none``, valid for a consumer, is not a share group's).  A ``by_duration:`` value passes here
    whatever its duration: the lab refuses every one after parsing, so Kafka's ISO-8601 check is not ported."""

    def ensure_valid(self, name: str, value: Any) -> Any:
        if value in (EARLIEST, LATEST) or (isinstance(value, str) and value.startswith(BY_DURATION_PREFIX)):
            return value
        raise invalid(name, value, f"Invalid value `{quote(java_string(value))}` for configuration {name}. The value "
                                   "must be either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS>'.")


# GroupConfig.CONFIG (Kafka 4.2.0 GroupConfig.java lines 133-138), the one group config the lab reads
GROUP_CONFIG: Final = ConfigDef("org.apache.kafka.coordinator.group.GroupConfig").define(
    AUTO_OFFSET_RESET, STRING, LATEST, ShareAutoOffsetResetValidator(),
    "The strategy to initialize the share-partition start offset: earliest, latest or by_duration:<duration>.")
AUTO_OFFSET_RESET_DEFAULT: Final[ResetStrategy] = GROUP_CONFIG.keys[AUTO_OFFSET_RESET].default


@dataclass(frozen=True)
class ShareSettings:
    """The three broker configs, Kafka's defaults unless given."""

    lock_duration_ms: int = SETTINGS[LOCK_DURATION][0]
    delivery_count_limit: int = SETTINGS[DELIVERY_COUNT_LIMIT][0]
    max_record_locks: int = SETTINGS[MAX_RECORD_LOCKS][0]

    def as_json(self) -> dict[str, int]:
        """The three configs by Kafka's names, as a case's ``settings`` states them."""
        return {LOCK_DURATION: self.lock_duration_ms, DELIVERY_COUNT_LIMIT: self.delivery_count_limit,
                MAX_RECORD_LOCKS: self.max_record_locks}


def _parsed(config: ConfigDef, raw: Mapping[str, Any], field: str) -> dict[str, Any]:
    """``config.parse(raw)``, a refusal naming the field it came from, then Kafka's text."""
    try:
        return config.parse(raw)
    except ConfigException as refused:
        raise InputError(f"{field}.{refused.name}: {refused}") from None


def parse_settings(raw: Any, field: str = "settings") -> ShareSettings:
    """``settings`` of a case; a missing one takes Kafka's default, an unknown one is refused."""
    if raw is None:
        return ShareSettings()
    if not isinstance(raw, dict):
        raise InputError(f"{field}: expected an object, got {type(raw).__name__}")
    unknown = sorted(set(raw) - set(SHARE_GROUP_CONFIG.keys))
    if unknown:
        raise InputError(f"{field}: unknown setting {unknown[0]!r} (known: {', '.join(SHARE_GROUP_CONFIG.keys)})"
                         [:240])
    values = _parsed(SHARE_GROUP_CONFIG, raw, field)
    return ShareSettings(values[LOCK_DURATION], values[DELIVERY_COUNT_LIMIT], values[MAX_RECORD_LOCKS])


def parse_group_config(raw: Any, field: str = "group_config") -> ResetStrategy:
    """A case's optional ``group_config``: its ``share.auto.offset.reset`` (Kafka's default ``latest`` when
    missing); any other group config is refused by name, and so is a ``by_duration:`` strategy (valid in Kafka)
    as not modelled."""
    if raw is None:
        return AUTO_OFFSET_RESET_DEFAULT
    if not isinstance(raw, dict):
        raise InputError(f"{field}: expected an object, got {type(raw).__name__}")
    other = sorted(str(name) for name in raw if name != AUTO_OFFSET_RESET)
    if other:
        raise InputError(f"{field}: {other[0]!r} is not a group config the lab reads (it reads "
                         f"{AUTO_OFFSET_RESET} only)"[:240])
    strategy = _parsed(GROUP_CONFIG, raw, field)[AUTO_OFFSET_RESET]
    if strategy.startswith(BY_DURATION_PREFIX):
        raise InputError(f"{field}.{AUTO_OFFSET_RESET}: {quote(strategy)} is a by_duration strategy, which the lab "
                         "does not model (its log has no timestamps); use 'earliest' or 'latest'")
    return EARLIEST if strategy == EARLIEST else LATEST
