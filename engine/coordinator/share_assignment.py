"""Share-group target assignment: the group coordinator running ``SimpleAssignor`` step by step.

``python -m engine share-assign`` (``../shared/vectors/share_assign.README.md``) and the Python API the
dashboard uses.  A case has the ``server-assign`` shape (``topics``, ``topic_ids``,
``subscription_type``, ``members`` with ``id``, ``topics`` and ``current_assignment``); each step is one
assignment computation.  An omitted ``current_assignment`` is the previous step's answer for the same
member id, in Kafka's order (a member that joins starts empty); an omitted ``subscription_type`` is computed
from the names; omitted ``topic_ids`` are derived from the names.  Names of topics that do not exist are
skipped, as Kafka's ``TopicIds`` skips them.  Unlike a consumer group, a partition may be held by
several members at once.

Worked example (asserted in tests/engine/coordinator/test_share_assign.py): three partitions, five members — every
partition has ``ceil(5 / 3) = 2`` members, and ``m1``, first in ``memberIds()`` order, wants two partitions::

    >>> out = share_assign({"steps": [{"topics": {"t": 3},
    ...     "members": [{"id": m, "topics": ["t"]} for m in ("m1", "m2", "m3", "m4", "m5")]}]})
    >>> share_assignment_to_json(out.steps[0].assignment)
    {'m1': ['t-0', 't-1'], 'm2': ['t-0'], 'm3': ['t-2'], 'm4': ['t-2'], 'm5': ['t-1']}

Answers list each member's partitions sorted by topic name then partition; Kafka's own order (its
``HashMap``/``HashSet`` iteration order) is kept in ``ShareStepResult.kafka_order`` and chained into the next
step, where it decides which partitions an overfilled member gives up.  Limits (docs/command-line.md): those of
``server-assign`` (steps <= 200, members <= 10,000 and partitions <= 200,000 per step); the work is estimated
before it starts by the cost model (``step_shapes`` -> ``engine.cost.estimate_share_assignment``), and the
command refuses an estimate over the command line's ceiling (``engine.cost.admit`` with ``CLI_CEILING``), as every
other command does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.consumer.assignment import Assignment, assignment_to_json
from engine.coordinator.assignors import DEFAULT_SHARE_ASSIGNOR, ShareAssignFunction, share_assignor
from engine.coordinator.group_spec import TopicDescriber
from engine.coordinator.simple import share_group_spec
from engine.coordinator.target_assignment import _parse_steps, _StepIn
from engine.cost import CLI_CEILING, admit, estimate_share_assignment
from engine.cost.computations import ShareStepShape
from engine.cost.share import ShareMember, ShareStep, given_counts, share_step_shapes
from engine.errors import ScenarioError
from engine.java.strings import string_compare_key
from engine.java.uuid import Uuid
from engine.scenario import Scenario, TopicPartition, tp_sort_key


@dataclass(frozen=True)
class ShareStepResult:
    """One step: every member's partitions (a partition may appear under several members), sorted, and in
    Kafka's order (``kafka_order``: the iteration order of each member's assignment, which the coordinator
    records and reads back as the next computation's current assignment)."""

    assignment: Assignment
    subscription_type: str
    current_assignment: Assignment
    kafka_order: Assignment = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"assignment": share_assignment_to_json(self.assignment)}

    def members_of(self) -> dict[TopicPartition, list[str]]:
        """Partition -> its members, in member order (partitions with none are absent)."""
        out: dict[TopicPartition, list[str]] = {}
        for member_id, tps in self.assignment.items():
            for tp in tps:
                out.setdefault(tp, []).append(member_id)
        return out


@dataclass(frozen=True)
class ShareAssignResult:
    assignor: str
    steps: list[ShareStepResult]


def share_assignment_to_json(assignment: Assignment) -> dict[str, list[str]]:
    out = assignment_to_json(assignment)
    assert out is not None
    return out


