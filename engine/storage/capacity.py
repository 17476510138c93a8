"""From bytes per partition per day to what a broker holds: segments, file descriptors, memory maps, index
memory and disk — the steady state of the roll and retention rules of ``LogSegment`` and ``UnifiedLog``.

* A segment rolls on ``segment.bytes`` or ``segment.ms``, whichever comes first at this rate.
* Time retention deletes a closed segment at the first check (``log.retention.check.interval.ms``) after its
  largest timestamp is older than ``retention.ms``: at most ``ceil((retention.ms + check) / roll period)``
  closed segments, plus the active one.
* Size retention keeps the log under ``retention.bytes + one segment`` after a check, plus what arrives until
  the next: about ``ceil(retention.bytes / S) + ceil(rate x check / S)`` closed segments.
* Each segment is three files (``.log``, ``.index``, ``.timeindex``): the ``.log`` keeps an open
  ``FileChannel`` (one descriptor); the two indexes are memory-mapped and their ``RandomAccessFile`` is closed
  right after mapping (``AbstractIndex.createAndAssignMmap``) — they count against ``vm.max_map_count``, not
  ``ulimit -n``.  The active segment's indexes are pre-allocated to ``segment.index.bytes`` (10 MiB each by
  default; sparse files, only touched pages use memory); a rolled segment's are trimmed to their entries.
  Seed article 000 counts "two file handles per partition" (``.log`` and ``.index``): it is per *segment*, the
  ``.timeindex`` exists since 0.10.1, and only the ``.log`` holds a descriptor.

Worked example (``tests/engine/storage/test_storage_capacity.py``): 100 GiB per partition per day with the defaults (1
GiB segments, 7 days) rolls a segment every 14.4 minutes; time retention keeps ceil((604,800,000 + 300,000) /
864,000) = 701 closed segments + 1 active = 702 per partition.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Final

from engine.errors import LimitError, ScenarioError
from engine.storage.index import max_entries
from engine.storage.log_config import (
    DAY_MS,
    OFFSET_ENTRY_SIZE,
    RETENTION_CHECK_INTERVAL_MS,
    TIME_ENTRY_SIZE,
    LogConfig,
)

MAX_BYTES_PER_DAY: Final = 10 * 2**50  # 10 PiB per partition per day
MAX_PARTITIONS_PER_BROKER: Final = 1_000_000


@dataclass(frozen=True)
class PartitionCapacity:
    """Steady state of one partition's log, and of ``partitions_per_broker`` such logs on a broker."""

    bytes_per_day: int
    roll_period_ms: float
    rolled_by: str
    segment_bytes: float
    closed_segments: int | None  # None = unbounded (no retention limit)
    segments_per_partition: int | None
    offset_index_entries_per_segment: int
    log_bytes_per_partition: float | None
    partitions_per_broker: int
    segments_per_broker: int | None
    file_descriptors_per_broker: int | None
    memory_maps_per_broker: int | None
    index_bytes_per_broker: float | None
    disk_bytes_per_broker: float | None
    segments_per_day: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _closed_by_time(config: LogConfig, roll_ms: float, check_ms: int) -> int | None:
    if config.retention_ms < 0:
        return None
    return math.ceil((config.retention_ms + check_ms) / roll_ms)


def _closed_by_size(config: LogConfig, rate: float, segment: float, check_ms: int) -> int | None:
    if config.retention_bytes < 0:
        return None
    return math.ceil(config.retention_bytes / segment) + math.ceil(rate * check_ms / segment)


