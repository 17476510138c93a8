"""The data ``AbstractStickyAssignor`` hands its builders: ``MemberData`` (a member's previous partitions and
generation) and ``RackInfo`` (KIP-881 consumer and replica racks), plus the view of the assignor they read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from engine.consumer.assignors.common import (
    Cluster,
    Subscription,
    use_rack_aware_assignment,
)
from engine.scenario import TopicPartition


@dataclass(frozen=True)
class MemberData:
    """``AbstractStickyAssignor.MemberData``: previously owned partitions and generation."""

    partitions: tuple[TopicPartition, ...]
    generation: int | None


class RackInfo:
    """``AbstractStickyAssignor.RackInfo``: consumer and replica racks when rack-aware applies."""

    def __init__(self, partitions_per_topic: dict[str, int], cluster: Cluster,
                 subscriptions: dict[str, Subscription]) -> None:
        consumers_by_rack: dict[str, list[str]] = {}
        for member_id, subscription in subscriptions.items():
            if subscription.rack:
                consumers_by_rack.setdefault(subscription.rack, []).append(member_id)
        partition_racks: dict[TopicPartition, frozenset[str]] = {}
        if consumers_by_rack:
            for topic, count in partitions_per_topic.items():
                for p in range(count):
                    tp = TopicPartition(topic, p)
                    partition_racks[tp] = cluster.racks_of(tp)
        all_partition_racks: set[str] = set().union(*partition_racks.values()) if partition_racks else set()
        if use_rack_aware_assignment(set(consumers_by_rack), all_partition_racks, list(partition_racks.values())):
            self.consumer_racks = {c: rack for rack, cs in consumers_by_rack.items() for c in cs}
            self.partition_racks = partition_racks
        else:
            self.consumer_racks = {}
            self.partition_racks = {}
        self.num_consumers_by_partition = {
            tp: sum(len(consumers_by_rack.get(r, ())) for r in racks) for tp, racks in self.partition_racks.items()
        }

    def racks_mismatch(self, consumer: str, tp: TopicPartition) -> bool:
        rack = self.consumer_racks.get(consumer)
        if rack is None:
            return False
        replica_racks = self.partition_racks.get(tp)
        return replica_racks is None or rack not in replica_racks

    def sort_partitions_by_rack_consumers(self, partitions: list[TopicPartition]) -> list[TopicPartition]:
        if not self.num_consumers_by_partition:
            return partitions
        return sorted(partitions, key=lambda tp: self.num_consumers_by_partition.get(tp, 0))

    def next_rack_consumer(self, tp: TopicPartition, consumers: list[str], first_index: int) -> int:
        racks = self.partition_racks.get(tp)
        if not racks:
            return -1
        n = len(consumers)
        for i in range(n):
            index = (first_index + i) % n
            rack = self.consumer_racks.get(consumers[index])
            if rack is not None and rack in racks:
                return index
        return -1


class StickyAssignorView(Protocol):
    """What a builder reads from its assignor: the highest generation seen and how a subscription carries
    the previous assignment."""

    max_generation: int
    partitions_transferring_ownership: dict[TopicPartition, str] | None

    def member_data(self, subscription: Subscription) -> MemberData: ...
