"""Kafka's hierarchical timing wheel (the purgatory timer) in virtual time, and a binary-heap baseline.

A faithful port of ``org.apache.kafka.server.util.timer``: ``TimingWheel`` (one level, overflow
wheels created on demand), ``TimerTaskList`` (a bucket: tasks in insertion order plus an
expiration that is enqueued in a ``DelayQueue`` only when it changes), ``SystemTimer`` (add: run at
once when "already expired"; advanceClock: poll every expired bucket, advance the wheels to the
bucket's expiration, flush the bucket by re-adding its tasks).  The ``DelayQueue`` is modelled as
the ``java.util.PriorityQueue`` behind it (same sift-up / sift-down), so buckets with equal
expirations come out in exactly Kafka's order.

Virtual time (the vectors' driver, ../shared/vectors/README.md): tasks are added in list order at
``add_at_ms`` (default ``start_ms``); when ``add_at_ms`` is later than the current virtual now,
every bucket expiring up to it is processed first by an always-on-time reaper (two adds at the same
instant see the same wheel); optional ``cancel_at_ms`` (not in the vectors) cancels a waiting task; after the last add, time jumps from one bucket expiration to
the next (never tick by tick) until the timer is empty.  Virtual ``now`` never goes backwards: a
bucket that expired before the current ``now`` (the wheel clock lags the add times) is drained at
``now``.

Worked example (the ``TimingWheel`` javadoc, tick u=1, wheel size n=3, start c=0): a task with
delay 3 goes to level 1 (tick 3) bucket 1 [3, 5]; a task with delay 9 to level 2 (tick 9) bucket 1
[9, 17].  In the javadoc's walk-through level 0 alone moves at times 1 and 2; at time 3 level 1
moves too (``[3, 3, 0]``); the delay-3 task fires at 3 straight out of the level-1 bucket, and the delay-9 task
is reinserted from level 2 at time 9 and fires there::

    >>> trace = simulate(WheelConfig(tick_ms=1, wheel_size=3, start_ms=0),
    ...                  [TaskSpec("a", 3), TaskSpec("b", 9)])
    >>> [(a.time_ms, a.wheel_times_after) for a in trace.advances]
    [(3, [3, 3, 0]), (9, [9, 9, 9])]

``tests/test_timing_wheel.py`` asserts this and the whole javadoc walk-through.

Limits (stated in the UI and README): tick_ms 1..2^32, wheel_size 2..65,536, start_ms 0..2^42,
delay_ms 0..2^40, add_at_ms start_ms..2^42 and non-decreasing, task ids 1..64 characters and unique,
at most 100,000 tasks per traced run (the CLI), 1,000,000 for the untraced cost runs; the page
draws at most 2,000 tasks and wheel sizes up to 512.  With these
bounds every expiration and every level's interval fits a Java ``long`` as in Kafka.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.errors import LimitError, ScenarioError

MAX_TICK_MS = 2**32
MIN_WHEEL_SIZE = 2
MAX_WHEEL_SIZE = 65_536
MAX_START_MS = 2**42
MAX_DELAY_MS = 2**40
MAX_TASK_ID_LENGTH = 64
MAX_TRACED_TASKS = 100_000
MAX_UNTRACED_TASKS = 1_000_000
MAX_PAGE_TASKS = 2_000  # the dashboard draws every step of every task
MAX_PAGE_WHEEL_SIZE = 512  # the dashboard draws every bucket

KAFKA_TICK_MS = 1  # SystemTimer's defaults, used by every DelayedOperationPurgatory
KAFKA_WHEEL_SIZE = 20


# --------------------------------------------------------------------------- the DelayQueue


class JavaPriorityQueue:
    """``java.util.PriorityQueue`` (the heap inside ``DelayQueue``), ordered by ``expiration_ms``.

    Same array layout, sift-up and sift-down as the JDK, so equal keys leave in the JDK's order.
    ``comparisons`` counts key comparisons (the honest cost of a heap).  Offer 5, 3, 3 and poll
    three times: ``5`` sinks, the first ``3`` is the root, and the two ``3`` leave in offer order.
    """

    __slots__ = ("queue", "comparisons")

    def __init__(self) -> None:
        self.queue: list[Any] = []
        self.comparisons = 0

    def __len__(self) -> int:
        return len(self.queue)

    def peek(self) -> Any | None:
        return self.queue[0] if self.queue else None

    def offer(self, item: Any) -> None:
        es = self.queue
        es.append(item)
        k = len(es) - 1
        key = item.expiration_ms
        steps = 0
        while k > 0:
            parent = (k - 1) >> 1
            e = es[parent]
            steps += 1
            if key >= e.expiration_ms:
                break
            es[k] = e
            k = parent
        es[k] = item
        self.comparisons += steps

    def poll(self) -> Any | None:
        es = self.queue
        if not es:
            return None
        result = es[0]
        last = es.pop()
        if es:
            self._sift_down(last)
        return result

    def _sift_down(self, item: Any) -> None:
        es = self.queue
        n = len(es)
        key = item.expiration_ms
        k = 0
        half = n >> 1
        steps = 0
        while k < half:
            child = 2 * k + 1
            c = es[child]
            right = child + 1
            if right < n:
                steps += 1
                if c.expiration_ms > es[right].expiration_ms:
                    child = right
                    c = es[child]
            steps += 1
            if key <= c.expiration_ms:
                break
            es[k] = c
            k = child
        es[k] = item
        self.comparisons += steps

    def remove(self, item: Any) -> bool:
        """``PriorityQueue.remove(Object)``: a linear search by identity, then ``removeAt``."""
        es = self.queue
        for i, e in enumerate(es):
            self.comparisons += 1
            if e is item:
                self._remove_at(i)
                return True
        return False

    def _remove_at(self, i: int) -> None:
        es = self.queue
        last = es.pop()
        if i == len(es):
            return
        # JDK removeAt: sift the moved element down from i; if it did not move, sift it up.
        self._sift_down_from(i, last)
        if es[i] is last:
            self._sift_up_from(i, last)

    def _sift_down_from(self, k: int, item: Any) -> None:
        es = self.queue
        n = len(es)
        key = item.expiration_ms
        half = n >> 1
        while k < half:
            child = 2 * k + 1
            c = es[child]
            right = child + 1
            if right < n:
                self.comparisons += 1
                if c.expiration_ms > es[right].expiration_ms:
                    child = right
                    c = es[child]
            self.comparisons += 1
            if key <= c.expiration_ms:
                break
            es[k] = c
            k = child
        es[k] = item

    def _sift_up_from(self, k: int, item: Any) -> None:
        es = self.queue
        key = item.expiration_ms
        while k > 0:
            parent = (k - 1) >> 1
            e = es[parent]
            self.comparisons += 1
            if key >= e.expiration_ms:
                break
            es[k] = e
            k = parent
        es[k] = item


# --------------------------------------------------------------------------- entries and buckets


class TimerTaskEntry:
    """One scheduled task (``TimerTaskEntry`` + its ``TimerTask``): id, delay and absolute expiration."""

    __slots__ = ("task_id", "delay_ms", "added_at_ms", "expiration_ms", "list")

    def __init__(self, task_id: str, delay_ms: int, added_at_ms: int) -> None:
        self.task_id = task_id
        self.delay_ms = delay_ms
        self.added_at_ms = added_at_ms
        self.expiration_ms = added_at_ms + delay_ms
        self.list: TimerTaskList | None = None


class TimerTaskList:
    """A bucket: tasks in insertion order and an expiration (-1 while unused), as Kafka's ``TimerTaskList``.

    The insertion-ordered dict plays the doubly linked list: O(1) append, O(1) removal (cancel),
    and ``flush`` hands the tasks out head first.
    """

    __slots__ = ("level", "index", "expiration_ms", "entries")

    def __init__(self, level: int, index: int) -> None:
        self.level = level
        self.index = index
        self.expiration_ms = -1
        self.entries: dict[TimerTaskEntry, None] = {}

    def add(self, entry: TimerTaskEntry) -> None:
        if entry.list is not None:
            entry.list.remove(entry)
        self.entries[entry] = None
        entry.list = self

    def remove(self, entry: TimerTaskEntry) -> None:
        if entry.list is self:
            del self.entries[entry]
            entry.list = None

    def set_expiration(self, expiration_ms: int) -> bool:
        """Set the expiration; True when it changed (then the bucket must be enqueued again)."""
        changed = self.expiration_ms != expiration_ms
        self.expiration_ms = expiration_ms
        return changed

    def flush(self) -> list[TimerTaskEntry]:
        """Remove every task (head first) and reset the expiration to -1."""
        entries = list(self.entries)
        self.entries = {}
        for entry in entries:
            entry.list = None
        self.expiration_ms = -1
        return entries


# --------------------------------------------------------------------------- one wheel level


class TimingWheel:
    """One level of Kafka's ``TimingWheel``: ``wheel_size`` buckets of ``tick_ms`` each.

    ``current_time_ms`` is always a multiple of ``tick_ms`` (rounded down).  A task whose expiration
    is below ``current_time_ms + tick_ms`` is "already expired"; one below ``current_time_ms +
    interval_ms`` goes into bucket ``(expiration // tick_ms) % wheel_size``; anything later goes to
    the overflow wheel (tick = this interval), created on demand with this wheel's current time.
    """

    __slots__ = ("level", "tick_ms", "wheel_size", "interval_ms", "current_time_ms", "buckets", "overflow_wheel")

    def __init__(self, level: int, tick_ms: int, wheel_size: int, start_ms: int) -> None:
        self.level = level
        self.tick_ms = tick_ms
        self.wheel_size = wheel_size
        self.interval_ms = tick_ms * wheel_size
        self.current_time_ms = start_ms - (start_ms % tick_ms)
        self.buckets = [TimerTaskList(level, i) for i in range(wheel_size)]
        self.overflow_wheel: TimingWheel | None = None

    def add_overflow_wheel(self) -> TimingWheel:
        if self.overflow_wheel is None:
            self.overflow_wheel = TimingWheel(self.level + 1, self.interval_ms, self.wheel_size, self.current_time_ms)
        return self.overflow_wheel

    def advance_clock(self, time_ms: int) -> None:
        """Move this wheel (and the overflow wheels above it) to ``time_ms`` rounded down to a tick."""
        wheel: TimingWheel | None = self
        while wheel is not None and time_ms >= wheel.current_time_ms + wheel.tick_ms:
            wheel.current_time_ms = time_ms - (time_ms % wheel.tick_ms)
            time_ms = wheel.current_time_ms
            wheel = wheel.overflow_wheel


# --------------------------------------------------------------------------- counters and trace


@dataclass
class OpCounters:
    """Counted work of a timer, split into the insert path and the expire path.

    Wheel: insert steps = wheel levels visited + DelayQueue comparisons when a bucket is enqueued;
    expire steps = DelayQueue comparisons on poll + one per task handed out by a bucket flush +
    the levels visited when re-adding it; cancel steps = 1 (unlink from the bucket).  Heap: insert
    steps = sift-up comparisons; expire steps = sift-down comparisons; cancel steps = the linear
    search of ``PriorityQueue.remove(Object)`` plus the sifts of ``removeAt``.
    """

    inserts: int = 0
    insert_steps: int = 0
    expirations: int = 0
    expire_steps: int = 0
    reinserts: int = 0
    cancels: int = 0
    cancel_steps: int = 0
    buckets_enqueued: int = 0
    buckets_polled: int = 0


@dataclass(frozen=True)
class WheelConfig:
    tick_ms: int = KAFKA_TICK_MS
    wheel_size: int = KAFKA_WHEEL_SIZE
    start_ms: int = 0


@dataclass(frozen=True)
class TaskSpec:
    """A task to schedule: ``delay_ms`` after ``add_at_ms`` (``None`` = the timer's start time)."""

    task_id: str
    delay_ms: int
    add_at_ms: int | None = None
    cancel_at_ms: int | None = None  # the operation completes first (TimerTask.cancel); not in the vectors


@dataclass
class Placement:
    """Where an add (or a reinsertion) put a task: a wheel bucket, or fired at once."""

    fired: bool
    level: int | None = None
    bucket: int | None = None
    bucket_expiration_ms: int | None = None


@dataclass
class TaskRecord:
    task_id: str
    delay_ms: int
    added_at_ms: int
    expiration_ms: int
    inserted: Placement
    wheel_times_at_insert: list[int]
    fired_at_ms: int | None = None
    cancelled_at_ms: int | None = None


@dataclass
class BucketDrain:
    level: int
    bucket: int
    expiration_ms: int
    wheel_times_after_advance: list[int]
    reinserted: list[tuple[str, Placement]] = field(default_factory=list)
    fired: list[str] = field(default_factory=list)


@dataclass
class AdvanceRecord:
    time_ms: int
    buckets: list[BucketDrain]
    wheel_times_after: list[int]


@dataclass
class WheelTrace:
    """Everything that happened, in order: ``events`` interleaves ("insert", i) and ("advance", i)."""

    config: WheelConfig
    tasks: list[TaskRecord]
    advances: list[AdvanceRecord]
    events: list[tuple[str, int]]
    levels: list[tuple[int, int]]
    final_size: int
    counters: OpCounters


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
        self.queue = JavaPriorityQueue()
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
        self.queue = JavaPriorityQueue()
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
            del self.entries[entry.task_id]
            self._fire(entry)
        self.counters.expire_steps += self.queue.comparisons - comparisons

    def _fire(self, entry: TimerTaskEntry) -> None:
        self.counters.expirations += 1
        if self.on_fire is not None:
            self.on_fire(entry.task_id, self.now_ms)

    def size(self) -> int:
        return len(self.queue)


# --------------------------------------------------------------------------- the virtual-time driver


def advance_to(timer: VirtualTimer, time_ms: int) -> None:
    """The always-on-time reaper: when time moves on, process every expiration up to ``time_ms``.

    Virtual now jumps to the earliest expiration (never backwards) and ``advance_clock`` drains
    everything due by then; this repeats while the earliest expiration is ``<= time_ms``.  When
    ``time_ms`` is the current now nothing runs (the reaper only acts when the clock moves), as in
    the vectors' driver: two tasks added at the same instant see the same wheel.
    """
    if time_ms <= timer.now_ms:
        return
    while (head := timer.next_expiration()) is not None and head <= time_ms:
        timer.now_ms = max(timer.now_ms, head)
        timer.advance_clock()
    timer.now_ms = max(timer.now_ms, time_ms)


def drain(timer: VirtualTimer) -> None:
    """Run until the timer is empty, jumping from one expiration to the next."""
    while (head := timer.next_expiration()) is not None:
        timer.now_ms = max(timer.now_ms, head)
        timer.advance_clock()


def operations(tasks: Sequence[TaskSpec], start_ms: int) -> list[tuple[int, int, int, TaskSpec]]:
    """Adds (list order) and cancels merged by time: ``(time, 0 add | 1 cancel, seq, task)``.

    At equal times adds come first, so a task cancelled at its own add time is added, then cancelled.
    """
    ops = [(start_ms if t.add_at_ms is None else t.add_at_ms, 0, i, t) for i, t in enumerate(tasks)]
    ops += [(t.cancel_at_ms, 1, i, t) for i, t in enumerate(tasks) if t.cancel_at_ms is not None]
    return sorted(ops, key=lambda op: op[:3])


def run_tasks(timer: VirtualTimer, tasks: Sequence[TaskSpec], start_ms: int) -> None:
    """Add the tasks in order (each at its ``add_at_ms``, default ``start_ms``), cancel those with a
    ``cancel_at_ms`` at that time (if still waiting), then drain."""
    if all(t.cancel_at_ms is None for t in tasks):
        for task in tasks:
            advance_to(timer, start_ms if task.add_at_ms is None else task.add_at_ms)
            timer.add(task.task_id, task.delay_ms)
    else:
        for time_ms, kind, _, task in operations(tasks, start_ms):
            advance_to(timer, time_ms)
            if kind == 0:
                timer.add(task.task_id, task.delay_ms)
            else:
                timer.cancel(task.task_id)
    drain(timer)


def simulate(config: WheelConfig, tasks: Sequence[TaskSpec]) -> WheelTrace:
    """Run the wheel over the tasks with the full trace (validated input, at most MAX_TRACED_TASKS)."""
    validate(config, tasks, MAX_TRACED_TASKS)
    timer = WheelTimer(config, trace=True)
    run_tasks(timer, tasks, config.start_ms)
    return timer.to_trace()


def fire_times(timer_factory: Callable[[Callable[[str, int], None]], VirtualTimer], tasks: Sequence[TaskSpec],
               start_ms: int) -> dict[str, list[int]]:
    """Every firing of every task (a list, so a double firing would show) under either timer."""
    fired: dict[str, list[int]] = {}
    timer = timer_factory(lambda task_id, at: fired.setdefault(task_id, []).append(at))
    run_tasks(timer, tasks, start_ms)
    return fired


# --------------------------------------------------------------------------- validation and JSON


def validate(config: WheelConfig, tasks: Sequence[TaskSpec], max_tasks: int) -> None:
    """Raise a one-line ScenarioError/LimitError naming the first bad field."""
    validate_config(config)
    if len(tasks) > max_tasks:
        raise LimitError(f"tasks: at most {max_tasks:,} tasks, got {len(tasks):,}")
    seen: set[str] = set()
    previous = config.start_ms
    for i, task in enumerate(tasks):
        _validate_task(i, task, seen, previous, config.start_ms)
        seen.add(task.task_id)
        previous = config.start_ms if task.add_at_ms is None else task.add_at_ms


def validate_config(config: WheelConfig) -> None:
    _int_in("tick_ms", config.tick_ms, 1, MAX_TICK_MS)
    _int_in("wheel_size", config.wheel_size, MIN_WHEEL_SIZE, MAX_WHEEL_SIZE,
            " (with 1 bucket every overflow wheel is as coarse as the one below and Kafka recurses forever)")
    _int_in("start_ms", config.start_ms, 0, MAX_START_MS)


def _validate_task(i: int, task: TaskSpec, seen: set[str], previous_add_at: int, start_ms: int) -> None:
    if not isinstance(task.task_id, str) or not 1 <= len(task.task_id) <= MAX_TASK_ID_LENGTH:
        raise ScenarioError(f"tasks[{i}].id: a string of 1..{MAX_TASK_ID_LENGTH} characters, got {task.task_id!r:.80}")
    if task.task_id in seen:
        raise ScenarioError(f"tasks[{i}].id: duplicate {task.task_id!r}")
    _int_in(f"tasks[{i}].delay_ms", task.delay_ms, 0, MAX_DELAY_MS)
    add_at = start_ms if task.add_at_ms is None else task.add_at_ms
    if task.add_at_ms is not None:
        _int_in(f"tasks[{i}].add_at_ms", task.add_at_ms, 0, MAX_START_MS)
    if add_at < previous_add_at:
        raise ScenarioError(f"tasks[{i}].add_at_ms: time cannot go back (>= {previous_add_at}, "
                            f"the previous task's add time), got {add_at}")
    if task.cancel_at_ms is not None:
        _int_in(f"tasks[{i}].cancel_at_ms", task.cancel_at_ms, add_at, MAX_START_MS + MAX_DELAY_MS,
                " (not before the task is added)")


def _int_in(name: str, value: Any, low: int, high: int, why: str = "") -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(f"{name}: an integer is required, got {value!r:.80}")
    if not low <= value <= high:
        raise ScenarioError(f"{name}: must be in {low:,}..{high:,}{why}, got {value:,}")


def parse_case(payload: Any) -> tuple[WheelConfig, list[TaskSpec]]:
    """The CLI input (spec section 4) as a config and task list; bad input raises ScenarioError."""
    if not isinstance(payload, dict):
        raise ScenarioError(f"input: a JSON object is required, got {type(payload).__name__}")
    config = WheelConfig(payload.get("tick_ms", KAFKA_TICK_MS), payload.get("wheel_size", KAFKA_WHEEL_SIZE),
                         payload.get("start_ms", 0))
    validate_config(config)
    raw_tasks = payload.get("tasks")
    if not isinstance(raw_tasks, list):
        raise ScenarioError(f"tasks: a list is required, got {raw_tasks!r:.80}")
    if len(raw_tasks) > MAX_TRACED_TASKS:
        raise LimitError(f"tasks: at most {MAX_TRACED_TASKS:,} tasks, got {len(raw_tasks):,}")
    tasks = [_parse_task(i, raw) for i, raw in enumerate(raw_tasks)]
    validate(config, tasks, MAX_TRACED_TASKS)
    return config, tasks


def _parse_task(i: int, raw: Any) -> TaskSpec:
    if not isinstance(raw, dict):
        raise ScenarioError(f"tasks[{i}]: an object with id and delay_ms is required, got {raw!r:.80}")
    if "id" not in raw or "delay_ms" not in raw:
        raise ScenarioError(f"tasks[{i}]: id and delay_ms are required, got keys {sorted(raw)!r:.80}")
    return TaskSpec(raw["id"], raw["delay_ms"], raw.get("add_at_ms"), raw.get("cancel_at_ms"))


def placement_dict(placement: Placement, with_fired_key: bool = False) -> dict[str, Any]:
    if placement.fired:
        return {"fired_immediately": True}
    out: dict[str, Any] = {"fired": False} if with_fired_key else {"fired_immediately": False}
    out.update(level=placement.level, bucket=placement.bucket, bucket_expiration_ms=placement.bucket_expiration_ms)
    return out


def trace_to_dict(trace: WheelTrace) -> dict[str, Any]:
    """The ``expected`` shape of ../shared/vectors/timing_wheel.json."""
    tasks = [{"task": t.task_id, "delay_ms": t.delay_ms, "added_at_ms": t.added_at_ms,
              "expiration_ms": t.expiration_ms, "inserted": placement_dict(t.inserted),
              "wheel_times_at_insert": t.wheel_times_at_insert, "fired_at_ms": t.fired_at_ms}
             for t in trace.tasks]
    for out, t in zip(tasks, trace.tasks):
        if t.cancelled_at_ms is not None:
            out["cancelled_at_ms"] = t.cancelled_at_ms
    advances = [{"time_ms": a.time_ms, "wheel_times_after": a.wheel_times_after,
                 "buckets": [{"level": b.level, "bucket": b.bucket, "expiration_ms": b.expiration_ms,
                              "wheel_times_after_advance": b.wheel_times_after_advance,
                              "reinserted": [{"task": task_id, **placement_dict(p, with_fired_key=True)}
                                             for task_id, p in b.reinserted],
                              "fired": b.fired} for b in a.buckets]}
                for a in trace.advances]
    return {"tasks": tasks, "advances": advances,
            "levels": [{"tick_ms": tick, "interval_ms": interval} for tick, interval in trace.levels],
            "final_size": trace.final_size}


def cli_wheel(payload: Any) -> dict[str, Any]:
    """``python -m engine wheel``: one case in, the vectors' ``expected`` shape out."""
    config, tasks = parse_case(payload)
    return trace_to_dict(simulate(config, tasks))


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


# --------------------------------------------------------------------------- task sources


def parse_task_lines(text: str, max_tasks: int = MAX_PAGE_TASKS) -> list[TaskSpec]:
    """Tasks typed by hand, one per line: ``id, delay_ms[, add_at_ms[, cancel_at_ms]]``.

    Blank lines and ``#`` comments are skipped; ``-`` leaves an optional field empty.
    ``"a, 25\nb, 7, 3"`` gives ``[TaskSpec("a", 25), TaskSpec("b", 7, 3)]``.
    """
    tasks = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if len(tasks) >= max_tasks:
            raise LimitError(f"tasks: at most {max_tasks:,} tasks, line {number} is one too many")
        fields = [f.strip() for f in line.split(",")]
        if not 2 <= len(fields) <= 4:
            raise ScenarioError(f"line {number}: expected 'id, delay_ms[, add_at_ms[, cancel_at_ms]]', "
                                f"got {line!r:.80}")
        numbers = [_line_int(number, name, value) for name, value in
                   zip(("delay_ms", "add_at_ms", "cancel_at_ms"), fields[1:])]
        numbers += [None] * (3 - len(numbers))
        if numbers[0] is None:
            raise ScenarioError(f"line {number}: delay_ms is required")
        tasks.append(TaskSpec(fields[0], numbers[0], numbers[1], numbers[2]))
    return tasks


def _line_int(number: int, name: str, value: str) -> int | None:
    if value in ("", "-"):
        return None
    try:
        return int(value)
    except ValueError:
        raise ScenarioError(f"line {number}: {name} must be an integer, got {value!r:.40}") from None


def random_tasks(count: int, seed: int, max_delay_ms: int, spread_ms: int = 0, start_ms: int = 0,
                 prefix: str = "t") -> list[TaskSpec]:
    """``count`` tasks with delays uniform in 0..max_delay_ms, added uniformly over ``spread_ms``."""
    if not 0 <= count <= MAX_UNTRACED_TASKS:
        raise LimitError(f"count: must be in 0..{MAX_UNTRACED_TASKS:,}, got {count:,}")
    _int_in("max_delay_ms", max_delay_ms, 0, MAX_DELAY_MS)
    _int_in("spread_ms", spread_ms, 0, MAX_DELAY_MS)
    rng = random.Random(seed)
    adds = sorted(start_ms + rng.randint(0, spread_ms) for _ in range(count)) if spread_ms else [None] * count
    return [TaskSpec(f"{prefix}{i}", rng.randint(0, max_delay_ms), add) for i, add in enumerate(adds)]


REQUEST_TIMEOUT_MS = 30_000  # producer request.timeout.ms: the broker's DelayedProduce timeout (acks=all)
FETCH_MAX_WAIT_MS = 500  # consumer fetch.max.wait.ms: DelayedFetch timeout
HEARTBEAT_INTERVAL_MS = 3_000  # consumer heartbeat.interval.ms
SESSION_TIMEOUT_MS = 10_000  # session.timeout.ms (classic group protocol: DelayedHeartbeat timeout)


def kafka_preset(seed: int, duration_ms: int = 20_000, members: int = 3, produce_every_ms: int = 250,
                 fetch_every_ms: int = 400, start_ms: int = 0) -> list[TaskSpec]:
    """Delayed operations modelled on a broker's purgatories, ordered by add time.

    * produce (acks=all) waits up to request.timeout.ms = 30 s for the ISR; 95% complete after
      2..60 ms of replication (cancelled), 5% time out (a follower is stuck);
    * fetch waits up to fetch.max.wait.ms = 500 ms for fetch.min.bytes; 60% are completed early by
      new data, the rest time out and return what there is;
    * classic-protocol heartbeats every 3 s each schedule the member's expiration at
      session.timeout.ms = 10 s and complete the previous one; the last member stops
      heartbeating halfway, so its expiration fires 10 s after its last heartbeat.
    """
    rng = random.Random(seed)
    ops: list[tuple[int, str, int, int | None]] = []
    for i, t in enumerate(range(0, duration_ms, produce_every_ms)):
        at = t + rng.randint(0, produce_every_ms - 1)
        done = at + rng.randint(2, 60) if rng.random() < 0.95 else None
        ops.append((at, f"produce-{i}", REQUEST_TIMEOUT_MS, done))
    for i, t in enumerate(range(0, duration_ms, fetch_every_ms)):
        at = t + rng.randint(0, fetch_every_ms - 1)
        done = at + rng.randint(0, FETCH_MAX_WAIT_MS - 1) if rng.random() < 0.6 else None
        ops.append((at, f"fetch-{i}", FETCH_MAX_WAIT_MS, done))
    for m in range(members):
        stops = duration_ms // 2 if m == members - 1 else duration_ms
        beats = list(range(rng.randint(0, HEARTBEAT_INTERVAL_MS - 1), stops, HEARTBEAT_INTERVAL_MS))
        crashed = m == members - 1
        for k, at in enumerate(beats):
            last = k + 1 == len(beats)
            nxt = None if last and crashed else at + HEARTBEAT_INTERVAL_MS  # the next heartbeat completes it
            ops.append((at, f"session-m{m}-{k}", SESSION_TIMEOUT_MS, nxt))
    ops.sort(key=lambda op: op[0])
    return [TaskSpec(name, delay, start_ms + at, None if done is None else start_ms + done)
            for at, name, delay, done in ops]


# --------------------------------------------------------------------------- cost measurement


@dataclass(frozen=True)
class CostRow:
    """One timer's measured cost for ``tasks`` inserts and a full drain (counted steps and seconds)."""

    timer: str
    tasks: int
    insert_seconds: float
    expire_seconds: float
    insert_steps: int
    expire_steps: int
    levels: int
    buckets_polled: int


def cost_delays(count: int, seed: int, max_delay_ms: int = 60_000, order: str = "random") -> list[int]:
    """Delays uniform in 1..max_delay_ms, in random, ascending or descending (the heap's worst) order."""
    rng = random.Random(seed)
    delays = [rng.randint(1, max_delay_ms) for _ in range(count)]
    if order == "ascending":
        delays.sort()
    elif order == "descending":
        delays.sort(reverse=True)
    elif order != "random":
        raise ScenarioError(f"order: one of random, ascending, descending, got {order!r}")
    return delays


def measure_costs(count: int, seed: int = 1, max_delay_ms: int = 60_000, config: WheelConfig = WheelConfig(),
                  order: str = "random") -> list[CostRow]:
    """Insert ``count`` tasks at the start time, then drain, on the (untraced) wheel and on the heap."""
    if not 1 <= count <= MAX_UNTRACED_TASKS:
        raise LimitError(f"tasks: must be in 1..{MAX_UNTRACED_TASKS:,}, got {count:,}")
    validate_config(config)
    delays = cost_delays(count, seed, max_delay_ms, order)
    ids = [f"t{i}" for i in range(count)]
    wheel = WheelTimer(config)
    heap = HeapTimer(config.start_ms)
    rows = []
    for name, timer in (("timing wheel", wheel), ("binary heap (DelayQueue)", heap)):
        insert_s, expire_s = _timed_run(timer, ids, delays)
        levels = len(wheel.levels()) if timer is wheel else 1
        polled = timer.counters.buckets_polled if timer is wheel else timer.counters.expirations
        rows.append(CostRow(name, count, insert_s, expire_s, timer.counters.insert_steps,
                            timer.counters.expire_steps, levels, polled))
    return rows


def _timed_run(timer: VirtualTimer, ids: Sequence[str], delays: Sequence[int]) -> tuple[float, float]:
    add = timer.add
    t0 = time.perf_counter()
    for task_id, delay in zip(ids, delays):
        add(task_id, delay)
    t1 = time.perf_counter()
    drain(timer)
    return t1 - t0, time.perf_counter() - t1
