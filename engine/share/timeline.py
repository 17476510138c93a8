"""The page's animated timeline: every record's state, delivery count and holder at sampled moments of a run.

Frames come from the engine model itself: the run is simulated once to count its events, then again with
the ``SharePartition`` observed at every ``stride``-th event (and the last).  A record before the start offset
shows the final state it reached; one past the end offset is ``LOG`` (in the log, never fetched yet).  The
timeline draws each record, so it is refused before any work above ``MAX_TIMELINE_RECORDS`` records (the
summary and the downloads have no such limit).

>>> from engine.share.consumers import Workload
>>> tl = build_timeline(Workload(records=10, consumers=2, max_records=5, processing_ms=100, failure=None))
>>> first, last = tl.frames[0], tl.frames[-1]
>>> first.states[:6], last.states.count("ACKNOWLEDGED")
(('ACQUIRED', 'ACQUIRED', 'ACQUIRED', 'ACQUIRED', 'ACQUIRED', 'LOG'), 10)
>>> build_timeline(Workload(records=5_000))
Traceback (most recent call last):
...
engine.errors.LimitError: timeline: 5,000 records; the animated timeline draws at most 400 records
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.errors import LimitError
from engine.share.consumers import SimulationRun, Workload, check_workload, simulate
from engine.share.replay import Step
from engine.share.share_partition import FetchResult, SharePartition
from engine.share.summary import DeliverySummary, summarize

MAX_TIMELINE_RECORDS: Final = 400
MAX_FRAMES: Final = 200
LOG: Final = "LOG"


@dataclass(frozen=True)
class Frame:
    t: int
    event: str  # what happened: "fetch", "ack", "crash", "leave", "tick"
    member: str | None
    states: tuple[str, ...]  # per offset: LOG or a RecordState value
    delivery_counts: tuple[int, ...]
    holders: tuple[str | None, ...]
    expired: int  # records whose lock ran out just before this event
    start_offset: int
    end_offset: int

    @property
    def time_s(self) -> str:
        return f"{self.t / 1000:.1f}"


@dataclass(frozen=True)
class Timeline:
    workload: Workload
    frames: tuple[Frame, ...]
    summary: DeliverySummary
    run: SimulationRun


def check_timeline(w: Workload) -> None:
    if w.records > MAX_TIMELINE_RECORDS:
        raise LimitError(f"timeline: {w.records:,} records; the animated timeline draws at most "
                         f"{MAX_TIMELINE_RECORDS:,} records")
    check_workload(w)


def build_timeline(w: Workload, max_frames: int = MAX_FRAMES) -> Timeline:
    check_timeline(w)
    events = len(simulate(w).steps)
    stride = max(1, -(-events // max_frames))
    recorder = _Recorder(w.records, stride, events)
    run = simulate(w, observe=recorder)
    return Timeline(w, tuple(recorder.frames), summarize(run), run)


class _Recorder:
    """Keeps each record's last known final state and delivery count; snapshots every ``stride``-th step."""

    def __init__(self, records: int, stride: int, events: int) -> None:
        self.final: list[str] = [LOG] * records
        self.counts = [0] * records
        self.stride, self.events, self.seen, self.outcomes_seen = stride, events, 0, 0
        self.frames: list[Frame] = []

    def __call__(self, step: Step, partition: SharePartition, run: SimulationRun) -> None:
        for outcome in run.outcomes[self.outcomes_seen:]:
            for o in range(outcome.first, min(outcome.last + 1, len(self.final))):
                self.final[o] = outcome.state.value
        self.outcomes_seen = len(run.outcomes)
        if isinstance(step.result, FetchResult):
            for first, last, count in step.result.acquired:
                for o in range(first, min(last + 1, len(self.counts))):
                    self.counts[o] = count
        self.seen += 1
        if self.seen % self.stride and self.seen != self.events:
            return
        states, holders = self._states(partition)
        event = step.event
        self.frames.append(Frame(
            event.t, type(event).__name__.lower(), getattr(event, "member", None), tuple(states),
            tuple(self.counts), tuple(holders), sum(lock.last - lock.first + 1 for lock in step.expired),
            partition.start, partition.end))

    def _states(self, partition: SharePartition) -> tuple[list[str], list[str | None]]:
        n = len(self.final)
        states = list(self.final)
        holders: list[str | None] = [None] * n
        for b in partition.batches:
            for o in range(b.first, min(b.last, n - 1) + 1):
                s = b.state_at(o)
                states[o] = s.state.value
                holders[o] = s.member
        return states, holders
