"""Kafka's ``ConfigDef``: how a config class declares its configs once (``ConfigKey``: name, type, default,
validator, doc) and how a value is parsed into its type and checked by its validator, with the
``ConfigException`` messages Kafka prints (``org.apache.kafka.common.config.ConfigDef``: ``define``, ``parse``,
``parseType``, ``Range``, ``ValidString``, ``ValidList``, ``NonEmptyString``).

JSON values stand for the Java values Kafka is given: an integer that fits 32 bits is an ``Integer``, one that
fits 64 bits a ``Long``, a larger one a ``BigInteger``, a fraction a ``Double``, a string a ``String``, an array
a ``List<String>``, null ``null``.  A string is read as the JDK reads it, never by Python's rules: ``String.trim``
(only characters up to U+0020 go, so U+00A0 and U+3000 stay and are refused), then ``Integer.parseInt`` /
``Long.parseLong`` (a sign, then decimal digits of any script in the BMP, ``٣`` and ``３`` included; no ``_``,
no length limit before the range check), ``Double.parseDouble`` (``FloatingDecimal``: ASCII digits, ``NaN``,
``Infinity``, hexadecimal ``0x1p3``, an ``f``/``F``/``d``/``D`` suffix), ``equalsIgnoreCase`` for booleans
and ``\\s*,\\s*`` (ASCII whitespace) for lists.  A message shows the value as Java's ``toString`` writes it,
through ``engine.errors.quote`` (at most 200 characters of it, control characters escaped).

Worked examples::

    >>> try:
    ...     parse_int("segment.bytes", 2**31)
    ... except ConfigException as refused:
    ...     print(refused)
    ConfigException: Invalid value 2147483648 for configuration segment.bytes: Expected value to be a 32-bit
    integer, but it was a java.lang.Long
    >>> parse_int("segment.bytes", " +1048576 "), parse_int("segment.bytes", "\\uff11\\uff10")
    (1048576, 10)
    >>> try:
    ...     parse_int("segment.bytes", "9" * 5000)
    ... except ConfigException as refused:
    ...     print(refused)
    ConfigException: Invalid value 99999...… (5,000 characters) for configuration segment.bytes: Not a number of
    type INT
    >>> parse_double("min.cleanable.dirty.ratio", "0x1p-2"), parse_boolean("x", " FALSE\\x00")
    (0.25, False)
    >>> parse_list("cleanup.policy", " compact , delete "), parse_list("cleanup.policy", "")
    (['compact', 'delete'], [])
    >>> policy = ValidList(("compact", "delete"))
    >>> try:
    ...     policy.ensure_valid("cleanup.policy", parse_list("cleanup.policy", ",delete"))
    ... except ConfigException as refused:
    ...     print(refused)
    ConfigException: Configuration 'cleanup.policy' values must not be empty.
    >>> policy.ensure_valid("cleanup.policy", ["compact", "compact"])
    ['compact']
    >>> java_string(1e-05), java_string(0.5), java_string(1e7), java_string([1, "a"])
    ('1.0E-5', '0.5', '1.0E7', '[1, a]')
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from types import MappingProxyType
from typing import Any, Final, Literal, Protocol

from engine.errors import ScenarioError, quote
from engine.release import RELEASED, Defaults

INT_MIN: Final = -(2**31)
INT_MAX: Final = 2**31 - 1
LONG_MIN: Final = -(2**63)
LONG_MAX: Final = 2**63 - 1
JAVA_WHITESPACE: Final = "".join(map(chr, range(0x21)))  # what String.trim removes: U+0000..U+0020
# The zero of every run of ten decimal digits (Unicode Nd) in the BMP: Character.digit(ch, 10) of Java 17,
# 370 characters (tests/engine/common/test_java_parsing.py checks them against unicodedata).
BMP_DIGIT_ZEROS: Final = (
    0x0030, 0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6, 0x0D66,
    0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90, 0x1B50,
    0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10,
)
_TO_ASCII_DIGITS: Final = {zero + d: ord("0") + d for zero in BMP_DIGIT_ZEROS[1:] for d in range(10)}
_JAVA_INTEGER: Final = re.compile(r"[+-]?+[0-9]++")
_JAVA_DECIMAL: Final = re.compile(
    r"[+-]?+(?:NaN|Infinity|(?:[0-9]++(?:\.[0-9]*+)?+|\.[0-9]++)(?:[eE][+-]?+[0-9]++)?+([fFdD]?+))"
)
_JAVA_HEX: Final = re.compile(
    r"([+-]?+)0[xX](?:[0-9a-fA-F]++\.?+|[0-9a-fA-F]*+\.[0-9a-fA-F]++)[pP][+-]?+[0-9]++([fFdD]?+)"
)
_JAVA_LIST_BLANKS: Final = " \t\n\x0b\f\r"  # Java's \s (ASCII whitespace), around each comma of a LIST


class ConfigException(ScenarioError):
    """Kafka's ``ConfigException`` (or ``InvalidConfigurationException``): the text is Kafka's, on one line but
    with its spaces kept (an empty value reads ``Invalid value  for configuration``); ``name`` is the config it
    refuses, when one is named."""

    def __init__(self, message: str, name: str | None = None) -> None:
        super().__init__(message)
        self.name = name

    @staticmethod
    def one_line(message: str) -> str:
        """Line breaks as spaces, every other space kept."""
        return " ".join(message.splitlines())


def java_string(value: Any) -> str:
    """``String.valueOf`` of the Java value a JSON value stands for."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return _double_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(java_string(v) for v in value) + "]"
    return str(value)


