"""Log compaction at the level the seed articles explain, following ``LogCleanerManager`` and ``Cleaner``
(``core/src/main/scala/kafka/log/LogCleaner.scala``): for a keyed topic the latest value of each key survives,
tombstones survive one cleaning plus ``delete.retention.ms``, and a log is cleaned only when its dirty ratio
is
above ``min.cleanable.dirty.ratio``.

* ``cleanableOffsets``: dirty = from the cleaner checkpoint (else the log start offset) up to the first
  uncleanable offset = min(last stable offset, active segment's base, first segment newer than
  ``min.compaction.lag.ms``).  The active segment is never cleaned.
* ``LogToClean.cleanableRatio`` = cleanable bytes / (clean bytes + cleanable bytes), by whole segments; the
  cleaner runs when it is *greater than* the threshold (0.5 by default).
* ``buildOffsetMap``: the last offset of each key in the dirty range; ``shouldRetainRecord`` keeps a record
  if it
  is past that range, or has a key, is the latest for it, and has a value or is a tombstone whose batch's
  delete
  horizon is unset or not reached.  A record without a key is dropped.  Cleaning a batch that keeps a
  tombstone
  stamps ``deleteHorizonMs = now + delete.retention.ms`` on it (``MemoryRecords.filterTo``, KIP-534).
* ``groupSegmentsBySize``: consecutive segments are merged while their total stays within ``segment.bytes``.

Worked example (``tests/engine/storage/test_storage_cleaner.py``): keys a, b, a, c, b(tombstone) in two closed segments
and an
active one: after cleaning, a's first record and b's value are gone; the tombstone stays with a horizon
``now + 86,400,000``; a cleaning after that horizon removes it.

Not modelled: the dedupe buffer's size (``log.cleaner.dedupe.buffer.size``: a full map cleans in several
passes),
``max.compaction.lag.ms``, I/O throttling, transaction markers and aborted data, and producer-state
retention of
empty batches (``RETAIN_EMPTY`` for a producer's last batch).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.storage.records import RECORD_BATCH_OVERHEAD, Record, batch_size
from engine.storage.segment import LogSegment, StoredBatch
from engine.storage.unified_log import UnifiedLog


@dataclass(frozen=True)
class CleanableOffsets:
    first_dirty: int
    first_uncleanable: int
    clean_bytes: int
    cleanable_bytes: int

    @property
    def ratio(self) -> float:
        total = self.clean_bytes + self.cleanable_bytes
        return self.cleanable_bytes / total if total else 0.0


def _segments_between(log: UnifiedLog, start: int, end: int) -> list[LogSegment]:
    """``UnifiedLog.logSegments(from, to)``: segments holding offsets in [from, to)."""
    floor = log.floor_segment(start)
    lower = floor.base_offset if floor else start
    return [s for s in log.segments if lower <= s.base_offset < end]


def cleanable_offsets(log: UnifiedLog, checkpoint: int | None, now_ms: int) -> CleanableOffsets:
    """``LogCleanerManager.cleanableOffsets`` and ``calculateCleanableBytes``."""
    first_dirty = checkpoint if checkpoint is not None else log.log_start_offset
    if first_dirty < log.log_start_offset or first_dirty > log.log_end_offset:
        first_dirty = log.log_start_offset
    bounds = [log.high_watermark, log.active.base_offset]
    lag = max(log.config.min_compaction_lag_ms, 0)
    if lag > 0:
        young = next(
            (
                s
                for s in log.segments[:-1]
                if s.base_offset >= _floor_base(log, first_dirty) and s.largest_timestamp() > now_ms - lag
            ),
            None,
        )
        if young is not None:
            bounds.append(young.base_offset)
    uncleanable = max(first_dirty, min(bounds))
    first_uncleanable_segment = next(
        (s for s in log.segments[:-1] if s.base_offset >= _floor_base(log, uncleanable)), log.active
    )
    first_uncleanable = first_uncleanable_segment.base_offset
    clean = sum(s.size for s in _segments_between(log, -1, first_dirty))
    cleanable = sum(
        s.size for s in _segments_between(log, min(first_dirty, first_uncleanable), first_uncleanable)
    )
    return CleanableOffsets(first_dirty, first_uncleanable, clean, cleanable)


def _floor_base(log: UnifiedLog, offset: int) -> int:
    floor = log.floor_segment(offset)
    return floor.base_offset if floor else offset


def build_offset_map(log: UnifiedLog, start: int, end: int) -> tuple[dict[str, int], int]:
    """``Cleaner.buildOffsetMap``: key -> last offset over [start, end); and the map's latest offset."""
    offsets: dict[str, int] = {}
    latest = -1
    for segment in _segments_between(log, start, end):
        for batch in segment.batches:
            for record in batch.records:
                if record.key is not None and record.offset >= start:
                    offsets[record.key] = record.offset
            if batch.last_offset >= start:
                latest = max(latest, batch.last_offset)
        nxt = next((s.base_offset for s in log.segments if s.base_offset > segment.base_offset), end)
        latest = max(latest, min(nxt, end) - 1)
    return offsets, latest


