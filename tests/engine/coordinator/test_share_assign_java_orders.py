"""The Java collection orders the share groups' SimpleAssignor depends on, bucket overflows included
(engine.java.hashmap: ``TreeBinHashMap``, ``hashset_order``, ``compute_if_absent_order``).  Each expected order
was printed by ``java.util.HashMap`` (OpenJDK 17) running the same operations."""

from __future__ import annotations

from engine.java.hashmap import (
    bucket_may_overflow,
    compute_if_absent_order,
    hashset_order,
    integer_hash,
)
from engine.java.strings import hashmap_spread
from engine.java.tree_bin import TreeBinHashMap

TWELVE = [64 * k for k in range(12)]  # one bucket of every table up to 64: resized twice, then a tree


def _puts(keys: list[int], capacity: int = 16) -> TreeBinHashMap[int, None]:
    table: TreeBinHashMap[int, None] = TreeBinHashMap(integer_hash, capacity)
    for key in keys:
        table.put(key, None)
    return table


def test_a_tree_bin_puts_its_root_first() -> None:
    table = _puts(TWELVE)
    assert table.capacity == 64
    assert table.keys() == [192, 0, 64, 128, 256, 320, 384, 448, 512, 576, 640, 704]


def test_removing_from_a_tree_may_move_a_new_root_to_the_front() -> None:
    table = _puts(TWELVE)
    for key in (0, 256, 512):
        table.remove(key)
    assert table.keys() == [448, 192, 64, 128, 320, 384, 576, 640, 704]


def test_an_iterator_removal_keeps_the_bin_order() -> None:
    table = _puts(TWELVE)
    for key in (0, 256, 512):
        table.remove(key, movable=False)
    assert table.keys() == [192, 64, 128, 320, 384, 448, 576, 640, 704]


def test_compute_if_absent_treeifies_at_eight_keys() -> None:
    table: TreeBinHashMap[int, None] = TreeBinHashMap(integer_hash, 16)
    for key in range(0, 128, 16):
        table.compute_if_absent(key, lambda: None)
    assert (table.capacity, table.keys()) == (32, [96, 64, 32, 0, 112, 80, 48, 16])
    table = TreeBinHashMap(integer_hash, 64)
    for key in [*range(0, 640, 64), 1, 65]:
        table.compute_if_absent(key, lambda: None)
    assert table.keys() == [256, 448, 512, 576, 384, 320, 192, 128, 64, 0, 65, 1]


def test_the_fast_orders_agree_with_the_bin_model() -> None:
    assert not bucket_may_overflow(range(100), integer_hash) and bucket_may_overflow(TWELVE, integer_hash)
    assert hashset_order(TWELVE, integer_hash) == _puts(TWELVE).keys()
    assert hashset_order(TWELVE, integer_hash, removes=[0, 256, 512]) == [448, 192, 64, 128, 320, 384, 576, 640, 704]
    keys = [5, 21, 37, 6, 1000, 7]
    fast = hashset_order(keys, integer_hash, removes=[21], then_adds=[21, 53])
    assert fast == [5, 37, 21, 53, 6, 7, 1000] == _puts([5, 37, 6, 1000, 7, 21, 53]).keys()
    spreads = [hashmap_spread(k) for k in range(0, 128, 16)]
    assert compute_if_absent_order(spreads, 16) == ([6, 4, 2, 0, 7, 5, 3, 1], 32)
