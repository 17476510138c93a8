"""``TOPIC_CONFIG`` and ``BROKER_LOG_CONFIG`` declare the configs the lab reads as Kafka 4.2.0 defines them
(storage/.../log/LogConfig.java lines 149-165 and 187-250, storage/.../log/CleanerConfig.java lines 88-92,
server-common/.../config/ServerConfigs.java line 130), the broker's values become topic defaults as
``KafkaConfig.extractLogConfigMap`` makes them (core/.../server/KafkaConfig.scala lines 325, 425-437, 502-504,
663-680), and ``LogConfig.from_dict`` answers as it did from its earlier tables."""

from __future__ import annotations

import pytest

from engine.common.config_def import LONG_MAX, ConfigException, Range, ValidList
from engine.errors import ScenarioError
from engine.storage.log_config import BROKER_LOG_CONFIG, TOPIC_CONFIG, LogConfig

DAY = 86_400_000
POLICY = ValidList(("compact", "delete"))
# (name, type, default, validator) as LogConfig.CONFIG defines them, in its order
TOPIC: list[tuple[str, str, object, object]] = [
    ("segment.bytes", "INT", 1_073_741_824, Range(1_048_576)),
    ("segment.ms", "LONG", 7 * DAY, Range(1)),
    ("segment.index.bytes", "INT", 10_485_760, Range(4)),
    ("retention.bytes", "LONG", -1, None),
    ("retention.ms", "LONG", 7 * DAY, Range(-1)),
    ("max.message.bytes", "INT", 1_048_588, Range(0)),
    ("index.interval.bytes", "INT", 4096, Range(0)),
    ("delete.retention.ms", "LONG", DAY, Range(0)),
    ("min.compaction.lag.ms", "LONG", 0, Range(0)),
    ("max.compaction.lag.ms", "LONG", LONG_MAX, Range(1)),
    ("min.cleanable.dirty.ratio", "DOUBLE", 0.5, Range(0, 1)),
    ("cleanup.policy", "LIST", ["delete"], POLICY),
    ("internal.segment.bytes", "INT", None, None),
]
# the broker configs, in AbstractKafkaConfig's merge order (ServerConfigs, CleanerConfig, LogConfig.SERVER_CONFIG_DEF)
BROKER: list[tuple[str, str, object, object]] = [
    ("message.max.bytes", "INT", 1_048_588, Range(0)),
    ("log.cleaner.min.cleanable.ratio", "DOUBLE", 0.5, Range(0, 1)),
    ("log.cleaner.delete.retention.ms", "LONG", DAY, Range(0)),
    ("log.cleaner.min.compaction.lag.ms", "LONG", 0, Range(0)),
    ("log.cleaner.max.compaction.lag.ms", "LONG", LONG_MAX, Range(1)),
    ("log.segment.bytes", "INT", 1_073_741_824, Range(1_048_576)),
    ("log.roll.ms", "LONG", None, None),
    ("log.roll.hours", "INT", 168, Range(1)),
    ("log.retention.ms", "LONG", None, None),
    ("log.retention.minutes", "INT", None, None),
    ("log.retention.hours", "INT", 168, None),
    ("log.retention.bytes", "LONG", -1, None),
    ("log.cleanup.policy", "LIST", ["delete"], POLICY),
    ("log.index.size.max.bytes", "INT", 10_485_760, Range(4)),
    ("log.index.interval.bytes", "INT", 4096, Range(0)),
]


@pytest.mark.parametrize(("config", "kafka"), [(TOPIC_CONFIG, TOPIC), (BROKER_LOG_CONFIG, BROKER)])
def test_every_key_is_declared_as_kafka_defines_it_in_its_order(config, kafka) -> None:
    assert list(config.keys) == [name for name, *_ in kafka]
    for name, type_, default, validator in kafka:
        key = config.keys[name]
        assert (key.type, key.default, key.validator) == (type_, default, validator), name
        assert key.doc.strip(), name


