"""``ProcessState``: one Kafka Streams process (an application instance) and its members (stream threads).

A process's ``load`` is its task count (active and standby) over its number of members, a Java ``double``.  A
task given to a named member drops the process's member heap (``addTask``); a task given to the least loaded
member (``addTaskToLeastLoadedMember``) polls that heap, built on demand from the members' counts in the
process's ``HashMap`` order, and offers the member back with its new count, so ties between members are broken
by ``java.util.PriorityQueue`` (``engine.java.priority_queue.JavaPriorityQueue``), not by name or order of
joining: after ``a`` takes the first task the heap's sift-down puts ``c`` on top, so ``c`` comes before ``b``:

    >>> p = ProcessState("p", ["a", "b", "c"])
    >>> [p.add_task_to_least_loaded(TaskId("0", i), standby=False) for i in range(4)]
    [('a', 1), ('c', 1), ('b', 1), ('c', 2)]
    >>> p.add_task("c", TaskId("0", 4), standby=False), p.load
    (3, 1.6666666666666667)
    >>> p.has_task(TaskId("0", 4)), p.has_task(TaskId("0", 5))
    (True, False)
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.coordinator.streams.task_id import TaskId
from engine.java.priority_queue import JavaPriorityQueue


class MemberEntry:
    """An ``AbstractMap.SimpleEntry<memberId, taskCount>`` of the member heap."""

    __slots__ = ("member_id", "task_count")

    def __init__(self, member_id: str, task_count: int) -> None:
        self.member_id = member_id
        self.task_count = task_count


def by_task_count(entry: MemberEntry) -> int:
    """The member heap's comparator, ``Map.Entry.comparingByValue()``: by task count."""
    return entry.task_count


class ProcessState:
    """A process: its members in ``HashMap`` order, their task counts, the tasks it holds, its member heap."""

    __slots__ = ("process_id", "member_ids", "counts", "task_count", "load", "tasks", "active", "standby",
                 "_heap")

    def __init__(self, process_id: str, member_ids: Sequence[str]) -> None:
        """``member_ids`` in the iteration order of the process's ``memberToTaskCounts`` map (at least one)."""
        self.process_id = process_id
        self.member_ids = tuple(member_ids)
        self.counts = dict.fromkeys(self.member_ids, 0)
        self.task_count = 0
        self.load = 0.0
        self.tasks: set[TaskId] = set()
        self.active: dict[str, list[TaskId]] = {}
        self.standby: dict[str, list[TaskId]] = {}
        self._heap: JavaPriorityQueue[MemberEntry] | None = None

    @property
    def capacity(self) -> int:
        """The number of members."""
        return len(self.member_ids)

    def has_task(self, task: TaskId) -> bool:
        return task in self.tasks

    def add_task(self, member_id: str, task: TaskId, standby: bool) -> int:
        """``addTask``: give ``task`` to ``member_id`` and drop the member heap; answer the member's new count."""
        self._heap = None
        return self._add(member_id, task, standby)

    def add_task_to_least_loaded(self, task: TaskId, standby: bool) -> tuple[str, int]:
        """``addTaskToLeastLoadedMember``: the member it went to and that member's new count.  A one-member
        process gives it to its member and leaves the heap alone."""
        if len(self.member_ids) == 1:
            member_id = self.member_ids[0]
            return member_id, self._add(member_id, task, standby)
        heap = self._heap
        if heap is None:
            heap = self._heap = JavaPriorityQueue(key=by_task_count)
            for member_id in self.member_ids:
                heap.offer(MemberEntry(member_id, self.counts[member_id]))
        entry = heap.poll()
        assert entry is not None  # two members or more: never empty
        count = self._add(entry.member_id, task, standby)
        entry.task_count = count
        heap.offer(entry)
        return entry.member_id, count

    def _add(self, member_id: str, task: TaskId, standby: bool) -> int:
        """``addTaskInternal``."""
        self.task_count += 1
        self.tasks.add(task)
        (self.standby if standby else self.active).setdefault(member_id, []).append(task)
        count = self.counts[member_id] + 1
        self.counts[member_id] = count
        self.load = self.task_count / len(self.member_ids)
        return count


def by_load(process: ProcessState) -> float:
    """The process queue's comparator, ``Comparator.comparingDouble(ProcessState::load)``: by load."""
    return process.load
