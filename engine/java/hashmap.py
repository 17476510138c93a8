"""A model of ``java.util.HashMap`` / ``HashSet`` iteration order under puts and removes.

``engine.java.hashmap_order`` answers for keys put once into a fresh map; the KIP-848 assignors also
copy maps (``new HashMap<>(n)``, ``new HashSet<>(collection)``), remove keys and add them back, so
their result lists need the full model:

* the table length starts at ``tableSizeFor(initialCapacity)`` (16 for ``new HashMap<>()``) and
  doubles when a put makes ``size > 0.75 * length``;
* a key lives in bucket ``spread(hashCode) & (length - 1)``; inside a bucket keys keep the order in
  which they were (last) inserted, and a resize splits buckets without reordering them;
* ``computeIfAbsent`` differs from ``put``: it resizes at the start of every call (even when the
  key is present) and links the new key at
  the head of its bucket (modelled with a negative insertion number);
* when a put makes a bucket hold 9 keys (a ``computeIfAbsent`` 8) and the table is shorter than 64,
  Java resizes instead of treeifying (``treeifyBin``) — modelled; a real tree bin (table >= 64) is not
  (its ``next`` order differs; ``treeified`` reports it).

``TreeBinHashMap`` models a table bin by bin, tree bins included, and answers where buckets overflow;
``hashset_order`` and ``compute_if_absent_order`` give a set's or a map's order after a sequence of
operations, on the fast bucket-then-insertion rule while no bucket can overflow and by ``TreeBinHashMap``
otherwise (the share groups' ``SimpleAssignor`` needs both).

Example (asserted in tests/engine/coordinator/test_server_assign.py)::

    >>> s = JavaHashMap(integer_hash, 16)
    >>> for p in (17, 1, 33, 0): s.put(p)
    >>> s.keys()
    [0, 17, 1, 33]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import Generic, TypeVar

from engine.java.strings import (
    HASHMAP_DEFAULT_CAPACITY,
    HASHMAP_MAX_CAPACITY,
    hashmap_capacity,
    hashmap_spread,
    table_size_for,
    to_int32,
)
from engine.java.tree_bin import MIN_TREEIFY_CAPACITY, TreeBinHashMap, treeify_at

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

PUT_TREEIFIES_AT = treeify_at(compute_if_absent=False)  # keys in a bucket when a put calls treeifyBin



def integer_hash(value: int) -> int:
    """``Integer.hashCode()``."""
    return to_int32(value)


def hashset_copy_initial_capacity(size: int) -> int:
    """Initial capacity asked by ``new HashSet<>(collection)``: ``max((int)(size/.75f) + 1, 16)``."""
    return max(int(size / 0.75) + 1, HASHMAP_DEFAULT_CAPACITY)


def presized_capacity(expected: int) -> int:
    """The ``(int) ((expected / 0.75f) + 1)`` idiom Kafka passes to ``new HashMap<>(...)``."""
    return int(expected / 0.75 + 1)


class JavaHashMap(Generic[K, V]):
    """Keys (and values) with ``java.util.HashMap`` iteration order; see the module docstring."""

    __slots__ = ("_hash", "_capacity", "_entries", "_seq", "_order", "_buckets", "treeified")

    def __init__(self, hash_code: Callable[[K], int], initial_capacity: int = HASHMAP_DEFAULT_CAPACITY) -> None:
        self._hash = hash_code
        self._capacity = table_size_for(max(initial_capacity, 0))
        self._entries: dict[K, tuple[int, int, V]] = {}  # key -> (spread hash, insertion seq, value)
        self._seq = 0
        self._order: list[K] | None = None
        self._buckets: dict[int, int] = {}
        self.treeified = False

    @classmethod
    def of(cls, keys: Iterable[K], hash_code: Callable[[K], int], initial_capacity: int = 16) -> JavaHashMap[K, None]:
        """Keys put in order into ``new HashMap<>(initial_capacity)`` (bulk fast path, same result)."""
        out: JavaHashMap[K, None] = cls(hash_code, initial_capacity)  # type: ignore[assignment]
        unique = list(dict.fromkeys(keys))
        spreads = [hashmap_spread(hash_code(k)) for k in unique]
        mask = out._capacity - 1
        first: dict[int, int] = {}
        for h in spreads:
            first[h & mask] = first.get(h & mask, 0) + 1
        if first and max(first.values()) >= PUT_TREEIFIES_AT:  # a treeify resize may happen: go step by step
            for key in unique:
                out.put(key, None)
            return out
        capacity = out._capacity
        while len(unique) > capacity * 0.75 and capacity < HASHMAP_MAX_CAPACITY:
            capacity <<= 1
        out._capacity = capacity
        out._entries = {k: (h, i + 1, None) for i, (k, h) in enumerate(zip(unique, spreads))}
        out._seq = len(unique)
        mask = capacity - 1
        for h in spreads:
            out._buckets[h & mask] = out._buckets.get(h & mask, 0) + 1
        return out

    @property
    def capacity(self) -> int:
        return self._capacity

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __iter__(self) -> Iterator[K]:
        return iter(self.keys())

    def get(self, key: K, default: V | None = None) -> V | None:
        entry = self._entries.get(key)
        return default if entry is None else entry[2]

    def put(self, key: K, value: V = None) -> None:  # type: ignore[assignment]
        entry = self._entries.get(key)
        if entry is not None:
            self._entries[key] = (entry[0], entry[1], value)
            return
        self._link(key, value, at_head=False)
        if len(self._entries) > self._capacity * 0.75 and self._capacity < HASHMAP_MAX_CAPACITY:
            self._resize()

    def compute_if_absent(self, key: K, factory: Callable[[], V]) -> V:
        """``HashMap.computeIfAbsent``: unlike ``put`` it resizes at the start of every call (hit or
        miss) when ``size > threshold``, links a new key at the HEAD of its bucket, and calls ``treeifyBin``
        when that bucket reaches 8 keys (``treeify_at``)."""
        if len(self._entries) > int(self._capacity * 0.75) and self._capacity < HASHMAP_MAX_CAPACITY:
            self._resize()  # checked on every call, hit or miss
        entry = self._entries.get(key)
        if entry is not None:
            return entry[2]
        value = factory()
        self._link(key, value, at_head=True)  # before every key already in the bucket
        return value

    def _link(self, key: K, value: V, at_head: bool) -> None:
        """Add a new key to its bucket (tail for ``put``, head for ``computeIfAbsent``); a bucket reaching
        ``treeify_at`` keys resizes a table shorter than 64, else treeifies (not modelled)."""
        spread = hashmap_spread(self._hash(key))
        self._seq += 1
        self._entries[key] = (spread, -self._seq if at_head else self._seq, value)
        self._order = None
        bucket = spread & (self._capacity - 1)
        self._buckets[bucket] = self._buckets.get(bucket, 0) + 1
        if self._buckets[bucket] >= treeify_at(compute_if_absent=at_head):
            if self._capacity < MIN_TREEIFY_CAPACITY:
                self._resize()
            else:
                self.treeified = True

    def _resize(self) -> None:
        self._capacity <<= 1
        self._order = None
        mask = self._capacity - 1
        self._buckets = {}
        for spread, _, _ in self._entries.values():
            self._buckets[spread & mask] = self._buckets.get(spread & mask, 0) + 1

    def remove(self, key: K) -> None:
        entry = self._entries.pop(key, None)
        if entry is not None:
            self._order = None
            bucket = entry[0] & (self._capacity - 1)
            self._buckets[bucket] -= 1

    def keys(self) -> list[K]:
        """Keys in Java iteration order."""
        if self._order is None:
            mask = self._capacity - 1
            entries = self._entries
            self._order = sorted(entries, key=lambda k: (entries[k][0] & mask, entries[k][1]))
        return self._order

    def items(self) -> list[tuple[K, V]]:
        return [(k, self._entries[k][2]) for k in self.keys()]

    def copy(self, initial_capacity: int) -> JavaHashMap[K, V]:
        """Keys put, in this map's iteration order, into ``new HashMap<>(initial_capacity)``."""
        out: JavaHashMap[K, V] = JavaHashMap(self._hash, initial_capacity)
        for key, value in self.items():
            out.put(key, value)
        return out


