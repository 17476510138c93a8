"""Naming the bad record: file, line and field of an input problem that Spark only reports in bulk.

Spark's readers say "malformed records are detected" or count bad values; a user needs the place.
When the input is on this machine's disk, these functions stream it (line by line, stopping at the
first hit) and name the file, the line and the field.  They run only after Spark refused the input,
so a good input is never read twice.  No Spark here.

JSON lines get the same limits as the Spark reader is given (``engine.spark.io``): nesting at most
``MAX_NESTING`` levels, numbers of at most ``MAX_NUMBER_DIGITS`` digits; Python's own limits
(recursion depth, 4,300-digit integers) are never what a user meets.

Example::

    >>> json_problem(b'{"key": "a", "size": ' + b"9" * 2000 + b'}')[0]
    "field 'size': a number with 2,000 digits (limit 1,000)"
    >>> json_problem(b'{"key": "a", "x": ' + b"[" * 100 + b"]" * 100 + b"}")[0]
    "field 'x': nested 101 levels deep, counting the record (limit 64)"
    >>> csv_problem('a,"b', 2)
    'unclosed quote'
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MAX_NESTING = 64
MAX_NUMBER_DIGITS = 1_000
MAX_LINE_CHARS = 64 << 20  # a longer line is reported, not parsed
_KEY_BEFORE_NUMBER = re.compile(r'"((?:[^"\\]|\\.){0,200})"\s*:\s*-?\d{%d}' % (MAX_NUMBER_DIGITS + 1))


class _TooLong(ValueError):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def _checked_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_NUMBER_DIGITS:
        raise _TooLong(digits)
    return int(text)


def _checked_float(text: str) -> float:
    if len(text) > MAX_NUMBER_DIGITS:
        raise _TooLong(len(text))
    return float(text)


def _depth(value: Any) -> int:
    """Nesting depth of a parsed JSON value (a scalar is 0), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in children)
    return deepest


def _deep_field(line: str) -> tuple[str | None, int]:
    """(top-level field nested deepest, its depth counting the record): a string-aware scan."""
    depth = best = 0
    field: str | None = None
    best_field: str | None = None
    in_string = escaped = False
    start = 0
    for index, char in enumerate(line):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
                if depth == 1 and line[index + 1:index + 40].lstrip().startswith(":"):
                    field = line[start:index]
        elif char == '"':
            in_string, start = True, index + 1
        elif char in "[{":
            depth += 1
            if depth > best:
                best, best_field = depth, field
        elif char in "]}":
            depth -= 1
    return best_field, best


def json_problem(raw: bytes) -> tuple[str | None, Any]:
    """(what is wrong with one JSON-lines record, or None; the parsed record)."""
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not UTF-8 text (byte {exc.start + 1})", None
    if len(line) > MAX_LINE_CHARS:
        return f"a line of {len(line):,} characters (limit {MAX_LINE_CHARS:,})", None
    try:
        record = json.loads(line, parse_int=_checked_int, parse_float=_checked_float)
    except _TooLong as exc:
        match = _KEY_BEFORE_NUMBER.search(line)
        where = f"field {match.group(1)!r}: " if match else ""
        return f"{where}a number with {exc.digits:,} digits (limit {MAX_NUMBER_DIGITS:,})", None
    except RecursionError:
        return _nesting_problem(line), None
    except json.JSONDecodeError as exc:
        return f"not valid JSON ({exc.msg} at column {exc.colno})", None
    if not isinstance(record, dict):
        return f"not a JSON object, got {type(record).__name__}", None
    if _depth(record) > MAX_NESTING:
        return _nesting_problem(line), record
    return None, record


def _nesting_problem(line: str) -> str:
    field, depth = _deep_field(line)
    where = f"field {field!r}: " if field is not None else ""
    return f"{where}nested {depth:,} levels deep, counting the record (limit {MAX_NESTING})"


def csv_problem(line: str, width: int) -> str | None:
    """What is wrong with one CSV line (Spark reads CSV line by line here), or None."""
    try:
        rows = list(csv.reader([line], strict=True))
    except csv.Error as exc:
        return "unclosed quote" if "unexpected end of data" in str(exc) else f"malformed ({exc})"
    fields = len(rows[0]) if rows else 0
    if width and fields > width:
        return f"{fields} fields, the header has {width}"
    return None


def _lines(path: Path) -> Iterator[tuple[int, bytes]]:
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            yield number, raw.rstrip(b"\r\n")


def _files(path: str) -> list[Path]:
    root = Path(path[len("file://"):] if path.lower().startswith("file://") else path)
    if root.is_file():
        return [root]
    if root.is_dir():
        return sorted(p for p in root.rglob("*") if p.is_file() and not p.name.startswith((".", "_")))
    return []


def record_problem(path: str, fmt: str) -> str | None:
    """``"<file> line <n>: <problem>"`` for the first bad CSV / JSON-lines record of a local input."""
    for file in _files(path):
        width = 0
        for number, raw in _lines(file):
            if not raw.strip():
                continue
            if fmt == "json":
                problem = json_problem(raw)[0]
            else:
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    return f"{file.name} line {number}: not UTF-8 text (byte {exc.start + 1})"
                problem = csv_problem(text, width)
                width = width or len(next(csv.reader([text]), []))
            if problem:
                return f"{file.name} line {number}: {problem}"
    return None


def value_line(path: str, fmt: str, column: str, value: str) -> str | None:
    """``"<file> line <n>"`` of the first record whose ``column`` reads as ``value`` (local CSV / JSON)."""
    for file in _files(path):
        index: int | None = None
        for number, raw in _lines(file):
            text = raw.decode("utf-8", errors="replace")
            if fmt == "csv":
                row = next(csv.reader([text]), [])
                if index is None:
                    index = row.index(column) if column in row else -1
                elif 0 <= index < len(row) and row[index] == value:
                    return f"{file.name} line {number}"
            elif f'"{column}"' in text:
                record = json_problem(raw)[1]
                if isinstance(record, dict) and _as_text(record.get(column)) == value:
                    return f"{file.name} line {number}"
    return None


def _as_text(value: Any) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else json.dumps(value)
