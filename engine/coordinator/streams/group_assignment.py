"""``GroupAssignment`` and ``MemberAssignment``: the task assignor's answer, and why each task went where.

Every member of the group appears, with its active, standby and warm-up tasks as subtopology id -> partitions
(``StickyTaskAssignor.buildGroupAssignment``; a subtopology only when the member got one of its tasks, warm-ups
always empty).  Beside Kafka's answer the assignor records each placement's ``Reason`` (which step of the
assignor placed it) and the standby replicas it could not place (fewer processes than replicas + 1):

    >>> a = GroupAssignment({"m1": MemberAssignment({"0": (0, 1)}, {}), "m2": MemberAssignment({}, {"0": (1,)})},
    ...                     (), (UnplacedStandby(TaskId("0", 0), 1),))
    >>> a.to_json()["assignment"]["m2"]
    {'active': {}, 'standby': {'0': [1]}, 'warmup': {}}
    >>> a.owners()[TaskId("0", 1)]
    'm1'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from engine.coordinator.streams.task_id import TaskId

MemberTasks = Mapping[str, tuple[int, ...]]  # subtopology id -> partitions, ascending


class Reason(Enum):
    """Which step of ``StickyTaskAssignor`` placed a task on its member."""

    PREVIOUS_ACTIVE = "previous active"      # the member ran it as an active task before
    PREVIOUS_STANDBY = "previous standby"    # the member kept it as a standby before (the least loaded such one)
    LEAST_LOADED = "least loaded"            # the least loaded process, then its least loaded member


@dataclass(frozen=True)
class Placement:
    """One task (active or standby replica) placed on a member, in the order the assignor placed them."""

    task: TaskId
    member_id: str
    standby: bool
    reason: Reason


@dataclass(frozen=True)
class UnplacedStandby:
    """A stateful task whose last ``missing`` standby replicas found no process without a copy of it (Kafka logs
    "There is not enough available capacity" and leaves them out)."""

    task: TaskId
    missing: int


@dataclass(frozen=True)
class MemberAssignment:
    """One member's tasks; ``warmup`` is always empty in this assignor."""

    active: MemberTasks
    standby: MemberTasks

    def to_json(self) -> dict[str, Any]:
        return {"active": {s: list(ps) for s, ps in self.active.items()},
                "standby": {s: list(ps) for s, ps in self.standby.items()}, "warmup": {}}


@dataclass(frozen=True)
class GroupAssignment:
    """Every member's tasks (in the order the members were given), the placements and the unplaced standbys."""

    members: Mapping[str, MemberAssignment]
    placements: tuple[Placement, ...]
    unplaced_standbys: tuple[UnplacedStandby, ...]

    def to_json(self) -> dict[str, Any]:
        """The ``streams-assign`` answer: ``{"assignment": {member: {"active", "standby", "warmup"}}}``."""
        return {"assignment": {member: tasks.to_json() for member, tasks in self.members.items()}}

    def owners(self) -> dict[TaskId, str]:
        """Task -> the member running it as an active task."""
        return {TaskId(s, p): member for member, tasks in self.members.items()
                for s, ps in tasks.active.items() for p in ps}
