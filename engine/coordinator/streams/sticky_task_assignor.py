"""``StickyTaskAssignor`` (``"sticky"``), the streams groups' built-in task assignor, as released in Kafka 4.2.0.

Active tasks first (``assignActive``), in three passes: each task back to its previous active owner while that
member is under the active quota; then to the least loaded of its previous standby owners
(``findPrevMemberWithLeastLoad``) under the same quota; then every remaining task, in subtopology order, to the
least loaded process (a ``java.util.PriorityQueue`` by load) and its least loaded member.  Then, with standby
replicas configured, each stateful task's replicas (``assignStandby``): to the previous active owner, then to a
previous standby owner, under the total quota and never on a process already holding the task; what is left
goes to the least loaded processes that do not hold the task, and replicas that find none stay unplaced.

The quotas are ``ceil(tasks / members)`` recomputed whenever a member reaches one exactly (``==``, not ``>=``),
with Java's ``int`` division.  ``findPrevMemberWithLeastLoad`` keeps 4.2.0's behaviour: for a standby it answers
nothing when the *first* previous standby owner's process already holds the task, even if a later one would do.

Worked example (checked against Kafka's own classes): two processes, ``p1`` with two threads and ``p2`` with one,
a stateful subtopology of three tasks and one standby replica, fresh.  ``0_0`` goes to ``p1`` (first in the
process map), ``0_1`` to ``p2`` (now the least loaded), ``0_2`` to ``p1``'s other thread; then each standby goes
to the least loaded process that does not hold the task, which for ``0_2`` and ``0_0`` is ``p2``:

    >>> from engine.coordinator.streams.topology import Subtopology, Topology
    >>> spec = GroupSpec((AssignmentMemberSpec("a", "p1"), AssignmentMemberSpec("b", "p1"),
    ...                   AssignmentMemberSpec("c", "p2")), {"num.standby.replicas": "1"})
    >>> result = assign(spec, Topology((Subtopology("0", 3, stateful=True),)))
    >>> {m: (dict(t.active), dict(t.standby)) for m, t in result.members.items()}
    {'a': ({'0': (0,)}, {'0': (1,)}), 'b': ({'0': (2,)}, {}), 'c': ({'0': (1,)}, {'0': (0, 2)})}
    >>> [(str(p.task), p.member_id, p.standby, p.reason.value) for p in result.placements][2:4]
    [('0_2', 'b', False, 'least loaded'), ('0_2', 'c', True, 'least loaded')]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.coordinator.streams.group_assignment import (
    GroupAssignment,
    MemberAssignment,
    MemberTasks,
    Placement,
    Reason,
    UnplacedStandby,
)
from engine.coordinator.streams.group_spec import AssignmentMemberSpec, GroupSpec
from engine.coordinator.streams.process_state import ProcessState, by_load
from engine.coordinator.streams.string_key_order import string_map_order
from engine.coordinator.streams.task_id import TaskId
from engine.coordinator.streams.topology import Topology
from engine.errors import KafkaError
from engine.java.priority_queue import JavaPriorityQueue

ASSIGNOR_NAME = "sticky"


class TaskAssignorError(KafkaError):
    """Kafka's ``TaskAssignorException``: its message is ``"TaskAssignorException: <Kafka's text>"``."""

    def __init__(self, message: str) -> None:
        super().__init__(f"TaskAssignorException: {message}")


def tasks_per_member(tasks: int, members: int) -> int:
    """``computeTasksPerMember``: ``tasks / members`` rounded up, with Java's ``int`` division (truncating)
    and remainder (the dividend's sign); 0 without members.

    >>> tasks_per_member(7, 3), tasks_per_member(6, 3), tasks_per_member(-7, 3), tasks_per_member(5, 0)
    (3, 2, -2, 0)
    """
    if members == 0:
        return 0
    quotient = abs(tasks) // abs(members)
    if (tasks < 0) != (members < 0):
        quotient = -quotient
    return quotient + (1 if tasks - quotient * members > 0 else 0)


class _Quota:
    """``LocalState``'s counters of one quota: the tasks left, the members still under it, the quota."""

    __slots__ = ("tasks", "members", "per_member")

    def __init__(self, tasks: int, members: int) -> None:
        self.tasks, self.members = tasks, members
        self.per_member = tasks_per_member(tasks, members)

    def reached(self, count: int) -> None:
        """``maybeUpdate...TasksPerMember``: a member whose new count equals the quota leaves the pool."""
        if count == self.per_member:
            self.members -= 1
            self.tasks -= count
            self.per_member = tasks_per_member(self.tasks, self.members)


