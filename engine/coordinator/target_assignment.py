"""KIP-848 server-side assignment: the group coordinator computing target assignments step by step.

``python -m engine server-assign`` (../shared/spec/README.md section 7) and the Python API the
dashboard uses.  Each step is one ``TargetAssignmentBuilder.build()``: the members' subscriptions and
current target assignments go into a ``GroupSpec`` (see ``server_spec``), the ``uniform`` or
``range`` assignor computes the new target, and ``moved``/``moved_from_remaining`` count owner changes
against the previous step exactly as the ``assign`` command does.

When a member's ``current_assignment`` is omitted it is chained: the previous step's target of the
same member id, or, for a static member whose ``instance_id`` belonged to a member that has left (a
restart under a new member id), that member's previous target; otherwise ``[]``.  An omitted
``subscription_type`` is computed as ``ModernGroup.subscriptionType`` does (by topic names, ghosts
included).  Omitted ``topic_ids`` are derived deterministically from the names (``Uuid.for_name``).

Worked example (asserted in tests/engine/coordinator/test_server_assign.py)::

    >>> out = server_assign({"steps": [{"topics": {"t0": 4}, "topic_ids": {"t0": "AAAAAAAAAAAAAAAAAAAAAg"},
    ...     "members": [{"id": "a", "topics": ["t0"]}, {"id": "b", "topics": ["t0"]}]}]}, "range")
    >>> [(assignment_to_json(s.assignment), s.moved) for s in out.steps]
    [({'a': ['t0-0', 't0-1'], 'b': ['t0-2', 't0-3']}, 0)]

Assignments are ``TopicPartition`` lists (``engine.consumer.assignment``); strings only in the JSON.

Limits (stated in docs/command-line.md): steps <= 200; per step topics <= 10,000, partitions per topic 1..100,000,
partitions <= 200,000, members <= 10,000; partitions summed over all steps <= 1,000,000.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.consumer.assignment import Assignment, assignment_to_json, count_moves
from engine.coordinator.assignors import (
    DEFAULT_SERVER_ASSIGNOR,
    AssignFunction,
    ServerAssignor,
    server_assignor,
)
from engine.coordinator.group_spec import (
    HETEROGENEOUS,
    HOMOGENEOUS,
    GroupSpec,
    MemberPartitions,
    MemberSpec,
    PartitionAssignorError,
    TopicDescriber,
    assignment_from_record,
    member_hashmap_order,
    subscription_type,
    topic_ids_order,
)
from engine.cost import CLI_CEILING, admit, estimate_server_assign_command
from engine.errors import EngineError, LimitError, ScenarioError
from engine.java.strings import string_hashmap_order
from engine.java.uuid import Uuid
from engine.scenario import GroupState, Member, Scenario, TopicPartition

MAX_STEPS = 200
MAX_TOPICS = 10_000
MAX_PARTITIONS_PER_TOPIC = 100_000
MAX_PARTITIONS_PER_STEP = 200_000
MAX_MEMBERS = 10_000
MAX_PARTITIONS_ALL_STEPS = 1_000_000  # the work budget: ~4.5 s for uniform (docs/command-line.md, "Limits")
MAX_NAME = 1_000


# ------------------------------------------------------------------------------------- public API


@dataclass(frozen=True)
class ServerStepResult:
    """One step's target assignment (lists in Kafka's iteration order) and its owner changes.

    ``current_assignment`` is what each member held before the step (given or chained).
    """

    assignment: Assignment
    moved: int
    moved_from_remaining: int
    subscription_type: str
    current_assignment: Assignment = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"assignment": assignment_to_json(self.assignment), "moved": self.moved,
                "moved_from_remaining": self.moved_from_remaining}


@dataclass(frozen=True)
class ServerAssignResult:
    assignor: str
    steps: list[ServerStepResult]


def server_assign(case: Mapping[str, Any] | Scenario, assignor: str | None = None) -> ServerAssignResult:
    """Target assignments of every step of a case (the CLI shape) or of a dashboard ``Scenario``.

    ``assignor`` overrides the case's ``assignor`` field; the default is Kafka's ``uniform``.
    Raises ``EngineError`` (one line) for malformed input and ``PartitionAssignorError`` where
    Kafka's assignor would throw.
    """
    chosen, steps = _parse_case(case, assignor)
    return _assign_steps(chosen, steps)


def _parse_case(case: Mapping[str, Any] | Scenario, assignor: str | None) -> tuple[ServerAssignor, list[_StepIn]]:
    data = scenario_to_server_case(case) if isinstance(case, Scenario) else case
    if not isinstance(data, Mapping):
        raise ScenarioError(f"input: must be a JSON object, got {type(data).__name__}")
    chosen = server_assignor(data.get("assignor", DEFAULT_SERVER_ASSIGNOR) if assignor is None else assignor)
    return chosen, _parse_steps(data)


def _assign_steps(chosen: ServerAssignor, steps: list[_StepIn]) -> ServerAssignResult:
    results: list[ServerStepResult] = []
    known_ids: dict[str, Uuid] = {}
    previous: _StepOutcome | None = None
    for index, step in enumerate(steps):
        known_ids.update(step.topic_ids)
        outcome = _run_step(index, step, chosen.assign, known_ids, previous)
        results.append(outcome.result)
        previous = outcome
    return ServerAssignResult(chosen.name, results)


def cli_server_assign(payload: Any) -> dict[str, Any]:
    """``python -m engine server-assign``: one case in, ``{"steps": [...]}`` out.

    Where Kafka's assignor would throw, the answer is ``{"error": "PartitionAssignorException: ..."}``.
    """
    chosen, steps = _parse_case(payload, None)
    admit(estimate_server_assign_command(_shape(steps), chosen.name), CLI_CEILING, "server-assign")
    try:
        result = _assign_steps(chosen, steps)
    except PartitionAssignorError as exc:
        return {"error": f"PartitionAssignorException: {exc}"}
    return {"steps": [s.to_json() for s in result.steps]}


def _shape(steps: list[_StepIn]) -> Scenario:
    """The steps as a ``Scenario`` of the same shape (topics, members' subscriptions) for the estimate."""
    return Scenario(steps=tuple(GroupState(s.topics, tuple(Member(m.id, m.topics) for m in s.members))
                                for s in steps))


def scenario_to_server_case(scenario: Scenario) -> dict[str, Any]:
    """A dashboard scenario as a server-assign case (ids derived from names, history chained)."""
    steps = []
    for state in scenario.steps:
        members: list[dict[str, Any]] = [{"id": m.id, "topics": list(m.topics), "instance_id": m.instance_id}
                                         for m in state.members]
        steps.append({
            "topics": dict(state.topics),
            "topic_ids": {t: str(Uuid.for_name(t)) for t in state.topics},
            "members": members,
        })
        if scenario.current_assignment and len(steps) == 1:  # an imported group: what its members own first
            for member in members:
                member["current_assignment"] = [str(tp) for tp in scenario.current_assignment.get(member["id"], ())]
    return {"steps": steps}


def preferred_server_assignor(
    remote_assignors: Sequence[str | None], default: str = DEFAULT_SERVER_ASSIGNOR
) -> str:
    """``ConsumerGroup.preferredServerAssignor``: the ``group.remote.assignor`` most members name.

    Counts sit in a ``HashMap<String, Integer>``; ``stream().max(comparingByValue())`` keeps the first
    maximum in HashMap order on a tie.  No member naming one -> the broker default (``uniform``).
    """
    counts: dict[str, int] = {}
    for name in remote_assignors:
        if name:
            counts[name] = counts.get(name, 0) + 1
    if not counts:
        return default
    best = None
    for name in string_hashmap_order(counts):
        if best is None or counts[name] > counts[best]:
            best = name
    assert best is not None
    return best


# ------------------------------------------------------------------------------------ parsing


@dataclass(frozen=True)
class _MemberIn:
    id: str
    topics: tuple[str, ...]
    instance_id: str | None
    current_assignment: tuple[tuple[str, int], ...] | None


@dataclass(frozen=True)
class _StepIn:
    topics: dict[str, int]
    topic_ids: dict[str, Uuid]
    members: tuple[_MemberIn, ...]
    subscription_type: str | None


def _parse_steps(data: Mapping[str, Any]) -> list[_StepIn]:
    raw_steps = data.get("steps")
    if raw_steps is None:
        raw_steps = [{k: data[k] for k in ("topics", "topic_ids", "members", "subscription_type") if k in data}]
    if not isinstance(raw_steps, list) or not raw_steps:
        raise ScenarioError(f"steps: must be a non-empty list, got {_short(raw_steps)}")
    if len(raw_steps) > MAX_STEPS:
        raise LimitError(f"steps: at most {MAX_STEPS}, got {len(raw_steps)}")
    steps = [_parse_step(f"steps[{i}]", s) for i, s in enumerate(raw_steps)]
    total = sum(sum(s.topics.values()) for s in steps)
    if total > MAX_PARTITIONS_ALL_STEPS:
        raise LimitError(f"steps: at most {MAX_PARTITIONS_ALL_STEPS} partitions summed over all steps, got {total}")
    return steps


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _name(where: str, value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise ScenarioError(f"{where}: must be a non-empty string, got {_short(value)}")
    if len(value) > MAX_NAME:
        raise ScenarioError(f"{where}: longer than {MAX_NAME} characters ({len(value)})")
    return value


def _parse_step(where: str, raw: Any) -> _StepIn:
    if not isinstance(raw, dict):
        raise ScenarioError(f"{where}: must be an object, got {_short(raw)}")
    topics = _parse_topics(f"{where}.topics", raw.get("topics"))
    topic_ids = _parse_topic_ids(f"{where}.topic_ids", raw.get("topic_ids"), topics)
    members_raw = raw.get("members")
    if not isinstance(members_raw, list):
        raise ScenarioError(f"{where}.members: must be a list, got {_short(members_raw)}")
    if len(members_raw) > MAX_MEMBERS:
        raise LimitError(f"{where}.members: at most {MAX_MEMBERS}, got {len(members_raw)}")
    members = tuple(_parse_member(f"{where}.members[{i}]", m) for i, m in enumerate(members_raw))
    _check_unique(f"{where}.members", members)
    kind = raw.get("subscription_type")
    if kind is not None and kind not in (HOMOGENEOUS, HETEROGENEOUS):
        raise ScenarioError(f"{where}.subscription_type: must be HOMOGENEOUS or HETEROGENEOUS, got {_short(kind)}")
    return _StepIn(topics, topic_ids, members, kind)


def _parse_topics(where: str, raw: Any) -> dict[str, int]:
    if not isinstance(raw, dict):
        raise ScenarioError(f"{where}: must be an object of topic -> partitions, got {_short(raw)}")
    if len(raw) > MAX_TOPICS:
        raise LimitError(f"{where}: at most {MAX_TOPICS} topics, got {len(raw)}")
    for name, count in raw.items():
        _name(f"{where}[{name!r}]", name)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_PARTITIONS_PER_TOPIC:
            raise ScenarioError(
                f"{where}[{name!r}]: partitions must be 1..{MAX_PARTITIONS_PER_TOPIC}, got {_short(count)}"
            )
    total = sum(raw.values())
    if total > MAX_PARTITIONS_PER_STEP:
        raise LimitError(f"{where}: at most {MAX_PARTITIONS_PER_STEP} partitions per step, got {total}")
    return dict(raw)


def _parse_topic_ids(where: str, raw: Any, topics: dict[str, int]) -> dict[str, Uuid]:
    if raw is None:
        return {t: Uuid.for_name(t) for t in topics}
    if not isinstance(raw, dict):
        raise ScenarioError(f"{where}: must be an object of topic -> Uuid, got {_short(raw)}")
    ids: dict[str, Uuid] = {}
    owners: dict[Uuid, str] = {}
    for name, text in raw.items():
        _name(f"{where}[{name!r}]", name)
        try:
            uuid = Uuid.from_string(text)
        except EngineError as exc:
            raise ScenarioError(f"{where}[{name!r}]: {exc}") from None
        if uuid in owners:
            raise ScenarioError(f"{where}[{name!r}]: id {text!r} already belongs to {owners[uuid]!r}")
        owners[uuid] = name
        ids[name] = uuid
    missing = [t for t in topics if t not in ids]
    if missing:
        raise ScenarioError(f"{where}: no id for topic {missing[0]!r}")
    return ids


def _parse_member(where: str, raw: Any) -> _MemberIn:
    if not isinstance(raw, dict):
        raise ScenarioError(f"{where}: must be an object, got {_short(raw)}")
    member_id = _name(f"{where}.id", raw.get("id"))
    topics_raw = raw.get("topics", [])
    if not isinstance(topics_raw, list):
        raise ScenarioError(f"{where}.topics: must be a list of topic names, got {_short(topics_raw)}")
    topics = tuple(_name(f"{where}.topics[{j}]", t) for j, t in enumerate(topics_raw))
    instance = raw.get("instance_id")
    if instance is not None:
        _name(f"{where}.instance_id", instance)
    current_raw = raw.get("current_assignment")
    current = None
    if current_raw is not None:
        if not isinstance(current_raw, list):
            raise ScenarioError(f"{where}.current_assignment: must be a list, got {_short(current_raw)}")
        current = tuple(_parse_tp(f"{where}.current_assignment[{j}]", tp) for j, tp in enumerate(current_raw))
    return _MemberIn(member_id, topics, instance, current)


def _parse_tp(where: str, text: Any) -> tuple[str, int]:
    if isinstance(text, str):
        topic, sep, number = text.rpartition("-")
        if sep and topic and number.isascii() and number.isdigit() and len(number) < 10:
            return topic, int(number)
    raise ScenarioError(f"{where}: expected '<topic>-<partition>', got {_short(text)}")


def _check_unique(where: str, members: tuple[_MemberIn, ...]) -> None:
    ids: set[str] = set()
    instances: set[str] = set()
    for i, m in enumerate(members):
        if m.id in ids:
            raise ScenarioError(f"{where}[{i}].id: duplicate {m.id!r}")
        ids.add(m.id)
        if m.instance_id is not None:
            if m.instance_id in instances:
                raise ScenarioError(f"{where}[{i}].instance_id: duplicate {m.instance_id!r}")
            instances.add(m.instance_id)


# ------------------------------------------------------------------------------------ one step


@dataclass
class _StepOutcome:
    result: ServerStepResult
    instance_of: dict[str, str | None]

    @property
    def lists(self) -> Assignment:
        return self.result.assignment


def _chained_current(step: _StepIn, previous: _StepOutcome | None) -> Assignment:
    """Each member's current target: given, else chained from the previous step."""
    present = {m.id for m in step.members}
    by_instance = {}
    if previous is not None:
        by_instance = {inst: mid for mid, inst in previous.instance_of.items()
                       if inst is not None and mid not in present}
    out: Assignment = {}
    for m in step.members:
        if m.current_assignment is not None:
            out[m.id] = [TopicPartition(topic, p) for topic, p in m.current_assignment]
        elif previous is None:
            out[m.id] = []
        elif m.id in previous.lists:
            out[m.id] = list(previous.lists[m.id])
        elif m.instance_id is not None and m.instance_id in by_instance:
            out[m.id] = list(previous.lists.get(by_instance[m.instance_id], []))
        else:
            out[m.id] = []
    return out


def _record(
    where: str, tps: list[TopicPartition], step: _StepIn, known_ids: dict[str, Uuid]
) -> list[tuple[Uuid, list[int]]]:
    """The target-assignment record: partitions grouped by topic in first-appearance order."""
    grouped: dict[Uuid, list[int]] = {}
    for topic, partition in tps:
        uuid = step.topic_ids.get(topic, known_ids.get(topic))
        if uuid is None:
            raise ScenarioError(f"{where}: topic {topic!r} has no id in topic_ids")
        if topic in step.topics and partition >= step.topics[topic]:
            raise ScenarioError(
                f"{where}: {topic}-{partition} does not exist ({step.topics[topic]} partitions)")
        grouped.setdefault(uuid, []).append(partition)
    return list(grouped.items())


def _group_spec(
    index: int, step: _StepIn, current: Assignment, known_ids: dict[str, Uuid]
) -> GroupSpec:
    existing = {t: step.topic_ids[t] for t in step.topics}
    members: dict[str, MemberSpec] = {}
    inverted: dict[Uuid, dict[int, str]] = {}
    for i, m in enumerate(step.members):
        where = f"steps[{index}].members[{i}].current_assignment"
        record = _record(where, current[m.id], step, known_ids)
        for uuid, partitions in record:
            owners = inverted.setdefault(uuid, {})
            for p in partitions:
                if owners.get(p, m.id) != m.id:
                    raise ScenarioError(
                        f"{where}: partition {p} of that topic is also assigned to {owners[p]!r}")
                owners[p] = m.id
        members[m.id] = MemberSpec(
            m.id, m.instance_id, m.topics, topic_ids_order(m.topics, existing), assignment_from_record(record)
        )
    kind = step.subscription_type or subscription_type([m.topics for m in step.members])
    return GroupSpec(member_hashmap_order([m.id for m in step.members]), members, kind, inverted)


def _describer(step: _StepIn) -> TopicDescriber:
    subscribed = {t for m in step.members for t in m.topics}
    return TopicDescriber({step.topic_ids[t]: n for t, n in step.topics.items() if t in subscribed})


def _flatten(maps: dict[str, MemberPartitions], names: dict[Uuid, str]) -> Assignment:
    return {mid: [TopicPartition(names[t], p) for t, parts in a.items() for p in parts.keys()]
            for mid, a in maps.items()}


def _run_step(index: int, step: _StepIn, assign: AssignFunction, known_ids: dict[str, Uuid],
              previous: _StepOutcome | None) -> _StepOutcome:
    current = _chained_current(step, previous)
    spec = _group_spec(index, step, current, known_ids)
    try:
        maps = assign(spec, _describer(step))
    except PartitionAssignorError as exc:
        raise PartitionAssignorError(f"steps[{index}]: {exc}") from None
    names = {uuid: name for name, uuid in known_ids.items()}
    names.update({uuid: name for name, uuid in step.topic_ids.items()})
    flat = _flatten(maps, names)
    lists = {m.id: flat.get(m.id, []) for m in step.members}
    moved, remaining = count_moves(previous.lists if previous is not None else None, lists)
    result = ServerStepResult(lists, moved, remaining, spec.subscription_type, current)
    return _StepOutcome(result, {m.id: m.instance_id for m in step.members})
