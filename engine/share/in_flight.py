"""The in-flight window's pieces: ``InFlightState`` (one record state) and ``InFlightBatch`` (Kafka's classes).

An in-flight batch covers ``first..last`` and is tracked either whole (one ``InFlightState`` for all its
offsets) or per offset (one each).  It turns per-offset ("splits") the first time an operation touches only
part of it, and never turns back.  Consecutive offsets with the same state, delivery count and member are
written as one run, the vectors' shape.

A state moves by ``try_update`` (Kafka's ``tryUpdateState``): **the limit rule** first (a move to AVAILABLE
becomes a move to ARCHIVED once the delivery count has reached ``group.share.delivery.count.limit``), then
``RecordState.validate_transition``; a refused move leaves the state as it was.  ``archive`` is Kafka's
``archive``: ARCHIVED whatever the state (a record the log no longer holds).

>>> batch = InFlightBatch(10, 14, InFlightState(RecordState.ACQUIRED, 1, "A"))
>>> batch.as_json()
{'first': 10, 'last': 14, 'state': 'ACQUIRED', 'delivery_count': 1, 'member': 'A'}
>>> batch.split()[2].try_update(RecordState.ACKNOWLEDGED, limit=5, member=None)
True
>>> [(r["first"], r["last"], r["state"]) for r in batch.as_json()["offsets"]]
[(10, 11, 'ACQUIRED'), (12, 12, 'ACKNOWLEDGED'), (13, 14, 'ACQUIRED')]
>>> batch.split()[2].try_update(RecordState.ACQUIRED, limit=5, member="B")
False
>>> at_limit = InFlightState(RecordState.ACQUIRED, 5, "A")
>>> at_limit.try_update(RecordState.AVAILABLE, limit=5, member=None), at_limit.state
(True, <RecordState.ARCHIVED: 'ARCHIVED'>)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.share.record_state import InvalidTransition, RecordState

if TYPE_CHECKING:
    from engine.share.acquisition_lock import AcquisitionLock


@dataclass(eq=False)
class InFlightState:
    """State, delivery count, holder (None unless ACQUIRED) and live acquisition lock of a record or batch."""

    state: RecordState
    delivery_count: int
    member: str | None
    lock: AcquisitionLock | None = None

    def key(self) -> tuple[RecordState, int, str | None]:
        return self.state, self.delivery_count, self.member

    def try_update(self, new: RecordState, limit: int, member: str | None, deliver: bool = False) -> bool:
        """Move to ``new`` (ARCHIVED instead of AVAILABLE at ``delivery_count >= limit``), raising the delivery
        count when ``deliver`` (an acquisition) and setting the holder; False, and nothing changed, when
        ``validate_transition`` refuses the move."""
        if new is RecordState.AVAILABLE and self.delivery_count >= limit:
            new = RecordState.ARCHIVED
        try:
            self.state = self.state.validate_transition(new)
        except InvalidTransition:
            return False
        if deliver and new is not RecordState.ARCHIVED:
            self.delivery_count += 1
        self.member = member
        return True

    def archive(self) -> None:
        """ARCHIVED whatever the state, no holder, its lock cancelled."""
        self.state = RecordState.ARCHIVED
        self.member = None
        self.release_lock()

    def release_lock(self) -> None:
        """Cancel and forget the live acquisition lock, if any."""
        if self.lock is not None:
            self.lock.cancel()
            self.lock = None


class InFlightBatch:
    """``first..last`` tracked whole (``whole``) or per offset (``offsets[o - first]``), never both."""

    __slots__ = ("first", "last", "whole", "offsets")

    def __init__(self, first: int, last: int, whole: InFlightState) -> None:
        self.first = first
        self.last = last
        self.whole: InFlightState | None = whole
        self.offsets: list[InFlightState] | None = None

    @property
    def width(self) -> int:
        return self.last - self.first + 1

    def split(self) -> list[InFlightState]:
        """Per-offset states (made on first call, copying the whole state); the caller moves the lock."""
        if self.offsets is None:
            assert self.whole is not None
            w = self.whole
            self.offsets = [InFlightState(w.state, w.delivery_count, w.member) for _ in range(self.width)]
            self.whole = None
        return self.offsets

    def state_at(self, offset: int) -> InFlightState:
        if self.offsets is None:
            assert self.whole is not None
            return self.whole
        return self.offsets[offset - self.first]

    def as_json(self) -> dict[str, Any]:
        if self.offsets is None:
            assert self.whole is not None
            return {"first": self.first, "last": self.last, **_state_json(self.whole)}
        runs: list[dict[str, Any]] = []
        previous: tuple[RecordState, int, str | None] | None = None
        for i, s in enumerate(self.offsets):
            key = s.key()
            if key == previous:
                runs[-1]["last"] = self.first + i
            else:
                runs.append({"first": self.first + i, "last": self.first + i, **_state_json(s)})
                previous = key
        return {"first": self.first, "last": self.last, "offsets": runs}


def _state_json(s: InFlightState) -> dict[str, Any]:
    return {"state": s.state.value, "delivery_count": s.delivery_count, "member": s.member}
