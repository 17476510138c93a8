"""The streams-group API the pages call: a group described by its processes and threads, assigned by Kafka 4.2.0's
``StickyTaskAssignor``, with why each task went where.

A ``StreamsGroup`` is the topology (subtopologies: input partitions, stateful or not), the processes (each an
application instance with its members, one per stream thread, in the order they joined), the number of standby
replicas, and each member's previous target assignment (empty for a new group; pass ``result.members`` of the
previous rebalance to chain).  The coordinator meets the members process after process, in the order given.

    >>> group = StreamsGroup(
    ...     subtopologies=(Subtopology("0", 4, stateful=True), Subtopology("1", 2, stateful=False)),
    ...     processes=(StreamsProcess("app-1", ("a1", "a2")), StreamsProcess("app-2", ("b1",))),
    ...     num_standby_replicas=1)
    >>> first = assign_streams_group(group)
    >>> [(r.task, r.active.member_id, r.active.reason.value, [s.process_id for s in r.standbys])
    ...  for r in first.rows][:2]
    [('0_0', 'b1', 'least loaded', ['app-1']), ('0_1', 'a1', 'least loaded', ['app-2'])]

After ``app-2`` leaves, the next rebalance keeps ``app-1``'s active tasks where they were and promotes its
standbys (both answers checked against Kafka's own classes):

    >>> after = StreamsGroup(group.subtopologies, group.processes[:1], 1, previous=first.members)
    >>> [(r.task, r.active.member_id, r.active.reason.value) for r in assign_streams_group(after).rows][:2]
    [('0_0', 'a2', 'previous standby'), ('0_1', 'a1', 'previous active')]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.coordinator.streams.group_assignment import GroupAssignment, MemberAssignment, Reason
from engine.coordinator.streams.group_spec import NUM_STANDBY_REPLICAS, AssignmentMemberSpec, GroupSpec
from engine.coordinator.streams.sticky_task_assignor import assign
from engine.coordinator.streams.task_id import TaskId
from engine.coordinator.streams.topology import Subtopology, Topology
from engine.cost.streams import StreamsAssignmentShape
from engine.errors import ScenarioError

__all__ = ["Reason", "StreamsGroup", "StreamsGroupResult", "StreamsProcess", "Subtopology", "TaskRow",
           "TaskHolder", "assign_streams_group"]


@dataclass(frozen=True)
class StreamsProcess:
    """An application instance (``process.id``) and its members, one per stream thread."""

    process_id: str
    member_ids: tuple[str, ...]


@dataclass(frozen=True)
class StreamsGroup:
    """What the coordinator knows of a streams group at one rebalance."""

    subtopologies: tuple[Subtopology, ...]
    processes: tuple[StreamsProcess, ...]
    num_standby_replicas: int = 0
    previous: Mapping[str, MemberAssignment] = field(default_factory=dict)

    def spec(self) -> GroupSpec:
        """The coordinator's ``GroupSpec``: members process after process, previous tasks as sets."""
        members = tuple(AssignmentMemberSpec(member_id, process.process_id, *_previous(self.previous.get(member_id)))
                        for process in self.processes for member_id in process.member_ids)
        return GroupSpec(members, {NUM_STANDBY_REPLICAS: str(self.num_standby_replicas)})

    def shape(self) -> StreamsAssignmentShape:
        """The cost model's shape of this assignment (``engine.cost.streams.estimate_streams_assignment``)."""
        topology = Topology(self.subtopologies)
        return StreamsAssignmentShape(
            members=sum(len(p.member_ids) for p in self.processes), processes=len(self.processes),
            tasks=topology.active_task_count, stateful_tasks=topology.stateful_task_count,
            standby_replicas=self.num_standby_replicas,
            previous_active=sum(len(ps) for m in self.previous.values() for ps in m.active.values()),
            previous_standby=sum(len(ps) for m in self.previous.values() for ps in m.standby.values()))


@dataclass(frozen=True)
class TaskHolder:
    """A member holding a task (active or a standby replica), its process and why it got it."""

    member_id: str
    process_id: str
    reason: Reason


@dataclass(frozen=True)
class TaskRow:
    """One task: its label (``"0_3"``), its active member and its standby replicas (``missing``: those no process
    could take)."""

    task: str
    active: TaskHolder
    standbys: tuple[TaskHolder, ...]
    missing_standbys: int


@dataclass(frozen=True)
class StreamsGroupResult:
    """Every member's tasks (Kafka's answer) and one row per task, in subtopology then partition order."""

    assignment: GroupAssignment
    rows: tuple[TaskRow, ...]

    @property
    def members(self) -> Mapping[str, MemberAssignment]:
        """Member id -> its tasks: the ``previous`` of the next rebalance."""
        return self.assignment.members


def assign_streams_group(group: StreamsGroup) -> StreamsGroupResult:
    """Assign ``group`` as the coordinator does; ``ScenarioError`` for a malformed group, ``TaskAssignorError``
    (Kafka's ``TaskAssignorException``) for tasks without any member."""
    _check(group)
    topology = Topology(group.subtopologies)
    assignment = assign(group.spec(), topology)
    return StreamsGroupResult(assignment, _rows(group, topology, assignment))


def _previous(assignment: MemberAssignment | None) -> tuple[dict[str, frozenset[int]], dict[str, frozenset[int]]]:
    if assignment is None:
        return {}, {}
    return ({s: frozenset(ps) for s, ps in assignment.active.items()},
            {s: frozenset(ps) for s, ps in assignment.standby.items()})


def _check(group: StreamsGroup) -> None:
    seen_subs: set[str] = set()
    for sub in group.subtopologies:
        if sub.id in seen_subs:
            raise ScenarioError(f"subtopologies: duplicate subtopology id {sub.id!r}")
        if sub.partitions < 0:
            raise ScenarioError(f"subtopology {sub.id!r}: partitions must be >= 0, got {sub.partitions}")
        seen_subs.add(sub.id)
    seen_members: set[str] = set()
    seen_processes: set[str] = set()
    for process in group.processes:
        if process.process_id in seen_processes:
            raise ScenarioError(f"processes: duplicate process id {process.process_id!r}")
        seen_processes.add(process.process_id)
        for member_id in process.member_ids:
            if member_id in seen_members:
                raise ScenarioError(f"process {process.process_id!r}: duplicate member id {member_id!r}")
            seen_members.add(member_id)
    if group.num_standby_replicas < 0:
        raise ScenarioError(f"num_standby_replicas: must be >= 0, got {group.num_standby_replicas}")


def _rows(group: StreamsGroup, topology: Topology, assignment: GroupAssignment) -> tuple[TaskRow, ...]:
    process_of = {m: p.process_id for p in group.processes for m in p.member_ids}
    active: dict[TaskId, TaskHolder] = {}
    standbys: dict[TaskId, list[TaskHolder]] = {}
    for placement in assignment.placements:
        holder = TaskHolder(placement.member_id, process_of[placement.member_id], placement.reason)
        if placement.standby:
            standbys.setdefault(placement.task, []).append(holder)
        else:
            active[placement.task] = holder
    missing = {u.task: u.missing for u in assignment.unplaced_standbys}
    tasks = sorted(topology.tasks(), key=topology.ranks().subtopology_first)
    return tuple(TaskRow(str(t), active[t], tuple(standbys.get(t, ())), missing.get(t, 0))
                 for t in tasks if t in active)
