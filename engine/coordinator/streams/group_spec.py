"""``GroupSpec`` and ``AssignmentMemberSpec``: what the coordinator hands the task assignor.

``TargetAssignmentBuilder.build()`` puts every member's spec into a ``new HashMap<String, AssignmentMemberSpec>()``
(``GroupSpecImpl.members``), so the assignor meets the members in that map's iteration order, not in the order
they joined (``member_order``).  A member's previous target assignment is three maps, subtopology id -> set of
partitions: active, standby and warm-up tasks (the sticky assignor never reads the warm-ups).  The assignment
configs are a string map; ``StickyTaskAssignor.initialize`` reads the number of standby replicas from it:

    >>> spec = GroupSpec((AssignmentMemberSpec("m-2", "p"), AssignmentMemberSpec("m-1", "p")),
    ...                  {"num.standby.replicas": "1"})
    >>> spec.member_order(), spec.num_standby_replicas
    (['m-1', 'm-2'], 1)
    >>> GroupSpec((), {}).num_standby_replicas
    0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from engine.common.config_def import INT_MAX, INT_MIN, java_parse_integer
from engine.coordinator.streams.string_key_order import string_map_order
from engine.errors import ScenarioError, quote

NUM_STANDBY_REPLICAS: Final = "num.standby.replicas"

Tasks = Mapping[str, frozenset[int]]  # subtopology id -> partitions (a Java Map<String, Set<Integer>>)


@dataclass(frozen=True)
class AssignmentMemberSpec:
    """One member (a stream thread): its process and its previous target assignment."""

    member_id: str
    process_id: str
    active: Tasks = field(default_factory=dict)
    standby: Tasks = field(default_factory=dict)
    warmup: Tasks = field(default_factory=dict)


@dataclass(frozen=True)
class GroupSpec:
    """The members in the order the coordinator puts them into its map (distinct ids), and the configs."""

    members: tuple[AssignmentMemberSpec, ...]
    assignment_configs: Mapping[str, str]

    def member_order(self) -> list[str]:
        """Member ids in ``GroupSpec.members()`` iteration order (a default ``HashMap<String, ...>``)."""
        return string_map_order([m.member_id for m in self.members])

    @property
    def num_standby_replicas(self) -> int:
        return num_standby_replicas(self.assignment_configs)


def num_standby_replicas(configs: Mapping[str, str]) -> int:
    """``StickyTaskAssignor.initialize``: 0 for an empty map, else ``Integer.parseInt`` of the entry.  The
    coordinator always sends a non-negative int; anything else is refused here, naming the value.

    >>> num_standby_replicas({"num.standby.replicas": "+2"})
    2
    >>> num_standby_replicas({"num.standby.replicas": "-1"})
    Traceback (most recent call last):
    ...
    engine.errors.ScenarioError: configs.num.standby.replicas: must be a non-negative integer as a string
    (Integer.parseInt, at most 2,147,483,647), got '-1'
    """
    if not configs:
        return 0
    if NUM_STANDBY_REPLICAS not in configs:
        raise ScenarioError(f"configs: a non-empty map must hold {NUM_STANDBY_REPLICAS!r}, got keys "
                            f"{sorted(configs)!r}")
    value = configs[NUM_STANDBY_REPLICAS]
    where = f"configs.{NUM_STANDBY_REPLICAS}"
    parsed = java_parse_integer(value, INT_MIN, INT_MAX) if isinstance(value, str) else None
    if parsed is None or parsed < 0:
        raise ScenarioError(f"{where}: must be a non-negative integer as a string (Integer.parseInt, at most "
                            f"{INT_MAX:,}), got '{quote(value)}'")
    return parsed
