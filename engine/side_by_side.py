"""Two choices side by side: the same group under two assignors (Java or librdkafka client, or a KIP-848
server assignor), optionally each with its own partition count per topic.

A ``Choice`` is an ``engine.comparison.Assignor`` and a partition count (0: the scenario's own).
``scenario_for`` gives the scenario a choice runs on; ``owner_differences`` lists the partitions whose owner
differs between two assignments (a partition one side does not have counts as owned by nobody there).

Worked example (asserted in tests/test_worked_examples.py): seed-a (C0..C2 on t0 with 10 partitions): range
gives C0 0-3, C1 4-6, C2 7-9; round-robin deals them out (C0 0, 3, 6, 9; C1 1, 4, 7; C2 2, 5, 8), so six owners
differ; at 8 partitions per topic the group has 8 partitions; as a share group, every partition of seed-a's
topic has one reader: with at least as many partitions as members the simple assignor wants
``ceil(3 / 10) = 1`` member per partition::

    >>> from engine.comparison import CLIENT, outcomes
    >>> from engine.presets import build_preset
    >>> s = build_preset("seed-a")
    >>> left, right = (outcomes(s, CLIENT[n])[0].assignment for n in ("range", "roundrobin"))
    >>> [f"{d.partition}: {d.left}/{d.right}" for d in owner_differences(left, right)]
    ['t0-1: C0/C1', 't0-2: C0/C2', 't0-5: C1/C2', 't0-6: C1/C0', 't0-7: C2/C1', 't0-9: C2/C0']
    >>> [sum(s.topics.values()) for s in scenario_for(s, Choice(CLIENT["range"], 8)).steps]
    [8]
    >>> from engine.coordinator.share_assignment import share_assign
    >>> rows = readers_side_by_side(left, share_assign(s).steps[0].assignment)
    >>> len(rows), max(len(r.share_group) for r in rows)
    (10, 1)
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.comparison import Assignor
from engine.consumer.assignment import AssignmentView, owners
from engine.errors import ScenarioError
from engine.scenario import (
    MAX_PARTITIONS_PER_TOPIC,
    Scenario,
    TopicPartition,
    parse_scenario,
    scenario_to_json,
    tp_sort_key,
)


@dataclass(frozen=True)
class Choice:
    """One side: an assignor, and every topic's partition count (0 keeps the scenario's own)."""

    assignor: Assignor
    partitions: int = 0


@dataclass(frozen=True)
class OwnerDifference:
    partition: TopicPartition
    left: str | None
    right: str | None


def scenario_for(scenario: Scenario, choice: Choice) -> Scenario:
    """``scenario`` with every topic at ``choice.partitions`` partitions in every step (checked like any
    scenario; per-partition racks, weights and a current assignment no longer fit, so they are dropped)."""
    if not choice.partitions:
        return scenario
    if not 1 <= choice.partitions <= MAX_PARTITIONS_PER_TOPIC:
        raise ScenarioError(f"partitions per topic: between 1 and {MAX_PARTITIONS_PER_TOPIC:,}, "
                            f"got {choice.partitions}")
    data = scenario_to_json(scenario)
    steps = data.pop("steps", None) or [{"topics": data["topics"], "members": data["members"]}]
    for key in ("topics", "members", "partition_racks", "weights", "current_assignment"):
        data.pop(key, None)
    data["steps"] = [{"topics": {t: choice.partitions for t in step["topics"]}, "members": step["members"]}
                     for step in steps]
    return parse_scenario(data)


def owner_differences(left: AssignmentView, right: AssignmentView) -> list[OwnerDifference]:
    """Every partition owned by different members (or by a member on one side only), in partition order."""
    a, b = owners(left), owners(right)
    return [OwnerDifference(tp, a.get(tp), b.get(tp)) for tp in sorted(a.keys() | b.keys())
            if a.get(tp) != b.get(tp)]


@dataclass(frozen=True)
class Readers:
    """Who reads one partition: the consumer group's one owner (or none), the share group's members."""

    partition: TopicPartition
    consumer_group: str | None
    share_group: tuple[str, ...]


def readers_side_by_side(consumer: AssignmentView, share: AssignmentView) -> list[Readers]:
    """Every partition either group reads, in partition order: a consumer group has at most one owner per
    partition, a share group (KIP-932) any number."""
    owner = owners(consumer)
    shared: dict[TopicPartition, list[str]] = {}
    for member, tps in share.items():
        for tp in tps:
            shared.setdefault(tp, []).append(member)
    return [Readers(tp, owner.get(tp), tuple(shared.get(tp, ())))
            for tp in sorted(owner.keys() | shared.keys(), key=tp_sort_key)]
