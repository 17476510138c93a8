"""``SystemTimer`` in virtual time (add, advanceClock over the ``DelayQueue``) and the binary-heap baseline."""


from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from engine.java.priority_queue import JavaPriorityQueue
from engine.server.timer.model import (
    AdvanceRecord,
    BucketDrain,
    OpCounters,
    Placement,
    TaskRecord,
    WheelConfig,
    WheelTrace,
)
from engine.server.timer.timer_task_list import TimerTaskEntry, TimerTaskList
from engine.server.timer.timing_wheel import TimingWheel

# --------------------------------------------------------------------------- the timers


class VirtualTimer(Protocol):
    now_ms: int
    counters: OpCounters

    def add(self, task_id: str, delay_ms: int) -> None: ...
    def cancel(self, task_id: str) -> bool: ...
    def next_expiration(self) -> int | None: ...
    def advance_clock(self) -> None: ...
    def size(self) -> int: ...


class WheelTimer:
    """Kafka's ``SystemTimer`` over a ``TimingWheel``, in virtual time, with an optional trace.

    ``add`` stamps the task with ``now_ms`` (as ``SystemTimer.add`` stamps the wall clock);
    ``advance_clock`` is ``SystemTimer.advanceClock``: poll each bucket whose expiration is
    ``<= now_ms``, advance the wheels to it, flush it by re-adding its tasks.
    """

    def __init__(self, config: WheelConfig, trace: bool = False,
                 on_fire: Callable[[str, int], None] | None = None) -> None:
        self.config = config
        self.now_ms = config.start_ms
        self.queue: JavaPriorityQueue[TimerTaskList] = JavaPriorityQueue()  # DelayQueue's order: by expiration
        self.wheel = TimingWheel(0, config.tick_ms, config.wheel_size, config.start_ms)
        self.task_count = 0
        self.counters = OpCounters()
        self.on_fire = on_fire
        self.tracing = trace
        self.task_records: dict[str, TaskRecord] = {}
        self.record_index: dict[str, int] = {}
        self.records: list[TaskRecord] = []
        self.advances: list[AdvanceRecord] = []
        self.events: list[tuple[str, int]] = []
        self.entries: dict[str, TimerTaskEntry] = {}
        self._hops = 0

    # -- the wheel hierarchy

    def levels(self) -> list[TimingWheel]:
        out = []
        wheel: TimingWheel | None = self.wheel
        while wheel is not None:
            out.append(wheel)
            wheel = wheel.overflow_wheel
        return out

    def wheel_times(self) -> list[int]:
        return [w.current_time_ms for w in self.levels()]

    def _wheel_add(self, entry: TimerTaskEntry) -> TimerTaskList | None:
        """``TimingWheel.add``: the bucket that took the entry, or None when already expired."""
        expiration = entry.expiration_ms
        wheel = self.wheel
        hops = 1
        while True:
            current = wheel.current_time_ms
            if expiration < current + wheel.tick_ms:
                self._hops += hops
                return None
            if expiration < current + wheel.interval_ms:
                virtual_id = expiration // wheel.tick_ms
                bucket = wheel.buckets[virtual_id % wheel.wheel_size]
                bucket.add(entry)
                self.task_count += 1
                if bucket.set_expiration(virtual_id * wheel.tick_ms):
                    self.queue.offer(bucket)  # a reused (or fresh) bucket goes back into the DelayQueue
                    self.counters.buckets_enqueued += 1
                self._hops += hops
                return bucket
            wheel = wheel.overflow_wheel or wheel.add_overflow_wheel()
            hops += 1

    def _add_entry(self, entry: TimerTaskEntry) -> TimerTaskList | None:
        """``SystemTimer.addTimerTaskEntry``: put in the wheel or run at once."""
        bucket = self._wheel_add(entry)
        if bucket is None:
            self._fire(entry)
        return bucket

    def _fire(self, entry: TimerTaskEntry) -> None:
        self.counters.expirations += 1
        self.entries.pop(entry.task_id, None)
        if self.tracing:
            self.task_records[entry.task_id].fired_at_ms = self.now_ms
        if self.on_fire is not None:
            self.on_fire(entry.task_id, self.now_ms)

    # -- the Timer interface

    def add(self, task_id: str, delay_ms: int) -> None:
        entry = TimerTaskEntry(task_id, delay_ms, self.now_ms)
        self.entries[task_id] = entry
        if self.tracing:
            record = TaskRecord(task_id, delay_ms, self.now_ms, entry.expiration_ms, Placement(True), [])
            self.task_records[task_id] = record
            self.record_index[task_id] = len(self.records)
            self.events.append(("insert", len(self.records)))
            self.records.append(record)
        comparisons, self._hops = self.queue.comparisons, 0
        bucket = self._add_entry(entry)
        self.counters.inserts += 1
        self.counters.insert_steps += self._hops + self.queue.comparisons - comparisons
        if self.tracing:
            record.inserted = _placement(bucket)
            record.wheel_times_at_insert = self.wheel_times()

    def cancel(self, task_id: str) -> bool:
        """``TimerTask.cancel``: unlink from its bucket in O(1); the bucket stays in the DelayQueue.

        False when the task is not waiting (already fired, cancelled, or unknown).
        """
        entry = self.entries.pop(task_id, None)
        if entry is None or entry.list is None:
            return False
        entry.list.remove(entry)
        self.task_count -= 1
        self.counters.cancels += 1
        self.counters.cancel_steps += 1
        if self.tracing:
            record = self.task_records[task_id]
            record.cancelled_at_ms = self.now_ms
            self.events.append(("cancel", self.record_index[task_id]))
        return True

    def next_expiration(self) -> int | None:
        head = self.queue.peek()
        return None if head is None else head.expiration_ms

    def advance_clock(self) -> None:
        """``SystemTimer.advanceClock``: drain every bucket with expiration ``<= now_ms``, heap order."""
        comparisons, self._hops = self.queue.comparisons, 0
        drains: list[BucketDrain] = []
        while self.queue.queue and self.queue.queue[0].expiration_ms <= self.now_ms:
            bucket = self.queue.poll()
            assert bucket is not None  # the head was checked above
            self.counters.buckets_polled += 1
            self.wheel.advance_clock(bucket.expiration_ms)
            drain = BucketDrain(bucket.level, bucket.index, bucket.expiration_ms,
                                self.wheel_times()) if self.tracing else None
            entries = bucket.flush()
            self.task_count -= len(entries)
            self._hops += len(entries)
            for entry in entries:
                placed = self._add_entry(entry)
                if placed is not None:
                    self.counters.reinserts += 1
                if drain is not None:
                    if placed is None:
                        drain.fired.append(entry.task_id)
                    else:
                        drain.reinserted.append((entry.task_id, _placement(placed)))
            if drain is not None:
                drains.append(drain)
        self.counters.expire_steps += self._hops + self.queue.comparisons - comparisons
        if self.tracing and drains:
            self.events.append(("advance", len(self.advances)))
            self.advances.append(AdvanceRecord(self.now_ms, drains, self.wheel_times()))

    def size(self) -> int:
        return self.task_count

    def to_trace(self) -> WheelTrace:
        levels = [(w.tick_ms, w.interval_ms) for w in self.levels()]
        return WheelTrace(self.config, self.records, self.advances, self.events, levels, self.task_count,
                          self.counters)


