"""A streams-group scenario step by step: each rebalance assigned by Kafka 4.2.0's ``StickyTaskAssignor``, what
moved, what state must be restored, the balance, and why each task went where.

Each step's group is its members (stream threads) grouped into processes (application instances), in the order
their first thread is listed, with the previous step's target assignment as ``previous`` (a member that left drops
out); step 0's ``previous`` is the scenario's ``current_tasks`` (a running group, imported), else nothing.  A restart
is what Kafka's assignor sees of one: the instance's threads leave, and come back under the same ``process`` with
new member ids and nothing assigned (a member id that returns after a step away starts empty too), so the assignor
owes them nothing; what their instance keeps is its state directory, which this view does not model (``restore``
compares with the previous step only).

Per task (``TaskStep``): ``change`` against the previous step (step 0: against ``current_tasks``, when given) --
``new`` (no thread ran it: a new group's first step, a task added, or a step without members), ``kept`` (same
thread), ``other thread`` (same instance), ``promoted`` (the new instance kept a standby replica) or ``moved`` (from
another instance); ``restore`` of a stateful task -- ``warm`` for a promoted standby, ``full`` (the whole store from
the changelog) when the new instance held no copy, else ``none``; and one English line from ``REASON_TEMPLATES``
(the pages translate the templates).

Three instances of two threads, one stateful subtopology of 6 tasks with a standby each (Kafka's assignor balances
the active tasks; the standbys land 2, 3 and 1); then ``app-3`` leaves: its two active tasks go to the instances
that kept their standbys (warm restores), the other four stay:

    >>> from engine.scenario import parse_scenario
    >>> threads = [{"id": f"app-{p}-t{t}", "process": f"app-{p}"} for p in (1, 2, 3) for t in (1, 2)]
    >>> scenario = parse_scenario({"group_type": "streams", "num_standby_replicas": 1,
    ...     "subtopologies": [{"id": "0", "source_topics": ["orders"], "stateful": True}],
    ...     "steps": [{"topics": {"orders": 6}, "members": threads},
    ...               {"topics": {"orders": 6}, "members": threads[:4]}]})
    >>> first, second = streams_steps(scenario)
    >>> [p.active for p in first.processes], [p.standby for p in first.processes]
    ([2, 2, 2], [2, 3, 1])
    >>> second.count(Change.KEPT), second.count(Change.PROMOTED), second.restores(Restore.WARM)
    (4, 2, 2)
    >>> second.members_left, second.processes_left
    (('app-3-t1', 'app-3-t2'), ('app-3',))
    >>> next(t.explanation for t in second.tasks if t.change is Change.PROMOTED)
    '0_0 goes to app-2-t1 (app-2): it kept a standby replica there'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum

from engine.coordinator.streams.group import (
    StreamsGroup,
    StreamsGroupResult,
    StreamsProcess,
    Subtopology,
    TaskHolder,
    assign_streams_group,
)
from engine.coordinator.streams.group_assignment import GroupAssignment, MemberAssignment, Reason
from engine.cost.model import Estimate
from engine.cost.streams import StreamsAssignmentShape, estimate_streams_assignment
from engine.errors import ScenarioError
from engine.scenario import GroupState, Scenario, StreamsTopology, default_topology

REASON_TEMPLATES: dict[Reason, str] = {
    Reason.PREVIOUS_ACTIVE: "{task} stays on {member} ({process}): its previous owner",
    Reason.PREVIOUS_STANDBY: "{task} goes to {member} ({process}): it kept a standby replica there",
    Reason.LEAST_LOADED: "{task} goes to {member} ({process}): the least-loaded instance",
}
UNPLACED_TEMPLATE = ("{task}: {missing} of {replicas} standby replica(s) not placed: {processes} instance(s), and "
                     "no instance holds two copies of a task")


class Change(Enum):
    """Where a task's active copy comes from, against the previous step."""

    NEW = "new"                    # no thread ran it: a new group's first step, a task added, or no members
    KEPT = "kept"                  # the same thread runs it again
    OTHER_THREAD = "other thread"  # another thread of the same instance: its state stays there
    PROMOTED = "promoted"          # the new instance kept a standby replica of it
    MOVED = "moved"                # from another instance; the new one held no copy


