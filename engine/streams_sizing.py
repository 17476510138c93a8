"""Sizing a Kafka Streams application in a streams group (KIP-1071): its tasks, the stream threads that get work,
and what standby replicas cost against the restore they save.

**Kafka's rules**, computed here (the assignor run as Kafka 4.2.0's group coordinator runs it):

- a subtopology has as many tasks as its source topics' largest partition count
  (``TopologyMetadata.maxNumInputPartitions``; topics it joins must have equal counts, co-partitioned);
- a task is processed by one stream thread at a time, so threads beyond the number of tasks get no active task;
- the group coordinator's ``StickyTaskAssignor`` places every active task and ``num.standby.replicas`` standby
  copies of every stateful task, never two copies of one task on the same application instance (a standby it
  cannot place is left out): how the tasks spread over N instances x T threads is its answer
  (``engine.coordinator.streams.group.assign_streams_group``), not a formula;
- when an instance fails or restarts, the next assignment (the remaining members, with their previous tasks) gives
  its active tasks to a member that held a standby of them where its quotas allow (warm), else elsewhere (cold).

**The lab's estimates** from your numbers, every stateful task alike: a placed standby holds a copy of its task's
state (disk = standby copies x state per task) and reads its task's changelog (changelog read = standby copies x
changelog writes per task); a cold task reads its whole state back from its changelog before it processes again,
an instance restoring its cold tasks at ``restore_mb_s``, and the group waiting for the slowest instance.

Worked example: a stateless subtopology reading a topic of 6 partitions and a stateful one joining two topics of
6: 12 tasks, 6 of them stateful, on 3 instances x 2 threads with one standby replica, 2,048 MB of state and
0.5 MB/s of changelog writes per task, restores at 50 MB/s:

>>> app = StreamsSizingInputs((SourceSubtopology((6,), False), SourceSubtopology((6, 6), True)))
>>> s = size_streams(app)
>>> s.tasks, s.stateful_tasks, s.threads, s.useful_threads, s.busy_threads
(12, 6, 6, 6, 6)
>>> s.standby_copies, s.standby_disk_mb, s.changelog_read_mb_s
(6, 12288.0, 3.0)
>>> [(f.instance, f.warm, f.cold, f.restore_s) for f in s.failovers][:1]
[('app-1', ('1_2', '1_4'), (), 0.0)]

When ``app-1`` fails, its stateful tasks ``1_2`` and ``1_4`` go to the instances that held their standbys: nothing to
restore.  Without standbys the same failure leaves both cold, one on each other instance, each restoring
2,048 MB at 50 MB/s in parallel: 40.96 s before they process again:

>>> [(f.instance, f.cold, f.restore_s) for f in s.failovers_without][:1]
[('app-1', ('1_2', '1_4'), 40.96)]
>>> s.worst_restore_without_s, s.worst_restore_s
(40.96, 0.0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from engine.coordinator.streams.group import (
    StreamsGroup,
    StreamsGroupResult,
    StreamsProcess,
    Subtopology,
    assign_streams_group,
)
from engine.coordinator.streams.group_assignment import MemberAssignment
from engine.cost.model import Estimate
from engine.cost.streams import estimate_streams_assignment
from engine.errors import InputError
from engine.inputs import parse_whole_number

MAX_SUBTOPOLOGIES: Final = 8
MAX_SOURCE_TOPICS: Final = 8  # per subtopology
MAX_TOPIC_PARTITIONS: Final = 1_000
MAX_TASKS: Final = 1_000  # active tasks of the whole application
MAX_INSTANCES: Final = 30
MAX_THREADS: Final = 16  # num.stream.threads per instance
MAX_STANDBY_REPLICAS: Final = 5
MAX_STATE_MB: Final = 10_000_000.0  # per task
MAX_RATE_MB_S: Final = 100_000.0


@dataclass(frozen=True)
class SourceSubtopology:
    """One subtopology: the partition counts of the topics it reads (sources and repartition topics), and whether
    it keeps state (has changelog topics)."""

    source_partitions: tuple[int, ...]
    stateful: bool

    @property
    def tasks(self) -> int:
        """Kafka's rule: the largest partition count of its source topics.

        >>> SourceSubtopology((6, 4), False).tasks
        6
        """
        return max(self.source_partitions)


@dataclass(frozen=True)
class StreamsSizingInputs:
    """The application (its subtopologies), where it runs (instances x stream threads), the standby replicas, and
    the lab's per-task numbers: state (MB), changelog writes (MB/s), and one instance's restore rate (MB/s)."""

    subtopologies: tuple[SourceSubtopology, ...]
    instances: int = 3
    threads: int = 2
    standby_replicas: int = 1
    state_mb: float = 2_048.0
    changelog_mb_s: float = 0.5
    restore_mb_s: float = 50.0

    def check(self) -> None:
        """One ``InputError`` line naming the first value out of bounds."""
        if not 1 <= len(self.subtopologies) <= MAX_SUBTOPOLOGIES:
            raise InputError(f"subtopologies: must be 1..{MAX_SUBTOPOLOGIES}, got {len(self.subtopologies)}")
        for number, sub in enumerate(self.subtopologies, 1):
            _check_sources(sub.source_partitions, f"subtopology {number}")
        tasks = sum(sub.tasks for sub in self.subtopologies)
        if tasks > MAX_TASKS:
            raise InputError(f"tasks: at most {MAX_TASKS:,} in all, got {tasks:,}")
        _whole(self.instances, "instances", 1, MAX_INSTANCES)
        _whole(self.threads, "stream threads per instance", 1, MAX_THREADS)
        _whole(self.standby_replicas, "num.standby.replicas", 0, MAX_STANDBY_REPLICAS)
        _positive(self.state_mb, "state per task (MB)", MAX_STATE_MB, zero=True)
        _positive(self.changelog_mb_s, "changelog writes per task (MB/s)", MAX_RATE_MB_S, zero=True)
        _positive(self.restore_mb_s, "restore rate per instance (MB/s)", MAX_RATE_MB_S, zero=False)

    def group(self, standby_replicas: int | None = None) -> StreamsGroup:
        """The streams group the coordinator sees: subtopologies ``"0"``, ``"1"``, ...; instances ``app-1`` ..
        with one member per thread (``app-1-t1`` ..)."""
        subs = tuple(Subtopology(str(i), sub.tasks, sub.stateful) for i, sub in enumerate(self.subtopologies))
        processes = tuple(StreamsProcess(f"app-{i}", tuple(f"app-{i}-t{t}" for t in range(1, self.threads + 1)))
                          for i in range(1, self.instances + 1))
        replicas = self.standby_replicas if standby_replicas is None else standby_replicas
        return StreamsGroup(subs, processes, replicas)


@dataclass(frozen=True)
class ThreadLoad:
    """One stream thread (a member of the group) and the tasks the assignor gave it."""

    instance: str
    member: str
    active: tuple[str, ...]
    standby: tuple[str, ...]


@dataclass(frozen=True)
class Failover:
    """``instance`` fails or restarts (its members leave): the tasks whose active copy moves, told apart."""

    instance: str
    warm: tuple[str, ...]  # now active on an instance that held a standby of it: processing resumes at once
    cold: tuple[str, ...]  # stateful, now active on an instance without a copy: restored from its changelog first
    stateless: tuple[str, ...]  # no state to restore
    restore_s: float  # the slowest instance's restore of its cold tasks


@dataclass(frozen=True)
class StreamsSizing:
    """Kafka's answers (tasks, the assignment, the failovers) and the lab's estimates (disk, changelog, restore)."""

    inputs: StreamsSizingInputs
    tasks: int
    stateful_tasks: int
    loads: tuple[ThreadLoad, ...]
    unplaced_standbys: int
    failovers: tuple[Failover, ...]  # with the standby replicas asked for, one per instance
    failovers_without: tuple[Failover, ...]  # the same failures with num.standby.replicas = 0

    @property
    def threads(self) -> int:
        return len(self.loads)

    @property
    def useful_threads(self) -> int:
        """Kafka's rule: one thread per task at a time, so at most as many threads work as there are tasks."""
        return min(self.threads, self.tasks)

    @property
    def busy_threads(self) -> int:
        """Threads the assignor gave at least one active task."""
        return sum(1 for load in self.loads if load.active)

    @property
    def standby_only_threads(self) -> int:
        return sum(1 for load in self.loads if not load.active and load.standby)

    @property
    def standby_copies(self) -> int:
        return sum(len(load.standby) for load in self.loads)

    @property
    def standby_disk_mb(self) -> float:
        return self.standby_copies * self.inputs.state_mb

    @property
    def changelog_read_mb_s(self) -> float:
        return self.standby_copies * self.inputs.changelog_mb_s

    @property
    def worst_restore_s(self) -> float:
        return max((f.restore_s for f in self.failovers), default=0.0)

    @property
    def worst_restore_without_s(self) -> float:
        return max((f.restore_s for f in self.failovers_without), default=0.0)

    def per_instance(self) -> dict[str, tuple[int, int]]:
        """Instance -> (active tasks, standby tasks)."""
        out: dict[str, tuple[int, int]] = {}
        for load in self.loads:
            active, standby = out.get(load.instance, (0, 0))
            out[load.instance] = (active + len(load.active), standby + len(load.standby))
        return out