def java_hashset(items: Iterable[K], hash_code: Callable[[K], int]) -> JavaHashMap[K, None]:
    """``new HashSet<>(collection)`` of the items, in their given order."""
    items = list(items)
    return JavaHashMap.of(items, hash_code, hashset_copy_initial_capacity(len(items)))


def compute_if_absent_order(spreads: Sequence[int], initial_capacity: int) -> tuple[list[int], int]:
    """Iteration order of distinct keys that ``computeIfAbsent`` links, in order, into ``new
    HashMap<>(initial_capacity)``, given their spread hashes: positions in ``spreads``, and the final table
    length.

    Every key enters at the head of its bucket and a resize keeps relative order, so while no bucket holds 8
    keys the order is the final table's bucket, newest key first; otherwise ``TreeBinHashMap`` answers.

    >>> compute_if_absent_order([1, 17, 33, 2], 16)
    ([2, 1, 0, 3], 16)
    >>> compute_if_absent_order([0, 32, 64, 96, 128, 160, 192, 224], 16)[1]  # 8 keys in bucket 0: 16 -> 32
    32
    """
    capacity = table_size_for(max(initial_capacity, 0))
    if len(spreads) - 1 > int(capacity * 0.75) or _may_overflow(spreads, capacity, treeify_at(compute_if_absent=True)):
        exact: TreeBinHashMap[int, None] = TreeBinHashMap(lambda s: hashmap_spread(spreads[s]), initial_capacity)
        for position in range(len(spreads)):  # spread(spread(h)) == h: the model spreads it back
            exact.compute_if_absent(position, lambda: None)
        return exact.keys(), exact.capacity
    mask, newest_first = capacity - 1, len(spreads)
    keys = [(spread & mask) * (newest_first + 1) + newest_first - s for s, spread in enumerate(spreads)]
    return sorted(range(len(spreads)), key=keys.__getitem__), capacity


