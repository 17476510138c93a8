"""engine/storage/index.py against AbstractIndex, OffsetIndex and TimeIndex (Kafka 4.0, storage module)."""

from __future__ import annotations

import pytest

from engine.storage.index import NO_TIMESTAMP, OffsetIndex, TimeIndex, largest_lower_bound, max_entries


def test_seed_article_lookup_of_offset_23() -> None:
    # AbstractIndex.indexSlotRangeFor + binarySearch: warm check at slot 0 (4 entries < 1024 warm entries),
    # then mid = (lo + hi + 1) >>> 1: slot 2 (22 < 23 -> lo = 2), slot 3 (30 > 23 -> hi = 2)
    index = OffsetIndex(0, 10 * 2**20)
    for offset, position in ((6, 0), (14, 328), (22, 656), (30, 984)):
        index.append(offset, position)
    offset, position, trace = index.lookup(23)
    assert (offset, position) == (22, 656)
    assert [(p.slot, p.compare, p.role) for p in trace.probes] == [
        (0, "<", "warm check"), (2, "<", "binary search"), (3, ">", "binary search")]
    assert trace.in_warm_section


def test_exact_hit_returns_at_once() -> None:
    # binarySearch returns mid as soon as compareIndexEntry == 0
    trace = largest_lower_bound([0, 10, 20, 30, 40], 30, 8)
    assert trace.slot == 3
    assert trace.probes[-1].compare == "="


def test_below_the_first_entry_the_lookup_falls_back_to_the_base_offset() -> None:
    # OffsetIndex.lookup: slot -1 -> (baseOffset, 0); the "first-entry check" reads slot 0 a second time
    index = OffsetIndex(100, 4096)
    index.append(150, 4000)
    offset, position, trace = index.lookup(120)
    assert (offset, position) == (100, 0)
    assert [p.role for p in trace.probes] == ["warm check", "first-entry check"]
    assert trace.slot == -1


def test_warm_section_is_8192_bytes_of_entries() -> None:
    # AbstractIndex.warmEntries() = 8192 / entrySize: 1024 offset entries; a target past entry n-1-1024 is
    # searched only in the warm section, an older one in 0..firstHotEntry
    keys = list(range(0, 20_000, 10))  # 2,000 entries
    first_hot = 2000 - 1 - 1024
    recent = largest_lower_bound(keys, 19_995, 8)
    assert recent.in_warm_section and recent.warm_start == first_hot and recent.slot == 1999
    assert all(p.slot >= first_hot for p in recent.probes)
    old = largest_lower_bound(keys, 55, 8)
    assert not old.in_warm_section and old.slot == 5
    assert all(p.slot <= first_hot for p in old.probes)
    assert largest_lower_bound(keys, 19_995, 12).warm_start == 2000 - 1 - 8192 // 12


def test_capacity_of_the_default_10_mib_indexes() -> None:
    # AbstractIndex: maxEntries = roundDownToExactMultiple(maxIndexSize, entrySize) / entrySize
    assert max_entries(10_485_760, 8) == 1_310_720
    assert max_entries(10_485_760, 12) == 873_813
    assert max_entries(67, 8) == 8  # roundDownToExactMultiple(67, 8) == 64


def test_time_index_keeps_its_last_slot_for_the_roll() -> None:
    # TimeIndex.isFull: entries >= maxEntries - 1 (OffsetIndex.isFull: entries >= maxEntries)
    time_index, offset_index = TimeIndex(0, 36), OffsetIndex(0, 36)
    assert time_index.max_entries == 3 and offset_index.max_entries == 4
    time_index.maybe_append(10, 1)
    time_index.maybe_append(20, 2)
    assert time_index.is_full()
    with pytest.raises(ValueError, match="full time index"):
        time_index.maybe_append(30, 3)
    assert time_index.maybe_append(30, 3, skip_full_check=True)  # onBecomeInactiveSegment
    assert len(time_index.timestamps) == 3


def test_time_index_only_takes_a_larger_timestamp() -> None:
    # TimeIndex.maybeAppend: written only when timestamp > lastEntry.timestamp
    index = TimeIndex(0, 1200)
    assert index.lookup(5)[:2] == (NO_TIMESTAMP, 0)
    assert index.maybe_append(100, 9)
    assert not index.maybe_append(100, 19)
    assert index.maybe_append(101, 29)
    assert index.lookup(100)[:2] == (100, 9)
    assert index.lookup(500)[:2] == (101, 29)


def test_offset_index_refuses_a_non_increasing_offset() -> None:
    # OffsetIndex.append: InvalidOffsetException when offset <= lastOffset
    index = OffsetIndex(0, 4096)
    index.append(10, 0)
    with pytest.raises(ValueError, match="no larger than the last offset"):
        index.append(10, 100)


def test_relative_offsets_fit_four_bytes() -> None:
    # AbstractIndex.canAppendOffset / toRelative: 0 <= offset - baseOffset <= Integer.MAX_VALUE
    index = OffsetIndex(1000, 4096)
    assert index.can_append_offset(1000 + 2**31 - 1)
    assert not index.can_append_offset(1000 + 2**31)
    assert not index.can_append_offset(999)


def test_active_indexes_are_preallocated_and_trimmed_after_roll() -> None:
    # AbstractIndex pre-allocates the file; LogSegment.onBecomeInactiveSegment -> trimToValidSize
    index = OffsetIndex(0, 10_485_760)
    index.append(5, 0)
    assert index.bytes_in_memory(active=True) == 10_485_760
    assert index.bytes_in_memory(active=False) == 8
