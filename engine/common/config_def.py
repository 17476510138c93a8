"""Kafka's ``ConfigDef``: how a property's value is parsed into its type and checked by its validator, with the
``ConfigException`` messages Kafka prints (``org.apache.kafka.common.config.ConfigDef``: ``parseType``,
``Range``, ``ValidString``, ``ValidList``).

JSON values stand for the Java values Kafka is given: an integer that fits 32 bits is an ``Integer``, one that
fits 64 bits a ``Long``, a larger one a ``BigInteger``, a fraction a ``Double``, a string a ``String``, an array
a ``List<String>``.  A string is read as the JDK reads it, never by Python's rules: ``String.trim`` (only
characters up to U+0020 go, so U+00A0 and U+3000 stay and are refused), then ``Integer.parseInt`` /
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

import math
import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Any, Final

from engine.errors import ScenarioError, quote

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
    with its spaces kept (an empty value reads ``Invalid value  for configuration``)."""

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
        f"ConfigException: Invalid value {quote(java_string(value))} for configuration {name}: {message}"
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
