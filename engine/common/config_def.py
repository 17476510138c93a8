"""Kafka's ``ConfigDef``: how a property's value is parsed into its type and checked by its validator, with the
``ConfigException`` messages Kafka prints (``org.apache.kafka.common.config.ConfigDef``: ``parseType``,
``Range``, ``ValidString``, ``ValidList``).

JSON values stand for the Java values Kafka is given: an integer that fits 32 bits is an ``Integer``, a larger
one a ``Long``, a fraction a ``Double``, a string a ``String`` (trimmed before parsing), an array a
``List<String>``.  A message shows the value as Java's ``toString`` writes it.

Worked examples::

    >>> try:
    ...     parse_int("segment.bytes", 2**31)
    ... except ConfigException as refused:
    ...     print(refused)
    ConfigException: Invalid value 2147483648 for configuration segment.bytes: Expected value to be a 32-bit
    integer, but it was a java.lang.Long
    >>> parse_list("cleanup.policy", " compact , delete "), parse_list("cleanup.policy", "")
    (['compact', 'delete'], [])
    >>> try:
    ...     valid_list("cleanup.policy", parse_list("cleanup.policy", ",delete"), ("compact", "delete"))
    ... except ConfigException as refused:
    ...     print(refused)
    ConfigException: Configuration 'cleanup.policy' values must not be empty.
    >>> valid_list("cleanup.policy", ["compact", "compact"], ("compact", "delete"))
    ['compact']
    >>> java_string(1e-05), java_string(0.5), java_string(1e7), java_string([1, "a"])
    ('1.0E-5', '0.5', '1.0E7', '[1, a]')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Any, Final

from engine.errors import ScenarioError

INT_MIN: Final = -(2**31)
INT_MAX: Final = 2**31 - 1
LONG_MIN: Final = -(2**63)
LONG_MAX: Final = 2**63 - 1
_COMMA_WITH_WHITESPACE: Final = re.compile(r"\s*,\s*")
_JAVA_DOUBLE: Final = re.compile(r"[+-]?(NaN|Infinity|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?)")


class ConfigException(ScenarioError):
    """Kafka's ``ConfigException`` (or ``InvalidConfigurationException``): the text is Kafka's, on one line but
    with its spaces kept (an empty value reads ``Invalid value  for configuration``)."""

    def __init__(self, message: str) -> None:
        Exception.__init__(self, " ".join(message.splitlines()))


def java_string(value: Any) -> str:
    """``String.valueOf`` of the Java value a JSON value stands for."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return _java_double(value)
    if isinstance(value, list):
        return "[" + ", ".join(java_string(v) for v in value) + "]"
    return str(value)


def _java_double(d: float) -> str:
    """``Double.toString``: shortest digits; plain between 10^-3 and 10^7, else ``d.dddE±n``."""
    if d != d:
        return "NaN"
    if d in (float("inf"), float("-inf")):
        return "Infinity" if d > 0 else "-Infinity"
    if d == 0 or 1e-3 <= abs(d) < 1e7:
        text = repr(d)
        return text if "e" not in text else format(Decimal(text), "f")
    sign, digits, exponent = Decimal(repr(d)).as_tuple()
    assert isinstance(exponent, int)
    mantissa = "".join(map(str, digits)).rstrip("0") or "0"
    power = len(digits) - 1 + exponent
    return ("-" if sign else "") + mantissa[0] + "." + (mantissa[1:] or "0") + f"E{power}"


def java_class(value: Any) -> str:
    """The class of the Java value a JSON value stands for."""
    if isinstance(value, bool):
        return "java.lang.Boolean"
    if isinstance(value, int):
        return "java.lang.Integer" if INT_MIN <= value <= INT_MAX else "java.lang.Long"
    if isinstance(value, float):
        return "java.lang.Double"
    if isinstance(value, list):
        return "java.util.ArrayList"
    if isinstance(value, dict):
        return "java.util.HashMap"
    return "java.lang.String"


