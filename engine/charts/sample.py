"""Which partitions an animation draws: all of them in a small group, an even sample in a big one.

A browser animates a few hundred dots smoothly; thousands of dots per frame make every frame's arrays (and
the websocket payload) grow with the group.  ``sample_travel`` keeps at most ``cap`` partitions: up to
three quarters of them among those that change owner (or appear, or disappear), the rest among those that
stay, each sampled evenly over the partitions in Java order, and says so in ``note``.  The exact counts are
the page's table; the sample is for the eye.

>>> from engine.scenario import TopicPartition as TP
>>> before = {"C0": [TP("t", p) for p in range(6)], "C1": []}
>>> after = {"C0": [TP("t", p) for p in range(3)], "C1": [TP("t", p) for p in range(3, 6)]}
>>> s = sample_travel(before, after, None, cap=4)
>>> (s.shown, s.total, s.moved_shown, s.moved_total)
(4, 6, 3, 3)
>>> s.note.split(", sampled")[0]
'Drawing 4 of 6 partitions: 3 of 3 that change owner and 1 of 3 that stay'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.consumer.assignment import AssignmentView as Assignment
from engine.consumer.assignment import owners
from engine.java.strings import string_compare_key
from engine.scenario import TopicPartition

ANIMATION_CAP = 400  # partitions drawn per animation


@dataclass(frozen=True)
class TravelSample:
    before: dict[str, list[TopicPartition]]
    after: dict[str, list[TopicPartition]]
    revoked: list[TopicPartition] | None
    shown: int
    total: int
    moved_shown: int
    moved_total: int

    @property
    def note(self) -> str:
        if self.shown == self.total:
            return ""
        return (f"Drawing {self.shown:,} of {self.total:,} partitions: {self.moved_shown:,} of {self.moved_total:,} "
                f"that change owner and {self.shown - self.moved_shown:,} of {self.total - self.moved_total:,} "
                "that stay, sampled evenly; the table has the exact counts.")

    @property
    def title(self) -> str:
        """The note on two short lines, for a figure title (Plotly does not wrap titles)."""
        if self.shown == self.total:
            return ""
        return (f"{self.shown:,} of {self.total:,} partitions drawn, sampled evenly<br>"
                f"({self.moved_shown:,} of {self.moved_total:,} that change owner; exact counts in the table)")


def evenly(items: Sequence[TopicPartition], count: int) -> list[TopicPartition]:
    """``count`` items spread evenly over ``items`` (all of them when there are fewer)."""
    if count >= len(items):
        return list(items)
    return [items[i * len(items) // count] for i in range(count)]


def sample_travel(before: Assignment, after: Assignment, revoked: Iterable[TopicPartition] | None,
                  cap: int = ANIMATION_CAP) -> TravelSample:
    """``before``/``after`` restricted to the sampled partitions (every member kept, so columns stay)."""
    owner_before, owner_after = owners(before), owners(after)
    key = lambda tp: (string_compare_key(tp.topic), tp.partition)  # noqa: E731
    every = sorted(set(owner_before) | set(owner_after), key=key)
    moved = [tp for tp in every if owner_before.get(tp) != owner_after.get(tp)]
    stay = [tp for tp in every if owner_before.get(tp) == owner_after.get(tp)]
    moved_kept = evenly(moved, min(len(moved), max(cap - len(stay), cap * 3 // 4)))
    chosen = set(moved_kept) | set(evenly(stay, cap - len(moved_kept)))
    return TravelSample(
        before={m: [tp for tp in tps if tp in chosen] for m, tps in before.items()},
        after={m: [tp for tp in tps if tp in chosen] for m, tps in after.items()},
        revoked=None if revoked is None else [tp for tp in revoked if tp in chosen],
        shown=len(chosen), total=len(every), moved_shown=len(moved_kept), moved_total=len(moved))
