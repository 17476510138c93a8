"""Share consumers in virtual time: the workload the page animates and the sizing measures.

Each consumer loops: a share fetch (``max_records``), then it processes the records it got one after another
(``processing_ms`` each) and acknowledges them all at once: ACCEPT, or RELEASE for a *poison* record (its
processing fails every time), or REJECT for a record it refuses.  A fetch that gets nothing waits
``poll_ms`` (Kafka's ``fetch.max.wait.ms`` default, 500) and tries again.  One consumer may fail at
``failure_ms``: a **crash** (it stops; its locks run out later) or a **leave** (it closes its share session:
its records are released at once).  Every event goes through the same ``replay.apply`` as the CLI, so the
``SharePartition`` answers exactly as Kafka's class does; only the consumers' behaviour is the lab's.

Records are produced up front in log batches of ``log_batch``; record ``o`` has key ``o % keys``.  The share
group's ``share.auto.offset.reset`` is ``earliest`` (``RESET``): under Kafka's default ``latest`` the partition
would start at the log end and the consumers would get none of the records produced before them.

>>> run = simulate(Workload(records=20, consumers=2, max_records=5, processing_ms=100, failure=None))
>>> run.final_start, sorted({h.member for h in run.handled}), len(run.handled)
(20, ['C1', 'C2'], 20)
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, Literal

from engine.errors import InputError
from engine.share.case import WINDOW_SLACK, Ack, Crash, Event, Fetch, Leave, Tick
from engine.share.log import ShareLog
from engine.share.record_state import RecordState
from engine.share.replay import Step, apply, check_window
from engine.share.settings import EARLIEST, ResetStrategy, ShareSettings
from engine.share.share_partition import AckBatch, FetchResult, SharePartition

MAX_RECORDS: Final = 100_000
MAX_CONSUMERS: Final = 500
POLL_MS: Final = 500  # fetch.max.wait.ms default: an empty share fetch waits this long
RESET: Final[ResetStrategy] = EARLIEST  # the group's share.auto.offset.reset: records are produced up front
FailureKind = Literal["crash", "leave"]


@dataclass(frozen=True, kw_only=True)
class Workload:
    records: int = 60
    log_batch: int = 5
    keys: int = 6
    consumers: int = 3
    max_records: int = 10
    processing_ms: int = 500
    failure: FailureKind | None = "crash"
    failing_member: str = "C1"
    failure_ms: int = 2_000
    poison: frozenset[int] = frozenset()
    rejected: frozenset[int] = frozenset()
    settings: ShareSettings = field(default_factory=ShareSettings)
    poll_ms: int = POLL_MS
    horizon_ms: int = 600_000

    def members(self) -> list[str]:
        return [f"C{i + 1}" for i in range(self.consumers)]

    def key_of(self, offset: int) -> int:
        return offset % self.keys


@dataclass(frozen=True)
class Handling:
    """A consumer finished processing one delivery of a record (``ok`` False: a poison record failed)."""

    member: str
    offset: int
    delivery_count: int
    done_ms: int
    ok: bool


@dataclass(frozen=True)
class Outcome:
    """Records that became final together: ``state`` ACKNOWLEDGED or ARCHIVED; ``at_limit``: archived by the
    delivery limit rather than by a REJECT."""

    first: int
    last: int
    state: RecordState
    at_limit: bool
    at_ms: int


@dataclass
class SimulationRun:
    workload: Workload
    steps: list[Step]
    handled: list[Handling]
    outcomes: list[Outcome]
    final_start: int
    end_ms: int
    #: each fetch that acquired something: (t, member, ranges)
    deliveries: list[tuple[int, str, list[tuple[int, int, int]]]] = field(default_factory=list)


def parse_offsets(text: str, field: str, records: int) -> frozenset[int]:
    """``"3, 17"`` -> ``{3, 17}``: record offsets typed by hand, each a whole number below ``records``.

    >>> sorted(parse_offsets("7, 3", "poison", 60)), parse_offsets("", "poison", 60)
    ([3, 7], frozenset())
    """
    found = set()
    for token in text.replace(";", ",").split(","):
        token = token.strip()
        if not token:
            continue
        if not token.isdigit() or int(token) >= records:
            raise InputError(f"{field}: {token[:20]!r} is not an offset 0..{records - 1}")
        found.add(int(token))
    return frozenset(found)


def check_workload(w: Workload) -> None:
    """Inputs in range (the work is estimated by whoever runs it: ``engine.cost.share_consumers``)."""
    limits = {"records": (w.records, 1, MAX_RECORDS), "consumers": (w.consumers, 1, MAX_CONSUMERS),
              "log_batch": (w.log_batch, 1, MAX_RECORDS), "keys": (w.keys, 1, MAX_RECORDS),
              "max_records": (w.max_records, 1, 10_000), "processing_ms": (w.processing_ms, 1, 600_000),
              "failure_ms": (w.failure_ms, 0, w.horizon_ms), "poll_ms": (w.poll_ms, 1, 60_000)}
    for name, (value, low, high) in limits.items():
        if not low <= value <= high:
            raise InputError(f"{name}: {value} is outside {low}..{high}")
    if w.failure is not None and w.failing_member not in w.members():
        raise InputError(f"failing_member: {w.failing_member!r} is not one of C1..C{w.consumers}")


def window_cap(w: Workload) -> int:
    """As ``case.window_cap``: ``WINDOW_SLACK`` x (the lock limit + one fetch + one log batch), at most every
    record."""
    return min(w.records, WINDOW_SLACK * (w.settings.max_record_locks + w.max_records + w.log_batch))


def event_bound(w: Workload) -> int:
    """At most two events (fetch, ack) per delivery, each record delivered at most ``delivery_count_limit``
    times, plus every consumer's empty polls over the horizon."""
    deliveries = w.records * w.settings.delivery_count_limit
    idle = w.consumers * (w.horizon_ms // w.poll_ms + 1)
    return 2 * deliveries + idle + 2


Observer = Callable[[Step, SharePartition, "SimulationRun"], None]


def simulate(w: Workload, observe: Observer | None = None) -> SimulationRun:
    """Run the consumers until every record is final or the horizon passes; ``observe`` sees the partition
    after every event."""
    check_workload(w)
    log = ShareLog((first, min(first + w.log_batch, w.records) - 1) for first in range(0, w.records, w.log_batch))
    partition = SharePartition(w.settings, log, RESET)
    outcomes: list[Outcome] = []
    now = [0]
    partition.on_final = lambda f, la, state, limit: outcomes.append(Outcome(f, la, state, limit, now[0]))
    run = SimulationRun(w, [], [], outcomes, 0, 0)
    queue: list[tuple[int, int, str, Event]] = []
    seq = 0

    def push(event: Event, member: str) -> None:
        nonlocal seq
        heapq.heappush(queue, (event.t, seq, member, event))
        seq += 1

    for member in w.members():
        push(Fetch(0, member, w.max_records), member)
    if w.failure is not None:
        push((Crash if w.failure == "crash" else Leave)(w.failure_ms, w.failing_member), w.failing_member)
    stopped_at: dict[str, int] = {}
    cap = window_cap(w)
    while queue and partition.start < w.records:
        t, _, member, event = heapq.heappop(queue)
        if t > w.horizon_ms:
            break
        if member in stopped_at and not isinstance(event, (Crash, Leave)):
            continue
        now[0] = t
        step = apply(partition, event)
        check_window(partition, cap, f"event {len(run.steps)}")
        run.steps.append(step)
        if observe is not None:
            observe(step, partition, run)
        if isinstance(event, (Crash, Leave)):
            stopped_at[member] = t
        elif isinstance(event, Fetch):
            _schedule_processing(w, step.result, member, t, push, run)
        elif isinstance(event, Ack):
            push(Fetch(t, member, w.max_records), member)
    end = run.steps[-1].event.t if run.steps else 0
    now[0] = end + 1
    run.steps.append(apply(partition, Tick(end + 1)))  # locks due by then fire, so the final state shows
    if observe is not None:
        observe(run.steps[-1], partition, run)
    _drop_unfinished(run, stopped_at)
    run.final_start, run.end_ms = partition.start, end
    return run


def _schedule_processing(w: Workload, result: object, member: str, t: int, push: object,
                         run: SimulationRun) -> None:
    assert isinstance(result, FetchResult) and callable(push)
    offsets = [(o, d) for first, last, d in result.acquired for o in range(first, last + 1)]
    if not offsets:
        push(Fetch(t + w.poll_ms, member, w.max_records), member)
        return
    run.deliveries.append((t, member, result.acquired))
    done = t
    for o, d in offsets:
        done += w.processing_ms
        run.handled.append(Handling(member, o, d, done, o not in w.poison and o not in w.rejected))
    push(Ack(done, member, tuple(_ack_batches(w, [o for o, _ in offsets]))), member)


def _ack_batches(w: Workload, offsets: list[int]) -> list[AckBatch]:
    """Consecutive offsets in one batch, a type per offset where they differ."""
    batches: list[AckBatch] = []
    run: list[int] = []
    for o in offsets + [-2]:
        if run and o != run[-1] + 1:
            types = tuple(_type(w, x) for x in run)
            single = types[0] if len(set(types)) == 1 else None
            batches.append(AckBatch(run[0], run[-1], type=single) if single else
                           AckBatch(run[0], run[-1], types=types))
            run = []
        run.append(o)
    return batches


def _type(w: Workload, offset: int) -> str:
    return "RELEASE" if offset in w.poison else "REJECT" if offset in w.rejected else "ACCEPT"


def _drop_unfinished(run: SimulationRun, stopped_at: dict[str, int]) -> None:
    """A consumer that stopped finished only what it processed before it stopped."""
    run.handled = [h for h in run.handled if h.member not in stopped_at or h.done_ms <= stopped_at[h.member]]
