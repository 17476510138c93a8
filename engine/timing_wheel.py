"""Kafka's hierarchical timing wheel (the purgatory timer) in virtual time, and a binary-heap baseline.

A faithful port of ``org.apache.kafka.server.util.timer``: ``TimingWheel`` (one level, overflow
wheels created on demand), ``TimerTaskList`` (a bucket: tasks in insertion order plus an
expiration that is enqueued in a ``DelayQueue`` only when it changes), ``SystemTimer`` (add: run at
once when "already expired"; advanceClock: poll every expired bucket, advance the wheels to the
bucket's expiration, flush the bucket by re-adding its tasks).  The ``DelayQueue`` is modelled as
the ``java.util.PriorityQueue`` behind it (same sift-up / sift-down), so buckets with equal
expirations come out in exactly Kafka's order.

Virtual time (the vectors' driver, ../shared/vectors/README.md): tasks are added in list order at
``add_at_ms`` (default ``start_ms``); before each add, every bucket expiring up to ``add_at_ms`` is
processed by an always-on-time reaper; after the last add, time jumps from one bucket expiration to
the next (never tick by tick) until the timer is empty.  Virtual ``now`` never goes backwards: a
bucket that expired before the current ``now`` (the wheel clock lags the add times) is drained at
``now``.

Worked example (the ``TimingWheel`` javadoc, tick u=1, wheel size n=3, start c=0): a task with
delay 3 goes to level 1 (tick 3) bucket 1 [3, 5]; a task with delay 9 to level 2 (tick 9) bucket 1
[9, 17].  At time 1 only level 0 moves (wheel times ``[1, 0, 0]``); at time 3 level 1 moves too
(``[3, 3, 0]``); the delay-3 task fires at 3 straight out of the level-1 bucket, and the delay-9 task
is reinserted from level 2 at time 9 and fires there::

    >>> trace = simulate(WheelConfig(tick_ms=1, wheel_size=3, start_ms=0),
    ...                  [TaskSpec("a", 3), TaskSpec("b", 9)])
    >>> [(a.time_ms, a.wheel_times_after) for a in trace.advances]
    [(3, [3, 3, 0]), (9, [9, 9, 9])]

``tests/test_timing_wheel.py`` asserts this and the whole javadoc walk-through.

Limits (stated in the UI and README): tick_ms 1..2^32, wheel_size 2..65,536, start_ms 0..2^42,
delay_ms 0..2^40, add_at_ms start_ms..2^42 and non-decreasing, task ids 1..64 characters and unique,
at most 100,000 tasks per traced run (the CLI), 1,000,000 for the untraced cost runs.  With these
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