def _placement(bucket: TimerTaskList | None) -> Placement:
    if bucket is None:
        return Placement(True)
    return Placement(False, bucket.level, bucket.index, bucket.expiration_ms)


class HeapTimer:
    """What a bare ``DelayQueue`` of tasks would do: one binary heap keyed by expiration.

    Same interface as ``WheelTimer``; a task whose expiration is ``<= now_ms`` when added runs at
    once, every other one is polled when virtual time reaches its expiration (exactly, no ticks).
    """

    def __init__(self, start_ms: int = 0, on_fire: Callable[[str, int], None] | None = None) -> None:
        self.now_ms = start_ms
        self.queue: JavaPriorityQueue[TimerTaskEntry] = JavaPriorityQueue()  # by expiration
        self.counters = OpCounters()
        self.on_fire = on_fire
        self.entries: dict[str, TimerTaskEntry] = {}

    def add(self, task_id: str, delay_ms: int) -> None:
        entry = TimerTaskEntry(task_id, delay_ms, self.now_ms)
        self.counters.inserts += 1
        if entry.expiration_ms <= self.now_ms:
            self._fire(entry)
            return
        self.entries[task_id] = entry
        comparisons = self.queue.comparisons
        self.queue.offer(entry)
        self.counters.insert_steps += self.queue.comparisons - comparisons

    def cancel(self, task_id: str) -> bool:
        """``DelayQueue.remove(task)``: a linear search of the heap array, then a sift."""
        entry = self.entries.pop(task_id, None)
        if entry is None:
            return False
        comparisons = self.queue.comparisons
        self.queue.remove(entry)
        self.counters.cancels += 1
        self.counters.cancel_steps += self.queue.comparisons - comparisons
        return True

    def next_expiration(self) -> int | None:
        head = self.queue.peek()
        return None if head is None else head.expiration_ms

    def advance_clock(self) -> None:
        comparisons = self.queue.comparisons
        queue = self.queue
        while queue.queue and queue.queue[0].expiration_ms <= self.now_ms:
            entry = queue.poll()
            assert entry is not None  # the head was checked above
            del self.entries[entry.task_id]
            self._fire(entry)
        self.counters.expire_steps += self.queue.comparisons - comparisons

    def _fire(self, entry: TimerTaskEntry) -> None:
        self.counters.expirations += 1
        if self.on_fire is not None:
            self.on_fire(entry.task_id, self.now_ms)

    def size(self) -> int:
        return len(self.queue)
