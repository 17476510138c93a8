"""Kafka's ``AbstractStickyAssignor`` and ``StickyAssignor`` (eager), with KIP-881 racks.

Two builders, as in Kafka.  When every member subscribes to the same topics the constrained
builder keeps each member's owned partitions up to its quota (``min_quota`` or ``max_quota``,
members iterated in Java ``HashMap`` order decide who keeps an extra one) and deals the rest
round-robin to under-quota members sorted by id.  Otherwise the general builder assigns
unowned partitions to the least-loaded eligible member and then moves partitions until
balanced, preferring to give a partition back to its previous owner.

Worked example (seed articles 002/004, which show the pre-2.8 answer): C0, C1, C2 subscribe
to t0..t3 with 2 partitions each; the first assignment is
``C0 = [t0-0, t1-1, t3-0]``, ``C1 = [t0-1, t2-0, t3-1]``, ``C2 = [t1-0, t2-1]``.
After C1 leaves, C0 and C2 keep everything and the freed t0-1, t2-0, t3-1 go round-robin to
the under-quota members sorted by id: ``C0 = [t0-0, t1-1, t3-0, t0-1]``,
``C2 = [t1-0, t2-1, t2-0, t3-1]``.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from engine.consumer.assignors.common import (
    DEFAULT_GENERATION,
    Assignment,
    Cluster,
    StickyUserData,
    Subscription,
    partitions_for,
    use_rack_aware_assignment,
)
from engine.java.strings import string_compare_key
from engine.scenario import TopicPartition, topic_partitions

NAME = "sticky"


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


class AbstractStickyAssignor:
    """The shared algorithm; subclasses say how a subscription carries the previous assignment."""

    name = "abstract-sticky"

    def __init__(self) -> None:
        self.max_generation = DEFAULT_GENERATION
        self.partitions_transferring_ownership: dict[TopicPartition, str] | None = {}

    def member_data(self, subscription: Subscription) -> MemberData:
        raise NotImplementedError

    def assign(self, cluster: Cluster, subscriptions: dict[str, Subscription]) -> Assignment:
        partitions_per_topic = partitions_for(cluster, subscriptions)
        return self.assign_partitions(partitions_per_topic, cluster, subscriptions)

    def assign_partitions(self, partitions_per_topic: dict[str, int], cluster: Cluster,
                          subscriptions: dict[str, Subscription]) -> Assignment:
        owned: dict[str, list[TopicPartition]] = {}
        multiple_owners: set[TopicPartition] = set()
        rack_info = RackInfo(partitions_per_topic, cluster, subscriptions)
        if self._all_subscriptions_equal(set(partitions_per_topic), subscriptions, owned, multiple_owners):
            self.partitions_transferring_ownership = {}
            builder = ConstrainedAssignmentBuilder(
                self, partitions_per_topic, rack_info, owned, multiple_owners
            )
            return builder.build()
        self.partitions_transferring_ownership = None
        from engine.consumer.assignors.sticky_general import GeneralAssignmentBuilder

        return GeneralAssignmentBuilder(self, partitions_per_topic, rack_info, owned, subscriptions).build()

    def _all_subscriptions_equal(
        self,
        all_topics: set[str],
        subscriptions: dict[str, Subscription],
        owned: dict[str, list[TopicPartition]],
        multiple_owners: set[TopicPartition],
    ) -> bool:
        """``allSubscriptionsEqual`` with its quirk: an empty first subscription re-seeds the
        reference set, so a hash-first member subscribed to nothing makes the group 'equal'."""
        all_equal = True
        reference: set[str] = set()
        previous_owner: dict[TopicPartition, str] = {}
        for consumer, subscription in subscriptions.items():
            if not reference:
                reference.update(subscription.topics)
            elif all_equal and not (len(subscription.topics) == len(reference) and reference.issuperset(subscription.topics)):
                all_equal = False
            data = self.member_data(subscription)
            generation = data.generation if data.generation is not None else DEFAULT_GENERATION
            self.max_generation = max(self.max_generation, generation)
            mine: list[TopicPartition] = []
            owned[consumer] = mine
            for tp in data.partitions:
                if tp.topic not in all_topics:
                    continue
                other = previous_owner.get(tp)
                if other is None:
                    mine.append(tp)
                    previous_owner[tp] = consumer
                    continue
                other_generation = subscriptions[other].generation_id
                other_generation = DEFAULT_GENERATION if other_generation is None else other_generation
                if generation == other_generation:
                    multiple_owners.add(tp)
                    owned[other].remove(tp)
                    previous_owner[tp] = consumer
                elif generation > other_generation:
                    mine.append(tp)
                    owned[other].remove(tp)
                    previous_owner[tp] = consumer
        return all_equal


class ConstrainedAssignmentBuilder:
    """``ConstrainedAssignmentBuilder``: every member subscribes to the same topics."""

    def __init__(self, assignor: AbstractStickyAssignor, partitions_per_topic: dict[str, int],
                 rack_info: RackInfo, owned: dict[str, list[TopicPartition]],
                 multiple_owners: set[TopicPartition]) -> None:
        self.assignor = assignor
        self.partitions_per_topic = partitions_per_topic
        self.rack_info = rack_info
        self.current_assignment = owned
        self.multiple_owners = multiple_owners
        self.maybe_revoked: dict[TopicPartition, str] = {}
        self.unfilled_under_min: list[str] = []
        self.unfilled_exactly_min: list[str] = []
        total = sum(partitions_per_topic.values())
        members = len(owned)
        self.total = total
        self.min_quota = total // members
        self.max_quota = math.ceil(total / members)
        self.expected_over_min = total % members
        self.current_over_min = 0
        self.assignment: Assignment = {c: [] for c in owned}
        self.assigned_partitions: list[TopicPartition] = []
        self.topic_keys = {t: string_compare_key(t) for t in partitions_per_topic}

    def build(self) -> Assignment:
        self._assign_owned_partitions()
        unassigned = self._unassigned_partitions()
        self.unfilled_under_min.sort(key=string_compare_key)
        self.unfilled_exactly_min.sort(key=string_compare_key)
        unassigned = self.rack_info.sort_partitions_by_rack_consumers(unassigned)
        unassigned = self._assign_rack_aware_round_robin(unassigned)
        self._assign_round_robin(unassigned)
        self._verify_unfilled_members()
        return self.assignment

    def _owned_after_rack_filter(self, consumer: str, partitions: list[TopicPartition]) -> list[TopicPartition]:
        """Owned partitions minus rack mismatches, sorted by partition then topic (Java order)."""
        kept = partitions
        if self.rack_info.consumer_racks:
            kept = []
            for tp in partitions:
                if self.rack_info.racks_mismatch(consumer, tp):
                    self.maybe_revoked[tp] = consumer
                else:
                    kept.append(tp)
        keys = self.topic_keys
        kept = sorted(kept, key=lambda tp: (tp[1], keys[tp[0]]))
        return [tp for tp in kept if tp not in self.multiple_owners] if self.multiple_owners else kept

    def _keep(self, consumer: str, kept: list[TopicPartition], revoked: list[TopicPartition]) -> None:
        self.assignment[consumer].extend(kept)
        self.assigned_partitions.extend(kept)
        for tp in revoked:
            self.maybe_revoked[tp] = consumer

    def _assign_owned_partitions(self) -> None:
        for consumer, partitions in self.current_assignment.items():
            owned = self._owned_after_rack_filter(consumer, partitions)
            if len(owned) < self.min_quota:
                self._keep(consumer, owned, [])
                self.unfilled_under_min.append(consumer)
            elif len(owned) >= self.max_quota and self.current_over_min < self.expected_over_min:
                self.current_over_min += 1
                if self.current_over_min == self.expected_over_min:
                    self.unfilled_exactly_min.clear()
                self._keep(consumer, owned[: self.max_quota], owned[self.max_quota :])
            else:
                self._keep(consumer, owned[: self.min_quota], owned[self.min_quota :])
                if self.current_over_min < self.expected_over_min:
                    self.unfilled_exactly_min.append(consumer)

    def _unassigned_partitions(self) -> list[TopicPartition]:
        assigned = set(self.assigned_partitions)
        assigned_per_topic = Counter(tp[0] for tp in assigned)
        out: list[TopicPartition] = []
        for topic in sorted(self.partitions_per_topic, key=self.topic_keys.__getitem__):
            count = self.partitions_per_topic[topic]
            kept = assigned_per_topic[topic]
            if kept == count:
                continue  # every partition of the topic is kept by its owner
            partitions = topic_partitions(topic, count)
            out += [tp for tp in partitions if tp not in assigned] if kept else partitions
        return out

    def _assign_rack_aware_round_robin(self, unassigned: list[TopicPartition]) -> list[TopicPartition]:
        if not self.rack_info.consumer_racks:
            return unassigned
        under, exactly = self.unfilled_under_min, self.unfilled_exactly_min
        next_index = 0
        remaining: list[TopicPartition] = []
        for tp in unassigned:
            consumer = None
            index = self.rack_info.next_rack_consumer(tp, under, next_index)
            if index >= 0:
                consumer = under[index]
                count = len(self.assignment[consumer]) + 1
                if count >= self.min_quota:
                    under.remove(consumer)
                    if count < self.max_quota and self.current_over_min < self.expected_over_min:
                        exactly.append(consumer)
                else:
                    index += 1
                next_index = 0 if not under else index % len(under)
            elif exactly:
                first = self.rack_info.next_rack_consumer(tp, exactly, 0)
                if first >= 0:
                    consumer = exactly[first]
                    if len(self.assignment[consumer]) + 1 == self.max_quota:
                        del exactly[first]
                        self.current_over_min += 1
                        if self.current_over_min == self.expected_over_min:
                            exactly.clear()
            if consumer is not None:
                self._assign_new_partition(tp, consumer)
            else:
                remaining.append(tp)
        return remaining

    def _assign_round_robin(self, unassigned: list[TopicPartition]) -> None:
        """Deal partitions over the under-min list (a Java iterator that may be restarted)."""
        under, exactly = self.unfilled_under_min, self.unfilled_exactly_min
        if self._deal_in_stride(unassigned):
            return
        cursor = 0  # position of the iterator in `under`
        for tp in unassigned:
            from_under = True
            if cursor < len(under):
                consumer = under[cursor]
                cursor += 1
            elif not under and not exactly:
                raise RuntimeError("IllegalStateException: No more unfilled consumers to be assigned.")
            elif not under:
                consumer = exactly.pop(0)
                from_under = False
            else:
                cursor = 1
                consumer = under[0]
            count = self._assign_new_partition(tp, consumer)
            if count == self.min_quota and from_under:  # a polled member already had min_quota
                cursor -= 1
                del under[cursor]
                exactly.append(consumer)
            elif count == self.max_quota:
                self.current_over_min += 1

    def _deal_in_stride(self, unassigned: list[TopicPartition]) -> bool:
        """The loop below in closed form for its common case, a group where every unfilled member
        holds the same number of partitions and nobody is at min quota yet: full rounds fill every
        member to ``min_quota`` together, then the polled members take one extra each, so
        partition ``i`` goes to ``under[i % n]``.  Returns False when the case does not apply."""
        under = self.unfilled_under_min
        if not under or self.unfilled_exactly_min or self.maybe_revoked or self.multiple_owners:
            return False
        start = len(self.assignment[under[0]])
        if any(len(self.assignment[m]) != start for m in under):
            return False
        n = len(under)
        extra = len(unassigned) - n * (self.min_quota - start)
        if extra < 0 or extra >= n or len(under) != len(self.assignment):
            return False
        for j, member in enumerate(under):
            self.assignment[member].extend(unassigned[j::n])
        if self.max_quota > self.min_quota:
            self.current_over_min += extra
        under.clear()
        return True

    def _assign_new_partition(self, tp: TopicPartition, consumer: str) -> int:
        partitions = self.assignment[consumer]
        partitions.append(tp)
        previous = self.maybe_revoked.get(tp)
        transferring = self.assignor.partitions_transferring_ownership
        if transferring is not None and ((previous is not None and previous != consumer) or tp in self.multiple_owners):
            transferring[tp] = consumer
        return len(partitions)

    def _verify_unfilled_members(self) -> None:
        if not self.unfilled_under_min:
            return
        if self.current_over_min != self.expected_over_min:
            raise RuntimeError("IllegalStateException: expected number of members over minQuota not reached")
        for member in self.unfilled_under_min:
            if len(self.assignment[member]) != self.min_quota:
                raise RuntimeError(f"IllegalStateException: Consumer: [{member}] doesn't reach minQuota partitions")


class StickyAssignor(AbstractStickyAssignor):
    """``StickyAssignor``: the previous assignment and generation travel in the user data."""

    name = NAME

    def __init__(self) -> None:
        super().__init__()
        self.member_assignment: list[TopicPartition] | None = None
        self.generation = DEFAULT_GENERATION

    def on_assignment(self, partitions: list[TopicPartition], generation: int) -> None:
        self.member_assignment = list(partitions)
        self.generation = generation

    def subscription_user_data(self) -> StickyUserData | None:
        if self.member_assignment is None:
            return None
        return StickyUserData(tuple(self.member_assignment), self.generation)

    def member_data(self, subscription: Subscription) -> MemberData:
        data = subscription.user_data
        if not isinstance(data, StickyUserData):
            return MemberData((), None)
        return MemberData(data.partitions, data.generation)
