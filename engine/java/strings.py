"""The Java behaviours that leak into Kafka's results, one small function each.

Kafka's assignors sort member ids with ``String.compareTo`` (UTF-16 code units) and iterate
``java.util.HashMap`` key sets whose order follows ``String.hashCode``.  A faithful port must
reproduce both; everything here is pure and tested in ``tests/engine/java/test_java.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

INT_MIN = -(2**31)
HASHMAP_DEFAULT_CAPACITY = 16
HASHMAP_LOAD_FACTOR = 0.75
HASHMAP_MAX_CAPACITY = 1 << 30


def to_int32(value: int) -> int:
    """Wrap an integer to Java's signed 32-bit ``int``."""
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


def utf16_units(text: str) -> bytes:
    """The string as big-endian UTF-16 code units (surrogate pairs for non-BMP characters)."""
    return text.encode("utf-16-be", "surrogatepass")


def string_compare_key(text: str) -> bytes:
    """Sort key equal to Java ``String.compareTo``: lexicographic over UTF-16 code units.

    Big-endian code units compare byte-wise exactly like the units themselves, and a proper
    prefix sorts first, as in Java.  ``sorted(["c2", "c10"], key=string_compare_key)`` gives
    ``["c10", "c2"]``; ``"c\\U0001F600"`` sorts before ``"c\\uFF01"`` (0xD83D < 0xFF01).
    """
    return utf16_units(text)


def string_compare(a: str, b: str) -> int:
    """Java ``a.compareTo(b)``: the difference of the first differing UTF-16 code units, else of the lengths.

    >>> string_compare("c2", "c10"), string_compare("a", "abc"), string_compare("Aa", "Aa")
    (1, -2, 0)
    """
    units_a, units_b = utf16_units(a), utf16_units(b)
    for i in range(0, min(len(units_a), len(units_b)), 2):
        unit_a, unit_b = units_a[i] << 8 | units_a[i + 1], units_b[i] << 8 | units_b[i + 1]
        if unit_a != unit_b:
            return unit_a - unit_b
    return (len(units_a) - len(units_b)) // 2


def string_hash_code(text: str) -> int:
    """Java ``String.hashCode()``: ``s[0]*31^(n-1) + ... + s[n-1]`` over UTF-16 units, int32."""
    units = utf16_units(text)
    h = 0
    for i in range(0, len(units), 2):
        h = (31 * h + (units[i] << 8 | units[i + 1])) & 0xFFFFFFFF
    return to_int32(h)


def utils_abs(value: int) -> int:
    """Kafka ``Utils.abs``: ``Integer.MIN_VALUE`` maps to 0, otherwise ``abs``."""
    return 0 if value == INT_MIN else abs(value)


def to_positive(value: int) -> int:
    """Kafka ``Utils.toPositive``: ``value & 0x7fffffff`` (not ``abs``)."""
    return value & 0x7FFFFFFF


def hashmap_spread(hash_code: int) -> int:
    """``HashMap.hash``: ``h ^ (h >>> 16)`` as an unsigned 32-bit number (the bucket bits)."""
    h = hash_code & 0xFFFFFFFF
    return h ^ (h >> 16)


def table_size_for(capacity: int) -> int:
    """``HashMap.tableSizeFor``: the smallest power of two >= ``capacity`` (at least 1)."""
    n = 1
    while n < capacity and n < HASHMAP_MAX_CAPACITY:
        n <<= 1
    return n


def hashmap_capacity(size: int, initial_capacity: int = HASHMAP_DEFAULT_CAPACITY) -> int:
    """Table length after ``size`` puts into ``new HashMap<>(initial_capacity)``.

    A table doubles when a put makes ``size > capacity * 0.75``.
    """
    capacity = table_size_for(initial_capacity)
    while size > capacity * HASHMAP_LOAD_FACTOR and capacity < HASHMAP_MAX_CAPACITY:
        capacity <<= 1
    return capacity


def hashset_copy_capacity(size: int) -> int:
    """Table length of ``new HashSet<>(collection)``: ``max((int)(size/.75f)+1, 16)``."""
    return hashmap_capacity(size, max(int(size / HASHMAP_LOAD_FACTOR) + 1, HASHMAP_DEFAULT_CAPACITY))


def hashmap_order(
    keys: Iterable[K],
    hash_code: Callable[[K], int],
    capacity: int | None = None,
) -> list[K]:
    """Iteration order of a ``java.util.HashMap`` whose keys were put in the given order.

    Buckets are visited by index ``spread(hash) & (capacity - 1)``; inside a bucket the keys
    keep insertion order (resizes split buckets without reordering).  ``capacity`` defaults
    to the table length reached by putting the keys into a default ``new HashMap<>()``.
    The treeified-bucket corner case (8+ colliding keys) is not modelled.
    """
    unique = list(dict.fromkeys(keys))
    table = capacity if capacity is not None else hashmap_capacity(len(unique))
    mask = table - 1
    indexed = [(hashmap_spread(hash_code(key)) & mask, i) for i, key in enumerate(unique)]
    indexed.sort()
    return [unique[i] for _, i in indexed]


def string_hashmap_order(keys: Iterable[str], capacity: int | None = None) -> list[str]:
    """``hashmap_order`` for ``String`` keys."""
    return hashmap_order(keys, string_hash_code, capacity)


def sorted_java(strings: Iterable[str]) -> list[str]:
    """Strings sorted as ``Collections.sort`` on ``String`` would sort them."""
    return sorted(strings, key=string_compare_key)


def topic_partition_hash_code(topic: str, partition: int) -> int:
    """``TopicPartition.hashCode()``: ``31 * (31 + partition) + topic.hashCode()`` as int32."""
    return to_int32(31 * (31 + partition) + string_hash_code(topic))

