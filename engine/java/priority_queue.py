"""``java.util.PriorityQueue``: a binary heap with Java's exact sift-up / sift-down, under a comparator.

Java's queue takes a ``Comparator``; here it is a sort ``key`` (``Comparator.comparing(key)``), read at every
comparison as Java calls its comparator.  Without one the queue orders as ``DelayQueue``'s comparator-less
``new PriorityQueue<>()`` orders its ``Delayed`` elements: by expiration.
"""


from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar


class Ordered(Protocol):
    """What a ``key`` answers: anything ``<`` and ``<=`` order (the comparator's sign)."""

    def __lt__(self, other: Any, /) -> bool: ...
    def __le__(self, other: Any, /) -> bool: ...


T = TypeVar("T")


def by_expiration(item: Any) -> int:
    """``Delayed.compareTo`` in virtual time: the order of a ``DelayQueue``'s elements (``expiration_ms``)."""
    expiration: int = item.expiration_ms
    return expiration


class JavaPriorityQueue(Generic[T]):
    """``java.util.PriorityQueue`` ordered by ``key`` (``by_expiration`` when none is given).

    Same array layout, sift-up and sift-down as the JDK, so equal keys leave in the JDK's order.
    ``comparisons`` counts key comparisons (the honest cost of a heap).  Offer 5, 3, 3 and poll
    three times: ``5`` sinks, the first ``3`` is the root, and the two ``3`` leave in offer order:

    >>> queue = JavaPriorityQueue(key=lambda pair: pair[0])
    >>> for pair in ((5, "five"), (3, "three-1"), (3, "three-2")): queue.offer(pair)
    >>> [queue.poll() for _ in range(3)], queue.comparisons
    ([(3, 'three-1'), (3, 'three-2'), (5, 'five')], 3)
    """

    __slots__ = ("queue", "comparisons", "_key")

    def __init__(self, key: Callable[[T], Ordered] = by_expiration) -> None:
        self.queue: list[T] = []
        self.comparisons = 0
        self._key = key

    def __len__(self) -> int:
        return len(self.queue)

    def peek(self) -> T | None:
        return self.queue[0] if self.queue else None

    def offer(self, item: T) -> None:
        """``offer``: append, then ``siftUp``."""
        self.queue.append(item)
        self._sift_up_from(len(self.queue) - 1, item)

    def poll(self) -> T | None:
        """``poll``: take the root, move the last element there and ``siftDown``."""
        es = self.queue
        if not es:
            return None
        result = es[0]
        last = es.pop()
        if es:
            self._sift_down_from(0, last)
        return result

    def remove(self, item: T) -> bool:
        """``PriorityQueue.remove(Object)``: a linear search by identity, then ``removeAt``."""
        es = self.queue
        for i, e in enumerate(es):
            self.comparisons += 1
            if e is item:
                self._remove_at(i)
                return True
        return False

    def _remove_at(self, i: int) -> None:
        es = self.queue
        last = es.pop()
        if i == len(es):
            return
        # JDK removeAt: sift the moved element down from i; if it did not move, sift it up.
        self._sift_down_from(i, last)
        if es[i] is last:
            self._sift_up_from(i, last)

    def _sift_down_from(self, k: int, item: T) -> None:
        """``siftDownUsingComparator``: the smaller child (the left one on a tie) rises while it is smaller."""
        es, key = self.queue, self._key
        n = len(es)
        item_key = key(item)
        half = n >> 1
        while k < half:
            child = 2 * k + 1
            c = es[child]
            c_key = key(c)
            right = child + 1
            if right < n:
                self.comparisons += 1
                right_key = key(es[right])
                if right_key < c_key:
                    child, c, c_key = right, es[right], right_key
            self.comparisons += 1
            if item_key <= c_key:
                break
            es[k] = c
            k = child
        es[k] = item

    def _sift_up_from(self, k: int, item: T) -> None:
        """``siftUpUsingComparator``: the parent sinks while the item is strictly smaller."""
        es, key = self.queue, self._key
        item_key = key(item)
        while k > 0:
            parent = (k - 1) >> 1
            e = es[parent]
            self.comparisons += 1
            if not item_key < key(e):
                break
            es[k] = e
            k = parent
        es[k] = item
