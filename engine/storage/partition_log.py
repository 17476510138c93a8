"""A partition's log driven by a workload: batches appended over time (segments roll), optional periodic
retention checks, then actions (retention, compaction, DeleteRecords) and lookups — the engine of the
Partition Log page and of ``python -m engine log``.

Segments are sized by ``LogConfig.segmentSize()``: ``internal.segment.bytes`` when set, else ``segment.bytes``,
which is at least 1 MiB.  A segment small enough to roll after a few hundred records (as the seed article's)
needs Kafka's test-only ``internal.segment.bytes``; ``segment_size_config`` picks the property for a size.

Worked example (asserted in ``tests/engine/storage/test_storage_partition_log.py``), the seed article's picture: with
batches of one record and a segment size such that 133 records fill a segment, the second segment is
``00000000000000000133.log`` and the first holds offsets 0..132::

    >>> SEED_133["config"]
    {'internal.segment.bytes': 22610}
    >>> [s["segment"] for s in simulate(SEED_133)[1]["segments"]][:2]
    ['00000000000000000000.log', '00000000000000000133.log']
    >>> segment_size_config(22_610), segment_size_config(1_048_576)
    ({'internal.segment.bytes': 22610}, {'segment.bytes': 1048576})
    >>> segment_size_property(simulate(SEED_133)[1]["config"])
    ('internal.segment.bytes', 22610)

Input (``cli_log``)::

    {"config": {"internal.segment.bytes": 16384, "index.interval.bytes": 4096, ...},      # Kafka property names
     "workload": {"batches": 100, "records_per_batch": 10, "key_bytes": 8, "value_bytes": 100, "keys": 0,
                  "tombstone_every": 0, "start_ms": 0, "interval_ms": 1000, "retention_checks": false},
     "batches": [{"timestamp_ms": 0,
                  "records": [{"key": "a", "value_bytes": 10}, {"key": "a", "value_bytes": null}]}],
     "actions": [{"retention_at_ms": 900000}, {"clean_at_ms": 900000}, {"delete_records_before": 50}],
     "lookups": {"offsets": [23], "timestamps": [5000]}}

``workload`` and ``batches`` are alternatives (one of them).  Output: the segments with their files, index
entries and roll reasons; each roll; each action's result; each lookup step by step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from engine.cost import CLI_CEILING, admit, estimate_partition_log
from engine.errors import LimitError, ScenarioError
from engine.release import model
from engine.storage import cleaner
from engine.storage.log_config import RETENTION_CHECK_INTERVAL_MS, SEGMENT_BYTES_MIN, LogConfig
from engine.storage.unified_log import UnifiedLog

MAX_BATCHES: Final = 20_000
MAX_RECORDS: Final = 200_000
MAX_RECORDS_PER_BATCH: Final = 10_000
MAX_VALUE_BYTES: Final = 1_000_000
MAX_KEYS: Final = 100_000
MAX_SEGMENTS: Final = 5_000
MAX_LOOKUPS: Final = 100
MAX_ACTIONS: Final = 50
MAX_FRAMES: Final = 120
MAX_INDEX_ROWS: Final = 1_000  # index entries listed per segment in the output
MAX_RECORDS_DETAIL: Final = 20_000  # records kept for the compaction picture

Batch = list[tuple[int, str | None, int | None]]  # (timestamp, key, value size or None)


@dataclass(frozen=True)
class Workload:
    """A generated stream of batches: ``batches`` x ``records_per_batch`` records, one batch every
    ``interval_ms`` from ``start_ms``; keys cycle over ``keys`` names (0 = no key); every
    ``tombstone_every``-th
    keyed record is a tombstone (0 = none)."""

    batches: int = 100
    records_per_batch: int = 10
    key_bytes: int = 8
    value_bytes: int = 100
    keys: int = 0
    tombstone_every: int = 0
    start_ms: int = 0
    interval_ms: int = 1_000
    retention_checks: bool = False

    def validate(self) -> Workload:
        _int_range("workload.batches", self.batches, 1, MAX_BATCHES)
        _int_range("workload.records_per_batch", self.records_per_batch, 1, MAX_RECORDS_PER_BATCH)
        _int_range("workload.key_bytes", self.key_bytes, 1, 1_000)
        _int_range("workload.value_bytes", self.value_bytes, 0, MAX_VALUE_BYTES)
        _int_range("workload.keys", self.keys, 0, MAX_KEYS)
        _int_range("workload.tombstone_every", self.tombstone_every, 0, MAX_RECORDS)
        _int_range("workload.start_ms", self.start_ms, 0, 2**50)
        _int_range("workload.interval_ms", self.interval_ms, 0, 2**40)
        if self.batches * self.records_per_batch > MAX_RECORDS:
            raise LimitError(
                f"workload: at most {MAX_RECORDS:,} records, got {self.batches * self.records_per_batch:,}"
            )
        return self

    def generate(self) -> list[tuple[int, Batch]]:
        out: list[tuple[int, Batch]] = []
        n = 0
        width = max(
            self.key_bytes - 1, len(str(max(self.keys - 1, 0)))
        )  # key_bytes is a minimum: keys never collide
        for b in range(self.batches):
            ts = self.start_ms + b * self.interval_ms
            batch: Batch = []
            for _ in range(self.records_per_batch):
                key = None if self.keys == 0 else f"k{n % self.keys:0{width}d}"
                tomb = key is not None and self.tombstone_every > 0 and (n + 1) % self.tombstone_every == 0
                batch.append((ts, key, None if tomb else self.value_bytes))
                n += 1
            out.append((ts, batch))
        return out


def _int_range(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ScenarioError(f"{name}: must be an integer {low:,}..{high:,}, got {value!r}")
    if value > high:
        raise LimitError(f"{name}: at most {high:,}, got {value:,}")
    return value


@dataclass
class LogRun:
    """A finished run: the log, each frame for the animation, what the periodic retention checks deleted."""

    log: UnifiedLog
    frames: list[dict[str, Any]] = field(default_factory=list)
    deleted_during: list[dict[str, Any]] = field(default_factory=list)
    appended_batches: int = 0
    compactions: list[dict[str, Any]] = field(
        default_factory=list
    )  # records before each cleaning, offsets kept


def run_appends(
    config: LogConfig,
    batches: list[tuple[int, Batch]],
    retention_checks: bool = False,
    frames: int = MAX_FRAMES,
) -> LogRun:
    """Append every batch in order (the broker's clock = the batch timestamp), running
    ``deleteOldSegments`` every ``log.retention.check.interval.ms`` when ``retention_checks``."""
    if len(batches) > MAX_BATCHES:
        raise LimitError(f"batches: at most {MAX_BATCHES:,}, got {len(batches):,}")
    start = batches[0][0] if batches else 0
    log = UnifiedLog(config, now_ms=start)
    run = LogRun(log)
    every = max(1, -(-len(batches) // max(frames - 1, 1)))  # ceil: at most frames - 1 sampled, plus the last
    next_check = start + RETENTION_CHECK_INTERVAL_MS
    for i, (ts, batch) in enumerate(batches):
        while retention_checks and ts >= next_check:
            run.deleted_during += [{**d, "at_ms": next_check} for d in log.delete_old_segments(next_check)]
            next_check += RETENTION_CHECK_INTERVAL_MS
        log.append(batch, ts)
        run.appended_batches += 1
        if len(log.segments) > MAX_SEGMENTS:
            raise LimitError(
                f"segments: more than {MAX_SEGMENTS:,} (make the segments larger or send fewer batches)"
            )
        if i % every == 0 or i == len(batches) - 1:
            run.frames.append(snapshot(log, i + 1))
    return run


def snapshot(log: UnifiedLog, appended: int) -> dict[str, Any]:
    """One animation frame: each segment's base offset, bytes, records and whether it is active."""
    return {
        "appended": appended,
        "now_ms": log.now_ms,
        "log_start_offset": log.log_start_offset,
        "segments": [
            {"base_offset": s.base_offset, "bytes": s.size, "records": s.records, "active": s is log.active}
            for s in log.segments
        ],
    }


def segment_rows(log: UnifiedLog) -> list[dict[str, Any]]:
    rows = []
    for s in log.segments:
        active = s is log.active
        offset_bytes, time_bytes = s.index_bytes(active)
        rows.append(
            {
                "segment": s.name,
                "files": list(s.files),
                "base_offset": s.base_offset,
                "last_offset": s.last_offset,
                "batches": len(s.batches),
                "records": s.records,
                "bytes": s.size,
                "active": active,
                "largest_timestamp": s.largest_timestamp(),
                "roll_reasons": list(s.roll_reasons),
                "offset_index_entries": len(s.offset_index.offsets),
                "time_index_entries": len(s.time_index.timestamps),
                "offset_index_max_entries": s.offset_index.max_entries,
                "time_index_max_entries": s.time_index.max_entries,
                "offset_index_bytes": offset_bytes,
                "time_index_bytes": time_bytes,
                "offset_index": [
                    [o, p] for o, p in zip(s.offset_index.offsets[:MAX_INDEX_ROWS], s.offset_index.positions)
                ],
                "time_index": [
                    [t, o] for t, o in zip(s.time_index.timestamps[:MAX_INDEX_ROWS], s.time_index.offsets)
                ],
            }
        )
    return rows


def apply_action(
    log: UnifiedLog, action: dict[str, Any], checkpoint: int | None
) -> tuple[dict[str, Any], int | None]:
    """One action: ``{"retention_at_ms"}``, ``{"clean_at_ms"}`` or ``{"delete_records_before"}``."""
    if not isinstance(action, dict) or len(action) != 1:
        raise ScenarioError(
            f"actions: each is an object with one of retention_at_ms, clean_at_ms, "
            f"delete_records_before, got {action!r}"
        )
    ((name, value),) = action.items()
    if name == "retention_at_ms":
        at = _int_range(name, value, 0, 2**62)
        return {
            "action": name,
            "at_ms": at,
            "deleted": log.delete_old_segments(at),
            "log_start_offset": log.log_start_offset,
        }, checkpoint
    if name == "clean_at_ms":
        at = _int_range(name, value, 0, 2**62)
        before = closed_records(log)
        result = cleaner.clean(log, checkpoint, at)
        kept = {r["offset"] for r in closed_records(log)}
        return {"action": name, "at_ms": at, **result, "_detail": {"before": before, "kept": kept}}, result[
            "checkpoint"
        ]
    if name == "delete_records_before":
        log.maybe_increment_log_start_offset(_int_range(name, value, 0, 2**62))
        return {
            "action": name,
            "log_start_offset": log.log_start_offset,
            "deleted": [],
            "note": "segments below the new log start offset go at the next retention check",
        }, checkpoint
    raise ScenarioError(
        f"actions: unknown action {name!r} (retention_at_ms, clean_at_ms, delete_records_before)"
    )


def closed_records(log: UnifiedLog) -> list[dict[str, Any]]:
    """Records of the closed segments (what the cleaner may touch), at most ``MAX_RECORDS_DETAIL``."""
    out = [
        {"offset": r.offset, "key": r.key, "tombstone": r.is_tombstone}
        for s in log.segments[:-1]
        for b in s.batches
        for r in b.records
    ]
    return out[:MAX_RECORDS_DETAIL]


def parse_batches(raw: Any) -> list[tuple[int, Batch]]:
    """Explicit batches: ``[{"timestamp_ms": t, "records": [{"key": k|null, "value_bytes": n|null}]}]``."""
    if not isinstance(raw, list) or not raw:
        raise ScenarioError("batches: a non-empty list of {timestamp_ms, records}")
    if len(raw) > MAX_BATCHES:
        raise LimitError(f"batches: at most {MAX_BATCHES:,}, got {len(raw):,}")
    out: list[tuple[int, Batch]] = []
    total = 0
    for i, b in enumerate(raw):
        if not isinstance(b, dict) or not isinstance(b.get("records"), list) or not b["records"]:
            raise ScenarioError(
                f"batches[{i}]: expected {{timestamp_ms, records: [...]}} with at least one record"
            )
        ts = _int_range(f"batches[{i}].timestamp_ms", b.get("timestamp_ms", 0), 0, 2**50)
        records: Batch = []
        for j, r in enumerate(b["records"]):
            if not isinstance(r, dict):
                raise ScenarioError(f"batches[{i}].records[{j}]: expected an object, got {r!r}")
            key, value = r.get("key"), r.get("value_bytes", 0)
            if key is not None and (not isinstance(key, str) or len(key) > 1_000):
                raise ScenarioError(f"batches[{i}].records[{j}].key: a string up to 1,000 characters or null")
            if value is not None:
                _int_range(f"batches[{i}].records[{j}].value_bytes", value, 0, MAX_VALUE_BYTES)
            records.append((ts, key, value))
        total += len(records)
        if total > MAX_RECORDS:
            raise LimitError(f"batches: at most {MAX_RECORDS:,} records in all")
        out.append((ts, records))
    if any(out[k][0] < out[k - 1][0] for k in range(1, len(out))):
        raise ScenarioError("batches: timestamp_ms must not decrease (the broker's clock runs forward)")
    return out


def lookups(log: UnifiedLog, raw: Any) -> list[dict[str, Any]]:
    if raw is None:
        return []
    if not isinstance(raw, dict):
        raise ScenarioError('lookups: expected {"offsets": [...], "timestamps": [...]}')
    offsets, stamps = raw.get("offsets", []), raw.get("timestamps", [])
    if (
        not isinstance(offsets, list)
        or not isinstance(stamps, list)
        or len(offsets) + len(stamps) > MAX_LOOKUPS
    ):
        raise LimitError(f"lookups: lists of at most {MAX_LOOKUPS} offsets and timestamps in all")
    out: list[dict[str, Any]] = []
    for i, o in enumerate(offsets):
        try:
            out.append({"kind": "offset", **log.read(_int_range(f"lookups.offsets[{i}]", o, 0, 2**62))})
        except ScenarioError as exc:
            out.append({"kind": "offset", "offset": o, "error": str(exc)})
    for i, t in enumerate(stamps):
        out.append(
            {
                "kind": "timestamp",
                **log.fetch_offset_by_timestamp(_int_range(f"lookups.timestamps[{i}]", t, 0, 2**62)),
            }
        )
    return out


def workload_from(raw: Any) -> Workload:
    if not isinstance(raw, dict):
        raise ScenarioError(f"workload: expected an object, got {raw!r}")
    unknown = sorted(set(raw) - set(Workload.__dataclass_fields__))
    if unknown:
        raise ScenarioError(f"workload: unknown field {unknown[0]!r}")
    return Workload(**raw).validate()


@dataclass(frozen=True)
class LogSpec:
    """A ``log`` input read and bounded: the config, the batches to append, whether retention runs while
    appending, the actions, the lookups (read as they run) and whether the answer carries frames."""

    config: LogConfig
    batches: list[tuple[int, Batch]]
    retention_checks: bool
    actions: list[Any]
    lookups: Any
    frames: bool

    @property
    def records(self) -> int:
        return sum(len(records) for _, records in self.batches)


def parse_log_spec(spec: Any) -> LogSpec:
    """The input document (see the module docstring) read and bounded, before any work."""
    if not isinstance(spec, dict):
        raise ScenarioError(f"input: expected an object, got {type(spec).__name__}")
    unknown = sorted(set(spec) - {"config", "workload", "batches", "actions", "lookups", "frames"})
    if unknown:
        raise ScenarioError(f"input: unknown field {unknown[0]!r}")
    config = LogConfig.from_dict(spec.get("config", {}))
    if ("workload" in spec) == ("batches" in spec):
        raise ScenarioError("input: give exactly one of workload or batches")
    checks = False
    if "workload" in spec:
        workload = workload_from(spec["workload"])
        batches, checks = workload.generate(), workload.retention_checks
    else:
        batches = parse_batches(spec["batches"])
    actions = spec.get("actions", [])
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise LimitError(f"actions: a list of at most {MAX_ACTIONS}")
    return LogSpec(config, batches, checks, actions, spec.get("lookups"), bool(spec.get("frames")))


def simulate(spec: dict[str, Any], with_frames: bool = False) -> tuple[LogRun, dict[str, Any]]:
    """The whole run: appends, actions, lookups.  Returns the run and the JSON result."""
    return run_log(parse_log_spec(spec), with_frames)


def run_log(spec: LogSpec, with_frames: bool = False) -> tuple[LogRun, dict[str, Any]]:
    """A read input's run (``parse_log_spec``): appends, actions, lookups; the run and the JSON result."""
    config = spec.config
    run = run_appends(config, spec.batches, spec.retention_checks)
    results, checkpoint = [], None
    for action in spec.actions:
        result, checkpoint = apply_action(run.log, action, checkpoint)
        if "_detail" in result:
            run.compactions.append(result.pop("_detail"))
        results.append(result)
    log = run.log
    out = {
        "follows": model("log").follows,
        "not_verified": model("log").not_verified,
        "config": config.to_dict(),
        "log_start_offset": log.log_start_offset,
        "log_end_offset": log.log_end_offset,
        "size": log.size,
        "segments": segment_rows(log),
        "rolls": [vars(r) | {"reasons": list(r.reasons)} for r in log.rolls],
        "deleted_by_retention_checks": run.deleted_during,
        "actions": results,
        "lookups": lookups(log, spec.lookups),
    }
    if with_frames or spec.frames:
        out["frames"] = run.frames
    return run, out


def segment_size_config(size: int) -> dict[str, int]:
    """A segment size as topic config: ``segment.bytes`` from ``SEGMENT_BYTES_MIN`` (1 MiB) on, Kafka's test-only
    ``internal.segment.bytes`` below it (``segment.bytes`` refuses a smaller value)."""
    return {"segment.bytes" if size >= SEGMENT_BYTES_MIN else "internal.segment.bytes": size}


def segment_size_property(config: dict[str, Any]) -> tuple[str, int]:
    """The property that sizes segments in an answer's ``config`` and its value (``LogConfig.segmentSize()``):
    ``internal.segment.bytes`` when set, else ``segment.bytes``."""
    name = "internal.segment.bytes" if "internal.segment.bytes" in config else "segment.bytes"
    return name, int(config[name])


SEED_133: Final = {
    "config": segment_size_config(22_610),
    "workload": {"batches": 300, "records_per_batch": 1, "value_bytes": 100, "interval_ms": 1_000},
}
"""Seed article 002's picture: 170-byte batches (one 100-byte record each) and segments of 22,610 bytes
(``internal.segment.bytes``: ``segment.bytes`` is at least 1 MiB) put offsets 0..132 in the first segment:
``shouldRoll`` fires for the 134th batch because 133 x 170 = 22,610 > 22,610 - 170."""


def cli_log(document: Any) -> dict[str, Any]:
    """``python -m engine log``: one input object -> the result object (batchable), its work admitted under the
    command line's ceiling before it runs."""
    spec = parse_log_spec(document)
    admit(estimate_partition_log(spec.records, len(spec.batches), len(spec.actions)), CLI_CEILING, "log")
    return run_log(spec)[1]


def lookup_story(found: dict[str, Any]) -> str:
    """A lookup result (``UnifiedLog.read``) told in three steps, for the page."""
    if "error" in found:
        return str(found["error"])
    if not found.get("segment"):
        return str(found.get("note", ""))
    entry = found["index_entry"]
    return (f"1. Segment: the greatest base offset <= {found['offset']:,} is **{found['segment']}**.\n"
            f"2. Binary search of its {found['index_entries']} offset-index entries -> **{entry}** "
            f"({len(found['probes'])} entries read).\n3. Scan batch headers from position {entry[1]:,}: "
            f"{len(found['scan'])} read, {found['bytes_skipped']:,} bytes skipped; batch (first offset, last "
            f"offset, position) {found['batch']} holds offset {found['offset']:,}.")


def timestamp_story(found: dict[str, Any]) -> str:
    """A ``fetchOffsetByTimestamp`` result in one sentence."""
    if not found.get("segment"):
        return str(found.get("note", ""))
    return (f"Timestamp {found['timestamp']:,}: the first segment whose largest timestamp is >= it is "
            f"**{found['segment']}**; time index entry {found['time_entry']}, then offset index "
            f"{found['index_entry']}, then a scan -> offset **{found['offset']}** (timestamp "
            f"{found['record_timestamp']}).")
