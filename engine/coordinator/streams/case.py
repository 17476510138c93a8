"""A ``streams-assign`` case read at the boundary (``../shared/spec/README.md`` section 11): every bad field is
refused with one line naming it and the value, before any work.

A case is ``configs`` (``{"num.standby.replicas": "<n>"}`` or ``{}``; missing = ``{}``), ``subtopologies``
(``id``, ``partitions``, ``stateful``) and ``members`` in the order the coordinator puts them into its map
(``member_id``, ``process_id``, the previous ``active`` / ``standby`` / ``warmup`` tasks as subtopology id ->
partitions, each missing = ``{}``); ``name``, ``scenario`` and ``expected`` are ignored:

    >>> case = parse_case({"configs": {"num.standby.replicas": "1"},
    ...                    "subtopologies": [{"id": "0", "partitions": 2, "stateful": True}],
    ...                    "members": [{"member_id": "m1", "process_id": "p1", "active": {"0": [1, 1]}}]})
    >>> case.spec.members[0].active, case.topology.active_task_count, case.shape().standby_replicas
    ({'0': frozenset({1})}, 2, 1)
    >>> parse_case({"subtopologies": [{"id": "0", "partitions": -1, "stateful": True}], "members": []})
    Traceback (most recent call last):
    ...
    engine.errors.ScenarioError: subtopologies[0].partitions: must be an integer from 0 to 2,147,483,647, got -1
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from engine.common.config_def import INT_MAX
from engine.coordinator.streams.group_spec import AssignmentMemberSpec, GroupSpec, Tasks
from engine.coordinator.streams.topology import Subtopology, Topology
from engine.cost.streams import StreamsAssignmentShape
from engine.errors import ScenarioError

JAVA_INT_MIN: Final = -(2**31)
CASE_FIELDS: Final = frozenset({"configs", "subtopologies", "members", "name", "scenario", "expected"})
MEMBER_FIELDS: Final = frozenset({"member_id", "process_id", "active", "standby", "warmup"})
SUBTOPOLOGY_FIELDS: Final = frozenset({"id", "partitions", "stateful"})


@dataclass(frozen=True)
class StreamsCase:
    """One assignor call: the group spec and the topology."""

    spec: GroupSpec
    topology: Topology

    def shape(self) -> StreamsAssignmentShape:
        """What the cost model estimates this call from."""
        members = self.spec.members
        return StreamsAssignmentShape(
            members=len(members), processes=len({m.process_id for m in members}),
            tasks=self.topology.active_task_count, stateful_tasks=self.topology.stateful_task_count,
            standby_replicas=self.spec.num_standby_replicas,
            previous_active=sum(len(ps) for m in members for ps in m.active.values()),
            previous_standby=sum(len(ps) for m in members for ps in m.standby.values()))


def parse_case(payload: Any) -> StreamsCase:
    """The case as the assignor's inputs, or ``ScenarioError`` naming the first bad field."""
    data = _object(payload, "input", CASE_FIELDS)
    configs = _configs(data.get("configs", {}))
    topology = Topology(_subtopologies(data.get("subtopologies")))
    spec = GroupSpec(_members(data.get("members")), configs)
    total = topology.active_task_count + topology.stateful_task_count * spec.num_standby_replicas
    if total > INT_MAX:
        raise ScenarioError(f"configs.num.standby.replicas: {spec.num_standby_replicas:,} standby replicas of "
                            f"{topology.stateful_task_count:,} stateful tasks make {total:,} tasks, more than "
                            f"Kafka's int counters hold ({INT_MAX:,})")
    return StreamsCase(spec, topology)


def _object(value: Any, where: str, fields: frozenset[str]) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise ScenarioError(f"{where}: must be a JSON object, got {_kind(value)}")
    unknown = sorted(set(value) - fields)
    if unknown:
        raise ScenarioError(f"{where}: unknown field {unknown[0]!r} (expected {', '.join(sorted(fields))})")
    return value


def _configs(value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        raise ScenarioError(f"configs: must be a JSON object of strings, got {_kind(value)}")
    return dict(value)  # the values are checked by GroupSpec.num_standby_replicas below


def _subtopologies(value: Any) -> tuple[Subtopology, ...]:
    if not isinstance(value, list):
        raise ScenarioError(f"subtopologies: must be a JSON array, got {_kind(value)}")
    out: dict[str, Subtopology] = {}
    for i, item in enumerate(value):
        where = f"subtopologies[{i}]"
        data = _object(item, where, SUBTOPOLOGY_FIELDS)
        sub_id = _string(data, "id", where)
        if sub_id in out:
            raise ScenarioError(f"{where}.id: duplicate subtopology id {sub_id!r}")
        partitions = _integer(data.get("partitions"), f"{where}.partitions", 0)
        stateful = data.get("stateful")
        if not isinstance(stateful, bool):
            raise ScenarioError(f"{where}.stateful: must be true or false, got {_kind(stateful)}")
        out[sub_id] = Subtopology(sub_id, partitions, stateful)
    return tuple(out.values())


def _members(value: Any) -> tuple[AssignmentMemberSpec, ...]:
    if not isinstance(value, list):
        raise ScenarioError(f"members: must be a JSON array, got {_kind(value)}")
    out: dict[str, AssignmentMemberSpec] = {}
    for i, item in enumerate(value):
        where = f"members[{i}]"
        data = _object(item, where, MEMBER_FIELDS)
        member_id = _string(data, "member_id", where)
        if member_id in out:
            raise ScenarioError(f"{where}.member_id: duplicate member id {member_id!r}")
        out[member_id] = AssignmentMemberSpec(
            member_id, _string(data, "process_id", where), *(_tasks(data.get(kind, {}), f"{where}.{kind}")
                                                             for kind in ("active", "standby", "warmup")))
    return tuple(out.values())


def _tasks(value: Any, where: str) -> Tasks:
    """Subtopology id -> a set of partitions (any Java int: a previous task may no longer exist)."""
    if not isinstance(value, dict):
        raise ScenarioError(f"{where}: must be a JSON object of subtopology id -> partitions, got {_kind(value)}")
    out: dict[str, frozenset[int]] = {}
    for sub_id, partitions in value.items():
        if not isinstance(partitions, list):
            raise ScenarioError(f"{where}.{sub_id}: must be a JSON array of partitions, got {_kind(partitions)}")
        out[sub_id] = frozenset(_integer(p, f"{where}.{sub_id}[{j}]", JAVA_INT_MIN)
                                for j, p in enumerate(partitions))
    return out


def _string(data: Mapping[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise ScenarioError(f"{where}.{key}: must be a string, got {_kind(value)}")
    return value


def _integer(value: Any, where: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= INT_MAX:
        raise ScenarioError(f"{where}: must be an integer from {low:,} to {INT_MAX:,}, got {_kind(value)}")
    return value


def _kind(value: Any) -> str:
    """The bad value as a message shows it: ``missing``, or its JSON text (short)."""
    if value is None:
        return "null or missing"
    return repr(value) if isinstance(value, (str, int, float, bool)) else type(value).__name__
