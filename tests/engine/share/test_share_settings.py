"""``SHARE_GROUP_CONFIG`` and ``GROUP_CONFIG`` declare the share configs the lab reads as Kafka 4.2.0 defines them
(group-coordinator/.../group/modern/share/ShareGroupConfig.java lines 43-52 and 77-81,
group-coordinator/.../group/GroupConfig.java lines 56 and 133-138, the validator in
ShareGroupAutoOffsetResetStrategy.java lines 137-146), and the case's parsers answer as they did from their
earlier tables."""

from __future__ import annotations

import pytest

from engine.common.config_def import ConfigException, Range
from engine.errors import InputError
from engine.share.settings import (
    AUTO_OFFSET_RESET_DEFAULT,
    DELIVERY_COUNT_LIMIT,
    GROUP_CONFIG,
    LOCK_DURATION,
    MAX_RECORD_LOCKS,
    SETTINGS,
    SHARE_GROUP_CONFIG,
    ShareAutoOffsetResetValidator,
    ShareSettings,
    parse_group_config,
    parse_settings,
)

# (name, type, default, validator) as ShareGroupConfig.CONFIG_DEF defines them, in its order
SHARE_GROUP: list[tuple[str, str, object, object]] = [
    ("group.share.delivery.count.limit", "INT", 5, Range(2, 10)),  # line 77
    ("group.share.record.lock.duration.ms", "INT", 30_000, Range(1_000, 3_600_000)),  # line 78
    ("group.share.partition.max.record.locks", "INT", 2_000, Range(100, 10_000)),  # line 81
]


def test_every_key_is_declared_as_kafka_defines_it_in_its_order() -> None:
    assert list(SHARE_GROUP_CONFIG.keys) == [name for name, *_ in SHARE_GROUP]
    for name, type_, default, validator in SHARE_GROUP:
        key = SHARE_GROUP_CONFIG.keys[name]
        assert (key.type, key.default, key.validator) == (type_, default, validator), name
        assert key.doc.strip(), name
    key = GROUP_CONFIG.keys["share.auto.offset.reset"]
    assert list(GROUP_CONFIG.keys) == ["share.auto.offset.reset"]
    assert (key.type, key.default, type(key.validator)) == ("STRING", "latest", ShareAutoOffsetResetValidator)
    assert key.doc.strip()


@pytest.mark.parametrize(("settings", "message"), [
    ({LOCK_DURATION: 0}, "Invalid value 0 for configuration group.share.record.lock.duration.ms: Value must be at "
                         "least 1000"),
    ({LOCK_DURATION: 3_600_001}, "Invalid value 3600001 for configuration group.share.record.lock.duration.ms: "
                                 "Value must be no more than 3600000"),
    ({DELIVERY_COUNT_LIMIT: 1}, "Invalid value 1 for configuration group.share.delivery.count.limit: Value must be "
                                "at least 2"),
    ({MAX_RECORD_LOCKS: 10_001}, "Invalid value 10001 for configuration group.share.partition.max.record.locks: "
                                 "Value must be no more than 10000"),
    ({LOCK_DURATION: "30s"}, "Invalid value 30s for configuration group.share.record.lock.duration.ms: Not a number "
                             "of type INT"),
    ({LOCK_DURATION: 1.5}, "Invalid value 1.5 for configuration group.share.record.lock.duration.ms: Expected value "
                           "to be a 32-bit integer, but it was a java.lang.Double"),
    # several bad: the first in ShareGroupConfig's definition order
    ({MAX_RECORD_LOCKS: 0, LOCK_DURATION: 0, DELIVERY_COUNT_LIMIT: 0},
     "Invalid value 0 for configuration group.share.delivery.count.limit: Value must be at least 2"),
])
def test_a_bad_setting_is_refused_in_kafkas_words(settings: dict, message: str) -> None:
    with pytest.raises(ConfigException) as kafka:
        SHARE_GROUP_CONFIG.parse(settings)
    assert str(kafka.value) == "ConfigException: " + message
    with pytest.raises(InputError) as refused:
        parse_settings(settings)
    assert str(refused.value) == f"settings.{kafka.value.name}: ConfigException: {message}"


@pytest.mark.parametrize(("value", "shown"), [("none", "none"), ("EARLIEST", "EARLIEST"),
                                              (" by_duration ", "by_duration"), (None, "null")])
def test_a_bad_reset_strategy_is_refused_in_kafkas_words(value: object, shown: str) -> None:
    with pytest.raises(InputError) as refused:
        parse_group_config({"share.auto.offset.reset": value})
    assert str(refused.value) == (
        f"group_config.share.auto.offset.reset: ConfigException: Invalid value {shown} for configuration "
        f"share.auto.offset.reset: Invalid value `{shown}` for configuration share.auto.offset.reset. The value must "
        "be either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS>'.")


def test_callers_get_the_same_answers() -> None:
    assert SETTINGS == {LOCK_DURATION: (30_000, 1_000, 3_600_000), DELIVERY_COUNT_LIMIT: (5, 2, 10),
                        MAX_RECORD_LOCKS: (2_000, 100, 10_000)}
    assert ShareSettings() == ShareSettings(30_000, 5, 2_000) == parse_settings(None) == parse_settings({})
    assert parse_settings({LOCK_DURATION: 5_000, MAX_RECORD_LOCKS: 200}) == ShareSettings(5_000, 5, 200)
    assert parse_settings({LOCK_DURATION: " 15000 "}).lock_duration_ms == 15_000  # a string, as ConfigDef reads it
    assert (AUTO_OFFSET_RESET_DEFAULT, parse_group_config({})) == ("latest", "latest")
    assert parse_group_config({"share.auto.offset.reset": "earliest"}) == "earliest"
    with pytest.raises(InputError, match="^settings: unknown setting 'group.share.min.record.lock.duration.ms'"):
        parse_settings({"group.share.min.record.lock.duration.ms": 15_000})
    with pytest.raises(InputError, match="^group_config.share.auto.offset.reset: by_duration:PT1H is a by_duration "
                                         "strategy, which the lab does not model"):
        parse_group_config({"share.auto.offset.reset": "by_duration:PT1H"})
