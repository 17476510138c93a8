"""The iteration order of a ``java.util.HashMap<String, ...>`` whose keys were each put once, in a known order.

The assignor walks three such maps: the members (``TargetAssignmentBuilder``'s ``new HashMap<>()``), the
processes (``new HashMap<>(members)``) and each process's members (``new HashMap<>()``).  While no bucket holds
more than 8 keys the order is bucket, then insertion (``engine.java.hashmap.JavaHashMap``).  A bucket of 9 keys
in a table of 64 or more becomes a red-black tree (``engine.java.tree_bin.TreeBinHashMap``) ordered by spread
hash, and ``String`` keys whose hashes are equal by ``String.compareTo`` (they are ``Comparable``:
``engine.java.strings.string_compare``).

``"Aa"`` and ``"BB"`` share a hash code, so strings made of such blocks all collide; with 64 other keys around
them, sixteen of them share one bucket of a 128-slot table and turn it into a tree, whose order (checked against
Java 17's ``HashMap``) is neither insertion nor ``compareTo`` order:

    >>> blocks = [a + b + c + d for a in ("Aa", "BB") for b in ("Aa", "BB") for c in ("Aa", "BB")
    ...           for d in ("Aa", "BB")]
    >>> keys = [f"k{i}" for i in range(64)] + blocks
    >>> order = string_map_order(keys)
    >>> [k for k in order if k in blocks][:4]
    ['AaAaBBBB', 'BBBBBBAa', 'BBBBBBBB', 'BBBBAaAa']
    >>> string_map_order(["m-2", "m-1", "m-10"])
    ['m-1', 'm-2', 'm-10']
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.java.hashmap import JavaHashMap
from engine.java.strings import HASHMAP_DEFAULT_CAPACITY, string_compare, string_hash_code
from engine.java.tree_bin import TreeBinHashMap


def string_map_order(keys: Sequence[str], initial_capacity: int = HASHMAP_DEFAULT_CAPACITY) -> list[str]:
    """Iteration order of ``new HashMap<String, V>(initial_capacity)`` after putting ``keys`` in order."""
    fast: JavaHashMap[str, None] = JavaHashMap.of(keys, string_hash_code, initial_capacity)
    if not fast.treeified:
        return fast.keys()
    exact: TreeBinHashMap[str, None] = TreeBinHashMap(string_hash_code, initial_capacity, compare=string_compare)
    for key in keys:
        exact.put(key, None)
    return exact.keys()

