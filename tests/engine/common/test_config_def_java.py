"""``engine.common.config_def`` reads config strings exactly as the JDK does, checked against real Java.

``JAVA`` was printed by a throwaway Java 17.0.15 program (OpenJDK 17.0.15+6) that, for each string ``s``, ran
what ``ConfigDef.parseType`` runs on it: ``t = s.trim()``, then ``Integer.parseInt(t)``, ``Long.parseLong(t)``,
``Double.parseDouble(t)`` (its ``doubleToRawLongBits`` compared) and ``t.equalsIgnoreCase("true")`` /
``("false")``; ``LISTS`` is ``Arrays.asList(Pattern.compile("\\s*,\\s*").split(t, -1))`` (``[]`` for an empty
``t``).  None means ``NumberFormatException`` (or neither boolean).  The values are transcribed here as plain
Python values; the long strings are written as the expressions that build them.

Python's ``int()``, ``float()``, ``str.strip()`` and ``\\s`` differ on most of these: ``int()`` accepts ``_``
and strips Unicode blanks (U+3000, U+00A0, U+0085) and refuses more than 4,300 digits; Java's ``trim`` removes
only characters up to U+0020 (NUL included), ``parseInt`` accepts a leading ``+`` and decimal digits of every
BMP script, and ``parseDouble`` reads hexadecimal floats and ``f``/``d`` suffixes but no ``inf``/``nan``.
"""

from __future__ import annotations

import math
import struct
import time
import unicodedata
from typing import Any

import pytest

from engine.common.config_def import (
    BMP_DIGIT_ZEROS,
    ConfigException,
    java_class,
    parse_boolean,
    parse_double,
    parse_int,
    parse_list,
    parse_long,
    parse_string,
)
from engine.errors import MAX_QUOTED

INF = math.inf
NAN = math.nan

