"""Acquisition locks and the virtual-time timer that fires them (Kafka's ``AcquisitionLockTimerTask``).

Every acquisition starts one lock for what it acquired, expiring at ``now + lock duration``: one for a whole
batch, one per offset for a per-offset batch.  A lock fires before an event at ``t`` only when ``expiry < t``
(strictly: a lock expiring at 6000 still holds at t=6000).  A cancelled lock never fires.

>>> timer = LockTimer()
>>> a = timer.start(AcquisitionLock(0, 9, 30_000, "A"))
>>> b = timer.start(AcquisitionLock(10, 10, 20_000, "B"))
>>> [(x.first, x.expiry) for x in timer.due(30_000)]
[(10, 20000)]
>>> a.cancel(); timer.due(40_000)
[]
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from itertools import count
from typing import Any


@dataclass(eq=False)
class AcquisitionLock:
    """A lock over ``first..last`` held by ``member`` until ``expiry`` (ms); ``live`` until fired or cancelled."""

    first: int
    last: int
    expiry: int
    member: str
    guards: Any = None  # the InFlightState (a whole batch's or one offset's) it guards; not imported: no cycle
    live: bool = True

    def cancel(self) -> None:
        self.live = False

    def as_json(self) -> dict[str, int | str]:
        return {"at": self.expiry, "member": self.member, "first": self.first, "last": self.last}


@dataclass
class LockTimer:
    """Live locks by expiry (a heap; cancelled ones are dropped when they surface)."""

    _heap: list[tuple[int, int, int, int, AcquisitionLock]] = field(default_factory=list)
    _seq: count = field(default_factory=count)

    def start(self, lock: AcquisitionLock) -> AcquisitionLock:
        heapq.heappush(self._heap, (lock.expiry, lock.first, lock.last, next(self._seq), lock))
        return lock

    def due(self, now: int) -> list[AcquisitionLock]:
        """Live locks with ``expiry < now``, in (expiry, first, last) order, removed from the timer."""
        fired = []
        while self._heap and self._heap[0][0] < now:
            lock = heapq.heappop(self._heap)[-1]
            if lock.live:
                lock.live = False
                fired.append(lock)
        return fired

    def next_expiry(self) -> int | None:
        while self._heap and not self._heap[0][-1].live:
            heapq.heappop(self._heap)
        return self._heap[0][0] if self._heap else None