def parse_source_partitions(text: str, what: str) -> tuple[int, ...]:
    """A subtopology's source topics as typed: partition counts separated by commas (``"6, 4"``), checked.

    >>> parse_source_partitions(" 6, 4 ", "subtopology 1")
    (6, 4)
    >>> parse_source_partitions("6, 0", "subtopology 1")
    Traceback (most recent call last):
    ...
    engine.errors.InputError: subtopology 1: must be a whole number 1..1,000, got 0
    """
    tokens = [token.strip() for token in text.split(",")]
    if len(tokens) > MAX_SOURCE_TOPICS:
        raise InputError(f"{what}: at most {MAX_SOURCE_TOPICS} source topics, got {len(tokens)}")
    counts = tuple(parse_whole_number(token, what) for token in tokens)
    _check_sources(counts, what)
    return counts


def size_streams(inputs: StreamsSizingInputs) -> StreamsSizing:
    """Kafka's assignment of ``inputs``' application and, for each instance in turn, what its failure moves: with
    the standby replicas asked for and without any; ``InputError`` for an input out of bounds."""
    inputs.check()
    group = inputs.group()
    first = assign_streams_group(group)
    without = inputs.group(standby_replicas=0)
    return StreamsSizing(
        inputs, sum(s.partitions for s in group.subtopologies),
        sum(s.partitions for s in group.subtopologies if s.stateful), _loads(group, first),
        sum(u.missing for u in first.assignment.unplaced_standbys),
        _failovers(inputs, group, first), _failovers(inputs, without, assign_streams_group(without)))