# (string, Integer.parseInt, Long.parseLong, Double.parseDouble, equalsIgnoreCase true/false), after trim()
JAVA: list[tuple[str, int | None, int | None, float | None, bool | None]] = [
    ("42", 42, 42, 42.0, None),
    (" 42 ", 42, 42, 42.0, None),
    ("+42", 42, 42, 42.0, None),
    ("-0", 0, 0, -0.0, None),
    ("007", 7, 7, 7.0, None),
    ("1_000", None, None, None, None),
    ("\u0663", 3, 3, None, None),
    ("\uff13", 3, 3, None, None),
    ("\uff11\uff12\uff13", 123, 123, None, None),
    ("\u0661\u0662", 12, 12, None, None),
    ("\xb2", None, None, None, None),
    ("\U0001d7cf", None, None, None, None),
    ("\u300042", None, None, None, None),
    ("42\xa0", None, None, None, None),
    ("\x0042\x00", 42, 42, 42.0, None),
    ("4\x002", None, None, None, None),
    ("\t\n42\r\x0b\x0c", 42, 42, 42.0, None),
    ("\x1f42\x1c", 42, 42, 42.0, None),
    ("\x8542", None, None, None, None),
    ("\u202842", None, None, None, None),
    ("2147483647", 2147483647, 2147483647, 2147483647.0, None),
    ("2147483648", None, 2147483648, 2147483648.0, None),
    ("-2147483648", -2147483648, -2147483648, -2147483648.0, None),
    ("-2147483649", None, -2147483649, -2147483649.0, None),
    ("9223372036854775807", None, 9223372036854775807, 9.223372036854776e+18, None),
    ("9223372036854775808", None, None, 9.223372036854776e+18, None),
    ("-9223372036854775808", None, -9223372036854775808, -9.223372036854776e+18, None),
    ("0" * 5000 + "1", 1, 1, 1.0, None),
    ("1" * 5000, None, None, INF, None),
    ("-" + "0" * 5000, 0, 0, -0.0, None),
    ("", None, None, None, None),
    (" ", None, None, None, None),
    ("+", None, None, None, None),
    ("-", None, None, None, None),
    ("+-1", None, None, None, None),
    ("--1", None, None, None, None),
    ("1 2", None, None, None, None),
    ("1e3", None, None, 1000.0, None),
    ("0x10", None, None, None, None),
    ("1.5", None, None, 1.5, None),
    ("1.", None, None, 1.0, None),
    (".5", None, None, 0.5, None),
    (".", None, None, None, None),
    ("1.5e", None, None, None, None),
    ("1e+5", None, None, 100000.0, None),
    ("1e-5", None, None, 1e-05, None),
    ("1E5", None, None, 100000.0, None),
    ("1f", None, None, 1.0, None),
    ("1.5F", None, None, 1.5, None),
    ("1d", None, None, 1.0, None),
    ("1D", None, None, 1.0, None),
    ("1e5d", None, None, 100000.0, None),
    ("1ff", None, None, None, None),
    ("1_0.5", None, None, None, None),
    ("1,5", None, None, None, None),
    ("Infinity", None, None, INF, None),
    ("-Infinity", None, None, -INF, None),
    ("+Infinity", None, None, INF, None),
    ("infinity", None, None, None, None),
    ("inf", None, None, None, None),
    ("NaN", None, None, NAN, None),
    ("-NaN", None, None, NAN, None),
    ("nan", None, None, None, None),
    ("Infinityf", None, None, None, None),
    ("0x1p3", None, None, 8.0, None),
    ("0X1P-2", None, None, 0.25, None),
    ("0x.8p1", None, None, 1.0, None),
    ("0x1.8p1d", None, None, 3.0, None),
    ("0x1", None, None, None, None),
    ("0x1p", None, None, None, None),
    ("-0x1p3f", None, None, -8.0, None),
    ("0x1p99999", None, None, INF, None),
    ("0x1p-99999", None, None, 0.0, None),
    ("0x1p" + "9" * 20, None, None, INF, None),
    ("0x1p-" + "9" * 20, None, None, 0.0, None),
    ("1e" + "9" * 5000, None, None, INF, None),
    ("1e-" + "9" * 5000, None, None, 0.0, None),
    ("9" * 5000, None, None, INF, None),
    ("0." + "0" * 400 + "1", None, None, 0.0, None),
    ("\u0663.5", None, None, None, None),
    ("1.5\xa0", None, None, None, None),
    ("\u30000.5", None, None, None, None),
    (" 0.5 ", None, None, 0.5, None),
    ("4.9e-324", None, None, 5e-324, None),
    ("2e-324", None, None, 0.0, None),
    ("1.7976931348623157e308", None, None, 1.7976931348623157e+308, None),
    ("1.8e308", None, None, INF, None),
    ("0.1", None, None, 0.1, None),
    ("1e23", None, None, 1e+23, None),
    ("true", None, None, None, True),
    (" TRUE ", None, None, None, True),
    ("True", None, None, None, True),
    ("fAlSe", None, None, None, False),
    ("fal\u017fe", None, None, None, False),
    ("true\x00", None, None, None, True),
    ("\u3000true", None, None, None, None),
    ("yes", None, None, None, None),
    ("1", 1, 1, 1.0, None),
    ("\uff54rue", None, None, None, None),
    (" a , b ", None, None, None, None),
    ("\x00a , b\x00", None, None, None, None),
    ("0x1.00000000000008p0", None, None, 1.0, None),
    ("0x1.000000000000081p0", None, None, 1.0000000000000002, None),
    ("0x1.00000000000018p0", None, None, 1.0000000000000004, None),
    ("0x0.0000000000001p-1022", None, None, 5e-324, None),
    ("0x1p-1075", None, None, 0.0, None),
    ("0x1.0000001p-1075", None, None, 5e-324, None),
    ("0x1p-1074", None, None, 5e-324, None),
    ("0x1.fffffffffffff8p1023", None, None, INF, None),
    ("0x1.fffffffffffff7p1023", None, None, 1.7976931348623157e+308, None),
    ("0x" + "f" * 300 + "p0", None, None, INF, None),
    ("0x1p" + "9" * 5000, None, None, INF, None),
    ("0x1p-" + "9" * 5000, None, None, 0.0, None),
    ("0x" + "0" * 5000 + "1p0", None, None, 1.0, None),
    ("0." + "0" * 500 + "1e900", None, None, INF, None),
    ("0." + "0" * 400 + "1e500", None, None, 1e+99, None),
    ("1" + "0" * 1000 + "e-1000", None, None, 1.0, None),
    ("1" * 400 + "e-725", None, None, 0.0, None),
    ("2.4703282292062328e-324", None, None, 5e-324, None),
    ("2.4703282292062327e-324", None, None, 0.0, None),
    ("9007199254740993", None, 9007199254740993, 9007199254740992.0, None),
    ("1e", None, None, None, None),
    ("1e+", None, None, None, None),
    ("e5", None, None, None, None),
    ("+.5", None, None, 0.5, None),
    ("-.e5", None, None, None, None),
    ("0x", None, None, None, None),
    ("0xp1", None, None, None, None),
    ("0x.p1", None, None, None, None),
    ("0x1.p1", None, None, 2.0, None),
    ("1e5.5", None, None, None, None),
    ("1.5e5F", None, None, 150000.0, None),
    ("+NaN", None, None, NAN, None),
    ("NaNd", None, None, None, None),
    ("- 1", None, None, None, None),
    ("1e+-5", None, None, None, None),
    ("0X1P1D", None, None, 2.0, None),
    ("\x00\x00-\x001", None, None, None, None),
    ("\x00-1\x00", -1, -1, -1.0, None),
]

