"""What a share-consumer run cost, counted from the engine model's own events (never a second model).

- **processed**: records that ended ACKNOWLEDGED (an ACCEPT that succeeded);
- **archived**: records that ended ARCHIVED, by a REJECT or by the delivery limit (``archived_at_limit``);
- **redelivered**: records acquired more than once (a lock ran out, a RELEASE, a member left);
- **duplicates**: extra times a record was fully processed by a consumer (a consumer that crashed after
  processing but before acknowledging, or whose lock ran out first, leaves work that is done again);
- **keys whose order was lost**: keys whose records finished processing out of offset order (several
  consumers read one share partition; a consumer group's single reader would keep each key in order).

>>> from engine.share.consumers import Workload, simulate
>>> s = summarize(simulate(Workload(records=30, consumers=3, max_records=10, processing_ms=500,
...                                 failure="crash", failure_ms=2_000, keys=3)))
>>> s.processed, s.redelivered, s.duplicates, s.held_at_failure, s.locked_after_failure_ms
(30, 10, 4, 10, 28000)
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import Any

from engine.release import follows
from engine.share.consumers import SimulationRun
from engine.share.record_state import RecordState


@dataclass(frozen=True)
class DeliverySummary:
    records: int
    processed: int
    archived: int
    archived_at_limit: int
    redelivered: int
    deliveries: int
    duplicates: int
    keys: int
    keys_out_of_order: int
    failed_acks: int
    unfinished: int
    held_at_failure: int
    locked_after_failure_ms: int
    end_ms: int
    kafka: str = follows("share-deliver")

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def summarize(run: SimulationRun) -> DeliverySummary:
    w = run.workload
    final = {RecordState.ACKNOWLEDGED: 0, RecordState.ARCHIVED: 0}
    at_limit = 0
    for o in run.outcomes:
        n = o.last - o.first + 1
        final[o.state] += n
        at_limit += n if o.at_limit else 0
    counts: dict[int, int] = defaultdict(int)
    for _, _, ranges in run.deliveries:
        for first, last, _ in ranges:
            for offset in range(first, last + 1):
                counts[offset] += 1
    done_ok: dict[int, list[int]] = defaultdict(list)
    for h in run.handled:
        if h.ok:
            done_ok[h.offset].append(h.done_ms)
    held, locked = _failure_cost(run)
    return DeliverySummary(
        records=w.records, processed=final[RecordState.ACKNOWLEDGED], archived=final[RecordState.ARCHIVED],
        archived_at_limit=at_limit, redelivered=sum(1 for c in counts.values() if c > 1),
        deliveries=sum(counts.values()), duplicates=sum(len(v) - 1 for v in done_ok.values() if len(v) > 1),
        keys=min(w.keys, w.records), keys_out_of_order=len(keys_out_of_order(run)),
        failed_acks=sum(1 for s in run.steps if isinstance(s.result, str)),
        unfinished=w.records - final[RecordState.ACKNOWLEDGED] - final[RecordState.ARCHIVED],
        held_at_failure=held, locked_after_failure_ms=locked, end_ms=run.end_ms)


def keys_out_of_order(run: SimulationRun) -> list[int]:
    """Keys some record of which first finished processing before an earlier-offset record of the same key."""
    first_done: dict[int, int] = {}
    for h in run.handled:
        if h.ok and h.offset not in first_done:
            first_done[h.offset] = h.done_ms
    latest: dict[int, int] = {}
    lost: set[int] = set()
    for offset in sorted(first_done):
        key = run.workload.key_of(offset)
        if first_done[offset] < latest.get(key, -1):
            lost.add(key)
        latest[key] = max(latest.get(key, -1), first_done[offset])
    return sorted(lost)


def _failure_cost(run: SimulationRun) -> tuple[int, int]:
    """Records the failing consumer held when it failed, and how long after the failure their locks kept
    them from everyone (0 for a leave: its records are released at once)."""
    w = run.workload
    if w.failure is None:
        return 0, 0
    held_ranges = []
    for t, member, ranges in run.deliveries:
        if member == w.failing_member and t <= w.failure_ms:
            n = sum(last - first + 1 for first, last, _ in ranges)
            if t + n * w.processing_ms > w.failure_ms:
                held_ranges = ranges
    held = sum(last - first + 1 for first, last, _ in held_ranges)
    if w.failure != "crash":
        return held, 0
    expiries = [lock.expiry for s in run.steps for lock in s.expired if lock.member == w.failing_member]
    return held, max((max(expiries) - w.failure_ms if expiries else 0), 0)
