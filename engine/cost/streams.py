"""The work of one streams-group task assignment (KIP-1071's ``StickyTaskAssignor``, ``streams-assign``): the
call's shape, its features (``engine.cost.computations.streams_assignment_features``: members, previous tasks
listed, placements, the process heap's polls, the previous standby owners walked) and the estimate, with the
constants ``python -m bench cost --only streams`` fits (model ``streams_assign``).

>>> small = StreamsAssignmentShape(members=30, processes=10, tasks=100, stateful_tasks=50, standby_replicas=1)
>>> estimate_streams_assignment(small).seconds < 0.1
True
>>> big = StreamsAssignmentShape(members=10, processes=5_000, tasks=1_000, stateful_tasks=1_000,
...                              standby_replicas=5_000)
>>> estimate_streams_assignment(big).drivers
'1,000 tasks (1,000 stateful, 5,000 standby replicas) x 10 members on 5,000 processes'
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cost.computations import streams_assignment_features
from engine.cost.constants import MODELS
from engine.cost.model import Estimate, evaluate


@dataclass(frozen=True)
class StreamsAssignmentShape:
    """One assignor call's shape: members and processes, tasks, standby replicas, previous tasks listed."""

    members: int
    processes: int
    tasks: int
    stateful_tasks: int
    standby_replicas: int
    previous_active: int = 0
    previous_standby: int = 0

    def features(self) -> dict[str, float]:
        return streams_assignment_features(self.members, self.processes, self.tasks, self.stateful_tasks,
                                           self.standby_replicas, self.previous_active, self.previous_standby)


def estimate_streams_assignment(shape: StreamsAssignmentShape) -> Estimate:
    """``StickyTaskAssignor.assign`` on a call of this shape, the command's JSON in and out included."""
    return evaluate(MODELS["streams_assign"], shape.features(),
                    f"{shape.tasks:,} tasks ({shape.stateful_tasks:,} stateful, {shape.standby_replicas:,} standby "
                    f"replica{'s' if shape.standby_replicas != 1 else ''}) x {shape.members:,} members on "
                    f"{shape.processes:,} processes")
