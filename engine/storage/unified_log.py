"""One partition's log: ``UnifiedLog`` with ``LocalLog`` — append and roll, read an offset or a timestamp
step by step, and retention (``deleteOldSegments``).

Retention, as ``UnifiedLog.deletableSegments`` does it (asserted in ``tests/engine/storage/test_storage_retention.py``):
walk the
segments oldest first and stop at the first one the rule keeps; only whole segments go, never part of one, and
never one holding offsets at or above the high watermark.  The rules, in Kafka's order: *log start offset*
(the next segment's base offset <= logStartOffset), *size* (``retention.bytes`` per partition: delete while
the
log minus this segment is still >= retention.bytes), *time* (``now - segment.largestTimestamp >
retention.ms``).
When every segment qualifies, ``deleteSegments`` first rolls a new empty active segment, so the partition
always
keeps one and the segment being deleted is no longer the active one; a lone empty active segment is never
deleted.
A segment whose largest timestamp lies in the future keeps itself and every later segment.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.errors import ScenarioError
from engine.storage.log_config import LogConfig
from engine.storage.records import Record, batch_size
from engine.storage.segment import LogSegment, StoredBatch, search_summary


class OffsetOutOfRangeError(ScenarioError):
    """``OffsetOutOfRangeException``: the offset is below the log start offset or past the log end."""


@dataclass(frozen=True)
class RollEvent:
    """A roll: the old segment, the new base offset, why (``shouldRoll``'s conditions that held) and when."""

    old_base: int
    new_base: int
    reasons: tuple[str, ...]
    at_ms: int


@dataclass
class UnifiedLog:
    """A single-replica log (high watermark = log end offset: every append is committed at once)."""

    config: LogConfig
    now_ms: int = 0
    segments: list[LogSegment] = field(default_factory=list)
    log_start_offset: int = 0
    log_end_offset: int = 0
    rolls: list[RollEvent] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.segments:
            self.segments.append(LogSegment(0, self.config, self.now_ms))

    @property
    def active(self) -> LogSegment:
        return self.segments[-1]

    @property
    def high_watermark(self) -> int:
        return self.log_end_offset

    @property
    def size(self) -> int:
        return sum(s.size for s in self.segments)

    def append(self, records: list[tuple[int, str | None, int | None]], now_ms: int) -> StoredBatch:
        """``UnifiedLog.append`` of one producer batch ``[(timestamp, key, value_size)]``: offsets assigned
        from the log end offset, ``maybeRoll``, then ``LogSegment.append``."""
        if not records:
            raise ScenarioError("batch: needs at least one record")
        self.now_ms = max(self.now_ms, now_ms)
        first = self.log_end_offset
        stored = tuple(Record(first + i, ts, key, value) for i, (ts, key, value) in enumerate(records))
        size = batch_size(list(stored), first, stored[0].timestamp)
        if size > self.config.max_message_bytes:  # analyzeAndValidateRecords, checked first
            raise ScenarioError(
                f"RecordTooLargeException: the record batch size is {size:,} bytes which exceeds the maximum "
                f"configured value of {self.config.max_message_bytes:,} (max.message.bytes)"
            )
        if size > self.config.segment_size:
            raise ScenarioError(
                f"RecordBatchTooLargeException: Message batch size is {size:,} bytes, which exceeds the maximum "
                f"configured segment size of {self.config.segment_size:,}."
            )
        max_ts = max(r.timestamp for r in stored)
        segment = self._maybe_roll(size, max_ts, stored[-1].offset, first)
        batch = StoredBatch(first, stored[-1].offset, segment.size, size, max_ts, stored)
        segment.append(batch, self.now_ms)
        self.log_end_offset = stored[-1].offset + 1
        return batch

    def _maybe_roll(self, size: int, max_ts: int, last_offset: int, first_offset: int) -> LogSegment:
        reasons = self.active.should_roll(max_ts, last_offset, size, self.now_ms)
        if reasons:
            old = self.active.base_offset
            new = self.roll(first_offset)
            self.rolls.append(RollEvent(old, new.base_offset, tuple(reasons), self.now_ms))
            if new.base_offset != old:
                self.segments[-2].roll_reasons = tuple(reasons)
        return self.active

    def roll(self, expected_next_offset: int | None = None) -> LogSegment:
        """``LocalLog.roll``: the new base is max(expected, log end offset); an empty active segment with that
        base is replaced (KAFKA-6388), otherwise the old one becomes inactive and a new one is added."""
        new_offset = max(expected_next_offset or 0, self.log_end_offset)
        if self.active.base_offset == new_offset and self.active.size == 0:
            self.segments[-1] = LogSegment(new_offset, self.config, self.now_ms)
            return self.active
        self.active.on_become_inactive()
        self.segments.append(LogSegment(new_offset, self.config, self.now_ms))
        return self.active

    # ------------------------------------------------------------------ reads

    def floor_segment(self, offset: int) -> LogSegment | None:
        """``LogSegments.floorSegment``: the segment with the greatest base offset <= ``offset``."""
        candidates = [s for s in self.segments if s.base_offset <= offset]
        return candidates[-1] if candidates else None

    def read(self, offset: int) -> dict[str, Any]:
        """``UnifiedLog.read`` -> ``LocalLog.read`` -> ``LogSegment.read``: where a fetch at ``offset``
        starts."""
        if offset < self.log_start_offset or offset > self.log_end_offset:
            raise OffsetOutOfRangeError(
                f"OffsetOutOfRangeException: offset {offset:,} is outside "
                f"[{self.log_start_offset:,}, {self.log_end_offset:,}] (log start, log end)"
            )
        segment = self.floor_segment(offset)
        if segment is None or offset == self.log_end_offset:
            return {"offset": offset, "segment": None, "note": "at the log end offset: an empty fetch"}
        found, detail = segment.translate_offset(offset)
        scanned = sum(s.size for s in detail["scan"][:-1]) if found else sum(s.size for s in detail["scan"])
        return {
            "offset": offset,
            "segment": segment.name,
            "segment_base": segment.base_offset,
            "index_entry": detail["index_entry"],
            "probes": search_summary(detail["search"]),
            "warm_section": detail["search"].in_warm_section,
            "index_entries": detail["search"].entries,
            "scan": [vars(s) for s in detail["scan"]],
            "bytes_skipped": scanned,
            "batch": None if found is None else [found.base_offset, found.last_offset, found.position],
        }

    def fetch_offset_by_timestamp(self, timestamp: int) -> dict[str, Any]:
        """``fetchOffsetByTimestamp`` -> ``searchOffsetInLocalLog``: the first segment whose largest
        timestamp is
        >= the target, then ``LogSegment.findOffsetByTimestamp(target, logStartOffset)``."""
        target = next((s for s in self.segments if s.largest_timestamp() >= timestamp), None)
        if target is None:
            return {
                "timestamp": timestamp,
                "segment": None,
                "offset": None,
                "note": "no segment has a timestamp >= the target: ListOffsets answers -1",
            }
        record, detail = target.find_offset_by_timestamp(timestamp, self.log_start_offset)
        return {
            "timestamp": timestamp,
            "segment": target.name,
            "time_entry": detail["time_entry"],
            "time_probes": search_summary(detail["time_search"]),
            "index_entry": detail["index_entry"],
            "probes": search_summary(detail["search"]),
            "scan": [vars(s) for s in detail["scan"]],
            "offset": None if record is None else record.offset,
            "record_timestamp": None if record is None else record.timestamp,
        }

    # ------------------------------------------------------------------ retention

    def maybe_increment_log_start_offset(self, offset: int) -> None:
        """``maybeIncrementLogStartOffset`` (DeleteRecords): never past the high watermark, never
        backwards."""
        if offset > self.high_watermark:
            raise ScenarioError(
                f"log_start_offset: {offset:,} is past the high watermark {self.high_watermark:,} "
                "(OffsetOutOfRangeException)"
            )
        self.log_start_offset = max(self.log_start_offset, offset)

    def delete_old_segments(self, now_ms: int) -> list[dict[str, Any]]:
        """``UnifiedLog.deleteOldSegments``: start offset, then size, then time (size and time only with
        ``cleanup.policy`` containing delete).  Returns one row per deleted segment."""
        self.now_ms = max(self.now_ms, now_ms)
        deleted = self._delete(self._start_offset_rule(), "log start offset")
        if self.config.delete:
            deleted += self._delete(self._size_rule(), "retention.bytes")
            deleted += self._delete(self._time_rule(), "retention.ms")
        return deleted

    def _start_offset_rule(self):
        def rule(segment: LogSegment, next_segment: LogSegment | None) -> bool:
            return next_segment is not None and next_segment.base_offset <= self.log_start_offset

        return rule

    def _size_rule(self):
        retention = self.config.retention_bytes
        if retention < 0 or self.size < retention:
            return None
        diff = [self.size - retention]

        def rule(segment: LogSegment, next_segment: LogSegment | None) -> bool:
            if diff[0] - segment.size >= 0:
                diff[0] -= segment.size
                return True
            return False

        return rule

    def _time_rule(self):
        retention, now = self.config.retention_ms, self.now_ms
        if retention < 0:
            return None
        return lambda segment, next_segment: now - segment.largest_timestamp() > retention

    def _deletable(self, rule) -> list[LogSegment]:
        out: list[LogSegment] = []
        for i, segment in enumerate(self.segments):
            nxt = self.segments[i + 1] if i + 1 < len(self.segments) else None
            last_and_empty = nxt is None and segment.size == 0
            upper = nxt.base_offset if nxt else self.log_end_offset
            if self.high_watermark >= upper and rule(segment, nxt) and not last_and_empty:
                out.append(segment)
            else:
                break
        return out

    def _delete(self, rule, reason: str) -> list[dict[str, Any]]:
        """``deleteSegments``: when every segment goes, roll a new active segment first."""
        if rule is None:
            return []
        deletable = self._deletable(rule)
        if not deletable:
            return []
        if len(deletable) == len(self.segments):
            before = self.active.base_offset
            self.roll()
            self.rolls.append(
                RollEvent(before, self.active.base_offset, ("retention deletes every segment",), self.now_ms)
            )
            if deletable[-1].base_offset == self.active.base_offset:
                deletable = deletable[:-1]
        if not deletable:
            return []
        gone = {id(s) for s in deletable}
        self.segments = [s for s in self.segments if id(s) not in gone]
        self.log_start_offset = max(self.log_start_offset, self.segments[0].base_offset)
        return [
            {
                "segment": s.name,
                "base_offset": s.base_offset,
                "last_offset": s.last_offset,
                "bytes": s.size,
                "largest_timestamp": s.largest_timestamp(),
                "reason": reason,
            }
            for s in deletable
        ]
