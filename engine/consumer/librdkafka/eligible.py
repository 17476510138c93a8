"""``rd_kafka_assignor_run``'s preparation: the Metadata the leader asks for, and the eligible topics.

The leader collects its members' subscribed topics (member by member, in JoinGroup order, each
member's list in its serialized ``strcmp`` order, first appearance wins) and sends exactly that
list in a Metadata request (``rd_kafka_cgrp_handle_JoinGroup``).  A broker answering in request
order (the mock cluster does) makes that the topic order of the metadata.
``rd_kafka_member_subscriptions_map`` then walks the metadata topics and, for each, the member
array in order: a topic with at least one subscriber becomes an eligible topic whose member list
keeps the member-array order.  No sorting happens here; each assignor sorts what it needs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.consumer.librdkafka.model import GroupMember, TopicMetadata


@dataclass
class EligibleTopic:
    """``rd_kafka_assignor_topic_t``: a topic with metadata and the members subscribing to it."""

    metadata: TopicMetadata
    members: list[GroupMember] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.metadata.name


def requested_topics(members: Iterable[GroupMember]) -> list[str]:
    """Topics of the leader's Metadata request: first appearance over the members' subscriptions.

    >>> a = GroupMember("m1", ("t1", "t2"))
    >>> b = GroupMember("m2", ("t0", "t1"))
    >>> requested_topics([a, b])
    ['t1', 't2', 't0']
    """
    return list(dict.fromkeys(topic for member in members for topic in member.subscription))


def eligible_topics(metadata: Sequence[TopicMetadata], members: Sequence[GroupMember]) -> list[EligibleTopic]:
    """``rd_kafka_member_subscriptions_map``: metadata order, subscribers in member-array order.

    >>> md = [TopicMetadata("t1", 2), TopicMetadata("t9", 1), TopicMetadata("t0", 3)]
    >>> a, b = GroupMember("m1", ("t0", "t1")), GroupMember("m2", ("t1",))
    >>> [(e.name, [m.member_id for m in e.members]) for e in eligible_topics(md, [a, b])]
    [('t1', ['m1', 'm2']), ('t0', ['m1'])]
    """
    out: list[EligibleTopic] = []
    for topic in metadata:
        subscribers = [m for m in members if topic.name in m.subscription]
        if subscribers:
            out.append(EligibleTopic(topic, subscribers))
    return out


def use_rack_aware_assignment(topics: Sequence[EligibleTopic]) -> bool:
    """``rd_kafka_use_rack_aware_assignment`` over these topics (range: one topic, sticky: all).

    True when some subscriber has a rack, some subscriber rack is a replica rack, and not
    every partition has replicas on every replica rack seen in these topics.

    >>> md = TopicMetadata("t0", 2, (("r1",), ("r1", "r2")))
    >>> use_rack_aware_assignment([EligibleTopic(md, [GroupMember("m", ("t0",), rack="r1")])])
    True
    >>> use_rack_aware_assignment([EligibleTopic(md, [GroupMember("m", ("t0",), rack="r9")])])
    False
    """
    consumer_racks = {m.rack for t in topics for m in t.members if m.rack}
    if not consumer_racks:
        return False
    partition_racks = {
        rack for t in topics for p in range(t.metadata.partition_count) for rack in t.metadata.racks_of(p)
    }
    if not partition_racks or consumer_racks.isdisjoint(partition_racks):
        return False
    return any(
        len(t.metadata.racks_of(p)) != len(partition_racks)
        for t in topics
        for p in range(t.metadata.partition_count)
    )