def _double_string(d: float) -> str:
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
        if INT_MIN <= value <= INT_MAX:
            return "java.lang.Integer"
        return "java.lang.Long" if LONG_MIN <= value <= LONG_MAX else "java.math.BigInteger"
    if isinstance(value, float):
        return "java.lang.Double"
    if isinstance(value, list):
        return "java.util.ArrayList"
    if isinstance(value, dict):
        return "java.util.HashMap"
    return "java.lang.String"


def invalid(name: str, value: Any, message: str) -> ConfigException:
    """``new ConfigException(name, value, message)``, the value through ``quote`` (bounded, escaped)."""
    return ConfigException(
        f"ConfigException: Invalid value {quote(java_string(value))} for configuration {name}: {message}", name
    )


def java_trim(text: str) -> str:
    """``String.trim``: every character up to U+0020 (NUL and the C0 controls included) goes from both ends,
    nothing else (U+00A0, U+3000 and U+0085 stay).

    >>> java_trim("\\x00\\t 42 \\x1f"), java_trim("\\u300042\\xa0")
    ('42', '\\u300042\\xa0')
    """
    return text.strip(JAVA_WHITESPACE)


def java_parse_integer(text: str, low: int, high: int) -> int | None:
    """``Integer.parseInt`` / ``Long.parseLong`` of ``text`` (already trimmed) for the range ``low..high``:
    an optional ``+`` or ``-``, then at least one decimal digit of any script in the BMP (``Character.digit``);
    None where Java throws ``NumberFormatException`` (anything else, or out of range).  Linear in the text and
    never more than 20 significant digits converted, whatever its length.

    >>> java_parse_integer("+0042", INT_MIN, INT_MAX), java_parse_integer("-\\u0663", INT_MIN, INT_MAX)
    (42, -3)
    >>> java_parse_integer("-" + "0" * 5000, INT_MIN, INT_MAX), java_parse_integer("1" * 5000, LONG_MIN, LONG_MAX)
    (0, None)
    >>> java_parse_integer("1_000", INT_MIN, INT_MAX), java_parse_integer("2147483648", INT_MIN, INT_MAX)
    (None, None)
    """
    ascii_text = text if text.isascii() else text.translate(_TO_ASCII_DIGITS)
    if not _JAVA_INTEGER.fullmatch(ascii_text):
        return None
    sign, digits = ("", ascii_text) if ascii_text[0] in "0123456789" else (ascii_text[0], ascii_text[1:])
    significant = digits.lstrip("0") or "0"
    if len(significant) > 20:
        return None
    value = int(sign + significant)
    return value if low <= value <= high else None


