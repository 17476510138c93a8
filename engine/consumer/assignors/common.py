"""What a client-side assignor receives, in Kafka's shapes (``ConsumerPartitionAssignor``).

``GroupSubscription.subscriptions`` is a dict whose order IS the iteration order of the
``HashMap<String, Subscription>`` that ``ConsumerCoordinator.onLeaderElected`` builds: the replay
(``engine.consumer.group``) constructs it with ``engine.java.strings.string_hashmap_order``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.consumer.assignment import Assignment as Assignment  # the shared shape, re-exported
from engine.java.strings import string_compare_key, string_hashmap_order
from engine.scenario import TopicPartition

DEFAULT_GENERATION = -1


@dataclass(frozen=True)
class StickyUserData:
    """``StickyAssignor`` user data: the member's previous assignment and its generation."""

    partitions: tuple[TopicPartition, ...]
    generation: int | None


@dataclass
class Subscription:
    """``ConsumerPartitionAssignor.Subscription`` after the v3 protocol round trip.

    ``topics`` sorted (Java order), ``owned_partitions`` sorted by topic then partition,
    ``generation_id`` None when negative, ``rack`` None when absent or empty.
    ``user_data`` is a ``StickyUserData`` (sticky), an ``int`` generation (cooperative) or None.
    """

    topics: list[str]
    owned_partitions: list[TopicPartition] = field(default_factory=list)
    generation_id: int | None = None
    rack: str | None = None
    instance_id: str | None = None
    user_data: StickyUserData | int | None = None


@dataclass(frozen=True)
class Cluster:
    """Cluster metadata: partition counts, and the replica racks of each partition when known.

    ``partition_racks[topic][p]`` is the set of racks of partition p's replicas (empty set when
    the replicas have no rack).  Topics without racks are absent from ``partition_racks``.
    """

    partitions_per_topic: dict[str, int]
    partition_racks: dict[str, tuple[frozenset[str], ...]] = field(default_factory=dict)

    def racks_of(self, tp: TopicPartition) -> frozenset[str]:
        racks = self.partition_racks.get(tp.topic)
        return racks[tp.partition] if racks is not None else frozenset()


def partitions_for(cluster: Cluster, subscriptions: dict[str, Subscription]) -> dict[str, int]:
    """``AbstractPartitionAssignor.assign``: subscribed topics that have metadata, with counts.

    The dict follows the iteration order of Kafka's ``HashMap partitionsPerTopic``, filled by
    iterating the ``HashSet allSubscribedTopics``.
    """
    distinct_lists = dict.fromkeys(tuple(s.topics) for s in subscriptions.values())  # same first appearances
    subscribed = string_hashmap_order(t for topics in distinct_lists for t in topics)
    known = [t for t in subscribed if cluster.partitions_per_topic.get(t, 0) > 0]
    return {t: cluster.partitions_per_topic[t] for t in string_hashmap_order(known)}


def member_sort_key(member_id: str, instance_id: str | None) -> tuple[int, bytes]:
    """``AbstractPartitionAssignor.MemberInfo.compareTo``: static members first, by instance id,
    then dynamic members by member id (Java ``String.compareTo`` throughout)."""
    if instance_id is not None:
        return (0, string_compare_key(instance_id))
    return (1, string_compare_key(member_id))


def tp_java_key(tp: TopicPartition) -> tuple[bytes, int]:
    """``TopicPartitionComparator``: topic (Java order), then partition."""
    return (string_compare_key(tp.topic), tp.partition)


def use_rack_aware_assignment(
    consumer_racks: set[str], partition_racks: set[str], racks_per_partition: list[frozenset[str]]
) -> bool:
    """``AbstractPartitionAssignor.useRackAwareAssignment``: only when some consumer rack is a
    replica rack and not every partition has replicas on the same set of racks."""
    if not consumer_racks or consumer_racks.isdisjoint(partition_racks):
        return False
    return not all(racks == partition_racks for racks in racks_per_partition)
