"""``java.util.Random``: the 48-bit linear congruential generator Kafka's replica placer draws from.

* ``JavaRandom(seed)`` is ``new Random(seed)``: the seed (any Java ``long``) is scrambled with
  ``0x5DEECE66D`` and kept to 48 bits;
* ``next(bits)`` steps ``seed = seed * 0x5DEECE66D + 0xB (mod 2**48)`` and returns the top ``bits`` bits
  as a Java ``int``; every other method is built on it, as in the JDK, so a subclass that overrides
  ``next`` (Kafka's test ``MockRandom``) changes them all;
* ``next_int(bound)`` is ``nextInt(int bound)``: a power of two takes the top bits
  (``(bound * next(31)) >> 31``), any other bound rejects the draws of the last incomplete stripe of
  ``2**31`` and draws again;
* ``shuffle(items, rnd)`` is ``Collections.shuffle(list, rnd)``: from the end, each position swapped with
  ``rnd.nextInt(i)``.

Worked example (the values Java 17 prints; asserted here and in tests/engine/java/test_java_random.py)::

    >>> JavaRandom(42).next_int(10)
    0
    >>> r = JavaRandom(42); [r.next_int() for _ in range(3)]
    [-1170105035, 234785527, -1360544799]
    >>> items = list(range(10)); shuffle(items, JavaRandom(7)); items
    [0, 1, 9, 3, 7, 4, 8, 5, 2, 6]
"""

from __future__ import annotations

from typing import TypeVar

from engine.errors import EngineError
from engine.java.strings import to_int32

MULTIPLIER = 0x5DEECE66D
ADDEND = 0xB
MASK = (1 << 48) - 1
LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1

T = TypeVar("T")


def to_int64(value: int) -> int:
    """A Python int wrapped to a Java ``long`` (two's complement, 64 bits)."""
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >= 1 << 63 else value


class JavaRandom:
    """``java.util.Random`` with the methods Kafka's placement calls (and the usual few beside them)."""

    __slots__ = ("_seed",)

    def __init__(self, seed: int) -> None:
        self._seed = 0
        self.set_seed(seed)

    def set_seed(self, seed: int) -> None:
        """``setSeed(long)``: ``(seed ^ 0x5DEECE66D) & (2**48 - 1)``; ``seed`` is taken as a Java ``long``."""
        self._seed = (to_int64(seed) ^ MULTIPLIER) & MASK

    def next(self, bits: int) -> int:
        """``next(int bits)``: one LCG step, the top ``bits`` (1..32) of the 48-bit state as a Java ``int``."""
        self._seed = (self._seed * MULTIPLIER + ADDEND) & MASK
        return to_int32(self._seed >> (48 - bits))

    def next_int(self, bound: int | None = None) -> int:
        """``nextInt()`` (any ``int``) or ``nextInt(bound)`` (``0 <= r < bound``).

        ``bound <= 0`` is Java's ``IllegalArgumentException: bound must be positive`` (an ``EngineError``).
        """
        if bound is None:
            return self.next(32)
        if bound <= 0:
            raise EngineError("IllegalArgumentException: bound must be positive")
        r = self.next(31)
        m = bound - 1
        if bound & m == 0:  # a power of two: the top bits
            return to_int32((bound * r) >> 31)
        u = r
        while True:  # Java: for (u = r; u - (r = u % bound) + m < 0; u = next(31))
            r = u % bound
            if to_int32(u - r + m) >= 0:
                return r
            u = self.next(31)

    def next_long(self) -> int:
        """``nextLong()``: ``((long) next(32) << 32) + next(32)``."""
        high = self.next(32)
        return to_int64((high << 32) + self.next(32))

    def next_boolean(self) -> bool:
        """``nextBoolean()``: ``next(1) != 0``."""
        return self.next(1) != 0

    def next_double(self) -> float:
        """``nextDouble()``: 53 random bits over ``2**53``."""
        high = self.next(26)
        return ((high << 27) + self.next(27)) * 2.0**-53


def shuffle(items: list[T], rnd: JavaRandom) -> None:
    """``Collections.shuffle(list, rnd)`` in place: ``for i = size .. 2: swap(i - 1, rnd.nextInt(i))``."""
    for i in range(len(items), 1, -1):
        j = rnd.next_int(i)
        items[i - 1], items[j] = items[j], items[i - 1]