class Restore(Enum):
    """The state a task's new active instance must restore before it runs."""

    NONE = "none"  # stateless, new, or its instance ran it already
    WARM = "warm"  # a promoted standby: it catches up from where its replica was
    FULL = "full"  # the instance held no copy: the whole store from the changelog


@dataclass(frozen=True)
class TaskStep:
    """One task in one step: who runs it, its standby replicas, where it comes from, what it restores, why."""

    task: str                             # "<subtopology>_<partition>"
    subtopology: str
    partition: int
    stateful: bool
    active: TaskHolder                    # member, process and the assignor's Reason
    standbys: tuple[TaskHolder, ...]
    missing_standbys: int                 # replicas no instance could take
    previous_process: str | None          # the instance that ran it in the previous step
    change: Change
    restore: Restore
    explanation: str                      # REASON_TEMPLATES[active.reason] filled in


@dataclass(frozen=True)
class ThreadLoad:
    """A member (stream thread): its instance and its active and standby task counts."""

    member_id: str
    process_id: str
    active: int
    standby: int


@dataclass(frozen=True)
class ProcessLoad:
    """An application instance: its threads and its active and standby task counts."""

    process_id: str
    threads: int
    active: int
    standby: int


@dataclass(frozen=True)
class UnplacedStandbys:
    """A stateful task's standby replicas no instance could take, and why (``UNPLACED_TEMPLATE``)."""

    task: str
    missing: int
    explanation: str


@dataclass(frozen=True)
class StreamsStep:
    """One rebalance of a streams scenario."""

    index: int
    group: StreamsGroup                   # what the coordinator assigned (``previous`` included)
    result: StreamsGroupResult            # Kafka's answer (``result.members``: the next step's ``previous``)
    tasks: tuple[TaskStep, ...]           # subtopology, then partition order
    unassigned: tuple[str, ...]           # tasks no thread runs (a step without members)
    threads: tuple[ThreadLoad, ...]       # instance after instance, each in its threads' order
    processes: tuple[ProcessLoad, ...]    # in the order of their first thread
    unplaced: tuple[UnplacedStandbys, ...]
    members_joined: tuple[str, ...]
    members_left: tuple[str, ...]
    processes_joined: tuple[str, ...]
    processes_left: tuple[str, ...]

    def count(self, change: Change) -> int:
        """How many tasks came to their thread this way."""
        return sum(t.change is change for t in self.tasks)

    def restores(self, kind: Restore) -> int:
        """How many active tasks restore their state this way."""
        return sum(t.restore is kind for t in self.tasks)


def as_streams_group(scenario: Scenario) -> Scenario:
    """``scenario`` as a streams group: itself when it is one; else its steps with one stateless subtopology per
    topic every step has (``default_topology``) and each member a stream thread of its own application
    instance unless it names one (the Compare page's third group).

    >>> from engine.presets import build_preset
    >>> group = as_streams_group(build_preset("seed-d"))
    >>> group.group_type, len(group.topology.subtopologies), sorted({m.process for m in group.first.members})
    ('streams', 4, ['C0', 'C1', 'C2'])
    """
    if scenario.group_type == "streams":
        return scenario
    topology = default_topology({t: n for t, n in scenario.first.topics.items()
                                 if all(t in state.topics for state in scenario.steps)})
    steps = tuple(GroupState(state.topics, tuple(replace(m, topics=topology.source_topics, process=m.process or m.id)
                                                 for m in state.members), state.partition_racks)
                  for state in scenario.steps)
    return Scenario(steps, scenario.name, scenario.description, group_type="streams", streams=topology)


