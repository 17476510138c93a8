"""KIP-848 server-side ``RangeAssignor`` (group coordinator, name ``"range"``).

Members are sorted with static members first by ``group.instance.id`` (Java ``String.compareTo``),
then dynamic members by member id; each topic is split independently into contiguous ranges over its
subscribers in that order, the first ``partitions % subscribers`` subscribers getting one extra.
Unlike the client ``RangeAssignor`` it ignores nothing but history: the result depends only on the
subscriptions and instance ids.

Worked example (asserted in tests/engine/coordinator/test_server_assign.py): ``t0`` with 5 partitions, members ``m-b``
(static ``pod-1``), ``m-a`` (static ``pod-0``) and dynamic ``c`` -> ``m-a`` 0,1; ``m-b`` 2,3; ``c`` 4.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.coordinator.group_spec import (
    HOMOGENEOUS,
    GroupSpec,
    MemberPartitions,
    PartitionAssignorError,
    TopicDescriber,
)
from engine.java.hashmap import JavaHashMap, presized_capacity
from engine.java.strings import string_compare_key
from engine.java.uuid import Uuid, uuid_hash_code


class RangeSet:
    """Kafka's ``RangeSet``: the integers ``[start, end)``, iterated in ascending order."""

    def __init__(self, partitions: range) -> None:
        self._range = partitions

    def __len__(self) -> int:
        return len(self._range)

    def __contains__(self, partition: object) -> bool:
        return partition in self._range

    def keys(self) -> list[int]:
        return list(self._range)


@dataclass
class _TopicRanges:
    topic_id: Uuid
    partitions: int
    members: int
    min_quota: int = -1
    extra: int = -1
    next_range: int = 0

    def take(self) -> range:
        """``addPartitionsToAssignment``: the next member's contiguous range."""
        if self.min_quota == -1:
            self.min_quota, self.extra = divmod(self.partitions, self.members)
        quota = self.min_quota
        if self.extra > 0:
            quota += 1
            self.extra -= 1
        start = self.next_range
        self.next_range = min(start + quota, self.partitions)
        return range(start, self.next_range)


def sorted_member_ids(spec: GroupSpec) -> list[str]:
    """``RangeAssignor.sortMemberIds``: static members by instance id first, then member id."""

    def key(member_id: str) -> tuple[int, bytes]:
        instance = spec.members[member_id].instance_id
        return (0, string_compare_key(instance)) if instance is not None else (1, string_compare_key(member_id))

    return sorted(spec.member_ids, key=key)


def assign_range(spec: GroupSpec, describer: TopicDescriber) -> dict[str, MemberPartitions]:
    """``RangeAssignor.assign``."""
    if not spec.member_ids:
        return {}
    members = sorted_member_ids(spec)
    topics: dict[Uuid, _TopicRanges] = {}
    for member_id in members if spec.subscription_type != HOMOGENEOUS else members[:1]:
        for topic_id in spec.members[member_id].subscribed_topic_ids:
            count = describer.num_partitions(topic_id)
            if count == -1:
                raise PartitionAssignorError("Member is subscribed to a non-existent topic")
            ranges = topics.setdefault(topic_id, _TopicRanges(topic_id, count, 0))
            ranges.members = len(members) if spec.subscription_type == HOMOGENEOUS else ranges.members + 1
    out: dict[str, MemberPartitions] = {}
    for member_id in members:
        member = spec.members[member_id]
        if spec.subscription_type == HOMOGENEOUS:
            capacity, topic_ids = presized_capacity(len(topics)), list(topics)
        else:
            capacity, topic_ids = presized_capacity(member.topic_ids_size), member.subscribed_topic_ids
        assignment: MemberPartitions = JavaHashMap(uuid_hash_code, capacity)
        for topic_id in topic_ids:
            taken = topics[topic_id].take()
            if taken:
                assignment.put(topic_id, RangeSet(taken))  # type: ignore[arg-type]
        out[member_id] = assignment
    return out
