"""librdkafka's range assignor (``src/rdkafka_range_assignor.c``), rack-aware paths included.

Per eligible topic the subscribers are sorted with ``rd_kafka_group_member_cmp`` (glibc merge
sort, see ``qsort``), and a topic state records the quota: ``partitions // subscribers`` each,
one more for the first ``partitions % subscribers`` members to reach it.  The topic states are
sorted so that topics with the same subscriber ids (compared by member id, position by
position) and partition count sit together in "buckets".  Rack-aware passes run first:

* a bucket of several co-partitioned topics: partition ``i`` of every topic in the bucket goes
  to the first subscriber whose rack holds a replica of partition ``i`` in every one of those
  topics and who is under quota in all of them (this runs whether or not racks exist);
* a single topic that needs rack awareness (``use_rack_aware_assignment`` on that topic):
  ranges are dealt member by member, only partitions with a replica on the member's rack
  (members without a rack take anything).

Then every topic, in the sorted order, deals its leftover partitions member by member in
ranges.  Without racks this is Kafka's plain range assignment.

Worked example: members ``a`` and ``b`` (dynamic, so ordered by member id) on ``t0`` with 3
partitions: ``a = [t0-0, t0-1]``, ``b = [t0-2]`` (see ``assign``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.consumer.librdkafka.eligible import EligibleTopic, use_rack_aware_assignment
from engine.consumer.librdkafka.model import Assignment, GroupMember, c_cmp, group_member_cmp
from engine.consumer.librdkafka.qsort import glibc_qsort
from engine.scenario import TopicPartition

NAME = "range"


@dataclass
class TopicState:
    """``rd_kafka_topic_assignment_state_t``: one topic's quota and what is assigned so far."""

    topic: EligibleTopic
    unassigned: list[bool]
    per_consumer: int
    with_extra: int
    assigned: dict[str, list[int]] = field(default_factory=dict)
    needs_rack_aware: bool = False
    left: int = 0  # ``unassigned_partitions_left``
    first_free: int = 0  # every partition below it is assigned (where a scan may start)

    def scan_start(self) -> int:
        """The lowest partition that may still be free (the C code scans from 0: same result)."""
        while self.first_free < len(self.unassigned) and not self.unassigned[self.first_free]:
            self.first_free += 1
        return self.first_free

    def room(self, member: GroupMember) -> int:
        """How many more partitions of this topic the member may take."""
        return self.per_consumer + (self.with_extra > 0) - len(self.assigned[member.member_id])


def _topic_state(topic: EligibleTopic) -> TopicState:
    count = topic.metadata.partition_count
    subscribers = len(topic.members)
    return TopicState(
        topic=topic,
        unassigned=[True] * count,
        per_consumer=count // subscribers if subscribers else 0,
        with_extra=count % subscribers if subscribers else 0,
        assigned={m.member_id: [] for m in topic.members},
        needs_rack_aware=use_rack_aware_assignment([topic]),
        left=count,
    )


def _state_cmp(a: TopicState, b: TopicState) -> int:
    """``rd_kafka_topic_assignment_state_cmp``: subscriber ids position by position, then the
    number of subscribers, then the partition count."""
    for ma, mb in zip(a.topic.members, b.topic.members):
        r = c_cmp(ma.member_id, mb.member_id)
        if r:
            return r
    na, nb = len(a.topic.members), len(b.topic.members)
    if na != nb:
        return (na > nb) - (na < nb)
    pa, pb = a.topic.metadata.partition_count, b.topic.metadata.partition_count
    return (pa > pb) - (pa < pb)


def _assign_partition(member: GroupMember, state: TopicState, partition: int, out: Assignment) -> None:
    """``rd_kafka_assign_partition``: record it and use up the extra-partition allowance."""
    mine = state.assigned[member.member_id]
    mine.append(partition)
    out[member.member_id].append(TopicPartition(state.topic.name, partition))
    state.unassigned[partition] = False
    state.left -= 1
    if len(mine) > state.per_consumer:
        state.with_extra -= 1


def _racks_match(member: GroupMember, state: TopicState, partition: int) -> bool:
    return not member.rack or member.rack in state.topic.metadata.racks_of(partition)


def _always(member: GroupMember, state: TopicState, partition: int) -> bool:
    return True


def _assign_ranges(state: TopicState, may_assign: Callable[[GroupMember, TopicState, int], bool],
                   out: Assignment) -> None:
    """``rd_kafka_assign_ranges``: each member in turn takes the lowest allowed free partitions."""
    for member in state.topic.members:
        if state.left == 0:
            break
        room = state.room(member)
        if room <= 0:
            continue
        chosen: list[int] = []
        start = state.scan_start()
        for p in range(start, len(state.unassigned)):
            if not state.unassigned[p]:
                continue
            if room <= 0:
                break
            if not may_assign(member, state, p):
                continue
            chosen.append(p)
            room -= 1
        for p in chosen:
            _assign_partition(member, state, p, out)


def _assign_co_partitioned(bucket: list[TopicState], out: Assignment) -> None:
    """``rd_kafka_assign_co_partitioned``: partition i of all bucket topics to one rack-local member."""
    first = bucket[0]
    racked = [m for m in first.topic.members if m.rack]  # a member without a rack never matches
    if not racked:
        return
    for p in range(first.topic.metadata.partition_count):
        for member in racked:
            if all(member.rack and member.rack in s.topic.metadata.racks_of(p) and s.room(member) > 0
                   for s in bucket):
                for s in bucket:
                    _assign_partition(member, s, p, out)
                break


def _buckets(states: list[TopicState]) -> list[list[TopicState]]:
    """Consecutive states equal (``_state_cmp == 0``) to the first state of the bucket."""
    buckets: list[list[TopicState]] = []
    for state in states:
        if buckets and _state_cmp(state, buckets[-1][0]) == 0:
            buckets[-1].append(state)
        else:
            buckets.append([state])
    return buckets


def assign(members: Sequence[GroupMember], topics: Sequence[EligibleTopic]) -> Assignment:
    """``rd_kafka_range_assignor_assign_cb``: member id -> partitions in the order assigned.

    >>> from engine.consumer.librdkafka.model import TopicMetadata
    >>> a, b = GroupMember("a", ("t0",)), GroupMember("b", ("t0",))
    >>> assign([b, a], [EligibleTopic(TopicMetadata("t0", 3), [b, a])])
    {'b': [TopicPartition(topic='t0', partition=2)], 'a': [TopicPartition(topic='t0', partition=0), \
TopicPartition(topic='t0', partition=1)]}
    """
    out: Assignment = {m.member_id: [] for m in members}
    states = []
    for topic in topics:
        topic.members = glibc_qsort(topic.members, group_member_cmp)
        states.append(_topic_state(topic))
    states = glibc_qsort(states, _state_cmp)
    for bucket in _buckets(states):
        if len(bucket) > 1:
            _assign_co_partitioned(bucket, out)
        elif bucket[0].needs_rack_aware:
            _assign_ranges(bucket[0], _racks_match, out)
    for state in states:
        _assign_ranges(state, _always, out)
    return out
