"""``JavaHashMap``'s treeify threshold: ``computeIfAbsent`` calls ``treeifyBin`` when a bucket reaches 8 keys,
``put`` at 9 (expected tables and orders printed by Java 17's ``HashMap``)."""

from __future__ import annotations

from engine.java.hashmap import JavaHashMap, integer_hash
from engine.java.tree_bin import TreeBinHashMap


def _compute_if_absent(keys: range, initial_capacity: int) -> JavaHashMap[int, None]:
    table: JavaHashMap[int, None] = JavaHashMap(integer_hash, initial_capacity)
    for key in keys:
        table.compute_if_absent(key, lambda: None)
    return table


def test_compute_if_absent_doubles_a_short_table_at_eight_keys_in_a_bucket() -> None:
    table = _compute_if_absent(range(0, 128, 16), 16)  # 0, 16, ..., 112: bucket 0 of 16
    assert (table.capacity, table.keys()) == (32, [96, 64, 32, 0, 112, 80, 48, 16])
    exact: TreeBinHashMap[int, None] = TreeBinHashMap(integer_hash, 16)
    for key in range(0, 128, 16):
        exact.compute_if_absent(key, lambda: None)
    assert (exact.capacity, exact.keys()) == (table.capacity, table.keys())


def test_compute_if_absent_treeifies_a_long_table_at_eight_keys_in_a_bucket() -> None:
    assert not _compute_if_absent(range(0, 448, 64), 64).treeified  # 7 keys in bucket 0
    assert _compute_if_absent(range(0, 512, 64), 64).treeified      # 8 keys: a tree bin


def test_put_still_waits_for_nine_keys_in_a_bucket() -> None:
    table: JavaHashMap[int, None] = JavaHashMap(integer_hash, 16)
    for key in range(0, 128, 16):
        table.put(key)
    assert (table.capacity, table.keys()) == (16, list(range(0, 128, 16)))
    table.put(128)
    assert table.capacity == 32
