"""The Java behaviours Kafka leaks, one helper each (engine/java.py)."""

from __future__ import annotations

from engine.java.strings import (
    hashmap_capacity,
    hashset_copy_capacity,
    sorted_java,
    string_hash_code,
    string_hashmap_order,
    to_positive,
    topic_partition_hash_code,
    utils_abs,
)


def test_string_compare_is_utf16_code_unit_order() -> None:
    assert sorted_java(["c2", "c10", "C3"]) == ["C3", "c10", "c2"]
    # U+1F600 is the surrogate pair D83D DE00, which sorts before U+FF01 in Java
    assert sorted_java(["c\uff01", "c\U0001f600"]) == ["c\U0001f600", "c\uff01"]
    assert sorted(["c\uff01", "c\U0001f600"]) == ["c\uff01", "c\U0001f600"]  # Python differs
    assert sorted_java(["ab", "a"]) == ["a", "ab"]


def test_string_hash_code_matches_java() -> None:
    assert string_hash_code("") == 0
    assert string_hash_code("a") == 97
    assert string_hash_code("hello") == 99162322
    assert string_hash_code("polygenelubricants") == -(2**31)
    assert string_hash_code("\U0001f600") == 0xD83D * 31 + 0xDE00


def test_utils_abs_and_to_positive() -> None:
    assert utils_abs(-(2**31)) == 0
    assert utils_abs(-5) == 5
    assert to_positive(-1) == 0x7FFFFFFF
    assert to_positive(-(2**31)) == 0


def test_hashmap_capacity_grows_past_three_quarters() -> None:
    assert [hashmap_capacity(n) for n in (0, 12, 13, 24, 25)] == [16, 16, 32, 32, 64]
    assert hashset_copy_capacity(3) == 16
    assert hashset_copy_capacity(13) == 32  # (int)(13/.75f)+1 = 18 -> 32


def test_hashmap_order_follows_buckets_then_insertion() -> None:
    # "C0".."C2" hash to 2128..2130; spread leaves them in buckets 0..2 of 16
    assert string_hashmap_order(["C2", "C0", "C1"]) == ["C0", "C1", "C2"]
    # "Aa" and "BB" collide (both 2112): insertion order decides inside the bucket
    assert string_hashmap_order(["BB", "Aa"]) == ["BB", "Aa"]
    assert string_hashmap_order(["Aa", "BB"]) == ["Aa", "BB"]


def test_hashmap_order_depends_on_table_size() -> None:
    keys = ["t2", "t10", "T1", "Orders", "orders", "topic-a"]
    small, large = string_hashmap_order(keys, 16), string_hashmap_order(keys, 64)
    assert sorted(small) == sorted(large) == sorted(keys)
    assert string_hashmap_order(keys) == small


def test_topic_partition_hash_code() -> None:
    assert topic_partition_hash_code("t0", 0) == 31 * 31 + string_hash_code("t0")


def test_java_hash_set_keeps_bucket_then_insertion_order() -> None:
    """The HashSet of PartitionMovements: removes and re-adds change the order within a bucket."""
    from engine.java.hashmap import JavaHashMap

    s: JavaHashMap[int, None] = JavaHashMap(lambda x: x)
    for x in (17, 1, 2):
        s.put(x)
    assert s.keys() == [17, 1, 2]  # 17 and 1 share bucket 1; 17 came first
    s.remove(17)
    s.put(17)
    assert s.keys() == [1, 17, 2]  # re-added: now after 1 in its bucket
    for x in range(100, 113):
        s.put(x)
    assert s.capacity == 32
