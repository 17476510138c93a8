"""``PRODUCER_CONFIG`` declares the properties the lab reads as Kafka 4.2.0's ``ProducerConfig.CONFIG`` defines
them (clients/src/main/java/org/apache/kafka/clients/producer/ProducerConfig.java lines 390-542), and
``resolve`` answers as it did from its earlier tables."""

from __future__ import annotations

import pytest

from engine.common.config_def import INT_MAX, ConfigException, NonEmptyString, Range, ValidString
from engine.errors import LimitError, ScenarioError
from engine.producer.producer_config import DEFAULTS, PRODUCER_CONFIG, resolve
from engine.release import BEFORE_4_0

# (name, type, default, validator) as ProducerConfig.java defines them, in its order (line of each define)
KAFKA: list[tuple[str, str, object, object]] = [
    ("retries", "INT", INT_MAX, Range(0, INT_MAX)),  # 390
    ("acks", "STRING", "all", ValidString(("all", "-1", "0", "1"))),  # 391
    ("batch.size", "INT", 16_384, Range(0)),  # 401
    ("linger.ms", "LONG", 5, Range(0)),  # 405
    ("delivery.timeout.ms", "INT", 120_000, Range(0)),  # 406
    ("retry.backoff.ms", "LONG", 100, Range(0)),  # 418, CommonClientConfigs.DEFAULT_RETRY_BACKOFF_MS
    ("retry.backoff.max.ms", "LONG", 1_000, Range(0)),  # 424, CommonClientConfigs.DEFAULT_RETRY_BACKOFF_MAX_MS
    ("request.timeout.ms", "INT", 30_000, Range(0)),  # 441
    ("max.in.flight.requests.per.connection", "INT", 5, Range(1)),  # 473
    ("enable.idempotence", "BOOLEAN", True, None),  # 527
    ("transactional.id", "STRING", None, NonEmptyString()),  # 537
]


def test_every_key_is_declared_as_kafka_defines_it_in_its_order() -> None:
    assert list(PRODUCER_CONFIG.keys) == [name for name, *_ in KAFKA]
    for name, type_, default, validator in KAFKA:
        key = PRODUCER_CONFIG.keys[name]
        assert (key.type, key.default, key.validator) == (type_, default, validator), name
        assert key.doc.strip(), name


def test_only_linger_ms_has_an_older_default() -> None:
    assert {name: key.older_defaults for name, key in PRODUCER_CONFIG.keys.items() if key.older_defaults} == {
        "linger.ms": {BEFORE_4_0: 0}}


@pytest.mark.parametrize(("config", "message"), [
    ({"retries": -1}, "Invalid value -1 for configuration retries: Value must be at least 0"),
    ({"acks": "2"}, "Invalid value 2 for configuration acks: String must be one of: all, -1, 0, 1"),
    ({"batch.size": -1}, "Invalid value -1 for configuration batch.size: Value must be at least 0"),
    ({"linger.ms": -1}, "Invalid value -1 for configuration linger.ms: Value must be at least 0"),
    ({"delivery.timeout.ms": -1}, "Invalid value -1 for configuration delivery.timeout.ms: Value must be at least 0"),
    ({"retry.backoff.ms": -1}, "Invalid value -1 for configuration retry.backoff.ms: Value must be at least 0"),
    ({"retry.backoff.max.ms": -1}, "Invalid value -1 for configuration retry.backoff.max.ms: Value must be at least 0"),
    ({"request.timeout.ms": -1}, "Invalid value -1 for configuration request.timeout.ms: Value must be at least 0"),
    ({"max.in.flight.requests.per.connection": 0}, "Invalid value 0 for configuration "
                                                   "max.in.flight.requests.per.connection: Value must be at least 1"),
    ({"enable.idempotence": "yes"}, "Invalid value yes for configuration enable.idempotence: Expected value to be "
                                    "either true or false"),
    ({"transactional.id": ""}, "Invalid value  for configuration transactional.id: String must be non-empty"),
])
def test_a_bad_value_is_refused_in_kafkas_words(config: dict, message: str) -> None:
    with pytest.raises(ConfigException) as refused:
        resolve(config)
    assert str(refused.value) == "ConfigException: " + message


def test_the_labs_bounds_follow_kafkas_checks() -> None:
    with pytest.raises(LimitError, match="^linger.ms: at most 2,147,483,647 in this lab \\(Kafka accepts it\\)"):
        resolve({"linger.ms": INT_MAX + 1})
    with pytest.raises(ConfigException, match="configuration batch.size"):
        resolve({"linger.ms": INT_MAX + 1, "batch.size": -1})


def test_callers_get_the_same_answers() -> None:
    assert DEFAULTS == {
        "retries": INT_MAX, "acks": "all", "batch.size": 16_384, "linger.ms": 5, "delivery.timeout.ms": 120_000,
        "retry.backoff.ms": 100, "retry.backoff.max.ms": 1_000, "request.timeout.ms": 30_000,
        "max.in.flight.requests.per.connection": 5, "enable.idempotence": True, "transactional.id": None,
    }
    assert resolve({}).to_dict() == {
        "enable.idempotence": True, "acks": "all", "retries": INT_MAX, "max.in.flight.requests.per.connection": 5,
        "delivery.timeout.ms": 120_000, "request.timeout.ms": 30_000, "linger.ms": 5, "batch.size": 16_384,
        "retry.backoff.ms": 100, "retry.backoff.max.ms": 1_000,
    }
    assert resolve({}, BEFORE_4_0).to_dict() == {**resolve({}).to_dict(), "linger.ms": 0}
    assert resolve({"acks": " all ", "transactional.id": " tx "}).acks == -1
    with pytest.raises(ScenarioError, match="^config: unknown or unsupported property 'compression.type' \\(supported: "
                                        "retries, acks, batch.size, linger.ms,"):
        resolve({"compression.type": "zstd"})