def java_parse_double(text: str) -> float | None:
    """``Double.parseDouble`` of ``text`` (already trimmed), as ``FloatingDecimal.readJavaFormatString``
    reads it: decimal (ASCII digits, an optional exponent, an ``f``/``F``/``d``/``D`` suffix), ``NaN`` and
    ``Infinity`` with an optional sign, or hexadecimal (``0x1.8p1``, its ``p`` exponent required); a value too
    large is infinity, too small zero.  None where Java throws ``NumberFormatException``.

    >>> java_parse_double("1e5d"), java_parse_double("-0x1p3f"), java_parse_double("1e999")
    (100000.0, -8.0, inf)
    >>> java_parse_double("inf"), java_parse_double("1_0"), java_parse_double("0x1")
    (None, None, None)
    """
    if match := _JAVA_DECIMAL.fullmatch(text):
        number = text[: len(text) - len(match.group(1) or "")]
        return float(number.replace("Infinity", "inf"))
    if match := _JAVA_HEX.fullmatch(text):
        number = text[: len(text) - len(match.group(2))]
        try:
            return float.fromhex(number)
        except OverflowError:
            return -math.inf if match.group(1) == "-" else math.inf
    return None


def java_equals_ignore_case(text: str, word: str) -> bool:
    """``text.equalsIgnoreCase(word)`` for an ASCII ``word``: character by character, equal after
    ``Character.toUpperCase``, or after ``toLowerCase`` of that (so ``ſ``, U+017F, matches ``s``).

    >>> java_equals_ignore_case("fAl\\u017fe", "false"), java_equals_ignore_case("\\uff54rue", "true")
    (True, False)
    """
    return len(text) == len(word) and all(
        c == w or _upper(c) == w.upper() or _upper(c).lower() == w.lower() for c, w in zip(text, word)
    )


def _upper(char: str) -> str:
    """``Character.toUpperCase``: the simple (one-character) mapping, else the character itself."""
    upper = char.upper()
    return upper if len(upper) == 1 else char