def streams_steps(scenario: Scenario) -> list[StreamsStep]:
    """Every step of a streams scenario, each assigned with the step before's answer as ``previous`` (step 0: the
    scenario's ``current_tasks``)."""
    if scenario.group_type != "streams":
        raise ScenarioError(f"group_type: streams_steps needs a streams group, got {scenario.group_type!r}")
    topology = scenario.topology
    steps: list[StreamsStep] = []
    for index, state in enumerate(scenario.steps):
        before = steps[-1] if steps else None
        current = _current(scenario) if before is None else before.result.members
        group = _group(index, state, topology, current)
        held = _Held.now(group) if before is None and current else _Held.of(before)
        steps.append(_step(index, group, topology, state, before, held))
    return steps


def _current(scenario: Scenario) -> dict[str, MemberAssignment]:
    """What step 0's threads run now, as the assignor's previous assignment."""
    return {m: MemberAssignment(t.active, t.standby) for m, t in scenario.current_tasks.items()}


def estimate_streams_scenario(scenario: Scenario) -> Estimate:
    """What ``streams_steps`` will cost (``engine.cost.streams``), before any of it runs: every step's assignor
    call, its previous tasks counted at most (the step before's tasks and standby replicas)."""
    topology = scenario.topology
    total = Estimate(0.0, 0, "no steps")
    current = scenario.current_tasks.values()
    previous = (sum(len(ps) for t in current for ps in t.active.values()),
                sum(len(ps) for t in current for ps in t.standby.values()))
    for state in scenario.steps:
        tasks = topology.task_counts(state.topics)
        stateful = sum(tasks[s.id] for s in topology.subtopologies if s.stateful)
        shape = StreamsAssignmentShape(
            members=len(state.members), processes=len({m.process for m in state.members}),
            tasks=sum(tasks.values()), stateful_tasks=stateful, standby_replicas=topology.num_standby_replicas,
            previous_active=previous[0], previous_standby=previous[1])
        total = total + estimate_streams_assignment(shape)
        previous = (shape.tasks, stateful * topology.num_standby_replicas) if state.members else (0, 0)
    return total


def _group(index: int, state: GroupState, topology: StreamsTopology,
           previous: Mapping[str, MemberAssignment]) -> StreamsGroup:
    processes: dict[str, list[str]] = {}
    for i, member in enumerate(state.members):
        if member.process is None:
            raise ScenarioError(f"steps[{index}].members[{i}].process: a stream thread must name its application "
                                f"instance, got None")
        processes.setdefault(member.process, []).append(member.id)
    counts = topology.task_counts(state.topics)
    return StreamsGroup(
        tuple(Subtopology(s.id, counts[s.id], s.stateful) for s in topology.subtopologies),
        tuple(StreamsProcess(p, tuple(ms)) for p, ms in processes.items()), topology.num_standby_replicas,
        {m.id: previous[m.id] for m in state.members if m.id in previous})


def _assign(group: StreamsGroup) -> StreamsGroupResult:
    """Kafka's answer; a group without members runs nothing (its assignor would throw ``TaskAssignorException``)."""
    if not group.processes:
        return StreamsGroupResult(GroupAssignment({}, (), ()), ())
    return assign_streams_group(group)


@dataclass(frozen=True)
class _Held:
    """What the previous step left: each task's active instance and thread, the instances holding a standby."""

    active: dict[str, TaskHolder]
    standby: dict[str, set[str]]
    tasks: frozenset[str]

    @classmethod
    def of(cls, before: StreamsStep | None) -> _Held:
        if before is None:
            return cls({}, {}, frozenset())
        standby: dict[str, set[str]] = {}
        for t in before.tasks:
            standby.setdefault(t.task, set()).update(s.process_id for s in t.standbys)
        every = frozenset(f"{s.id}_{p}" for s in before.group.subtopologies for p in range(s.partitions))
        return cls({t.task: t.active for t in before.tasks}, standby, every)

    @classmethod
    def now(cls, group: StreamsGroup) -> _Held:
        """What a running group's threads hold before step 0 (``group.previous``: the scenario's current tasks); its
        tasks all existed."""
        process_of = {m: p.process_id for p in group.processes for m in p.member_ids}
        active: dict[str, TaskHolder] = {}
        standby: dict[str, set[str]] = {}
        for member, tasks in group.previous.items():
            for sub, partitions in tasks.active.items():
                active.update({f"{sub}_{p}": TaskHolder(member, process_of[member], Reason.PREVIOUS_ACTIVE)
                               for p in partitions})
            for sub, partitions in tasks.standby.items():
                for p in partitions:
                    standby.setdefault(f"{sub}_{p}", set()).add(process_of[member])
        every = frozenset(f"{s.id}_{p}" for s in group.subtopologies for p in range(s.partitions))
        return cls(active, standby, every)


