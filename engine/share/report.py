"""A run as tables and files: the event log the page shows and downloads, and the run as a ``share-deliver``
case (``python -m engine share-deliver`` replays it and answers every step exactly as the page's model did).

>>> from engine.share.consumers import Workload, simulate
>>> run = simulate(Workload(records=4, consumers=1, max_records=4, processing_ms=100, failure=None))
>>> [(r["t_ms"], r["event"], r["result"]) for r in event_rows(run)][:2]
[(0, 'fetch', 'acquired 0-3 (delivery 1)'), (400, 'ack', 'ok')]
>>> case_json(run)["events"][1]
{'t': 400, 'op': 'ack', 'member': 'C1', 'batches': [{'first': 0, 'last': 3, 'type': 'ACCEPT'}]}
>>> consumer_rows(run)
[{'consumer': 'C1', 'fetches': 1, 'records delivered': 4, 'records processed': 4, 'failed acks': 0}]
"""

from __future__ import annotations

from typing import Any

from engine.share.case import Ack, Crash, Event, Fetch, Leave, Produce, Tick
from engine.share.consumers import RESET, SimulationRun
from engine.share.replay import Step
from engine.share.settings import AUTO_OFFSET_RESET
from engine.share.share_partition import FetchResult


def event_json(event: Event) -> dict[str, Any]:
    """One event in the vectors' shape."""
    if isinstance(event, Fetch):
        return {"t": event.t, "op": "fetch", "member": event.member, "max_records": event.max_records}
    if isinstance(event, Ack):
        return {"t": event.t, "op": "ack", "member": event.member, "batches": [
            {"first": b.first, "last": b.last, **({"types": list(b.types)} if b.types else {"type": b.type})}
            for b in event.batches]}
    if isinstance(event, Produce):
        return {"t": event.t, "op": "produce", "batch": [event.first, event.last]}
    if isinstance(event, (Leave, Crash)):
        return {"t": event.t, "op": "leave" if isinstance(event, Leave) else "crash", "member": event.member}
    assert isinstance(event, Tick)
    return {"t": event.t, "op": "tick"}


def case_json(run: SimulationRun) -> dict[str, Any]:
    """The run as a ``share-deliver`` case: its settings, its group config, its log and every event in order."""
    w = run.workload
    log = [[f, min(f + w.log_batch, w.records) - 1] for f in range(0, w.records, w.log_batch)]
    return {"settings": w.settings.as_json(), "group_config": {AUTO_OFFSET_RESET: RESET}, "log": log,
            "events": [event_json(s.event) for s in run.steps]}


def _result(step: Step) -> str:
    if isinstance(step.result, FetchResult):
        if step.result.fetch_offset is None:
            return "in-flight limit: not tried"
        return ", ".join(f"acquired {f}-{la} (delivery {d})" for f, la, d in step.result.acquired) or "nothing"
    if isinstance(step.event, (Ack, Leave)):
        return step.result if isinstance(step.result, str) else "ok"
    return ""


def event_rows(run: SimulationRun) -> list[dict[str, Any]]:
    """One row per event: time, what, who, what came of it, which locks ran out just before."""
    return [{"t_ms": s.event.t, "event": type(s.event).__name__.lower(), "member": getattr(s.event, "member", ""),
             "result": _result(s),
             "locks_run_out": ", ".join(f"{lock.first}-{lock.last} ({lock.member})" for lock in s.expired)}
            for s in run.steps]


def consumer_rows(run: SimulationRun) -> list[dict[str, Any]]:
    """Per consumer: fetches that got records, records delivered to it, records it finished processing (a
    poison record's failed attempt not counted), its acknowledgements that failed (its lock had run out)."""
    counts = {m: [0, 0, 0, 0] for m in run.workload.members()}
    for _, member, ranges in run.deliveries:
        counts[member][0] += 1
        counts[member][1] += sum(last - first + 1 for first, last, _ in ranges)
    for h in run.handled:
        counts[h.member][2] += h.ok
    for step in run.steps:
        if isinstance(step.event, Ack) and isinstance(step.result, str):
            counts[step.event.member][3] += 1
    return [{"consumer": m, "fetches": c[0], "records delivered": c[1], "records processed": c[2],
             "failed acks": c[3]} for m, c in counts.items()]
