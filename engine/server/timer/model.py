"""The timer's configuration, tasks, limits, operation counters and the trace a run records."""


from __future__ import annotations

from dataclasses import dataclass, field

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
