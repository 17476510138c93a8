"""Kafka's ``RoundRobinAssignor``.

All subscribed partitions, topics in Java ``String`` order and partitions in order, are dealt
one by one to the members in ``MemberInfo`` order (static members first by instance id, then by
member id), skipping members that do not subscribe to the partition's topic.

Worked example (seed article 001): C0 and C1 subscribe to t0 and t1, 3 partitions each:
``C0 = [t0-0, t0-2, t1-1]`` and ``C1 = [t0-1, t1-0, t1-2]``.
"""

from __future__ import annotations

from engine.assignors.common import Assignment, Cluster, Subscription, member_sort_key
from engine.java import sorted_java
from engine.scenario import TopicPartition

NAME = "roundrobin"


def all_partitions_sorted(cluster: Cluster, subscriptions: dict[str, Subscription]) -> list[TopicPartition]:
    """Partitions of every subscribed topic with metadata; topics in a ``TreeSet`` (Java order)."""
    topics = sorted_java({t for s in subscriptions.values() for t in s.topics})
    return [
        TopicPartition(t, p) for t in topics for p in range(cluster.partitions_per_topic.get(t, 0))
    ]


def assign(cluster: Cluster, subscriptions: dict[str, Subscription]) -> Assignment:
    """``RoundRobinAssignor.assign``: member id -> partitions, in Kafka's order."""
    out: Assignment = {member_id: [] for member_id in subscriptions}
    members = sorted(subscriptions, key=lambda m: member_sort_key(m, subscriptions[m].instance_id))
    topic_sets = {m: set(subscriptions[m].topics) for m in members}
    position = 0
    for tp in all_partitions_sorted(cluster, subscriptions):
        while tp.topic not in topic_sets[members[position]]:
            position = (position + 1) % len(members)
        out[members[position]].append(tp)
        position = (position + 1) % len(members)
    return out
