"""``engine.common.config_def``'s declaration shape: ``ConfigDef.define`` and ``ConfigDef.parse`` as Kafka 4.2.0's
``ConfigDef`` does them (clients/src/main/java/org/apache/kafka/common/config/ConfigDef.java: ``define`` line
131, ``parse`` 517-528, ``parseValue`` 531-555, ``parseType`` 701-790, ``Range`` 995-1003, ``ValidList``
1045-1080, ``ValidString`` 1100-1104, ``NonEmptyString`` 1215-1219, ``ConfigKey`` 1327-1331; the
``ConfigException(name, value, message)`` text is ConfigException.java line 37)."""

from __future__ import annotations

import math

import pytest

from engine.common.config_def import (
    INT,
    LIST,
    LONG,
    STRING,
    ConfigDef,
    ConfigException,
    NonEmptyString,
    Range,
    ValidList,
    ValidString,
)
from engine.errors import LimitError, ScenarioError
from engine.release import BEFORE_4_0, RELEASED


def _refusal(config: ConfigDef, values: dict) -> str:
    with pytest.raises(ConfigException) as refused:
        config.parse(values)
    return str(refused.value)


def test_a_name_defined_twice_is_refused() -> None:
    config = ConfigDef("X").define("a", INT, 1, None, "a")
    with pytest.raises(ConfigException, match="^ConfigException: Configuration a is defined twice.$"):
        config.define("a", INT, 1, None, "a")


def test_a_default_is_parsed_into_its_type_and_validated_as_it_is_defined() -> None:
    config = ConfigDef("X").define("policy", LIST, "compact, delete", ValidList(("compact", "delete")), "policy")
    assert config.keys["policy"].default == ["compact", "delete"]
    with pytest.raises(ConfigException, match="^ConfigException: Invalid value 0 for configuration x: Value must be at "
                                              "least 1$"):
        ConfigDef("X").define("x", INT, 0, Range.at_least(1), "x")
    with pytest.raises(ConfigException, match="Value must be at least 1$"):
        ConfigDef("X").define("x", INT, 5, Range.at_least(1), "x", older_defaults={BEFORE_4_0: 0})


def test_parse_walks_the_definition_order_and_names_the_first_bad_value() -> None:
    config = (ConfigDef("X").define("b", INT, 1, Range.at_least(1), "b")
              .define("a", LONG, 1, Range.between(1, 9), "a"))
    assert _refusal(config, {"a": 10, "b": 0}) == ("ConfigException: Invalid value 0 for configuration b: Value must "
                                                   "be at least 1")
    assert _refusal(config, {"a": 10}) == "ConfigException: Invalid value 10 for configuration a: Value must be no " \
                                          "more than 9"
    assert config.parse({"a": " 9 "}) == {"b": 1, "a": 9}


def test_the_value_shown_is_the_parsed_one_for_a_validator_and_the_given_one_for_a_type() -> None:
    config = ConfigDef("X").define("n", INT, 1, Range.at_least(1), "n")
    assert _refusal(config, {"n": " 0 "}) == "ConfigException: Invalid value 0 for configuration n: Value must be at " \
                                             "least 1"
    assert _refusal(config, {"n": " x "}) == "ConfigException: Invalid value  x  for configuration n: Not a number " \
                                             "of type INT"


def test_null_is_refused_by_each_validator_in_kafkas_words() -> None:
    config = (ConfigDef("X").define("n", INT, 1, Range.at_least(1), "n")
              .define("s", STRING, "a", ValidString(("a", "b")), "s")
              .define("l", LIST, "a", ValidList(("a",)), "l")
              .define("t", STRING, None, NonEmptyString(), "t"))
    assert _refusal(config, {"n": None}) == "ConfigException: Invalid value null for configuration n: Value must be " \
                                            "non-null"
    assert _refusal(config, {"s": None}) == "ConfigException: Invalid value null for configuration s: String must be " \
                                            "one of: a, b"
    assert _refusal(config, {"l": None}) == "ConfigException: Configuration 'l' values must not be null."
    assert config.parse({"t": None})["t"] is None
    assert _refusal(config, {"t": "  "}) == "ConfigException: Invalid value  for configuration t: String must be " \
                                            "non-empty"  # the trimmed value


def test_a_null_kafka_lets_through_is_refused_where_its_getter_would_throw() -> None:
    config = ConfigDef("X").define("bytes", LONG, -1, None, "bytes").define("ms", LONG, None, None, "ms")
    assert config.parse({"ms": None}) == {"bytes": -1, "ms": None}
    with pytest.raises(ScenarioError, match="^bytes: null passes Kafka's ConfigDef here"):
        config.parse({"bytes": None})


def test_valid_list_drops_repeats_before_checking() -> None:
    config = ConfigDef("X").define("l", LIST, "a", ValidList(("a", "b")), "l")
    assert config.parse({"l": "b, a, b"})["l"] == ["b", "a"]
    assert _refusal(config, {"l": "a,,b"}) == "ConfigException: Configuration 'l' values must not be empty."
    assert _refusal(config, {"l": "a,c"}) == "ConfigException: Invalid value c for configuration l: String must be " \
                                             "one of: a, b"


def test_range_bounds_are_written_as_java_writes_numbers_and_nan_passes() -> None:
    config = ConfigDef("X").define("r", "DOUBLE", 0.5, Range.between(0.25, 1), "r")
    assert _refusal(config, {"r": 0.1}) == "ConfigException: Invalid value 0.1 for configuration r: Value must be at " \
                                           "least 0.25"
    assert math.isnan(config.parse({"r": "NaN"})["r"])


def test_the_labs_checks_come_after_every_kafka_check() -> None:
    def at_most_9(name: str, value: int) -> None:
        if value > 9:
            raise LimitError(f"{name}: at most 9 in this lab")

    config = (ConfigDef("X").define("a", INT, 1, None, "a", lab_check=at_most_9)
              .define("b", INT, 1, Range.at_least(0), "b"))
    assert _refusal(config, {"a": 10, "b": -1}).endswith("configuration b: Value must be at least 0")
    with pytest.raises(LimitError, match="^a: at most 9 in this lab$"):
        config.parse({"a": 10})


def test_older_defaults_are_keyed_by_the_release_table() -> None:
    config = ConfigDef("X").define("linger.ms", LONG, 5, Range.at_least(0), "linger", older_defaults={BEFORE_4_0: 0})
    assert config.defaults() == config.defaults(RELEASED) == {"linger.ms": 5}
    assert config.parse({}, BEFORE_4_0) == {"linger.ms": 0}
    assert config.parse({"linger.ms": 7}, BEFORE_4_0) == {"linger.ms": 7}