def should_retain(
    record: Record, batch: StoredBatch, offsets: dict[str, int], latest: int, now_ms: int
) -> bool:
    """``Cleaner.shouldRetainRecord`` for v2 batches."""
    if record.offset > latest:
        return True
    if record.key is None:
        return False
    latest_for_key = record.offset >= offsets.get(record.key, -1)
    retain_deletes = batch.delete_horizon_ms is None or now_ms < batch.delete_horizon_ms
    return latest_for_key and (not record.is_tombstone or retain_deletes)


def group_segments_by_size(segments: list[LogSegment], max_size: int) -> list[list[LogSegment]]:
    """``Cleaner.groupSegmentsBySize`` (log size only: index sizes and the 2^31 offset range are not
    reached)."""
    groups: list[list[LogSegment]] = []
    i = 0
    while i < len(segments):
        group, size = [segments[i]], segments[i].size
        i += 1
        while i < len(segments) and size + segments[i].size <= max_size:
            group.append(segments[i])
            size += segments[i].size
            i += 1
        groups.append(group)
    return groups


def _clean_group(
    log: UnifiedLog,
    group: list[LogSegment],
    offsets: dict[str, int],
    latest: int,
    upper: int,
    now_ms: int,
    stats: dict[str, int],
) -> LogSegment:
    """``cleanSegments`` + ``cleanInto``: one replacement segment with the group's first base offset."""
    cleaned = LogSegment(group[0].base_offset, log.config, group[-1].last_modified_ms)
    for segment in group:
        for batch in segment.batches:
            kept = tuple(r for r in batch.records if should_retain(r, batch, offsets, latest, now_ms))
            stats["records_removed"] += len(batch.records) - len(kept)
            stats["tombstones_removed"] += sum(1 for r in batch.records if r.is_tombstone and r not in kept)
            if not kept and batch.last_offset + 1 != upper:
                continue
            horizon = batch.delete_horizon_ms
            if horizon is None and any(r.is_tombstone for r in kept):
                horizon = now_ms + log.config.delete_retention_ms
            base_ts = horizon if horizon is not None else (kept[0].timestamp if kept else batch.max_timestamp)
            size = batch_size(list(kept), batch.base_offset, base_ts) if kept else RECORD_BATCH_OVERHEAD
            cleaned.append(batch.moved(cleaned.size, kept, size, horizon), cleaned.last_modified_ms)
    cleaned.on_become_inactive()
    return cleaned


def clean(log: UnifiedLog, checkpoint: int | None, now_ms: int, force: bool = False) -> dict[str, Any]:
    """``LogCleanerManager.grabFilthiestCompactedLog`` for this one log, then ``Cleaner.doClean``.
    Returns what happened; the new checkpoint (first dirty offset next time) is ``result["checkpoint"]``."""
    if not log.config.compact:
        return {"ran": False, "reason": "cleanup.policy has no 'compact'", "checkpoint": checkpoint}
    span = cleanable_offsets(log, checkpoint, now_ms)
    base = {
        "first_dirty_offset": span.first_dirty,
        "first_uncleanable_offset": span.first_uncleanable,
        "clean_bytes": span.clean_bytes,
        "cleanable_bytes": span.cleanable_bytes,
        "dirty_ratio": span.ratio,
        "min_cleanable_dirty_ratio": log.config.min_cleanable_dirty_ratio,
    }
    if span.cleanable_bytes == 0 or (not force and span.ratio <= log.config.min_cleanable_dirty_ratio):
        why = (
            "nothing cleanable (only the active segment is dirty)"
            if span.cleanable_bytes == 0
            else f"dirty ratio {span.ratio:.3f} is not above min.cleanable.dirty.ratio "
            f"{log.config.min_cleanable_dirty_ratio}"
        )
        return {**base, "ran": False, "reason": why, "checkpoint": checkpoint}
    offsets, latest = build_offset_map(log, span.first_dirty, span.first_uncleanable)
    end = latest + 1
    targets = [s for s in _segments_between(log, 0, end) if s is not log.active]
    before = sum(s.size for s in targets)
    stats = {"records_removed": 0, "tombstones_removed": 0}
    replaced: list[dict[str, Any]] = []
    for group in group_segments_by_size(targets, log.config.segment_size):
        cleaned = _clean_group(log, group, offsets, latest, span.first_uncleanable, now_ms, stats)
        index = log.segments.index(group[0])
        log.segments[index : index + len(group)] = [cleaned]
        replaced.append({"from": [s.name for s in group], "into": cleaned.name, "bytes": cleaned.size})
    after = sum(s.size for s in log.segments if s is not log.active)
    return {
        **base,
        "ran": True,
        "reason": "cleaned",
        "checkpoint": end,
        "keys_in_map": len(offsets),
        "bytes_before": before,
        "bytes_after": after,
        "groups": replaced,
        **stats,
    }