def estimate(inputs: StreamsSizingInputs) -> Estimate:
    """The work of ``size_streams``: two assignments (with and without standbys) and one more of each per instance
    that fails, each no larger than the first."""
    inputs.check()
    one = estimate_streams_assignment(inputs.group().shape())
    calls = 2 * (1 + inputs.instances)
    return Estimate(one.seconds * calls, one.peak_bytes, one.drivers)


def failover(group: StreamsGroup, first: StreamsGroupResult, instance: str) -> StreamsGroupResult:
    """The next assignment after ``instance``'s members leave: the others keep their previous tasks."""
    stay = tuple(p for p in group.processes if p.process_id != instance)
    kept = {m for p in stay for m in p.member_ids}
    previous: Mapping[str, MemberAssignment] = {m: a for m, a in first.members.items() if m in kept}
    return assign_streams_group(StreamsGroup(group.subtopologies, stay, group.num_standby_replicas, previous))


def holders(result: StreamsGroupResult) -> tuple[dict[str, str], dict[str, set[str]]]:
    """Task -> the instance running it; task -> the instances holding a standby of it."""
    active = {row.task: row.active.process_id for row in result.rows}
    standby = {row.task: {s.process_id for s in row.standbys} for row in result.rows}
    return active, standby


def _failovers(inputs: StreamsSizingInputs, group: StreamsGroup, first: StreamsGroupResult) -> tuple[Failover, ...]:
    if len(group.processes) < 2:
        return ()
    stateful = {f"{s.id}_{p}" for s in group.subtopologies if s.stateful for p in range(s.partitions)}
    return tuple(_failover(inputs, group, first, p.process_id, stateful) for p in group.processes)


def _failover(inputs: StreamsSizingInputs, group: StreamsGroup, first: StreamsGroupResult, instance: str,
              stateful: set[str]) -> Failover:
    before, standby_before = holders(first)
    after, _ = holders(failover(group, first, instance))
    moved = [task for task, process in after.items() if before[task] != process]
    warm = tuple(t for t in moved if t in stateful and after[t] in standby_before[t])
    cold = tuple(t for t in moved if t in stateful and after[t] not in standby_before[t])
    restoring: dict[str, int] = {}
    for task in cold:
        restoring[after[task]] = restoring.get(after[task], 0) + 1
    slowest = max(restoring.values(), default=0)
    return Failover(instance, warm, cold, tuple(t for t in moved if t not in stateful),
                    slowest * inputs.state_mb / inputs.restore_mb_s)


def _loads(group: StreamsGroup, result: StreamsGroupResult) -> tuple[ThreadLoad, ...]:
    def tasks(by_sub: Mapping[str, tuple[int, ...]]) -> tuple[str, ...]:
        return tuple(f"{sub}_{p}" for sub, ps in sorted(by_sub.items(), key=lambda kv: int(kv[0])) for p in ps)

    return tuple(ThreadLoad(p.process_id, m, tasks(result.members[m].active), tasks(result.members[m].standby))
                 for p in group.processes for m in p.member_ids)


def _check_sources(counts: tuple[int, ...], what: str) -> None:
    if not counts:
        raise InputError(f"{what}: at least one source topic")
    if len(counts) > MAX_SOURCE_TOPICS:
        raise InputError(f"{what}: at most {MAX_SOURCE_TOPICS} source topics, got {len(counts)}")
    for count in counts:
        _whole(count, what, 1, MAX_TOPIC_PARTITIONS)


def _whole(value: int, what: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(f"{what}: must be a whole number {low:,}..{high:,}, got {value!r}")


def _positive(value: float, what: str, high: float, zero: bool) -> None:
    if zero and not 0 <= value <= high:  # NaN fails both
        raise InputError(f"{what}: must be a number in 0..{high:g}, got {value!r}")
    if not zero and not 0 < value <= high:
        raise InputError(f"{what}: must be above 0 and at most {high:g}, got {value!r}")