def test_the_dataclass_has_one_field_per_topic_config_with_its_default() -> None:
    assert set(LogConfig().to_dict()) | {"internal.segment.bytes"} == set(TOPIC_CONFIG.keys)
    defaults = {name: key.default for name, key in TOPIC_CONFIG.keys.items() if key.default is not None}
    assert LogConfig().to_dict() == {**defaults, "cleanup.policy": "delete"}


@pytest.mark.parametrize(("config", "message"), [
    ({"segment.bytes": 1_048_575}, "ConfigException: Invalid value 1048575 for configuration segment.bytes: Value "
                                   "must be at least 1048576"),
    ({"retention.ms": -2}, "ConfigException: Invalid value -2 for configuration retention.ms: Value must be at least "
                           "-1"),
    ({"min.cleanable.dirty.ratio": 1.5}, "ConfigException: Invalid value 1.5 for configuration "
                                         "min.cleanable.dirty.ratio: Value must be no more than 1"),
    ({"cleanup.policy": "delete,forever"}, "ConfigException: Invalid value forever for configuration cleanup.policy: "
                                           "String must be one of: compact, delete"),
    ({"log.roll.hours": 0}, "ConfigException: Invalid value 0 for configuration log.roll.hours: Value must be at "
                            "least 1"),
    ({"log.cleaner.max.compaction.lag.ms": 0}, "ConfigException: Invalid value 0 for configuration "
                                               "log.cleaner.max.compaction.lag.ms: Value must be at least 1"),
    ({"log.cleanup.policy": ","}, "ConfigException: Configuration 'log.cleanup.policy' values must not be empty."),
])
def test_a_bad_value_is_refused_in_kafkas_words(config: dict, message: str) -> None:
    with pytest.raises(ConfigException) as refused:
        LogConfig.from_dict(config)
    assert str(refused.value) == message


def test_the_broker_is_read_before_the_topic_and_its_times_checked_as_kafkaconfig_does() -> None:
    # KafkaConfig refuses the broker's config at start, before any topic config is read
    with pytest.raises(ConfigException, match="configuration log.segment.bytes"):
        LogConfig.from_dict({"segment.ms": 0, "log.segment.bytes": 5})
    with pytest.raises(ScenarioError, match="^IllegalArgumentException: requirement failed: log.roll.ms must be "
                                            "greater than or equal to 1$"):
        LogConfig.from_dict({"log.roll.ms": 0})
    for zero in ({"log.retention.ms": 0}, {"log.retention.minutes": 0}, {"log.retention.hours": 0}):
        with pytest.raises(ScenarioError, match="log.retention.ms must be unlimited \\(-1\\) or, greater than or "
                                                "equal to 1$"):
            LogConfig.from_dict(zero)
    assert LogConfig.from_dict({"log.retention.ms": -5, "log.retention.hours": 0}).retention_ms == -1


def test_callers_get_the_same_answers() -> None:
    assert LogConfig.from_dict({}) == LogConfig()
    assert LogConfig.from_dict({"log.roll.hours": 2, "log.segment.bytes": 2**21}).to_dict() == {
        **LogConfig().to_dict(), "segment.ms": 7_200_000, "segment.bytes": 2**21}
    assert LogConfig.from_dict({"log.cleanup.policy": "compact", "cleanup.policy": "delete,compact"}).cleanup_policy \
        == "compact,delete"
    assert LogConfig.from_dict({"message.max.bytes": 100, "log.cleaner.min.cleanable.ratio": "0.25"}).to_dict() == {
        **LogConfig().to_dict(), "max.message.bytes": 100, "min.cleanable.dirty.ratio": 0.25}
    with pytest.raises(ScenarioError, match="^log.cleaner.min.cleanable.ratio: NaN passes Kafka's Range check"):
        LogConfig.from_dict({"log.cleaner.min.cleanable.ratio": "NaN"})
    with pytest.raises(ScenarioError, match="^retention.bytes: null passes Kafka's ConfigDef here"):
        LogConfig.from_dict({"retention.bytes": None})
