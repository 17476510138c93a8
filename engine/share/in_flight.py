"""The in-flight window's pieces: ``InFlightState`` (one record state) and ``InFlightBatch`` (Kafka's classes).

An in-flight batch covers ``first..last`` and is tracked either whole (one ``InFlightState`` for all its
offsets) or per offset (one each).  It turns per-offset ("splits") the first time an operation touches only
part of it, and never turns back.  Consecutive offsets with the same state, delivery count and member are
written as one run, the vectors' shape.

>>> batch = InFlightBatch(10, 14, InFlightState(RecordState.ACQUIRED, 1, "A"))
>>> batch.as_json()
{'first': 10, 'last': 14, 'state': 'ACQUIRED', 'delivery_count': 1, 'member': 'A'}
>>> batch.split()[2].state = RecordState.ACKNOWLEDGED
>>> batch.split()[2].member = None
>>> [(r["first"], r["last"], r["state"]) for r in batch.as_json()["offsets"]]
[(10, 11, 'ACQUIRED'), (12, 12, 'ACKNOWLEDGED'), (13, 14, 'ACQUIRED')]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.share.record_state import RecordState

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