# (string, Kafka's LIST parse of it: the trimmed string split on ASCII whitespace around commas)
LISTS: list[tuple[str, list[str]]] = [
    ("", []),
    (" ", []),
    ("1,5", ["1", "5"]),
    ("a,b", ["a", "b"]),
    (" a , b ", ["a", "b"]),
    ("a\u3000,b", ["a\u3000", "b"]),
    ("a,\xa0b", ["a", "\xa0b"]),
    (",", ["", ""]),
    ("a,,b", ["a", "", "b"]),
    ("a,b,", ["a", "b", ""]),
    ("\x00a , b\x00", ["a", "b"]),
    ("a\x0b,\x0cb", ["a", "b"]),
    ("a\x1c,b", ["a\x1c", "b"]),
    ("a\x85,b", ["a\x85", "b"]),
    ("a\t,\nb", ["a", "b"]),
]


def _read(parse: Any, text: str) -> Any:
    try:
        return parse("x", text)
    except ConfigException:
        return None


def _same_double(got: float | None, java: float | None) -> bool:
    if got is None or java is None:
        return got is java
    if math.isnan(java):
        return math.isnan(got)
    return struct.pack("<d", got) == struct.pack("<d", java)  # -0.0 and 0.0 differ, as doubleToRawLongBits


@pytest.mark.parametrize(("text", "as_int", "as_long", "as_double", "as_boolean"), JAVA,
                         ids=[ascii(row[0])[:40] for row in JAVA])
def test_strings_are_read_as_java_reads_them(text: str, as_int: int | None, as_long: int | None,
                                             as_double: float | None, as_boolean: bool | None) -> None:
    assert _read(parse_int, text) == as_int
    assert _read(parse_long, text) == as_long
    assert _same_double(_read(parse_double, text), as_double), (_read(parse_double, text), as_double)
    assert _read(parse_boolean, text) is as_boolean


@pytest.mark.parametrize(("text", "items"), LISTS, ids=[ascii(t) for t, _ in LISTS])
def test_lists_split_as_java_splits_them(text: str, items: list[str]) -> None:
    assert parse_list("x", text) == items


