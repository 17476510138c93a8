"""Tree bins of ``String`` keys with equal hashes, ordered by ``compareTo`` as ``HashMap.TreeNode`` orders them.

Every expected order was printed by Java 17's ``HashMap`` (``keySet()`` after the same operations); in each case
the identity tie-break alone (no ``compare``) gives a different order.
"""

from __future__ import annotations

from engine.java.strings import hashmap_spread, string_compare, string_hash_code
from engine.java.tree_bin import TreeBinHashMap

BLOCKS = [a + b + c + d for a in ("Aa", "BB") for b in ("Aa", "BB") for c in ("Aa", "BB") for d in ("Aa", "BB")]
KEYS = sorted(BLOCKS, key=lambda s: s[::-1])  # sixteen strings of one hash code, in neither compareTo order


def _strings(initial_capacity: int) -> TreeBinHashMap[str, None]:
    return TreeBinHashMap(string_hash_code, initial_capacity, compare=string_compare)


def _identity(initial_capacity: int) -> TreeBinHashMap[str, None]:
    return TreeBinHashMap(string_hash_code, initial_capacity)


def test_string_compare_is_java_compare_to() -> None:
    assert string_compare("c2", "c10") == 1
    assert string_compare("a", "abc") == -2
    assert string_compare("c\U0001f600", "c\uff01") == 0xD83D - 0xFF01  # UTF-16 code units: -9924
    assert string_compare("AaBB", "BBAa") == -1


def test_compute_if_absent_builds_and_grows_a_string_tree_as_java_does() -> None:
    strings, identity = _strings(64), _identity(64)
    for table in strings, identity:
        for key in KEYS:
            table.compute_if_absent(key, lambda: None)
    assert strings.keys() == ["AaBBBBBB", "AaBBAaBB", "AaAaAaBB", "AaAaAaAa", "BBAaAaBB", "BBAaAaAa", "BBAaBBAa",
                              "BBBBAaBB", "BBBBAaAa", "AaAaBBBB", "AaBBAaAa", "AaAaBBAa", "BBAaBBBB", "AaBBBBAa",
                              "BBBBBBBB", "BBBBBBAa"]
    assert identity.keys() != strings.keys()


def test_a_resize_rebuilds_both_halves_of_a_string_tree_as_java_does() -> None:
    """Two families of colliding strings share a bucket of 64 slots and split at 128 into two trees of 9, each
    rebuilt by ``treeify``; the rest of each family then goes in by ``putTreeVal``."""
    g, j = (hashmap_spread(string_hash_code(prefix + KEYS[0])) for prefix in ("g", "j"))
    assert g & 63 == j & 63 and (g ^ j) & 64
    mixed = [prefix + key for key in KEYS for prefix in ("g", "j")]
    fillers = [f"f{i}" for i in range(40)]
    strings, identity = _strings(64), _identity(64)
    for table in strings, identity:
        for key in mixed[:18] + fillers + mixed[18:]:
            table.put(key, None)
    java = ["gAaBBBBBB", "gBBAaBBBB", "gBBBBBBBB", "gBBAaAaBB", "gBBAaAaAa", "gBBAaBBAa", "gAaAaBBBB", "gAaAaAaBB",
            "gAaAaAaAa", "gAaAaBBAa", "gAaBBAaBB", "gAaBBAaAa", "gAaBBBBAa", "gBBBBAaBB", "gBBBBAaAa", "gBBBBBBAa",
            "jBBAaAaBB", "jBBBBBBBB", "jBBBBAaBB", "jBBBBAaAa", "jBBBBBBAa", "jAaBBBBBB", "jBBAaAaAa", "jBBAaBBBB",
            "jBBAaBBAa", "jAaAaBBBB", "jAaAaAaBB", "jAaAaAaAa", "jAaAaBBAa", "jAaBBAaBB", "jAaBBAaAa", "jAaBBBBAa"]
    assert strings.capacity == 128
    assert [key for key in strings.keys() if key[0] != "f"] == java
    assert [key for key in identity.keys() if key[0] != "f"] != java


def test_removals_then_insertions_in_a_string_tree_follow_java() -> None:
    strings, identity = _strings(64), _identity(64)
    for table in strings, identity:
        for key in KEYS:
            table.put(key, None)
        for key in KEYS[3:9]:
            table.remove(key)
        for key in KEYS[5:7]:
            table.put(key, None)
        for key in KEYS[:3]:
            table.compute_if_absent("x" + key, lambda: None)
    assert strings.keys() == ["AaBBBBBB", "BBAaBBBB", "BBBBBBBB", "AaBBBBAa", "AaBBAaAa", "AaBBAaBB", "BBBBAaAa",
                              "BBAaAaAa", "BBAaAaBB", "BBAaBBAa", "AaAaAaAa", "AaAaBBAa", "xBBAaBBBB", "xAaBBBBBB",
                              "xBBBBBBBB"]
    assert identity.keys() != strings.keys()


def test_a_short_table_doubles_to_64_then_treeifies_strings_as_java_does() -> None:
    strings = _strings(16)
    for key in KEYS + ["q" + key for key in KEYS]:
        strings.put(key, None)
    assert strings.capacity == 64
    assert [key for key in strings.keys() if key[0] != "q"] == [
        "AaBBBBBB", "BBBBBBBB", "BBAaBBBB", "AaAaBBBB", "AaBBAaAa", "BBBBAaBB", "BBBBAaAa", "AaBBAaBB", "BBAaAaBB",
        "BBAaAaAa", "AaAaAaBB", "AaAaAaAa", "AaAaBBAa", "BBBBBBAa", "AaBBBBAa", "BBAaBBAa"]


def test_a_compare_answering_zero_leaves_the_identity_tie_break() -> None:
    """``compareComparables`` answering 0 (keys of different classes) falls back to ``tieBreakOrder``."""
    indifferent: TreeBinHashMap[str, None] = TreeBinHashMap(string_hash_code, 64, compare=lambda a, b: 0)
    identity = _identity(64)
    for table in indifferent, identity:
        for key in KEYS:
            table.put(key, None)
    assert indifferent.keys() == identity.keys()
