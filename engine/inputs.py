"""The one input boundary: JSON documents and pasted numbers are read here, bounded before work starts.

Every limit is checked before the work it guards.  A document's size is checked before decoding; its
nesting depth, its number of arrays and objects, its longest number and (for a batch) its number of
top-level items by one linear scan before parsing; fractions and exponents as the parser reads them.  So
Python's own limits (the 4,300-digit ``int`` conversion limit, the recursion limit) are never what a user
meets: each refusal is one ``InputError`` line, exit 2 on the CLI and an inline message in the dashboard
(scenario upload, paste and share link go through ``engine.scenario.loads_scenario``, which calls this).

Lone surrogates (``"\\ud800"``) are accepted, as Java strings hold them (``String.hashCode`` and
``compareTo`` work on UTF-16 units); ``encode_json`` writes them back as ``\\udXXX`` escapes, so the
output is always valid UTF-8 and parses to the same string.

Worked example (asserted in ``tests/cli/test_hostile_inputs.py``)::

    decode_json(b'{"partitions": 12}')           -> {"partitions": 12}
    decode_json(b'{"x": ' + b"9" * 5000 + b"}")  -> InputError: input: a number of 5,000 digits (at most 100)
    decode_json(b"[" * 65 + b"]" * 65)           -> InputError: input: nested deeper than 64 levels
    encode_json({"id": "\\ud800", "n": 1})       -> '{"id":"\\\\ud800","n":1}'
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any, Final

from engine.errors import InputError

MAX_DOCUMENT_BYTES: Final = 64 * 1024 * 1024
MAX_DEPTH: Final = 64
MAX_CONTAINERS: Final = 4_000_000  # arrays + objects in one document
MAX_NUMBER_CHARS: Final = 100  # digits, sign, point and exponent of one JSON number
MAX_BATCH_ITEMS: Final = 10_000

_STRING = re.compile(rb'"[^"]*"')
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b"[]{},")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_DIGIT_RUN = re.compile(rb"[0-9]+")
_FIRST_TOKEN = re.compile(rb"(?:\xef\xbb\xbf)?[ \t\r\n]*(.)", re.DOTALL)
_SMALL_TEXT = 1 << 16  # bytes scanned with re; larger texts in numpy chunks
_SCAN_CHUNK = 1 << 20


@dataclass(frozen=True)
class DocumentLimits:
    """What one JSON document may hold; ``max_items`` bounds a top-level array (a batch), None = no bound."""

    max_bytes: int = MAX_DOCUMENT_BYTES
    max_depth: int = MAX_DEPTH
    max_containers: int = MAX_CONTAINERS
    max_items: int | None = None


@dataclass(frozen=True)
class Shape:
    """What the pre-parse scan found: deepest nesting, arrays + objects, items of a top-level array and
    the longest run of digits (a number's length, checked before any ``int()``)."""

    depth: int
    containers: int
    items: int | None
    digits: int


def decode_json(raw: bytes | str, what: str = "input", limits: DocumentLimits = DocumentLimits()) -> Any:
    """Parse one JSON document within ``limits``; anything else is one ``InputError`` line naming ``what``."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if len(data) > limits.max_bytes:
        raise InputError(f"{what}: larger than the {_size(limits.max_bytes)} limit")
    text = raw if isinstance(raw, str) else _utf8(data, what)
    check_shape(scan_shape(data), what, limits)
    try:
        return json.loads(text.removeprefix("\ufeff"), parse_float=_parse_float(what))
    except json.JSONDecodeError as exc:
        raise InputError(f"{what}: not valid JSON ({exc})") from None
    except RecursionError:  # pragma: no cover - the scan refuses deep documents first
        raise InputError(f"{what}: nested deeper than {limits.max_depth} levels") from None


def _utf8(data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = data[exc.start]
        raise InputError(f"{what}: not UTF-8 text (byte 0x{bad:02x} at offset {exc.start})") from None


def _size(n: int) -> str:
    return f"{n / 2**20:.0f} MiB" if n >= 2**20 else f"{n:,} bytes"


def check_shape(shape: Shape, what: str, limits: DocumentLimits) -> None:
    if shape.depth > limits.max_depth:
        raise InputError(f"{what}: nested deeper than {limits.max_depth} levels")
    if shape.containers > limits.max_containers:
        raise InputError(f"{what}: more than {limits.max_containers:,} arrays and objects "
                         f"({shape.containers:,})")
    if shape.digits > MAX_NUMBER_CHARS:
        raise InputError(f"{what}: a number of {shape.digits:,} digits (at most {MAX_NUMBER_CHARS})")
    if limits.max_items is not None and shape.items is not None and shape.items > limits.max_items:
        raise InputError(f"{what}: a batch of at most {limits.max_items:,} items, got {shape.items:,}")


def scan_shape(data: bytes) -> Shape:
    """Depth, containers, top-level items and longest digit run of a JSON text, outside its strings.

    Linear time and memory: escaped backslashes and quotes go first (so every quote left opens or closes
    a string), then small texts are scanned with ``re`` and large ones in ``numpy`` chunks.  ``items``
    is the top-level array's commas + 1 (None when the document is not an array).  For invalid JSON the
    figures are an estimate and ``json.loads`` reports the real error.
    """
    clean = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    return _small_scan(clean) if len(clean) <= _SMALL_TEXT else _chunked_scan(clean)


def _small_scan(clean: bytes) -> Shape:
    outside = _STRING.sub(b"", clean)
    digits = max((len(m) for m in _DIGIT_RUN.findall(outside)), default=0)
    depth = deepest = top_commas = 0
    for byte in outside.translate(None, _NOT_STRUCTURE):
        if byte in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        elif byte in b"]}":
            depth -= 1
        elif depth == 1:  # a comma between top-level items
            top_commas += 1
    containers = outside.count(b"[") + outside.count(b"{")
    return Shape(deepest, containers, top_commas + 1 if _is_array(clean) else None, digits)


def _is_array(clean: bytes) -> bool:
    first = _FIRST_TOKEN.match(clean)
    return first is not None and first.group(1) == b"["


def _chunked_scan(clean: bytes) -> Shape:
    import numpy as np

    codes = np.frombuffer(clean, dtype=np.uint8)
    step = np.zeros(256, dtype=np.int8)
    step[[ord("["), ord("{")]] = 1
    step[[ord("]"), ord("}")]] = -1
    is_digit = np.zeros(256, dtype=bool)
    is_digit[ord("0"):ord("9") + 1] = True
    quotes = level = deepest = containers = top_commas = longest = run = 0
    for start in range(0, len(codes), _SCAN_CHUNK):
        chunk = codes[start:start + _SCAN_CHUNK]
        seen = np.cumsum(chunk == ord('"'), dtype=np.int64) + quotes
        outside = (seen & 1) == 0
        steps = step[chunk] * outside
        levels = np.cumsum(steps, dtype=np.int64) + level
        containers += int(np.count_nonzero(steps == 1))
        deepest = max(deepest, int(levels.max()))
        top_commas += int(np.count_nonzero((chunk == ord(",")) & outside & (levels == 1)))
        chunk_longest, run = _digit_runs(np, is_digit[chunk] & outside, run)
        longest = max(longest, chunk_longest)
        quotes, level = int(seen[-1]) & 1, int(levels[-1])
    return Shape(deepest, containers, top_commas + 1 if _is_array(clean) else None, longest)


def _digit_runs(np: Any, digits: Any, carried: int) -> tuple[int, int]:
    """Longest run of True in ``digits`` (its first run continues ``carried``) and the run still open."""
    edges = np.flatnonzero(np.diff(np.concatenate(([False], digits, [False])).astype(np.int8)))
    if not len(edges):
        return 0, 0
    lengths = edges[1::2] - edges[0::2]
    if edges[0] == 0:
        lengths[0] += carried
    open_run = int(lengths[-1]) if edges[-1] == len(digits) else 0
    return int(lengths.max()), open_run


def _parse_float(what: str) -> Any:
    """A fraction or exponent, its length checked before ``float()``; ``1e999`` reads as infinity, like the
    ``Infinity`` and ``NaN`` tokens Python accepts: values that each field's own check refuses (in a batch,
    as that item's error), never output (``encode_json`` writes strict JSON)."""
    def parse(token: str) -> float:
        if len(token) > MAX_NUMBER_CHARS:
            raise InputError(f"{what}: a number of {len(token):,} characters (at most {MAX_NUMBER_CHARS})")
        return float(token)
    return parse


def encode_json(value: Any, indent: int | None = None) -> str:
    """JSON text that always encodes as UTF-8: non-ASCII kept, lone surrogates written as ``\\udXXX``."""
    separators = (",", ":") if indent is None else (",", ": ")
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, indent=indent, separators=separators)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def parse_decimal(token: str, what: str, low: float = 0.0, high: float = 1e18) -> float:
    """A decimal number typed or pasted by a user, checked: length, syntax, finite, within ``low..high``."""
    if len(token) > MAX_NUMBER_CHARS:
        raise InputError(f"{what}: a number of {len(token):,} characters (at most {MAX_NUMBER_CHARS})")
    try:
        value = float(token)
    except ValueError:
        raise InputError(f"{what}: not a number, got {token[:40]!r}") from None
    if not math.isfinite(value) or not low <= value <= high:
        raise InputError(f"{what}: must be a number in {low:g}..{high:g}, got {token[:40]!r}")
    return value


def is_whole_number(text: str) -> bool:
    """ASCII digits only, at most ``MAX_NUMBER_CHARS`` of them: ``is_whole_number("12")`` is true,
    ``is_whole_number("²")`` (which ``str.isdigit`` accepts and ``int()`` refuses) is false."""
    return text.isascii() and text.isdigit() and len(text) <= MAX_NUMBER_CHARS


def parse_whole_number(text: str, what: str) -> int:
    """A non-negative integer typed or pasted by a user: ASCII digits only (``str.isdigit`` also accepts
    ``'²'``, which ``int()`` refuses), at most ``MAX_NUMBER_CHARS`` of them; else one ``InputError`` line."""
    if not (text.isascii() and text.isdigit()):
        raise InputError(f"{what}: must be a whole number, got {text[:40]!r}")
    if len(text) > MAX_NUMBER_CHARS:
        raise InputError(f"{what}: a number of {len(text):,} digits (at most {MAX_NUMBER_CHARS})")
    return int(text)
