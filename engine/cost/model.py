"""The cost model's shapes: an ``Estimate`` of one computation, a ``Ceiling`` it must stay under, and ``admit``,
the one door every caller passes an estimate through with its own ceiling.

An estimate is a sum of measured terms: each computation has a few shape features (``partitions``,
``members x partitions`` ...) and ``engine.cost.constants`` holds, per computation, the seconds and the
bytes each unit of a feature costs, fitted by ``python -m bench cost``.

>>> a = Estimate(2.0, 100 * MIB, "a")
>>> b = Estimate(3.0, 50 * MIB, "b")
>>> (a + b).seconds, (a + b).peak_bytes // MIB, (a + b).drivers
(5.0, 100, 'b')
>>> admit(Estimate(200.0, GIB, "50,000 partitions x 500 members"), Ceiling("command line", 120.0, 4 * GIB), "assign")
Traceback (most recent call last):
...
engine.errors.LimitError: assign: estimated 200 s and 1,024 MiB, over the command line's ceiling of 120 s and \
4,096 MiB (50,000 partitions x 500 members)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.errors import LimitError

MIB = 1 << 20
GIB = 1 << 30


@dataclass(frozen=True)
class Estimate:
    """Estimated wall seconds on the 2-core reference machine, peak extra bytes, and what drives them."""

    seconds: float
    peak_bytes: int
    drivers: str

    def __add__(self, other: Estimate) -> Estimate:
        """Seconds add (the work runs one after the other); the peak is the larger peak; the drivers
        named are those of the larger part."""
        larger = self if self.seconds >= other.seconds else other
        return Estimate(self.seconds + other.seconds, max(self.peak_bytes, other.peak_bytes), larger.drivers)

    def holding(self, other: Estimate) -> Estimate:
        """``other`` built while this one's results are held (a command's answer): seconds and peaks add; the
        drivers named are this one's."""
        return Estimate(self.seconds + other.seconds, self.peak_bytes + other.peak_bytes, self.drivers)

    @property
    def mib(self) -> int:
        return -(-self.peak_bytes // MIB)


@dataclass(frozen=True)
class Ceiling:
    """What a door lets through: at most ``seconds`` of estimated work and ``peak_bytes`` of extra memory."""

    name: str
    seconds: float
    peak_bytes: int


def admit(estimate: Estimate, ceiling: Ceiling, what: str = "") -> None:
    """Let ``estimate`` through ``ceiling``, or raise ``LimitError``: one line naming the estimate, the ceiling
    and the drivers, after ``what: `` when the caller names its work (a command line's command)."""
    if estimate.seconds <= ceiling.seconds and estimate.peak_bytes <= ceiling.peak_bytes:
        return
    raise LimitError(
        (f"{what}: " if what else "")
        + f"estimated {_seconds(estimate.seconds)} s and {estimate.mib:,} MiB, over the {ceiling.name}'s ceiling of "
        f"{_seconds(ceiling.seconds)} s and {ceiling.peak_bytes // MIB:,} MiB ({estimate.drivers})"
    )


def _seconds(value: float) -> str:
    return f"{value:,.0f}" if value >= 10 else f"{value:.1f}"


Terms = Mapping[str, float]  # feature name -> its count in one input


def evaluate(model: Mapping[str, Mapping[str, float]], features: Terms, drivers: str) -> Estimate:
    """``model["seconds"]`` and ``model["bytes"]`` (feature -> cost per unit, ``"1"`` the constant term)
    applied to ``features``."""
    def total(coefficients: Mapping[str, float]) -> float:
        return sum(c * (1.0 if name == "1" else features.get(name, 0.0)) for name, c in coefficients.items())

    return Estimate(max(total(model["seconds"]), 0.0), max(int(total(model["bytes"])), 0), drivers)