def _step(index: int, group: StreamsGroup, topology: StreamsTopology, state: GroupState,
          before: StreamsStep | None, held: _Held) -> StreamsStep:
    result = _assign(group)
    stateful = {s.id for s in topology.subtopologies if s.stateful}
    tasks = tuple(_task(row.task, row.active, row.standbys, row.missing_standbys, stateful, held)
                  for row in result.rows)
    running = {t.task for t in tasks}
    every = [f"{s.id}_{p}" for s in group.subtopologies for p in range(s.partitions)]
    members = [m.id for m in state.members]
    before_members = [m for p in before.group.processes for m in p.member_ids] if before else []
    process_ids = [p.process_id for p in group.processes]
    before_processes = [p.process_id for p in before.group.processes] if before else []
    return StreamsStep(
        index, group, result, tasks, tuple(t for t in every if t not in running), _threads(group, result),
        _processes(group, result), _unplaced(tasks, group), _minus(members, before_members),
        _minus(before_members, members), _minus(process_ids, before_processes), _minus(before_processes, process_ids))


def _task(task: str, active: TaskHolder, standbys: tuple[TaskHolder, ...], missing: int, stateful_ids: set[str],
          held: _Held) -> TaskStep:
    subtopology, _, partition = task.rpartition("_")
    stateful = subtopology in stateful_ids
    previous = held.active.get(task)
    had_standby = active.process_id in held.standby.get(task, set())
    if previous is None:
        change = Change.NEW
    elif previous.member_id == active.member_id:
        change = Change.KEPT
    elif previous.process_id == active.process_id:
        change = Change.OTHER_THREAD
    else:
        change = Change.PROMOTED if had_standby else Change.MOVED
    if not stateful or task not in held.tasks or (previous and previous.process_id == active.process_id):
        restore = Restore.NONE
    else:
        restore = Restore.WARM if had_standby else Restore.FULL
    explanation = REASON_TEMPLATES[active.reason].format(task=task, member=active.member_id,
                                                         process=active.process_id)
    return TaskStep(task, subtopology, int(partition), stateful, active, standbys, missing,
                    previous.process_id if previous else None, change, restore, explanation)


def _threads(group: StreamsGroup, result: StreamsGroupResult) -> tuple[ThreadLoad, ...]:
    empty = MemberAssignment({}, {})
    return tuple(ThreadLoad(m, p.process_id, _count(result.members.get(m, empty).active),
                            _count(result.members.get(m, empty).standby))
                 for p in group.processes for m in p.member_ids)


def _processes(group: StreamsGroup, result: StreamsGroupResult) -> tuple[ProcessLoad, ...]:
    threads = _threads(group, result)
    return tuple(ProcessLoad(p.process_id, len(p.member_ids),
                             sum(t.active for t in threads if t.process_id == p.process_id),
                             sum(t.standby for t in threads if t.process_id == p.process_id))
                 for p in group.processes)


def _unplaced(tasks: tuple[TaskStep, ...], group: StreamsGroup) -> tuple[UnplacedStandbys, ...]:
    return tuple(UnplacedStandbys(t.task, t.missing_standbys, UNPLACED_TEMPLATE.format(
        task=t.task, missing=t.missing_standbys, replicas=group.num_standby_replicas,
        processes=len(group.processes))) for t in tasks if t.missing_standbys)


def _count(tasks: Mapping[str, tuple[int, ...]]) -> int:
    return sum(len(ps) for ps in tasks.values())


def _minus(these: list[str], those: list[str]) -> tuple[str, ...]:
    gone = set(those)
    return tuple(x for x in these if x not in gone)
