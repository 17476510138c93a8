"""The partition's log as a share fetch reads it: record batches ``[first, last]``, gaps between them.

The broker reads whole log batches, from the first whose ``last >= fetch offset`` to the log end (every lab
case fits one fetch's byte budget).  A jump between batches is a gap: offsets compacted away.

>>> log = ShareLog([(0, 4), (5, 9), (13, 20)])
>>> log.read_from(7), log.read_from(11), log.read_from(21)
((5, 20), (13, 20), None)
>>> log.batch_end(15), log.batch_end(11)
(20, 11)
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable


class ShareLog:
    """Record batches in offset order; ``append`` a produced one (its first at or past the log end)."""

    def __init__(self, batches: Iterable[tuple[int, int]] = ()) -> None:
        self.firsts: list[int] = []
        self.lasts: list[int] = []
        for first, last in batches:
            self.append(first, last)

    @property
    def end(self) -> int:
        """The next offset the log will hold (``last + 1`` of its last batch, 0 when empty)."""
        return self.lasts[-1] + 1 if self.lasts else 0

    def append(self, first: int, last: int) -> None:
        self.firsts.append(first)
        self.lasts.append(last)

    def read_from(self, offset: int) -> tuple[int, int] | None:
        """``(F, L)``: first offset of the first batch with ``last >= offset`` and the log's last offset."""
        i = bisect_left(self.lasts, offset)
        return None if i == len(self.lasts) else (self.firsts[i], self.lasts[-1])

    def batch_end(self, offset: int) -> int:
        """Last offset of the log batch holding ``offset``; an offset in a gap (or past the end) is kept."""
        i = bisect_left(self.lasts, offset)
        return self.lasts[i] if i < len(self.lasts) and self.firsts[i] <= offset else offset
