"""The inputs the KIP-848 group coordinator hands its assignors (``GroupSpecImpl`` and friends).

A ``GroupSpec`` is what ``TargetAssignmentBuilder.build()`` assembles for one target-assignment
computation: member specs in a ``HashMap<String, ...>`` (so ``member_ids`` is in Java HashMap order),
each member's subscribed topic ids (``TopicIds`` over ``new HashSet<>(names)``, names of missing
topics skipped) and current target assignment (``Assignment.fromRecord``: a ``HashMap<Uuid,
HashSet<Integer>>`` filled topic by topic in record order), the subscription type and the inverted
target assignment (partition -> owner).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from engine.errors import KafkaError
from engine.java.hashmap import JavaHashMap, hashset_copy_initial_capacity, integer_hash, java_hashset
from engine.java.strings import string_hash_code, string_hashmap_order
from engine.java.uuid import Uuid, uuid_hash_code

HOMOGENEOUS = "HOMOGENEOUS"
HETEROGENEOUS = "HETEROGENEOUS"

PartitionSet = JavaHashMap[int, None]
MemberPartitions = JavaHashMap[Uuid, PartitionSet]


class PartitionAssignorError(KafkaError):
    """Kafka's ``PartitionAssignorException`` (never raised for well-formed coordinator input)."""


def assignment_from_record(topic_partitions: Sequence[tuple[Uuid, Sequence[int]]]) -> MemberPartitions:
    """``Assignment.fromRecord``: ``Collectors.toMap`` (default HashMap) of ``new HashSet<>(partitions)``."""
    out: MemberPartitions = JavaHashMap(uuid_hash_code)
    for topic_id, partitions in topic_partitions:
        out.put(topic_id, java_hashset(partitions, integer_hash))
    return out


def deep_copy_assignment(assignment: MemberPartitions) -> MemberPartitions:
    """``AssignorHelpers.deepCopyAssignment``: ``new HashMap<>(size)`` of ``new HashSet<>(set)``."""
    copy: MemberPartitions = JavaHashMap(uuid_hash_code, len(assignment))
    for topic_id, partitions in assignment.items():
        copy.put(topic_id, java_hashset(partitions.keys(), integer_hash))
    return copy


def new_partition_set(initial_capacity: int = 16) -> PartitionSet:
    return JavaHashMap(integer_hash, initial_capacity)


@dataclass
class MemberSpec:
    """``MemberSubscriptionAndAssignmentImpl`` (racks are unused by both assignors at this commit)."""

    member_id: str
    instance_id: str | None
    topic_names: tuple[str, ...]           # subscribed names (ghosts included), as listed
    subscribed_topic_ids: list[Uuid]       # TopicIds iteration order, names of missing topics skipped
    assignment: MemberPartitions           # immutable current target assignment

    @property
    def topic_ids_size(self) -> int:
        """``TopicIds.size()``: counts every subscribed name, ghosts included."""
        return len(self.topic_names)

    def __post_init__(self) -> None:
        self.subscribed_set = frozenset(self.subscribed_topic_ids)


@dataclass
class GroupSpec:
    member_ids: list[str]
    members: dict[str, MemberSpec]
    subscription_type: str
    inverted: dict[Uuid, dict[int, str]] = field(default_factory=dict)

@dataclass
class TopicDescriber:
    """``SubscribedTopicDescriberImpl``: partition counts of subscribed topics that exist."""

    partitions: dict[Uuid, int]

    def num_partitions(self, topic_id: Uuid) -> int:
        return self.partitions.get(topic_id, -1)


@lru_cache(maxsize=65_536)
def _name_hash(name: str) -> int:
    return string_hash_code(name)


def topic_ids_order(names: Sequence[str], ids: dict[str, Uuid]) -> list[Uuid]:
    """Iteration order of ``new TopicIds(new HashSet<>(names), resolver)``: missing topics skipped."""
    name_set = JavaHashMap.of(names, _name_hash, hashset_copy_initial_capacity(len(names)))
    return [ids[name] for name in name_set.keys() if name in ids]


def subscription_type(topic_lists: Sequence[Sequence[str]]) -> str:
    """``ModernGroup.subscriptionType``: HOMOGENEOUS iff every subscribed name has every member."""
    counts: dict[str, int] = {}
    for topics in topic_lists:
        for name in set(topics):
            counts[name] = counts.get(name, 0) + 1
    return HOMOGENEOUS if all(c == len(topic_lists) for c in counts.values()) else HETEROGENEOUS


def member_hashmap_order(member_ids: Sequence[str]) -> list[str]:
    """``groupSpec.memberIds()``: key order of a default ``HashMap<String, ...>``."""
    return string_hashmap_order(member_ids)