def step_shapes(steps: list[_StepIn]) -> list[ShareStepShape]:
    """What the cost model reads of the parsed steps (``engine.cost.share.share_step_shapes``): partitions,
    members, subscriptions, the path, and what members carry in and are answered, each member's holdings
    (given ``current_assignment``s, else the previous step's answer) followed from step to step."""
    return share_step_shapes(ShareStep(s.topics, [ShareMember(m.id, m.topics, None if m.current_assignment is None
                                                              else given_counts(m.current_assignment))
                                                  for m in s.members], s.subscription_type)
                             for s in steps)


def parse_share_case(case: Mapping[str, Any] | Scenario) -> tuple[str, list[_StepIn]]:
    """The assignor's name and the parsed steps of a case (the CLI shape) or a dashboard ``Scenario``."""
    data = scenario_to_share_case(case) if isinstance(case, Scenario) else case
    if not isinstance(data, Mapping):
        raise ScenarioError(f"input: must be a JSON object, got {type(data).__name__}")
    return share_assignor(data.get("assignor", DEFAULT_SHARE_ASSIGNOR)).name, _parse_steps(data)


def share_assign(case: Mapping[str, Any] | Scenario) -> ShareAssignResult:
    """Share-group target assignments of every step of a case (the CLI shape) or a dashboard ``Scenario``.

    Raises ``EngineError`` (one line) for malformed input.  The CLI refuses a step with no member; a dashboard
    scenario's empty step gets Kafka's answer for it, an empty assignment.  Callers estimate the work first
    (the CLI: ``cli_share_assign``; a page: ``ui.scenario.cached.share_result_of``).
    """
    return assign_steps(*parse_share_case(case), dashboard=isinstance(case, Scenario))


def assign_steps(assignor: str, steps: list[_StepIn], dashboard: bool = False) -> ShareAssignResult:
    chosen = share_assignor(assignor)
    results: list[ShareStepResult] = []
    known_ids: dict[str, Uuid] = {}
    previous: Assignment | None = None
    for index, step in enumerate(steps):
        if not step.members and not dashboard:  # a dashboard step may empty the group
            raise ScenarioError(f"steps[{index}].members: a share group needs at least one member, got []")
        known_ids.update(step.topic_ids)
        result = _run_step(index, step, chosen.assign, known_ids, previous)
        results.append(result)
        previous = result.kafka_order
    return ShareAssignResult(chosen.name, results)


def cli_share_assign(payload: Any) -> dict[str, Any]:
    """``python -m engine share-assign``: one case in, ``{"steps": [{"assignment": ...}]}`` out."""
    assignor, steps = parse_share_case(payload)
    admit(estimate_share_assignment(step_shapes(steps), assignor), CLI_CEILING, "share-assign")
    return {"steps": [s.to_json() for s in assign_steps(assignor, steps).steps]}


def scenario_to_share_case(scenario: Scenario) -> dict[str, Any]:
    """A dashboard scenario as a share-assign case (ids derived from names, history chained)."""
    steps: list[dict[str, Any]] = []
    for state in scenario.steps:
        members: list[dict[str, Any]] = [{"id": m.id, "topics": list(m.topics)} for m in state.members]
        if scenario.current_assignment and not steps:  # an imported group: what its members hold first
            for member in members:
                member["current_assignment"] = [str(tp) for tp in scenario.current_assignment.get(member["id"], ())]
        steps.append({"topics": dict(state.topics), "members": members})
    return {"steps": steps}


def _current(index: int, step: _StepIn, previous: Assignment | None,
             known_ids: dict[str, Uuid]) -> dict[str, list[tuple[str, int]]]:
    out: dict[str, list[tuple[str, int]]] = {}
    for i, m in enumerate(step.members):
        if m.current_assignment is not None:
            held = list(m.current_assignment)
        else:
            held = [(tp.topic, tp.partition) for tp in (previous or {}).get(m.id, [])]
        where = f"steps[{index}].members[{i}].current_assignment"
        for topic, p in held:
            if topic not in step.topic_ids and topic not in known_ids:
                raise ScenarioError(f"{where}: topic {topic!r} has no id in topic_ids")
            if topic in step.topics and p >= step.topics[topic]:
                raise ScenarioError(f"{where}: {topic}-{p} does not exist ({step.topics[topic]} partitions)")
        out[m.id] = held
    return out


