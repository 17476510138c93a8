"""Errors the engine raises at its boundary: one line, naming the field and the bad value.

Every one is an ``EngineError``: the CLI turns it into exit code 2 and one stderr line, the dashboard
into an inline message, so callers catch ``EngineError`` alone, never a tuple.  ``KafkaError`` is the
root of the errors where Kafka's own code would throw (``PartitionAssignorException``,
``AdminUtils``' exceptions): ``str(KafkaAdminError("InvalidPartitionsException", "..."))`` starts with
the Java exception's name, as the CLI reports it.

A message repeats input values through ``quote`` (at most ``MAX_QUOTED`` characters of each, control and
format characters, line breaks and lone surrogates escaped), and every ``EngineError`` message is itself
passed through ``quote`` with ``MAX_MESSAGE``, the bound the CLI applies once more to whatever it prints.
So no message is longer than about ``MAX_MESSAGE`` characters or carries a terminal escape sequence.

Worked examples::

    >>> print(quote("segment\\x1b[2J\\n\\x00\\ud800"))
    segment\\x1b[2J\\n\\x00\\ud800
    >>> print(quote("1" * 5000)[-24:])
    1111… (5,000 characters)
    >>> print(ScenarioError("member id 'C0\\x1b]0;pwned\\x07':\\n unknown"))
    member id 'C0\\x1b]0;pwned\\x07': unknown
"""

from __future__ import annotations

import unicodedata
from typing import Final

MAX_QUOTED: Final = 200  # characters of one input value that a message repeats
MAX_MESSAGE: Final = 1_000  # characters of one whole message
_NAMED: Final = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_UNSAFE: Final = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})  # controls, format (bidi), surrogates, line breaks


def escaped(char: str) -> str:
    """One character as a message shows it: itself, or an escape when a terminal would act on it or a reader
    split a line at it (``\\n``, ``\\x1b``, ``\\u2028``, ``\\u202e``, a lone surrogate ``\\ud800``).

    >>> [escaped(c) for c in ("a", "\\n", "\\x1b", "\\x85", "\\u202e", "\\udfff", "\\U000e0001", "\\u00e9")]
    ['a', '\\\\n', '\\\\x1b', '\\\\x85', '\\\\u202e', '\\\\udfff', '\\\\U000e0001', 'é']
    """
    if char.isprintable() or unicodedata.category(char) not in _UNSAFE:
        return char
    code = ord(char)
    if char in _NAMED:
        return _NAMED[char]
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def quote(value: object, limit: int = MAX_QUOTED) -> str:
    """``value`` as a message repeats it: its text with unsafe characters escaped (``escaped``), at most
    ``limit`` characters shown (escapes counted), then, when that is not all of it, ``…`` and its length.  No
    quote marks are added (Kafka's texts print a value bare); printable text comes back unchanged, so quoting
    twice changes nothing.

    >>> quote("segment.bytes"), quote(""), quote(12)
    ('segment.bytes', '', '12')
    >>> quote("abcdef", limit=3), quote("ab\x1b[2J", limit=5)
    ('abc… (6 characters)', 'ab… (6 characters)')
    """
    text = value if isinstance(value, str) else str(value)
    head = text[:limit]
    if head.isprintable():
        return head if len(text) <= limit else f"{head}… ({len(text):,} characters)"
    shown: list[str] = []
    room = limit
    for char in head:
        piece = escaped(char)
        if len(piece) > room:
            break
        shown.append(piece)
        room -= len(piece)
    return "".join(shown) + (f"… ({len(text):,} characters)" if len(shown) < len(text) else "")


class EngineError(ValueError):
    """Base class: bad input that the CLI reports with exit code 2 and the UI shows inline."""

    def __init__(self, message: str) -> None:
        super().__init__(quote(self.one_line(str(message)), MAX_MESSAGE))

    @staticmethod
    def one_line(message: str) -> str:
        """The message on one line: every run of whitespace (line breaks included) as one space."""
        return " ".join(message.split())


class ScenarioError(EngineError):
    """A scenario (topics, members, subscriptions, steps) is invalid."""


class LimitError(EngineError):
    """An input is larger than the engine's stated limits (a size, a count or a work budget)."""


class InputError(EngineError):
    """A document or pasted text that cannot be read within the limits (``engine.inputs``)."""


class KafkaError(EngineError):
    """What Kafka's own code throws for this input (the answer is Kafka's error, not a lab refusal)."""
