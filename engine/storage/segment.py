"""One log segment: ``LogSegment`` — a ``.log`` file of batches and its two sparse indexes.

Files are named from the base offset, 20 digits (``LogFileUtils.filenamePrefixFromOffset``): the segment that
starts at offset 133 is ``00000000000000000133.log`` with ``.index`` and ``.timeindex`` beside it.

Index entries (``LogSegment.append``, asserted in ``tests/engine/storage/test_storage_segment.py``): before writing a
batch, ``if (bytesSinceLastIndexEntry > indexIntervalBytes)`` the offset index gets ``(last offset of this batch,
position where it starts)`` and the time index ``(max timestamp so far, its batch's last offset)``; then the
counter restarts at 0 and this batch's bytes are added.  With 1,231-byte batches and the 4,096-byte default
the
first entry is written with the 5th batch (4 x 1,231 = 4,924 > 4,096), keyed by that batch's *last* offset,
then
every 4th batch.

Roll (``LogSegment.shouldRoll``): ``size > segment.bytes - messagesSize`` (the append would not fit), or
``size > 0`` and the new batch's max timestamp is more than ``segment.ms`` after the segment's first batch
timestamp, or either index is full, or the batch's last offset does not fit a 4-byte relative offset
(``offset - baseOffset > Integer.MAX_VALUE``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.storage.index import NO_TIMESTAMP, OffsetIndex, SearchTrace, TimeIndex
from engine.storage.log_config import LogConfig
from engine.storage.records import Record

ROLL_REASONS = ("segment.bytes", "segment.ms", "offset index full", "time index full", "offset overflow")


def filename_prefix(offset: int) -> str:
    """``LogFileUtils.filenamePrefixFromOffset``: at least 20 digits, zero-padded."""
    return f"{offset:020d}"


@dataclass(frozen=True)
class StoredBatch:
    """A record batch in a segment file: offsets, where it starts, its size and its records."""

    base_offset: int
    last_offset: int
    position: int
    size: int
    max_timestamp: int
    records: tuple[Record, ...]
    delete_horizon_ms: int | None = None  # set by the cleaner on a batch holding tombstones (KIP-534)

    def moved(
        self, position: int, records: tuple[Record, ...], size: int, horizon: int | None
    ) -> StoredBatch:
        return StoredBatch(
            self.base_offset, self.last_offset, position, size, self.max_timestamp, records, horizon
        )


@dataclass(frozen=True)
class ScanStep:
    """``FileRecords.searchForOffsetWithSize`` / ``searchForTimestamp``: one batch header read."""

    position: int
    base_offset: int
    last_offset: int
    max_timestamp: int
    size: int
    match: bool


@dataclass
class LogSegment:
    """``LogSegment``: ``batches`` stand for the ``.log`` file; sizes are exact v2 sizes."""

    base_offset: int
    config: LogConfig
    created_ms: int
    batches: list[StoredBatch] = field(default_factory=list)
    size: int = 0
    bytes_since_last_index_entry: int = 0
    rolling_based_timestamp: int | None = None
    max_timestamp_so_far: int = NO_TIMESTAMP
    offset_of_max_timestamp_so_far: int = -1
    last_modified_ms: int = 0
    roll_reasons: tuple[str, ...] = ()
    offset_index: OffsetIndex = field(init=False)
    time_index: TimeIndex = field(init=False)

    def __post_init__(self) -> None:
        self.offset_index = OffsetIndex(self.base_offset, self.config.segment_index_bytes)
        self.time_index = TimeIndex(self.base_offset, self.config.segment_index_bytes)
        self.last_modified_ms = self.created_ms

    @property
    def name(self) -> str:
        return f"{filename_prefix(self.base_offset)}.log"

    @property
    def files(self) -> tuple[str, str, str]:
        prefix = filename_prefix(self.base_offset)
        return f"{prefix}.log", f"{prefix}.index", f"{prefix}.timeindex"

    @property
    def last_offset(self) -> int:
        return self.batches[-1].last_offset if self.batches else self.base_offset - 1

    @property
    def records(self) -> int:
        return sum(len(b.records) for b in self.batches)

    def largest_timestamp(self) -> int:
        """``LogSegment.largestTimestamp``: the max timestamp, else the file's last-modified time."""
        return self.max_timestamp_so_far if self.max_timestamp_so_far >= 0 else self.last_modified_ms

    def time_waited_for_roll(self, now: int, message_timestamp: int) -> int:
        """``LogSegment.timeWaitedForRoll``: from the first batch's timestamp, else from creation."""
        if self.rolling_based_timestamp is not None and self.rolling_based_timestamp >= 0:
            return message_timestamp - self.rolling_based_timestamp
        return now - self.created_ms

    def should_roll(self, max_timestamp: int, max_offset: int, messages_size: int, now: int) -> list[str]:
        """``LogSegment.shouldRoll`` (rollJitterMs = 0): every condition that holds, in Kafka's order."""
        reached_roll_ms = self.time_waited_for_roll(now, max_timestamp) > self.config.segment_ms
        checks = (
            self.size > self.config.segment_size - messages_size,
            self.size > 0 and reached_roll_ms,
            self.offset_index.is_full(),
            self.time_index.is_full(),
            not self.offset_index.can_append_offset(max_offset),
        )
        return [reason for reason, hit in zip(ROLL_REASONS, checks) if hit]

    def append(self, batch: StoredBatch, now: int) -> None:
        """``LogSegment.append`` for one batch (the leader appends one batch per produce, uncompressed)."""
        if not self.offset_index.can_append_offset(batch.last_offset):
            raise ValueError(f"LogSegmentOffsetOverflowException: offset {batch.last_offset} in {self.name}")
        if self.size == 0:
            self.rolling_based_timestamp = batch.max_timestamp
        self.batches.append(batch)
        self.size += batch.size
        self.last_modified_ms = now
        if batch.max_timestamp > self.max_timestamp_so_far:
            self.max_timestamp_so_far = batch.max_timestamp
            self.offset_of_max_timestamp_so_far = batch.last_offset
        if self.bytes_since_last_index_entry > self.config.index_interval_bytes:
            self.offset_index.append(batch.last_offset, batch.position)
            self.time_index.maybe_append(self.max_timestamp_so_far, self.offset_of_max_timestamp_so_far)
            self.bytes_since_last_index_entry = 0
        self.bytes_since_last_index_entry += batch.size

    def on_become_inactive(self) -> None:
        """``onBecomeInactiveSegment``: a last time-index entry (skipping the full check), indexes trimmed."""
        if self.max_timestamp_so_far >= 0:
            self.time_index.maybe_append(self.max_timestamp_so_far, self.offset_of_max_timestamp_so_far, True)

    def translate_offset(self, offset: int, starting_position: int = 0) -> tuple[StoredBatch | None, dict]:
        """``translateOffset``: index lookup, then ``FileRecords.searchForOffsetWithSize`` from that
        position."""
        entry_offset, position, trace = self.offset_index.lookup(offset)
        start = max(position, starting_position)
        steps: list[ScanStep] = []
        found = None
        for b in self.batches:
            if b.position < start:
                continue
            hit = b.last_offset >= offset
            steps.append(ScanStep(b.position, b.base_offset, b.last_offset, b.max_timestamp, b.size, hit))
            if hit:
                found = b
                break
        return found, {
            "index_entry": [entry_offset, position],
            "search": trace,
            "scan": steps,
            "start": start,
        }

    def find_offset_by_timestamp(self, timestamp: int, starting_offset: int) -> tuple[Record | None, dict]:
        """``findOffsetByTimestamp``: time index, then offset index, then
        ``FileRecords.searchForTimestamp``."""
        ts, ts_offset, time_trace = self.time_index.lookup(timestamp)
        entry_offset, position, offset_trace = self.offset_index.lookup(max(ts_offset, starting_offset))
        steps: list[ScanStep] = []
        found = None
        for b in self.batches:
            if b.position < position:
                continue
            hit = b.max_timestamp >= timestamp
            steps.append(ScanStep(b.position, b.base_offset, b.last_offset, b.max_timestamp, b.size, hit))
            if hit:
                found = next(
                    (r for r in b.records if r.timestamp >= timestamp and r.offset >= starting_offset), None
                )
                if found is not None:
                    break
        detail = {
            "time_entry": [ts, ts_offset],
            "time_search": time_trace,
            "index_entry": [entry_offset, position],
            "search": offset_trace,
            "scan": steps,
            "start": position,
        }
        return found, detail

    def index_bytes(self, active: bool) -> tuple[int, int]:
        return self.offset_index.bytes_in_memory(active), self.time_index.bytes_in_memory(active)


def search_summary(trace: SearchTrace) -> list[dict]:
    """The probes of a search as rows: slot, key and the comparison with the target."""
    return [{"slot": p.slot, "key": p.key, "compare": p.compare, "role": p.role} for p in trace.probes]
