"""Balance numbers the dashboard shows for one assignment (moves, revocations: ``consumer.assignment``).

Example (the seed-a range result, 10 partitions over C0..C2)::

    >>> from engine.scenario import parse_scenario, TopicPartition
    >>> state = parse_scenario({"topics": {"t0": 10}, "members": [
    ...     {"id": c, "topics": ["t0"]} for c in ("C0", "C1", "C2")]}).first
    >>> tps = lambda topic, *ps: [TopicPartition(topic, p) for p in ps]
    >>> a = {"C0": tps("t0", 0, 1, 2, 3), "C1": tps("t0", 4, 5, 6), "C2": tps("t0", 7, 8, 9)}
    >>> m = balance_metrics(a, state)
    >>> (m.min_partitions, m.max_partitions, m.spread, m.idle_members)
    (3, 4, 1, ())

``max_load_over_mean`` is the busiest member's weighted load divided by the mean load per member
(1.0 = perfectly even); ``cross_rack_share`` is the share of assigned partitions whose reader has a
``client.rack`` that holds none of the partition's replicas (only partitions whose reader has a rack
and whose replica racks are known count).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.consumer.assignment import AssignmentView as Assignment
from engine.scenario import GroupState, TopicPartition

Weights = Mapping[str, Sequence[float]]


@dataclass(frozen=True)
class BalanceMetrics:
    """Per-strategy balance numbers (see the module docstring for the definitions)."""

    members: int
    assigned: int
    min_partitions: int
    max_partitions: int
    spread: int
    idle_members: tuple[str, ...]
    partitions_per_member: dict[str, int]
    load_per_member: dict[str, float] | None
    max_load_over_mean: float | None
    cross_rack_partitions: int | None
    cross_rack_share: float | None


def partitions_per_member(assignment: Assignment) -> dict[str, int]:
    return {member: len(tps) for member, tps in assignment.items()}


def partition_weight(weights: Weights, tp: TopicPartition) -> float:
    """The load weight of ``tp``: 1.0 for topics or partitions without a weight."""
    values = weights.get(tp.topic)
    return float(values[tp.partition]) if values is not None and tp.partition < len(values) else 1.0


def load_per_member(assignment: Assignment, weights: Weights) -> dict[str, float]:
    return {m: round(sum(partition_weight(weights, tp) for tp in tps), 9) for m, tps in assignment.items()}


def max_over_mean(values: Mapping[str, float]) -> float | None:
    """max / mean of the values; None when there are none or all are 0."""
    if not values:
        return None
    mean = sum(values.values()) / len(values)
    return max(values.values()) / mean if mean > 0 else None


def is_cross_rack(state: GroupState, rack: str | None, tp: TopicPartition) -> bool | None:
    """True/False when both the reader's rack and the partition's replica racks are known, else None."""
    racks = state.partition_racks.get(tp.topic)
    if rack is None or racks is None or tp.partition >= len(racks):
        return None
    return rack not in racks[tp.partition]


def cross_rack_count(assignment: Assignment, state: GroupState) -> tuple[int, int]:
    """(partitions read cross-rack, partitions where it is known)."""
    racks = {m.id: m.rack for m in state.members}
    cross = known = 0
    for member, tps in assignment.items():
        for tp in tps:
            verdict = is_cross_rack(state, racks.get(member), tp)
            if verdict is not None:
                known += 1
                cross += verdict
    return cross, known


def balance_metrics(assignment: Assignment, state: GroupState,
                    weights: Weights | None = None) -> BalanceMetrics:
    """All balance numbers for one assignment of ``state``'s members."""
    counts = {m.id: 0 for m in state.members}
    counts.update(partitions_per_member(assignment))
    values = list(counts.values()) or [0]
    loads = load_per_member({m: assignment.get(m, ()) for m in counts}, weights) if weights else None
    cross, known = cross_rack_count(assignment, state)
    return BalanceMetrics(
        members=len(counts),
        assigned=sum(values),
        min_partitions=min(values),
        max_partitions=max(values),
        spread=max(values) - min(values),
        idle_members=tuple(m for m, n in counts.items() if n == 0),
        partitions_per_member=counts,
        load_per_member=loads,
        max_load_over_mean=max_over_mean(loads) if loads else None,
        cross_rack_partitions=cross if known else None,
        cross_rack_share=cross / known if known else None,
    )