def test_strings_are_trimmed_as_string_trim_does() -> None:
    assert parse_string("x", "\x00\x1f all \t") == "all"
    assert parse_string("x", "\u3000all\xa0\u0085") == "\u3000all\xa0\u0085"


def test_a_refusal_quotes_the_untrimmed_value_bounded() -> None:
    with pytest.raises(ConfigException) as refused:
        parse_int("segment.bytes", "1" * 5000)
    assert str(refused.value) == (
        f"ConfigException: Invalid value {'1' * MAX_QUOTED}… (5,000 characters) for configuration "
        "segment.bytes: Not a number of type INT"
    )
    with pytest.raises(ConfigException) as refused:
        parse_long("linger.ms", " 1_000 ")
    assert str(refused.value) == "ConfigException: Invalid value  1_000  for configuration linger.ms: Not a number " \
                                 "of type LONG"
    with pytest.raises(ConfigException) as refused:
        parse_double("min.cleanable.dirty.ratio", "\x1b[2J0.5\n")
    assert str(refused.value) == ("ConfigException: Invalid value \\x1b[2J0.5\\n for configuration "
                                  "min.cleanable.dirty.ratio: Not a number of type DOUBLE")


@pytest.mark.parametrize(
    ("value", "parse", "java"),
    [
        (2**31 - 1, parse_int, 2**31 - 1),
        (-(2**31), parse_int, -(2**31)),
        (2**31, parse_int, "java.lang.Long"),
        (2**63 - 1, parse_long, 2**63 - 1),
        (2**63, parse_long, "java.math.BigInteger"),
        (-(2**63) - 1, parse_int, "java.math.BigInteger"),
        (1.0, parse_int, "java.lang.Double"),
        (True, parse_long, "java.lang.Boolean"),
        ([1], parse_int, "java.util.ArrayList"),
        (7, parse_double, 7.0),
        (10**400, parse_double, INF),
    ],
)
def test_json_numbers_keep_their_java_class(value: Any, parse: Any, java: Any) -> None:
    """A JSON integer is an Integer within 32 bits, a Long within 64, a BigInteger beyond; INT takes an Integer
    only, LONG an Integer or a Long, DOUBLE any Number."""
    if isinstance(java, str):
        with pytest.raises(ConfigException, match=f"but it was a {java}$"):
            parse("x", value)
        assert java_class(value) == java
    else:
        assert parse("x", value) == java


def test_the_digits_are_javas_character_digit() -> None:
    """Java 17's ``Character.digit(ch, 10) >= 0`` holds for 370 BMP characters, ten from each zero in
    ``BMP_DIGIT_ZEROS``: the BMP's decimal digits (Unicode Nd) in ``unicodedata`` too.  A digit outside the
    BMP (``𝟏``, two UTF-16 units) is no digit to Java."""
    digits = {z + d for z in BMP_DIGIT_ZEROS for d in range(10)}
    unicode = {c for c in range(0x10000) if not 0xD800 <= c <= 0xDFFF and unicodedata.decimal(chr(c), None) is not None}
    assert len(digits) == 370 and digits == unicode
    assert all(unicodedata.decimal(chr(z + d)) == d for z in BMP_DIGIT_ZEROS for d in range(10))
    assert [_read(parse_int, chr(z + 7) + chr(z)) for z in BMP_DIGIT_ZEROS] == [70] * len(BMP_DIGIT_ZEROS)


@pytest.mark.parametrize("text", ["9" * 10_000_000, "0" * 10_000_000 + "1", " " * 10_000_000 + "x",
                                  "\u0663" * 5_000_000, "1" * 10_000_000 + "e", "a" + " " * 5_000_000 + "," * 1000])
def test_long_strings_are_read_in_linear_time(text: str) -> None:
    start = time.monotonic()
    for parse in (parse_int, parse_long, parse_double, parse_boolean, parse_list):
        _read(parse, text)
    assert time.monotonic() - start < 10
