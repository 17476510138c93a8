"""Kafka's ``RoundRobinAssignor``.

All subscribed partitions, topics in Java ``String`` order and partitions in order, are dealt
one by one to the members in ``MemberInfo`` order (static members first by instance id, then by
member id), skipping members that do not subscribe to the partition's topic.

Worked example (seed article 001): C0 and C1 subscribe to t0 and t1, 3 partitions each:
``C0 = [t0-0, t0-2, t1-1]`` and ``C1 = [t0-1, t1-0, t1-2]``.
"""

from __future__ import annotations

from bisect import bisect_left

from engine.consumer.assignors.common import Assignment, Cluster, Subscription, member_sort_key
from engine.java.strings import sorted_java
from engine.scenario import topic_partitions

NAME = "roundrobin"


def assign(cluster: Cluster, subscriptions: dict[str, Subscription]) -> Assignment:
    """``RoundRobinAssignor.assign``: member id -> partitions, in Kafka's order.

    The ``CircularIterator`` walk is done a topic at a time: a topic's partitions go to its
    subscribers in member order, starting at the first subscriber at or after the iterator.
    """
    out: Assignment = {member_id: [] for member_id in subscriptions}
    members = sorted(subscriptions, key=lambda m: member_sort_key(m, subscriptions[m].instance_id))
    subscribers: dict[str, list[int]] = {}
    for index, member in enumerate(members):
        for topic in subscriptions[member].topics:
            subscribers.setdefault(topic, []).append(index)
    position = 0
    for topic in sorted_java(subscribers):
        count = cluster.partitions_per_topic.get(topic, 0)
        eligible = subscribers[topic]
        if not count:
            continue
        first = bisect_left(eligible, position) % len(eligible)
        for p, tp in enumerate(topic_partitions(topic, count)):
            index = eligible[(first + p) % len(eligible)]
            out[members[index]].append(tp)
        position = (index + 1) % len(members)
    return out