def _topic_order(topics: Iterable[str]) -> dict[str, int]:
    """Topic -> its rank in Java ``String.compareTo`` order (one comparison key per topic, not per partition)."""
    return {t: i for i, t in enumerate(sorted(set(topics), key=string_compare_key))}


def _run_step(index: int, step: _StepIn, assign: ShareAssignFunction, known_ids: dict[str, Uuid],
              previous: Assignment | None) -> ShareStepResult:
    current = _current(index, step, previous, known_ids)
    ids = {**known_ids, **step.topic_ids}
    spec = share_group_spec(step.topics, {m.id: m.topics for m in step.members}, current, ids,
                            step.subscription_type)
    describer = TopicDescriber({ids[t]: n for t, n in step.topics.items()})
    names = {uuid: name for name, uuid in ids.items()}
    found = assign(spec, describer)
    order = _topic_order(names.values())
    kafka = {m.id: [TopicPartition(names[t], p) for t, p in found.get(m.id, ())] for m in step.members}
    lists = {mid: sorted(tps, key=lambda tp: (order[tp.topic], tp.partition)) for mid, tps in kafka.items()}
    held = {mid: [TopicPartition(t, p) for t, p in tps] for mid, tps in current.items()}
    return ShareStepResult(lists, spec.subscription_type, held, kafka)


# ------------------------------------------------------------------------------ what the pages show


@dataclass(frozen=True)
class SharePartitionView:
    """One step of a share group as the pages show it: who reads each subscribed partition."""

    members_of: dict[TopicPartition, list[str]]  # every subscribed partition, [] when no member has it
    idle_members: list[str]                       # members with no partition (only with no subscribed topic)

    @property
    def shared(self) -> list[TopicPartition]:
        return [tp for tp, ms in self.members_of.items() if len(ms) > 1]

    @property
    def unread(self) -> list[TopicPartition]:
        return [tp for tp, ms in self.members_of.items() if not ms]


def partition_view(result: ShareStepResult, topics: Mapping[str, int],
                   subscriptions: Mapping[str, tuple[str, ...]]) -> SharePartitionView:
    """Partition -> members for the partitions of subscribed topics (Java topic order, then number).

    >>> out = share_assign({"topics": {"t": 2}, "members": [{"id": "a", "topics": ["t"]}]})
    >>> v = partition_view(out.steps[0], {"t": 2}, {"a": ("t",)})
    >>> {str(tp): ms for tp, ms in v.members_of.items()}, v.shared, v.unread
    ({'t-0': ['a'], 't-1': ['a']}, [], [])
    """
    subscribed = {t for names in subscriptions.values() for t in names if t in topics}
    held = result.members_of()
    every = [TopicPartition(t, p) for t in sorted(subscribed, key=string_compare_key) for p in range(topics[t])]
    return SharePartitionView({tp: held.get(tp, []) for tp in every},
                              [m for m, tps in result.assignment.items() if not tps])


@dataclass(frozen=True)
class ShareChange:
    """What one member gains and loses between two steps (``joined``/``left`` for members new or gone)."""

    member: str
    gained: tuple[TopicPartition, ...]
    lost: tuple[TopicPartition, ...]
    joined: bool = False
    left: bool = False


def share_changes(before: Assignment, after: Assignment) -> list[ShareChange]:
    """Members whose partitions change from ``before`` to ``after`` (members of both steps, ``after``'s order
    first, then those who left).

    >>> share_changes({"a": [TopicPartition("t", 0)]}, {"a": [TopicPartition("t", 0)], "b": [TopicPartition("t", 0)]})
    [ShareChange(member='b', gained=(TopicPartition(topic='t', partition=0),), lost=(), joined=True, left=False)]
    """
    out = []
    for member in [*after, *(m for m in before if m not in after)]:
        old, new = set(before.get(member, ())), set(after.get(member, ()))
        if old != new or (member in after) != (member in before):
            out.append(ShareChange(member, tuple(sorted(new - old, key=tp_sort_key)),
                                   tuple(sorted(old - new, key=tp_sort_key)), member not in before,
                                   member not in after))
    return out
