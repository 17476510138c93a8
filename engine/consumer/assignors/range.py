"""Kafka's ``RangeAssignor`` (clients), including the rack-aware path of KIP-881.

Per topic, the subscribed members are sorted (static members first by ``group.instance.id``,
then by member id in Java ``String.compareTo`` order) and the partitions are cut into
contiguous ranges; the first ``partitions % members`` members get one extra.

Worked example (the one seed article 004 gets wrong): members C0 and C1 both subscribe to t0
and t1 with 4 partitions each.  Each topic is split on its own, so
``C0 = [t0-0, t0-1, t1-0, t1-1]`` and ``C1 = [t0-2, t0-3, t1-2, t1-3]`` — not the interleaved
lists the article shows (that is round-robin's answer).  With 3 partitions per topic C0 gets
the extra partition of *both* topics: ``C0 = [t0-0, t0-1, t1-0, t1-1]``, ``C1 = [t0-2, t1-2]``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain, islice
from operator import itemgetter

from engine.consumer.assignors.common import (
    Assignment,
    Cluster,
    Subscription,
    member_sort_key,
    partitions_for,
    tp_java_key,
    use_rack_aware_assignment,
)
from engine.scenario import TopicPartition, topic_partitions

NAME = "range"


@dataclass
class TopicAssignmentState:
    """``RangeAssignor.TopicAssignmentState``: one topic's members, quota and rack data."""

    topic: str
    consumers: dict[str, str | None]  # sorted member id -> rack (None without one)
    partition_racks: dict[int, frozenset[str]]
    unassigned: dict[int, None]  # ordered set of partition numbers
    num_per_consumer: int
    remaining_with_extra: int
    needs_rack_aware: bool = False
    num_assigned: dict[str, int] = field(default_factory=dict)

    def racks_match(self, consumer: str, partition: int) -> bool:
        rack = self.consumers[consumer]
        replica_racks = self.partition_racks.get(partition)
        return rack is None or (replica_racks is not None and rack in replica_racks)

    def max_assignable(self, consumer: str) -> int:
        extra = 1 if self.remaining_with_extra > 0 else 0
        return max(0, self.num_per_consumer + extra - self.num_assigned[consumer])

    def on_assigned(self, consumer: str, partitions: list[int]) -> None:
        self.num_assigned[consumer] += len(partitions)
        if self.num_assigned[consumer] > self.num_per_consumer:
            self.remaining_with_extra -= 1
        for p in partitions:
            self.unassigned.pop(p, None)


@lru_cache(maxsize=64)
def _sorted_members(members: tuple[tuple[str, str | None], ...]) -> list[tuple[str, str | None]]:
    """``Collections.sort(List<MemberInfo>)``; topics with the same subscribers share the work."""
    return sorted(members, key=lambda m: member_sort_key(*m))


def _topic_state(
    topic: str, count: int, members: list[tuple[str, str | None]], cluster: Cluster, racks: dict[str, str]
) -> TopicAssignmentState:
    ordered = _sorted_members(tuple(members))
    consumers = {member_id: racks.get(member_id) for member_id, _ in ordered}
    n = len(consumers)
    state = TopicAssignmentState(
        topic=topic,
        consumers=consumers,
        partition_racks={},
        unassigned=dict.fromkeys(range(count)),
        num_per_consumer=count // n if n else 0,
        remaining_with_extra=count % n if n else 0,
        num_assigned=dict.fromkeys(consumers, 0),
    )
    consumer_racks = {r for r in consumers.values() if r is not None}
    if consumer_racks:
        state.partition_racks = {p: cluster.racks_of(TopicPartition(topic, p)) for p in range(count)}
        all_partition_racks = set().union(*state.partition_racks.values()) if count else set()
        state.needs_rack_aware = use_rack_aware_assignment(
            consumer_racks, all_partition_racks, list(state.partition_racks.values())
        )
    return state


def _assign_contiguous(topic: str, count: int, members: list[tuple[str, str | None]], out: Assignment) -> None:
    """The non-rack path in closed form: the first ``count % n`` members take one extra."""
    if not members:
        return
    per_member, extra = divmod(count, len(members))
    partitions = topic_partitions(topic, count)
    start = 0
    for i, (member_id, _) in enumerate(members):
        size = per_member + (1 if i < extra else 0)
        if size == 0:
            break
        out[member_id].extend(partitions[start : start + size])
        start += size


def _everyone_subscribes_to_all(partitions_per_topic: dict[str, int], subscriptions: dict[str, Subscription]) -> bool:
    distinct_lists = {tuple(s.topics) for s in subscriptions.values()}
    return all(set(topics).issuperset(partitions_per_topic) for topics in distinct_lists)


