"""Frames the Timing Wheel page draws: every bucket of every level after each event."""


from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.server.timer.model import AdvanceRecord, Placement, TaskRecord, WheelTrace

# --------------------------------------------------------------------------- frames for the page


@dataclass(frozen=True)
class BucketView:
    """A non-empty bucket in a frame: how many tasks, its expiration, the first few task ids."""

    count: int
    expiration_ms: int
    sample: tuple[str, ...]


@dataclass(frozen=True)
class LogLine:
    time_ms: int
    event: str  # "add", "fire", "expire bucket", "reinsert", "cancel"
    task: str
    detail: str


@dataclass
class WheelFrame:
    """The wheels after one step: a group of adds/cancels at one instant, or one clock advance."""

    step: int
    kind: str  # "start", "add", "advance", "cancel"
    time_ms: int
    wheel_times: list[int]
    buckets: dict[tuple[int, int], BucketView]
    drained: list[tuple[int, int]]
    arrived: dict[tuple[int, int], list[str]]
    fired: list[str]
    log: list[LogLine]
    pending: int


FRAME_SAMPLE = 12  # task ids kept per bucket per frame (hover text)


class _FrameBuilder:
    """Replays a trace's ordered events into per-step frames (occupancy is tracked incrementally)."""

    def __init__(self, trace: WheelTrace) -> None:
        self.trace = trace
        self.where: dict[str, tuple[int, int]] = {}
        self.content: dict[tuple[int, int], dict[str, None]] = {}
        self.expiration: dict[tuple[int, int], int] = {}
        self.wheel_times = [trace.config.start_ms - trace.config.start_ms % trace.config.tick_ms]
        self.frames: list[WheelFrame] = []
        self.frame = self._new_frame("start", trace.config.start_ms)
        self._close()

    def _new_frame(self, kind: str, time_ms: int) -> WheelFrame:
        return WheelFrame(len(self.frames), kind, time_ms, [], {}, [], {}, [], [], 0)

    def _close(self) -> None:
        frame = self.frame
        frame.wheel_times = list(self.wheel_times)
        frame.buckets = {key: BucketView(len(tasks), self.expiration[key], tuple(list(tasks)[:FRAME_SAMPLE]))
                         for key, tasks in self.content.items() if tasks}
        frame.pending = len(self.where)
        self.frames.append(frame)

    def _start(self, kind: str, time_ms: int) -> None:
        same = self.frame.kind == kind and self.frame.time_ms == time_ms and kind != "advance"
        if same:
            self.frames.pop()
        else:
            self.frame = self._new_frame(kind, time_ms)

    def _place(self, task: str, placement: Placement) -> None:
        assert placement.level is not None and placement.bucket is not None  # placed in a bucket, not fired
        assert placement.bucket_expiration_ms is not None
        key = (placement.level, placement.bucket)
        self.where[task] = key
        self.content.setdefault(key, {})[task] = None
        self.expiration[key] = placement.bucket_expiration_ms
        self.frame.arrived.setdefault(key, []).append(task)

    def _unplace(self, task: str) -> tuple[int, int] | None:
        key = self.where.pop(task, None)
        if key is not None:
            self.content[key].pop(task, None)
        return key

    def insert(self, record: TaskRecord) -> None:
        self._start("add", record.added_at_ms)
        self.wheel_times = list(record.wheel_times_at_insert)
        head = f"delay {record.delay_ms} ms, expires at {record.expiration_ms}"
        if record.inserted.fired:
            self.frame.fired.append(record.task_id)
            self._log(record.added_at_ms, "fire", record.task_id,
                      f"{head}: already expired (< wheel time {self.wheel_times[0]} + tick), runs at once")
        else:
            self._place(record.task_id, record.inserted)
            self._log(record.added_at_ms, "add", record.task_id, f"{head} → {_where(record.inserted, self.trace)}")
        self._close()

    def cancel(self, record: TaskRecord) -> None:
        self._start("cancel", record.cancelled_at_ms or 0)
        key = self._unplace(record.task_id)
        self._log(record.cancelled_at_ms or 0, "cancel", record.task_id,
                  f"completed before its timeout: unlinked from level {key[0]} bucket {key[1]} in O(1)"
                  if key else "completed before its timeout")
        self._close()

    def advance(self, advance: AdvanceRecord) -> None:
        self._start("advance", advance.time_ms)
        for drain in advance.buckets:
            key = (drain.level, drain.bucket)
            self.frame.drained.append(key)
            self.wheel_times = list(drain.wheel_times_after_advance)
            count = len(drain.fired) + len(drain.reinserted)
            self._log(advance.time_ms, "expire bucket", "",
                      f"level {drain.level} bucket {drain.bucket} (expires {drain.expiration_ms}) polled with "
                      f"{count} task(s); wheel times now {drain.wheel_times_after_advance}")
            for task, placement in drain.reinserted:
                self._unplace(task)
                self._place(task, placement)
                self._log(advance.time_ms, "reinsert", task,
                          f"drops from level {drain.level} to {_where(placement, self.trace)}")
            for task in drain.fired:
                self._unplace(task)
                self.frame.fired.append(task)
                record = self.trace.tasks[self._index[task]]
                self._log(advance.time_ms, "fire", task, f"fires (expiration {record.expiration_ms})")
            self.content.pop(key, None)
        self.wheel_times = list(advance.wheel_times_after)
        self._close()

    def _log(self, time_ms: int, event: str, task: str, detail: str) -> None:
        self.frame.log.append(LogLine(time_ms, event, task, detail))

    def build(self) -> list[WheelFrame]:
        self._index = {t.task_id: i for i, t in enumerate(self.trace.tasks)}
        for kind, i in self.trace.events:
            if kind == "insert":
                self.insert(self.trace.tasks[i])
            elif kind == "cancel":
                self.cancel(self.trace.tasks[i])
            else:
                self.advance(self.trace.advances[i])
        for i, frame in enumerate(self.frames):
            frame.step = i
        return self.frames


def _where(placement: Placement, trace: WheelTrace) -> str:
    tick = trace.levels[placement.level][0] if placement.level is not None else 0
    start = placement.bucket_expiration_ms or 0
    return f"level {placement.level} bucket {placement.bucket} [{start}, {start + tick - 1}]"


def wheel_frames(trace: WheelTrace) -> list[WheelFrame]:
    """Per-step frames of a traced run: frame 0 is the empty wheel at the start time."""
    return _FrameBuilder(trace).build()


def bucket_windows(wheel_times: Sequence[int], tick_ms: int, wheel_size: int) -> list[list[tuple[int, int]]]:
    """The javadoc's tables: per level, the time range of each bucket starting at the level's clock.

    ``bucket_windows([1, 0, 0], 1, 3)`` gives level 0 ``[1,1] [2,2] [3,3]``, level 1 ``[0,2] [3,5] [6,8]``
    and level 2 ``[0,8] [9,17] [18,26]``.
    """
    out = []
    tick = tick_ms
    for current in wheel_times:
        out.append([(current + i * tick, current + (i + 1) * tick - 1) for i in range(wheel_size)])
        tick *= wheel_size
    return out
