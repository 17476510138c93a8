"""``java.util.PriorityQueue``: the binary heap behind ``DelayQueue``, with Java's exact sift-up / sift-down."""


from __future__ import annotations

from typing import Any

# --------------------------------------------------------------------------- the DelayQueue


class JavaPriorityQueue:
    """``java.util.PriorityQueue`` (the heap inside ``DelayQueue``), ordered by ``expiration_ms``.

    Same array layout, sift-up and sift-down as the JDK, so equal keys leave in the JDK's order.
    ``comparisons`` counts key comparisons (the honest cost of a heap).  Offer 5, 3, 3 and poll
    three times: ``5`` sinks, the first ``3`` is the root, and the two ``3`` leave in offer order.
    """

    __slots__ = ("queue", "comparisons")

    def __init__(self) -> None:
        self.queue: list[Any] = []
        self.comparisons = 0

    def __len__(self) -> int:
        return len(self.queue)

    def peek(self) -> Any | None:
        return self.queue[0] if self.queue else None

    def offer(self, item: Any) -> None:
        es = self.queue
        es.append(item)
        k = len(es) - 1
        key = item.expiration_ms
        steps = 0
        while k > 0:
            parent = (k - 1) >> 1
            e = es[parent]
            steps += 1
            if key >= e.expiration_ms:
                break
            es[k] = e
            k = parent
        es[k] = item
        self.comparisons += steps

    def poll(self) -> Any | None:
        es = self.queue
        if not es:
            return None
        result = es[0]
        last = es.pop()
        if es:
            self._sift_down(last)
        return result

    def _sift_down(self, item: Any) -> None:
        es = self.queue
        n = len(es)
        key = item.expiration_ms
        k = 0
        half = n >> 1
        steps = 0
        while k < half:
            child = 2 * k + 1
            c = es[child]
            right = child + 1
            if right < n:
                steps += 1
                if c.expiration_ms > es[right].expiration_ms:
                    child = right
                    c = es[child]
            steps += 1
            if key <= c.expiration_ms:
                break
            es[k] = c
            k = child
        es[k] = item
        self.comparisons += steps

    def remove(self, item: Any) -> bool:
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

    def _sift_down_from(self, k: int, item: Any) -> None:
        es = self.queue
        n = len(es)
        key = item.expiration_ms
        half = n >> 1
        while k < half:
            child = 2 * k + 1
            c = es[child]
            right = child + 1
            if right < n:
                self.comparisons += 1
                if c.expiration_ms > es[right].expiration_ms:
                    child = right
                    c = es[child]
            self.comparisons += 1
            if key <= c.expiration_ms:
                break
            es[k] = c
            k = child
        es[k] = item

    def _sift_up_from(self, k: int, item: Any) -> None:
        es = self.queue
        key = item.expiration_ms
        while k > 0:
            parent = (k - 1) >> 1
            e = es[parent]
            self.comparisons += 1
            if key >= e.expiration_ms:
                break
            es[k] = e
            k = parent
        es[k] = item
