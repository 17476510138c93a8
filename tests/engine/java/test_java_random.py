"""``engine.java.random`` against the values Java 17's ``java.util.Random`` prints for the same seeds."""

from __future__ import annotations

import pytest

from engine.errors import EngineError
from engine.java.random import JavaRandom, shuffle, to_int64


def test_next_int_without_bound() -> None:
    r = JavaRandom(42)
    assert [r.next_int() for _ in range(5)] == [-1170105035, 234785527, -1360544799, 205897768, 1325939940]


def test_next_int_with_a_bound_takes_both_paths() -> None:
    assert JavaRandom(42).next_int(10) == 0
    r = JavaRandom(0)  # 1, 2 and 16 are powers of two (top bits); the others use the modulo with rejection
    bounds = (1, 2, 3, 5, 6, 16, 100, 2**30 + 1, 2**31 - 1)
    assert [r.next_int(b) for b in bounds] == [0, 1, 1, 2, 5, 4, 91, 251269761, 1283218719]


def test_the_rejection_loop_draws_again() -> None:
    first = JavaRandom(0).next(31)
    assert first >= 2**30 + 1  # in the last, incomplete stripe of 2**31: rejected
    assert JavaRandom(0).next_int(2**30 + 1) == 516548029  # the second draw, as Java answers


def test_seeds_are_java_longs_and_other_draws() -> None:
    r = JavaRandom(-1)
    assert [r.next_long() for _ in range(3)] == [4961115982468162243, 226341162490527646, -6233441030884181172]
    r = JavaRandom(-(2**63))
    assert (r.next_int(), r.next_boolean(), r.next_double()) == (-1155484576, True, 0.24053641567148587)
    assert JavaRandom(2**64 - 1).next_int() == JavaRandom(-1).next_int()  # taken as a long: the same seed
    assert to_int64(2**63) == -(2**63)


def test_collections_shuffle() -> None:
    items = list(range(10))
    shuffle(items, JavaRandom(7))
    assert items == [0, 1, 9, 3, 7, 4, 8, 5, 2, 6]
    one: list[int] = [5]
    rnd = JavaRandom(7)
    shuffle(one, rnd)  # a list of one draws nothing
    assert one == [5] and rnd.next_int() == JavaRandom(7).next_int()


def test_a_bound_of_zero_is_javas_illegal_argument() -> None:
    with pytest.raises(EngineError, match="IllegalArgumentException: bound must be positive"):
        JavaRandom(1).next_int(0)


def test_a_subclass_overriding_next_changes_every_draw() -> None:
    class Constant(JavaRandom):
        def next(self, bits: int) -> int:
            return (1 << bits) - 1 if bits < 32 else -1

    assert Constant(0).next_int(8) == 7 and Constant(0).next_int() == -1