def _number(name: str, value: Any, low: int, high: int, kind: str, described: str) -> int:
    if isinstance(value, str):
        number = java_parse_integer(java_trim(value), low, high)
        if number is None:
            raise invalid(name, value, f"Not a number of type {kind}")
        return number
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
    """``parseType`` for ``DOUBLE``: any number (``doubleValue()``; a ``BigInteger`` too large is infinity),
    or a string ``Double.parseDouble`` reads."""
    if isinstance(value, str):
        number = java_parse_double(java_trim(value))
        if number is None:
            raise invalid(name, value, "Not a number of type DOUBLE")
        return number
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise invalid(name, value, f"Expected value to be a double, but it was a {java_class(value)}")
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def parse_boolean(name: str, value: Any) -> bool:
    """``parseType`` for ``BOOLEAN``: a boolean, or a string ``equalsIgnoreCase`` to ``true`` or ``false``."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        text = java_trim(value)
        if java_equals_ignore_case(text, "true"):
            return True
        if java_equals_ignore_case(text, "false"):
            return False
    raise invalid(name, value, "Expected value to be either true or false")


def parse_string(name: str, value: Any) -> str:
    """``parseType`` for ``STRING``: a string, trimmed (``String.trim``)."""
    if not isinstance(value, str):
        raise invalid(name, value, f"Expected value to be a string, but it was a {java_class(value)}")
    return java_trim(value)


def parse_list(name: str, value: Any) -> list[str]:
    """``parseType`` for ``LIST``: a list as it is, or a string trimmed and split on commas with the ASCII
    whitespace around them (``COMMA_WITH_WHITESPACE.split(trimmed, -1)``; an empty string is the empty list,
    empty items are kept).  Split on the commas, then each piece stripped: the same pieces as the regex, in
    linear time.

    >>> parse_list("x", "\\x00a ,\\tb,\\u3000c,"), parse_list("x", "a\\u3000,b")
    (['a', 'b', '\\u3000c', ''], ['a\\u3000', 'b'])
    """
    if isinstance(value, list):
        return [java_string(v) for v in value]
    if not isinstance(value, str):
        raise invalid(name, value, "Expected a comma separated list.")
    text = java_trim(value)
    return [piece.strip(_JAVA_LIST_BLANKS) for piece in text.split(",")] if text else []


# --- the declaration: types, validators, ConfigKey, ConfigDef ------------------------------------------------

ConfigType = Literal["BOOLEAN", "STRING", "INT", "LONG", "DOUBLE", "LIST"]
BOOLEAN: Final[ConfigType] = "BOOLEAN"
STRING: Final[ConfigType] = "STRING"
INT: Final[ConfigType] = "INT"
LONG: Final[ConfigType] = "LONG"
DOUBLE: Final[ConfigType] = "DOUBLE"
LIST: Final[ConfigType] = "LIST"
_PARSERS: Final[dict[ConfigType, Callable[[str, Any], Any]]] = {
    BOOLEAN: parse_boolean, STRING: parse_string, INT: parse_int, LONG: parse_long, DOUBLE: parse_double,
    LIST: parse_list,
}


def parse_type(name: str, value: Any, config_type: ConfigType) -> Any:
    """``ConfigDef.parseType``: null stays null (the validator decides), anything else is read as its type."""
    return None if value is None else _PARSERS[config_type](name, value)


class Validator(Protocol):
    """``ConfigDef.Validator``: refuses a parsed value with Kafka's ``ConfigException``, or returns the value
    ``ConfigDef`` keeps (``ValidList``'s without repeats, as ``parseValue`` leaves it)."""

    def ensure_valid(self, name: str, value: Any) -> Any: ...


@dataclass(frozen=True)
class Range:
    """``ConfigDef.Range``: ``atLeast(low)`` or ``between(low, high)``, both bounds inclusive; null refused.
    NaN passes, as in Kafka (every comparison with it is false)."""

    low: int | float
    high: int | float | None = None

    @staticmethod
    def at_least(low: int | float) -> Range:
        return Range(low)

    @staticmethod
    def between(low: int | float, high: int | float) -> Range:
        return Range(low, high)

    def ensure_valid(self, name: str, value: Any) -> Any:
        if value is None:
            raise invalid(name, None, "Value must be non-null")
        if value < self.low:
            raise invalid(name, value, f"Value must be at least {java_string(self.low)}")
        if self.high is not None and value > self.high:
            raise invalid(name, value, f"Value must be no more than {java_string(self.high)}")
        return value


@dataclass(frozen=True)
class ValidString:
    """``ConfigDef.ValidString.in``: exactly one of ``allowed`` (case matters)."""

    allowed: tuple[str, ...]

    def ensure_valid(self, name: str, value: Any) -> Any:
        if value not in self.allowed:
            raise invalid(name, value, "String must be one of: " + ", ".join(self.allowed))
        return value


@dataclass(frozen=True)
class ValidList:
    """``ConfigDef.ValidList.in`` (an empty list allowed, null refused) after ``ConfigDef.parseValue`` drops
    repeated items (Kafka logs a warning): no empty item, every item one of ``allowed``."""

    allowed: tuple[str, ...]

    def ensure_valid(self, name: str, value: Any) -> Any:
        if value is None:
            raise ConfigException(f"ConfigException: Configuration '{name}' values must not be null.", name)
        distinct = list(dict.fromkeys(value))
        for item in distinct:
            if not item:
                raise ConfigException(f"ConfigException: Configuration '{name}' values must not be empty.", name)
            ValidString(self.allowed).ensure_valid(name, item)
        return distinct


@dataclass(frozen=True)
class NonEmptyString:
    """``ConfigDef.NonEmptyString``: null passes, the empty string (after trimming) does not."""

    def ensure_valid(self, name: str, value: Any) -> Any:
        if value == "":
            raise invalid(name, value, "String must be non-empty")
        return value


@dataclass(frozen=True)
class ConfigKey:
    """One ``ConfigDef.define``: a config's name, type, default (released Kafka's; ``older_defaults`` holds
    another release's, keyed by the ``engine.release.Defaults`` table that names it), validator and Kafka's doc
    line; ``lab_check`` is the lab's own bound on a value Kafka accepts (it raises a ``LimitError`` or
    ``ScenarioError`` that says so)."""

    name: str
    type: ConfigType
    default: Any
    validator: Validator | None
    doc: str
    older_defaults: Mapping[Defaults, Any] = field(default_factory=dict)
    lab_check: Callable[[str, Any], None] | None = None

    def default_in(self, defaults: Defaults) -> Any:
        """The default the ``defaults`` table gives (released Kafka's unless it names another)."""
        return self.older_defaults.get(defaults, self.default)


class ConfigDef:
    """Kafka's ``ConfigDef`` for one config class: its keys in definition order, and ``parse``, which reads a
    mapping of Kafka names as ``ConfigDef.parse`` does: every key in definition order (so where several values
    are bad the first defined is named), a given value through ``parseType`` and then the validator, a missing
    one taking its default.  Then the lab's own checks (``ConfigKey.lab_check``) on the values Kafka accepted,
    and a null Kafka lets through a key without a validator, which Kafka's getter would unbox into a
    ``NullPointerException``.  Unknown names are the caller's to refuse (Kafka ignores them).

    Worked example::

        >>> locks = ConfigDef("ShareGroupConfig").define(
        ...     "group.share.record.lock.duration.ms", INT, 30_000, Range(1_000, 3_600_000),
        ...     "The record acquisition lock duration in milliseconds for share groups.")
        >>> locks.parse({}), locks.parse({"group.share.record.lock.duration.ms": " 15000 "})
        ({'group.share.record.lock.duration.ms': 30000}, {'group.share.record.lock.duration.ms': 15000})
        >>> try:
        ...     locks.parse({"group.share.record.lock.duration.ms": 0})
        ... except ConfigException as refused:
        ...     print(refused)
        ConfigException: Invalid value 0 for configuration group.share.record.lock.duration.ms: Value must be at
        least 1000
    """

    def __init__(self, kafka_class: str) -> None:
        self.kafka_class = kafka_class
        self._keys: dict[str, ConfigKey] = {}

    def define(self, name: str, config_type: ConfigType, default: Any, validator: Validator | None, doc: str, *,
               older_defaults: Mapping[Defaults, Any] | None = None,
               lab_check: Callable[[str, Any], None] | None = None) -> ConfigDef:
        """``ConfigDef.define``: a name defined twice is refused; the default is parsed into its type and checked
        by the validator (``ConfigKey``'s constructor), and so is every older release's."""
        if name in self._keys:
            raise ConfigException(f"ConfigException: Configuration {name} is defined twice.", name)
        older = {table: self._checked_default(name, config_type, value, validator)
                 for table, value in (older_defaults or {}).items()}
        self._keys[name] = ConfigKey(name, config_type, self._checked_default(name, config_type, default, validator),
                                     validator, doc, older, lab_check)
        return self

    @staticmethod
    def _checked_default(name: str, config_type: ConfigType, value: Any, validator: Validator | None) -> Any:
        parsed = parse_type(name, value, config_type)
        return parsed if validator is None else validator.ensure_valid(name, parsed)

    @property
    def keys(self) -> Mapping[str, ConfigKey]:
        """The keys by name, in definition order."""
        return MappingProxyType(self._keys)

    def defaults(self, defaults: Defaults = RELEASED) -> dict[str, Any]:
        """Every key's default in the ``defaults`` table, by name."""
        return {key.name: key.default_in(defaults) for key in self._keys.values()}

    def parse(self, values: Mapping[str, Any], defaults: Defaults = RELEASED) -> dict[str, Any]:
        """``ConfigDef.parse``: every key's typed value (given, else the ``defaults`` table's), Kafka's checks in
        definition order, then the lab's."""
        parsed: dict[str, Any] = {}
        for key in self._keys.values():
            value = parse_type(key.name, values[key.name], key.type) if key.name in values else \
                key.default_in(defaults)
            parsed[key.name] = value if key.validator is None else key.validator.ensure_valid(key.name, value)
        for key in self._keys.values():
            if key.name not in values:
                continue
            if parsed[key.name] is None and key.default is not None:
                raise ScenarioError(f"{key.name}: null passes Kafka's ConfigDef here (no validator), then Kafka's "
                                    "getter throws NullPointerException; give a value")
            if key.lab_check is not None:
                key.lab_check(key.name, parsed[key.name])
        return parsed
