"""``TopologyDescriber``: what the assignor knows of a streams application's topology.

A subtopology has as many tasks as its input topics have partitions at most (``TopologyMetadata
.maxNumInputPartitions``); it is stateful when it has state changelog topics (``isStateful``), and only a
stateful task gets standby replicas:

    >>> topology = Topology((Subtopology("0", 2, stateful=True), Subtopology("1", 1, stateful=False)))
    >>> [str(t) for t in topology.tasks()], [str(t) for t in topology.stateful_tasks()]
    (['0_0', '0_1', '1_0'], ['0_0', '0_1'])
    >>> topology.active_task_count, topology.stateful_task_count
    (3, 2)
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.coordinator.streams.task_id import SubtopologyRanks, TaskId


@dataclass(frozen=True)
class Subtopology:
    """One subtopology: its id, its number of tasks (partitions ``0 .. partitions - 1``), stateful or not."""

    id: str
    partitions: int
    stateful: bool


@dataclass(frozen=True)
class Topology:
    """``TopologyDescriber`` over a list of subtopologies with distinct ids (their order does not matter)."""

    subtopologies: tuple[Subtopology, ...]

    def tasks(self) -> list[TaskId]:
        """Every task: the active tasks to assign (``StickyTaskAssignor.taskIds(.., true)``)."""
        return [TaskId(s.id, p) for s in self.subtopologies for p in range(s.partitions)]

    def stateful_tasks(self) -> list[TaskId]:
        """The tasks of stateful subtopologies: those with standby replicas (``taskIds(.., false)``)."""
        return [TaskId(s.id, p) for s in self.subtopologies if s.stateful for p in range(s.partitions)]

    @property
    def active_task_count(self) -> int:
        return sum(s.partitions for s in self.subtopologies)

    @property
    def stateful_task_count(self) -> int:
        return sum(s.partitions for s in self.subtopologies if s.stateful)

    def ranks(self) -> SubtopologyRanks:
        return SubtopologyRanks(s.id for s in self.subtopologies)