def index_entries(segment_bytes: float, batch_bytes: int, interval: int) -> int:
    """Offset-index entries of a full segment: one every ``floor(interval / batch) + 1`` batches
    (``bytesSinceLastIndexEntry > indexIntervalBytes``), the first at that batch."""
    batches = max(int(segment_bytes // batch_bytes), 1)
    every = interval // batch_bytes + 1
    return (batches - 1) // every


def _check_inputs(bytes_per_day: int, partitions_per_broker: int, config: LogConfig, batch_bytes: int) -> None:
    if isinstance(bytes_per_day, bool) or not isinstance(bytes_per_day, int) or bytes_per_day <= 0:
        raise ScenarioError(f"bytes_per_day: a positive integer, got {bytes_per_day!r}")
    if bytes_per_day > MAX_BYTES_PER_DAY:
        raise LimitError(f"bytes_per_day: at most {MAX_BYTES_PER_DAY:,}, got {bytes_per_day:,}")
    if not 1 <= partitions_per_broker <= MAX_PARTITIONS_PER_BROKER:
        raise ScenarioError(
            f"partitions_per_broker: 1..{MAX_PARTITIONS_PER_BROKER:,}, got {partitions_per_broker}"
        )
    if not 1 <= batch_bytes <= config.segment_size:
        raise ScenarioError(f"batch_bytes: 1..segment.bytes ({config.segment_size:,}), got {batch_bytes:,}")


def partition_capacity(
    bytes_per_day: int,
    partitions_per_broker: int,
    config: LogConfig,
    batch_bytes: int = 16_384,
    check_interval_ms: int = RETENTION_CHECK_INTERVAL_MS,
) -> PartitionCapacity:
    """The steady state for a partition receiving ``bytes_per_day`` in ``batch_bytes`` batches."""
    _check_inputs(bytes_per_day, partitions_per_broker, config, batch_bytes)
    rate = bytes_per_day / DAY_MS
    fill_ms = config.segment_size / rate
    rolled_by = "segment.bytes" if fill_ms <= config.segment_ms else "segment.ms"
    roll_ms = min(fill_ms, float(config.segment_ms))
    segment = min(float(config.segment_size), rate * config.segment_ms)
    limits = [
        c
        for c in (
            _closed_by_time(config, roll_ms, check_interval_ms),
            _closed_by_size(config, rate, segment, check_interval_ms),
        )
        if c is not None
    ]
    closed = min(limits) if limits else None
    entries = index_entries(segment, batch_bytes, config.index_interval_bytes)
    active_index = (
        max_entries(config.segment_index_bytes, OFFSET_ENTRY_SIZE) * OFFSET_ENTRY_SIZE
        + max_entries(config.segment_index_bytes, TIME_ENTRY_SIZE) * TIME_ENTRY_SIZE
    )
    closed_index = entries * OFFSET_ENTRY_SIZE + (entries + 1) * TIME_ENTRY_SIZE
    p = partitions_per_broker
    per_partition = None if closed is None else closed + 1
    return PartitionCapacity(
        bytes_per_day,
        roll_ms,
        rolled_by,
        segment,
        closed,
        per_partition,
        entries,
        None if closed is None else (closed + 1) * segment,
        p,
        None if per_partition is None else p * per_partition,
        None if per_partition is None else p * per_partition,
        None if per_partition is None else 2 * p * per_partition,
        None if closed is None else p * (active_index + closed * closed_index),
        None if closed is None else p * (closed + 1) * segment,
        DAY_MS / roll_ms,
    )


def _human_bytes(value: float | None) -> str:
    if value is None:
        return "unbounded"
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if value >= size:
            return f"{value / size:,.2f} {unit}"
    return f"{value:,.0f} B"


def _count(value: int | None) -> str:
    return "unbounded" if value is None else f"{value:,}"


def capacity_rows(cap: PartitionCapacity) -> list[dict[str, str]]:
    """The capacity as a table for people: what, value, and where it comes from."""
    return [
        {"what": "data per partition per day", "value": _human_bytes(cap.bytes_per_day), "from": "input"},
        {"what": "a segment rolls every", "value": f"{cap.roll_period_ms / 60_000:,.1f} min",
         "from": f"{cap.rolled_by} (LogSegment.shouldRoll)"},
        {"what": "segment size", "value": _human_bytes(cap.segment_bytes), "from": "rate x roll period"},
        {"what": "segments per partition (max)", "value": _count(cap.segments_per_partition),
         "from": "retention (UnifiedLog.deleteOldSegments) + the active one"},
        {"what": "offset-index entries per segment", "value": f"{cap.offset_index_entries_per_segment:,}",
         "from": "one per index.interval.bytes (LogSegment.append)"},
        {"what": "disk per partition (max)", "value": _human_bytes(cap.log_bytes_per_partition),
         "from": "segments x size"},
        {"what": "segments per broker", "value": _count(cap.segments_per_broker),
         "from": f"{cap.partitions_per_broker:,} partition replicas"},
        {"what": "open file descriptors per broker", "value": _count(cap.file_descriptors_per_broker),
         "from": "one .log FileChannel per segment (ulimit -n)"},
        {"what": "memory maps per broker", "value": _count(cap.memory_maps_per_broker),
         "from": ".index + .timeindex per segment (vm.max_map_count)"},
        {"what": "mapped index bytes per broker", "value": _human_bytes(cap.index_bytes_per_broker),
         "from": "active: segment.index.bytes x 2 pre-allocated; closed: entries, once loaded (LazyIndex)"},
        {"what": "disk per broker (max)", "value": _human_bytes(cap.disk_bytes_per_broker), "from": ""},
    ]
