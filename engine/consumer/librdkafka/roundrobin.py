"""librdkafka's roundrobin assignor (``src/rdkafka_roundrobin_assignor.c``).

The eligible topics are sorted by name (``strcmp``) and the leader's member array is sorted in
place with ``rd_kafka_group_member_cmp`` (glibc merge sort).  One cursor walks the members
cyclically over all partitions of all topics: each partition goes to the next member after the
cursor that subscribes to its topic.  With only dynamic members (or only static ones) and ASCII
names this is Kafka's ``RoundRobinAssignor``; mixing static and dynamic members or non-ASCII
names can order members differently than Java.

Worked example (Kafka's own): ``C0`` and ``C1`` on ``t0`` and ``t1`` with 3 partitions each give
``C0 = [t0-0, t0-2, t1-1]`` and ``C1 = [t0-1, t1-0, t1-2]``.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.consumer.librdkafka.eligible import EligibleTopic
from engine.consumer.librdkafka.model import Assignment, GroupMember, c_key, group_member_cmp
from engine.consumer.librdkafka.qsort import glibc_qsort
from engine.scenario import TopicPartition

NAME = "roundrobin"


def assign(members: Sequence[GroupMember], topics: Sequence[EligibleTopic]) -> Assignment:
    """``rd_kafka_roundrobin_assignor_assign_cb``: member id -> partitions, dealt in order.

    The returned dict follows the sorted member array (as the leader's debug log prints it).

    >>> from engine.consumer.librdkafka.model import TopicMetadata
    >>> c0, c1 = GroupMember("C0", ("t0", "t1")), GroupMember("C1", ("t0", "t1"))
    >>> md = [EligibleTopic(TopicMetadata(t, 3), [c1, c0]) for t in ("t1", "t0")]
    >>> out = assign([c1, c0], md)
    >>> {m: [str(tp) for tp in tps] for m, tps in out.items()}
    {'C0': ['t0-0', 't0-2', 't1-1'], 'C1': ['t0-1', 't1-0', 't1-2']}
    """
    ordered_topics = sorted(topics, key=lambda t: c_key(t.name))
    ordered = glibc_qsort(members, group_member_cmp)
    out: Assignment = {m.member_id: [] for m in ordered}
    cursor = -1
    for topic in ordered_topics:
        for partition in range(topic.metadata.partition_count):
            while True:
                cursor = (cursor + 1) % len(ordered)
                if topic.name in ordered[cursor].subscription:
                    break
            out[ordered[cursor].member_id].append(TopicPartition(topic.name, partition))
    return out
