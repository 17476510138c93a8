"""The member and process maps' iteration order: ``HashMap<String, ...>`` with tree bins of equal-hash ids, whose
order Java decides by ``String.compareTo`` (orders recorded from Java 17's ``HashMap``)."""

from __future__ import annotations

from engine.coordinator.streams.string_key_order import string_map_order
from engine.java.strings import string_hash_code
from engine.java.tree_bin import TreeBinHashMap

BLOCKS = [a + b + c + d for a in ("Aa", "BB") for b in ("Aa", "BB") for c in ("Aa", "BB") for d in ("Aa", "BB")]
KEYS = [f"k{i}" for i in range(64)] + BLOCKS
JAVA_ORDER_OF_BLOCKS = ["AaAaBBBB", "BBBBBBAa", "BBBBBBBB", "BBBBAaAa", "BBBBAaBB", "BBAaBBAa", "BBAaBBBB",
                        "BBAaAaAa", "BBAaAaBB", "AaAaAaAa", "AaAaAaBB", "AaAaBBAa", "AaBBAaAa", "AaBBAaBB",
                        "AaBBBBAa", "AaBBBBBB"]


def test_a_tree_bin_of_equal_hashes_follows_java() -> None:
    order = string_map_order(KEYS)
    assert [k for k in order if k in BLOCKS] == JAVA_ORDER_OF_BLOCKS
    assert sorted(order) == sorted(KEYS)


def test_identity_tie_breaks_would_not() -> None:
    """Without ``compare`` the tree-bin model breaks equal hashes as identity would (the later key left), not as
    ``String.compareTo`` does."""
    generic: TreeBinHashMap[str, None] = TreeBinHashMap(string_hash_code, 16)
    for key in KEYS:
        generic.put(key, None)
    assert [k for k in generic.keys() if k in BLOCKS] != JAVA_ORDER_OF_BLOCKS


def test_without_crowded_buckets_the_order_is_bucket_then_insertion() -> None:
    assert string_map_order(["m-AaBB", "m-BBAa", "m-AaAa"]) == ["m-AaBB", "m-BBAa", "m-AaAa"]
    assert string_map_order(["b", "a"], 1) == ["a", "b"]