def hashset_order(adds: Sequence[K], hash_code: Callable[[K], int], initial_capacity: int = 16,
                  removes: Iterable[K] = (), then_adds: Sequence[K] = ()) -> list[K]:
    """Iteration order of ``new HashSet<>(initial_capacity)`` after ``add``-ing ``adds``, ``remove``-ing
    ``removes`` and ``add``-ing ``then_adds``, in order (``new HashSet<>(collection)`` asks
    ``hashset_copy_initial_capacity``).

    While no bucket can hold 9 keys, a key keeps its place in its bucket and removals never shrink the table,
    so the order is the final table's bucket, then the order of adding; otherwise ``TreeBinHashMap`` answers.

    >>> hashset_order([17, 1, 33, 0], integer_hash, removes=[1], then_adds=[1])
    [0, 17, 33, 1]
    """
    removes = list(removes)
    if len(adds) + len(then_adds) <= 1:
        return [key for key in adds if key not in removes] + list(then_adds)
    capacity = table_size_for(max(initial_capacity, 0))
    added = dict.fromkeys(adds)
    everything = {**added, **dict.fromkeys(then_adds)} if then_adds else added
    spreads = {key: hashmap_spread(hash_code(key)) for key in everything}
    if len(everything) >= PUT_TREEIFIES_AT and _may_overflow(spreads.values(), capacity, PUT_TREEIFIES_AT):
        exact: TreeBinHashMap[K, None] = TreeBinHashMap(hash_code, initial_capacity)
        for key in adds:
            exact.put(key, None)
        for key in removes:
            exact.remove(key)
        for key in then_adds:
            exact.put(key, None)
        return exact.keys()
    gone = set(removes)
    final = [key for key in added if key not in gone] if gone else list(added)
    if then_adds:
        final = list(dict.fromkeys([*final, *then_adds]))
    mask = hashmap_capacity(max(len(added), len(final)), capacity) - 1
    return sorted(final, key=lambda key: spreads[key] & mask)  # stable: order of adding within a bucket


def bucket_may_overflow(keys: Iterable[K], hash_code: Callable[[K], int], initial_capacity: int = 16) -> bool:
    """Whether ``add``-ing the keys to ``new HashSet<>(initial_capacity)`` may make a bucket of 9 keys (Java then
    doubles a short table or builds a tree bin): whether 9 of them share a bucket of the initial table."""
    capacity = table_size_for(max(initial_capacity, 0))
    return _may_overflow([hashmap_spread(hash_code(key)) for key in keys], capacity, PUT_TREEIFIES_AT)


def _may_overflow(spreads: Iterable[int], capacity: int, keys_in_a_bucket: int) -> bool:
    counts = Counter(spread & (capacity - 1) for spread in spreads)
    return bool(counts) and max(counts.values()) >= keys_in_a_bucket