def _assign_homogeneous(partitions_per_topic: dict[str, int], subscriptions: dict[str, Subscription],
                        out: Assignment) -> None:
    """``_assign_contiguous`` for every topic at once when all members subscribe to every topic:
    member ``j`` takes the same slice of every topic with the same partition count."""
    members = _sorted_members(tuple((m, s.instance_id) for m, s in subscriptions.items()))
    n = len(members)
    partitions = {t: topic_partitions(t, c) for t, c in partitions_per_topic.items()}
    bounds: dict[int, list[tuple[int, int]]] = {}
    for count in set(partitions_per_topic.values()):
        per_member, extra = divmod(count, n)
        starts = [j * per_member + min(j, extra) for j in range(n + 1)]
        bounds[count] = list(zip(starts, starts[1:]))
    topics = list(partitions_per_topic.items())
    lists = list(partitions.values())
    same_count = len(bounds) == 1
    for j, (member_id, _) in enumerate(members):
        if same_count:  # one C-level pass: the same slice of every topic's list
            (start, stop), = (b[j] for b in bounds.values())
            out[member_id] = list(chain.from_iterable(map(itemgetter(slice(start, stop)), lists)))
        else:
            out[member_id] = [tp for t, c in topics for tp in partitions[t][slice(*bounds[c][j])]]


def _assign(consumer: str, partitions: list[int], state: TopicAssignmentState, out: Assignment) -> None:
    out[consumer].extend(TopicPartition(state.topic, p) for p in partitions)
    state.on_assigned(consumer, partitions)


def _assign_ranges(
    state: TopicAssignmentState, may_assign: Callable[[str, int], bool] | None, out: Assignment
) -> None:
    """Each member in order takes its quota of the first unassigned partitions it may take."""
    pending = iter(list(state.unassigned))  # without a filter, each member takes the next ones
    for consumer in state.consumers:
        if not state.unassigned:
            break
        limit = state.max_assignable(consumer)
        if may_assign is None:
            chosen = list(islice(pending, limit))
        else:
            chosen = list(islice((p for p in state.unassigned if may_assign(consumer, p)), limit))
        if chosen:
            _assign(consumer, chosen, state, out)


def _assign_co_partitioned(
    consumers: list[str], num_partitions: int, states: list[TopicAssignmentState], out: Assignment
) -> None:
    remaining = list(consumers)
    for p in range(num_partitions):
        match = next(
            (c for c in remaining if all(s.racks_match(c, p) and s.max_assignable(c) > 0 for s in states)),
            None,
        )
        if match is None:
            continue
        for s in states:
            _assign(match, [p], s, out)
        if not any(s.max_assignable(match) > 0 for s in states):
            remaining.remove(match)
            if not remaining:
                break


def _assign_with_rack_matching(states: list[TopicAssignmentState], out: Assignment) -> None:
    by_consumers: dict[tuple[tuple[str, str | None], ...], dict[int, list[TopicAssignmentState]]] = {}
    for s in states:
        key = tuple(s.consumers.items())
        by_consumers.setdefault(key, {}).setdefault(len(s.partition_racks), []).append(s)
    for key, by_count in by_consumers.items():
        for count, co_partitioned in by_count.items():
            if len(co_partitioned) > 1:
                _assign_co_partitioned([c for c, _ in key], count, co_partitioned, out)
            elif co_partitioned[0].needs_rack_aware:
                _assign_ranges(co_partitioned[0], co_partitioned[0].racks_match, out)


def _consumer_racks(subscriptions: dict[str, Subscription]) -> dict[str, str]:
    return {m: s.rack for m, s in subscriptions.items() if s.rack}


def assign(cluster: Cluster, subscriptions: dict[str, Subscription]) -> Assignment:
    """``RangeAssignor.assign``: member id -> partitions (lists in Kafka's order)."""
    partitions_per_topic = partitions_for(cluster, subscriptions)
    racks = _consumer_racks(subscriptions)
    out: Assignment = {member_id: [] for member_id in subscriptions}
    if not racks and _everyone_subscribes_to_all(partitions_per_topic, subscriptions):
        _assign_homogeneous(partitions_per_topic, subscriptions, out)
        return out
    members_per_topic: dict[str, list[tuple[str, str | None]]] = {}
    for member_id, subscription in subscriptions.items():
        for topic in subscription.topics:
            members_per_topic.setdefault(topic, []).append((member_id, subscription.instance_id))
    if not racks:  # no consumer rack: no topic can need rack matching
        for topic, count in partitions_per_topic.items():
            _assign_contiguous(topic, count, _sorted_members(tuple(members_per_topic.get(topic, []))), out)
        return out
    states = [
        _topic_state(t, partitions_per_topic[t], members_per_topic.get(t, []), cluster, racks)
        for t in partitions_per_topic
    ]
    rack_aware = any(s.needs_rack_aware for s in states)
    if rack_aware:
        _assign_with_rack_matching(states, out)
    for s in states:
        _assign_ranges(s, None, out)
    if rack_aware:
        for partitions in out.values():
            partitions.sort(key=tp_java_key)
    return out
