"""A segment's sparse indexes: ``AbstractIndex`` (capacity, binary search with a warm section),
``OffsetIndex`` (offset -> position, 8-byte entries) and ``TimeIndex`` (timestamp -> offset, 12-byte entries).

Worked example (asserted in ``tests/engine/storage/test_storage_index.py``), seed article 002's lookup of offset 23, in
an index
whose entries around it are ``[6, 0], [14, 328], [22, 656], [30, 984]`` (the article's figure shows ``[22,
656]``):
``indexSlotRangeFor`` first compares the target with the
first entry of the warm section (the last ``8192 / 8 = 1024`` entries, here all of them, so slot 0: 6 < 23)
and
binary-searches slots 0..3 with ``mid = (lo + hi + 1) >>> 1``: slot 2 (22 < 23, lo = 2), slot 3 (30 > 23,
hi = 2): the largest lower bound is slot 2, ``[22, 656]``; the log is then scanned from position 656.

Capacity: ``maxEntries = roundDown(segment.index.bytes, entrySize) / entrySize`` — 1,310,720 offset entries
and
873,813 time entries for the 10 MiB default.  ``TimeIndex.isFull`` is ``entries >= maxEntries - 1``: the
last slot
is kept for the entry ``LogSegment.onBecomeInactiveSegment`` writes when the segment rolls.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from engine.common.config_def import INT_MAX
from engine.errors import ScenarioError
from engine.storage.log_config import OFFSET_ENTRY_SIZE, TIME_ENTRY_SIZE

NO_TIMESTAMP: Final = -1  # RecordBatch.NO_TIMESTAMP


@dataclass(frozen=True)
class Probe:
    """One comparison of the search: the slot read, its key, and how it compares with the target."""

    slot: int
    key: int
    compare: str  # "<", "=" or ">" (entry key vs target)
    role: str  # "warm check", "first-entry check" or "binary search"


@dataclass(frozen=True)
class SearchTrace:
    """``AbstractIndex.largestLowerBoundSlotFor``: the probes in order and the slot found (-1 = none)."""

    entries: int
    warm_start: int
    in_warm_section: bool
    probes: tuple[Probe, ...]
    slot: int


def _cmp(key: int, target: int) -> str:
    return "<" if key < target else ">" if key > target else "="


def largest_lower_bound(keys: list[int], target: int, entry_size: int) -> SearchTrace:
    """``indexSlotRangeFor(..., LARGEST_LOWER_BOUND)`` on sorted ``keys``, recording every comparison."""
    n = len(keys)
    if n == 0:
        return SearchTrace(0, 0, False, (), -1)
    first_hot = max(0, n - 1 - 8192 // entry_size)  # warmEntries() = 8192 / entrySize
    probes = [Probe(first_hot, keys[first_hot], _cmp(keys[first_hot], target), "warm check")]
    if keys[first_hot] < target:
        return _binary_search(keys, target, first_hot, n - 1, probes, first_hot, True)
    probes.append(Probe(0, keys[0], _cmp(keys[0], target), "first-entry check"))
    if keys[0] > target:
        return SearchTrace(n, first_hot, False, tuple(probes), -1)
    return _binary_search(keys, target, 0, first_hot, probes, first_hot, False)


def _binary_search(
    keys: list[int], target: int, lo: int, hi: int, probes: list[Probe], warm: int, in_warm: bool
) -> SearchTrace:
    while lo < hi:
        mid = (lo + hi + 1) >> 1
        probes.append(Probe(mid, keys[mid], _cmp(keys[mid], target), "binary search"))
        if keys[mid] > target:
            hi = mid - 1
        elif keys[mid] < target:
            lo = mid
        else:
            return SearchTrace(len(keys), warm, in_warm, tuple(probes), mid)
    return SearchTrace(len(keys), warm, in_warm, tuple(probes), lo)


def max_entries(max_index_size: int, entry_size: int) -> int:
    """``AbstractIndex``: the file is pre-allocated to ``roundDownToExactMultiple(maxIndexSize,
    entrySize)``."""
    return (max_index_size // entry_size * entry_size) // entry_size


def check_index_size(max_index_size: int, entry_size: int, index: str) -> None:
    """``AbstractIndex.createAndAssignMmap`` on a new file: a max size below one entry is refused.
    ``LogConfig`` accepts ``segment.index.bytes`` from 4, so 4..11 passes the config and the first segment
    then fails (its offset index below 8 bytes, its time index below 12)."""
    if max_index_size < entry_size:
        raise ScenarioError(
            f"segment.index.bytes: {max_index_size:,} passes LogConfig (at least 4), but the first segment "
            f"fails: its {index} index refuses it (IllegalArgumentException: Invalid max index size: "
            f"{max_index_size}; an entry is {entry_size} bytes)"
        )


@dataclass
class OffsetIndex:
    """``OffsetIndex``: entries (absolute offset, position); keys are stored relative to ``base_offset``."""

    base_offset: int
    max_index_size: int
    offsets: list[int] = field(default_factory=list)
    positions: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        check_index_size(self.max_index_size, OFFSET_ENTRY_SIZE, "offset")

    @property
    def max_entries(self) -> int:
        return max_entries(self.max_index_size, OFFSET_ENTRY_SIZE)

    def is_full(self) -> bool:
        return len(self.offsets) >= self.max_entries

    def can_append_offset(self, offset: int) -> bool:
        """``AbstractIndex.canAppendOffset``: the offset fits in a 4-byte relative offset."""
        return 0 <= offset - self.base_offset <= INT_MAX

    def append(self, offset: int, position: int) -> None:
        if self.is_full():
            raise ValueError(f"Attempt to append to a full index (size = {len(self.offsets)}).")
        if self.offsets and offset <= self.offsets[-1]:
            raise ValueError(f"Attempt to append an offset {offset} no larger than the last offset appended")
        self.offsets.append(offset)
        self.positions.append(position)

    def lookup(self, target: int) -> tuple[int, int, SearchTrace]:
        """``OffsetIndex.lookup``: the largest entry with offset <= target, or (baseOffset, 0)."""
        trace = largest_lower_bound(self.offsets, target, OFFSET_ENTRY_SIZE)
        if trace.slot == -1:
            return self.base_offset, 0, trace
        return self.offsets[trace.slot], self.positions[trace.slot], trace

    def bytes_in_memory(self, active: bool) -> int:
        """Mapped size: the active index is pre-allocated; ``trimToValidSize`` shrinks it on roll."""
        if active:
            return self.max_entries * OFFSET_ENTRY_SIZE
        return len(self.offsets) * OFFSET_ENTRY_SIZE


@dataclass
class TimeIndex:
    """``TimeIndex``: entries (max timestamp so far, offset of the batch holding it)."""

    base_offset: int
    max_index_size: int
    timestamps: list[int] = field(default_factory=list)
    offsets: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        check_index_size(self.max_index_size, TIME_ENTRY_SIZE, "time")

    @property
    def max_entries(self) -> int:
        return max_entries(self.max_index_size, TIME_ENTRY_SIZE)

    def is_full(self) -> bool:
        return len(self.timestamps) >= self.max_entries - 1

    def last_entry(self) -> tuple[int, int]:
        if not self.timestamps:
            return NO_TIMESTAMP, self.base_offset
        return self.timestamps[-1], self.offsets[-1]

    def maybe_append(self, timestamp: int, offset: int, skip_full_check: bool = False) -> bool:
        """``TimeIndex.maybeAppend``: only a timestamp larger than the last entry's is written."""
        if not skip_full_check and self.is_full():
            raise ValueError(f"Attempt to append to a full time index (size = {len(self.timestamps)}).")
        last_ts, last_offset = self.last_entry()
        if self.timestamps and offset < last_offset:
            raise ValueError(
                f"Attempt to append an offset ({offset}) no larger than the last offset appended"
            )
        if timestamp > last_ts:
            self.timestamps.append(timestamp)
            self.offsets.append(offset)
            return True
        return False

    def lookup(self, target: int) -> tuple[int, int, SearchTrace]:
        """``TimeIndex.lookup``: the largest entry with timestamp <= target, or (NO_TIMESTAMP, baseOffset)."""
        trace = largest_lower_bound(self.timestamps, target, TIME_ENTRY_SIZE)
        if trace.slot == -1:
            return NO_TIMESTAMP, self.base_offset, trace
        return self.timestamps[trace.slot], self.offsets[trace.slot], trace

    def bytes_in_memory(self, active: bool) -> int:
        if active:
            return self.max_entries * TIME_ENTRY_SIZE
        return len(self.timestamps) * TIME_ENTRY_SIZE