class _Member:
    """``StickyTaskAssignor.Member``: a member id and its process's state."""

    __slots__ = ("member_id", "process")

    def __init__(self, member_id: str, process: ProcessState) -> None:
        self.member_id, self.process = member_id, process

    @property
    def count(self) -> int:
        return self.process.counts[self.member_id]


def assign(spec: GroupSpec, topology: Topology) -> GroupAssignment:
    """``StickyTaskAssignor.assign``: the target assignment of every member, or ``TaskAssignorError``."""
    return _StickyRun(spec, topology).run()


class _StickyRun:
    """One ``assign`` call: ``initialize``'s local state and the passes that read and change it."""

    def __init__(self, spec: GroupSpec, topology: Topology) -> None:
        self.spec, self.topology, self.ranks = spec, topology, topology.ranks()
        self.standby_replicas = spec.num_standby_replicas
        total_active = topology.active_task_count
        total = total_active + topology.stateful_task_count * self.standby_replicas
        self.active_quota = _Quota(total_active, len(spec.members))
        self.total_quota = _Quota(total, len(spec.members))
        by_id = {m.member_id: m for m in spec.members}
        self.member_order = [by_id[member_id] for member_id in spec.member_order()]
        self.processes = _processes(self.member_order)
        self.prev_active: dict[TaskId, _Member] = {}
        self.prev_standby: dict[TaskId, list[_Member]] = {}
        self._previous_owners()
        self.placements: list[Placement] = []
        self.unplaced: list[UnplacedStandby] = []

    def _previous_owners(self) -> None:
        """Previous active owners (a later member overwrites) and standby owners (in member order)."""
        for spec in self.member_order:
            member = _Member(spec.member_id, self.processes[spec.process_id])
            for sub, partitions in spec.active.items():
                for p in partitions:
                    self.prev_active[TaskId(sub, p)] = member
            for sub, partitions in spec.standby.items():
                for p in partitions:
                    self.prev_standby.setdefault(TaskId(sub, p), []).append(member)

    def run(self) -> GroupAssignment:
        self._assign_active(self.topology.tasks())
        if self.standby_replicas > 0:
            self._assign_standby(self.topology.stateful_tasks())
        return self._group_assignment()

    # ----------------------------------------------------------------------------------------- active tasks

    def _assign_active(self, tasks: list[TaskId]) -> None:
        tasks.sort(key=self.ranks.partition_first)
        tasks = [t for t in tasks if not self._to_previous(self.prev_active.get(t), t, Reason.PREVIOUS_ACTIVE)]
        tasks = [t for t in tasks if not self._to_previous(self._least_loaded_previous(self.prev_standby.get(t)),
                                                           t, Reason.PREVIOUS_STANDBY)]
        tasks.sort(key=self.ranks.subtopology_first)
        queue = self._processes_by_load()
        for task in tasks:
            process = queue.poll()
            if process is None:
                raise TaskAssignorError(f"No process available to assign active task {task}.")
            member_id, count = process.add_task_to_least_loaded(task, standby=False)
            self._placed(task, member_id, False, Reason.LEAST_LOADED, count)
            queue.offer(process)

    def _to_previous(self, member: _Member | None, task: TaskId, reason: Reason) -> bool:
        """Give an active task to a previous owner still under the active quota (``hasUnfulfilledActiveTaskQuota``)."""
        if member is None or member.count >= self.active_quota.per_member:
            return False
        count = member.process.add_task(member.member_id, task, standby=False)
        self._placed(task, member.member_id, False, reason, count)
        return True

    def _least_loaded_previous(self, members: Sequence[_Member] | None, task: TaskId | None = None) -> _Member | None:
        """``findPrevMemberWithLeastLoad`` as released in 4.2.0: with a ``task``, nothing when the first member's
        process already holds it (the candidate's process is never looked at again)."""
        if not members:
            return None
        candidate = members[0]
        first = candidate.process
        candidate_load, candidate_count = first.load, candidate.count
        for member in members[1:]:
            process = member.process
            if process.load < candidate_load and (task is None or not process.has_task(task)):
                if member.count < candidate_count:
                    candidate, candidate_load, candidate_count = member, process.load, member.count
        return candidate if task is None or not first.has_task(task) else None

    # ---------------------------------------------------------------------------------------- standby tasks

    def _assign_standby(self, tasks: list[TaskId]) -> None:
        tasks.sort(key=self.ranks.partition_first, reverse=True)
        later: list[tuple[TaskId, int]] = []
        for task in tasks:
            for i in range(self.standby_replicas):
                if not self._standby_to_previous(task):
                    later.append((task, self.standby_replicas - i))
                    break
        later.sort(key=lambda pair: self.ranks.subtopology_first(pair[0]), reverse=True)
        queue = self._processes_by_load()
        for task, replicas in later:
            for i in range(replicas):
                if not self._standby_to_least_loaded(queue, task):
                    self.unplaced.append(UnplacedStandby(task, replicas - i))
                    break

    def _standby_to_previous(self, task: TaskId) -> bool:
        """One replica to the previous active owner, else to a previous standby owner, under the total quota."""
        active = self.prev_active.get(task)
        if active is not None and not active.process.has_task(task) and active.count < self.total_quota.per_member:
            self._standby_to(active, task, Reason.PREVIOUS_ACTIVE)
            return True
        standby = self._least_loaded_previous(self.prev_standby.get(task), task)
        if standby is not None and standby.count < self.total_quota.per_member:
            self._standby_to(standby, task, Reason.PREVIOUS_STANDBY)
            return True
        return False

    def _standby_to(self, member: _Member, task: TaskId, reason: Reason) -> None:
        count = member.process.add_task(member.member_id, task, standby=True)
        self.placements.append(Placement(task, member.member_id, True, reason))
        self.total_quota.reached(count)

    def _standby_to_least_loaded(self, queue: JavaPriorityQueue[ProcessState], task: TaskId) -> bool:
        """``assignStandbyToMemberWithLeastLoad``, its recursion unrolled: poll processes until one lacks the task
        (or the queue runs dry), place the replica there, then offer them back innermost first."""
        polled: list[ProcessState] = []
        found = False
        while True:
            process = queue.poll()
            if process is None:
                break
            polled.append(process)
            if not process.has_task(task):
                member_id, count = process.add_task_to_least_loaded(task, standby=True)
                self.placements.append(Placement(task, member_id, True, Reason.LEAST_LOADED))
                self.total_quota.reached(count)
                found = True
                break
            if not len(queue):
                break
        for process in reversed(polled):
            queue.offer(process)
        return found

    # ------------------------------------------------------------------------------------------------ shared

    def _placed(self, task: TaskId, member_id: str, standby: bool, reason: Reason, count: int) -> None:
        self.placements.append(Placement(task, member_id, standby, reason))
        self.active_quota.reached(count)
        self.total_quota.reached(count)

    def _processes_by_load(self) -> JavaPriorityQueue[ProcessState]:
        """``new PriorityQueue<>(comparingDouble(ProcessState::load))`` and ``addAll`` in process map order."""
        queue = JavaPriorityQueue(key=by_load)
        for process in self.processes.values():
            queue.offer(process)
        return queue

    def _group_assignment(self) -> GroupAssignment:
        """``buildGroupAssignment``: every member (in the order given), partitions ascending per subtopology."""
        active: dict[str, list[TaskId]] = {}
        standby: dict[str, list[TaskId]] = {}
        for process in self.processes.values():
            active.update(process.active)
            standby.update(process.standby)
        members = {m.member_id: MemberAssignment(self._by_subtopology(active.get(m.member_id, ())),
                                                 self._by_subtopology(standby.get(m.member_id, ())))
                   for m in self.spec.members}
        return GroupAssignment(members, tuple(self.placements), tuple(self.unplaced))

    def _by_subtopology(self, tasks: Iterable[TaskId]) -> MemberTasks:
        out: dict[str, list[int]] = {}
        for task in sorted(tasks, key=self.ranks.subtopology_first):
            out.setdefault(task.subtopology, []).append(task.partition)
        return {sub: tuple(ps) for sub, ps in out.items()}


def _processes(member_order: Sequence[AssignmentMemberSpec]) -> dict[str, ProcessState]:
    """``processIdToState``: ``new HashMap<>(members)``, a process put when its first member is met; each process's
    members in its ``memberToTaskCounts`` map order.  Answered in the process map's iteration order."""
    members_of: dict[str, list[str]] = {}
    for spec in member_order:
        members_of.setdefault(spec.process_id, []).append(spec.member_id)
    order = string_map_order(list(members_of), len(member_order))
    return {pid: ProcessState(pid, string_map_order(members_of[pid])) for pid in order}