def invalid(name: str, value: Any, message: str) -> ConfigException:
    """``new ConfigException(name, value, message)``."""
    return ConfigException(f"ConfigException: Invalid value {java_string(value)} for configuration {name}: {message}")


def _number(name: str, value: Any, low: int, high: int, kind: str, described: str) -> int:
    if isinstance(value, str):
        text = value.strip()
        if not re.fullmatch(r"[+-]?\d+", text) or not low <= int(text) <= high:
            raise invalid(name, value, f"Not a number of type {kind}")
        return int(text)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise invalid(name, value, f"Expected value to be a {described}, but it was a {java_class(value)}")
    return value


def parse_int(name: str, value: Any) -> int:
    """``parseType`` for ``INT``: an ``Integer``, or a string ``Integer.parseInt`` reads."""
    return _number(name, value, INT_MIN, INT_MAX, "INT", "32-bit integer")


def parse_long(name: str, value: Any) -> int:
    """``parseType`` for ``LONG``: an ``Integer`` or ``Long``, or a string ``Long.parseLong`` reads."""
    return _number(name, value, LONG_MIN, LONG_MAX, "LONG", "64-bit integer (long)")


def parse_double(name: str, value: Any) -> float:
    """``parseType`` for ``DOUBLE``: any number, or a decimal string ``Double.parseDouble`` reads (``NaN``,
    ``Infinity``, an ``f``/``d`` suffix; hexadecimal floats are not read here)."""
    if isinstance(value, str):
        text = value.strip()
        if not _JAVA_DOUBLE.fullmatch(text):
            raise invalid(name, value, "Not a number of type DOUBLE")
        return float(text.rstrip("fFdD").replace("Infinity", "inf"))
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise invalid(name, value, f"Expected value to be a double, but it was a {java_class(value)}")
    return float(value)


def parse_boolean(name: str, value: Any) -> bool:
    """``parseType`` for ``BOOLEAN``: a boolean, or ``true``/``false`` in any case."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise invalid(name, value, "Expected value to be either true or false")


def parse_string(name: str, value: Any) -> str:
    """``parseType`` for ``STRING``: a string, trimmed."""
    if not isinstance(value, str):
        raise invalid(name, value, f"Expected value to be a string, but it was a {java_class(value)}")
    return value.strip()


def parse_list(name: str, value: Any) -> list[str]:
    """``parseType`` for ``LIST``: a list as it is, or a string split on commas and the blanks around them
    (an empty string is the empty list; empty items are kept)."""
    if isinstance(value, list):
        return [java_string(v) for v in value]
    if not isinstance(value, str):
        raise invalid(name, value, "Expected a comma separated list.")
    text = value.strip()
    return _COMMA_WITH_WHITESPACE.split(text) if text else []


def at_least(name: str, value: int | float, low: int | float) -> None:
    """``Range.atLeast``."""
    if value < low:
        raise invalid(name, value, f"Value must be at least {low}")


def between(name: str, value: int | float, low: int | float, high: int | float) -> None:
    """``Range.between``."""
    at_least(name, value, low)
    if value > high:
        raise invalid(name, value, f"Value must be no more than {high}")


def valid_string(name: str, value: str, allowed: Sequence[str]) -> None:
    """``ValidString.in``: exactly one of ``allowed`` (case matters)."""
    if value not in allowed:
        raise invalid(name, value, "String must be one of: " + ", ".join(allowed))


def valid_list(name: str, values: Sequence[str], allowed: Sequence[str]) -> list[str]:
    """``ValidList.in`` (an empty list allowed) after ``ConfigDef.parseValue`` drops repeated items (Kafka logs
    a warning): no empty item, every item one of ``allowed``.  Returns the list without repeats."""
    distinct = list(dict.fromkeys(values))
    for value in distinct:
        if not value:
            raise ConfigException(f"ConfigException: Configuration '{name}' values must not be empty.")
        valid_string(name, value, allowed)
    return distinct
