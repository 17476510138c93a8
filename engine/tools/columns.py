"""Fixed-width tables as Kafka's tools print them: ``printf("%-Ns %-Ms ...")`` with widths from content.

``kafka-consumer-groups.sh`` computes each column's width as the longest value (at least the
header's), so every value starts exactly where its header label starts, and an empty value (an
empty ``GROUP-INSTANCE-ID``) is just spaces.  ``split_row`` reads a row by those positions; when a
paste lost the alignment (a chat tool collapsed the spaces), it falls back to whitespace tokens if
their count still fits, else it returns None and the caller reports the line.

Worked example (asserted in tests/engine/tools/test_tools_consumer_groups.py)::

    >>> header = columns_of("GROUP  CONSUMER-ID  GROUP-INSTANCE-ID  HOST")
    >>> split_row("g      c-1                             /10.0.0.7", header)
    ['g', 'c-1', '', '/10.0.0.7']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

_TOKEN = re.compile(r"\S+")


@dataclass(frozen=True)
class Column:
    name: str
    start: int


def columns_of(header: str) -> list[Column]:
    """The columns of a header line: each label and where it starts."""
    return [Column(m.group(), m.start()) for m in _TOKEN.finditer(header)]


class Layout:
    """How to read the rows under one header: by position first, by whitespace tokens when the
    alignment is lost.  ``rest``: the last column may hold spaces (3.x ``ASSIGNMENT``);
    ``may_be_empty``: the column whose value may be blank; ``check``: whether a reading is plausible."""

    def __init__(
        self,
        columns: Sequence[Column],
        rest: bool = False,
        may_be_empty: str | None = None,
        check: Callable[[list[str]], bool] = lambda values: True,
    ) -> None:
        self.columns = list(columns)
        self.names = [c.name for c in columns]
        starts = [c.start for c in columns]
        self.spans = list(zip(starts, starts[1:]))
        self.first, self.last = starts[0], starts[-1]
        self.rest, self.check = rest, check
        self.blank = self.names.index(may_be_empty) if may_be_empty in self.names else None

    def by_position(self, line: str) -> list[str] | None:
        if self.first and line[: self.first].strip():
            return None
        width = len(line)
        for _, end in self.spans:
            if end <= width and line[end - 1] != " ":
                return None  # a value runs into the next column: not aligned with this header
        values = [line[a:b].strip() for a, b in self.spans]
        values.append(line[self.last :].strip())
        return values if values[0] and " " not in "\0".join(values[:-1]) else None

    def by_tokens(self, line: str) -> list[list[str]]:
        """The readings of the whitespace tokens: as they are, then with the blankable column blank."""
        tokens = line.split()
        n = len(self.names)

        def fit(values: list[str]) -> list[str] | None:
            if len(values) == n:
                return values
            return [*values[: n - 1], " ".join(values[n - 1 :])] if self.rest and len(values) > n else None

        readings = [fit(tokens)]
        if self.blank is not None:
            readings.append(fit([*tokens[: self.blank], "", *tokens[self.blank :]]))
        return [r for r in readings if r is not None]

    def split(self, line: str) -> list[str] | None:
        """The row's values, one per column, or None when they cannot be told apart."""
        values = self.by_position(line)
        if values is not None and self.check(values):
            return values
        return next((r for r in self.by_tokens(line) if self.check(r)), None)


def split_row(
    line: str, columns: Sequence[Column], rest: bool = False, may_be_empty: str | None = None
) -> list[str] | None:
    """One row read with a one-off ``Layout`` (tables use a ``Layout`` for all their rows)."""
    return Layout(columns, rest, may_be_empty).split(line)
