"""Kafka's ``AbstractStickyAssignor``: the algorithm shared by ``StickyAssignor`` and ``CooperativeStickyAssignor``,
with KIP-881 racks.

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

from engine.consumer.assignors.common import (
    DEFAULT_GENERATION,
    Assignment,
    Cluster,
    StickyUserData,
    Subscription,
    partitions_for,
)
from engine.consumer.assignors.sticky_constrained import ConstrainedAssignmentBuilder
from engine.consumer.assignors.sticky_data import MemberData, RackInfo
from engine.consumer.assignors.sticky_general import GeneralAssignmentBuilder
from engine.scenario import TopicPartition


class AbstractStickyAssignor:
    """The shared algorithm; subclasses say how a subscription carries the previous assignment."""

    name = "abstract-sticky"

    def __init__(self) -> None:
        self.max_generation = DEFAULT_GENERATION
        self.partitions_transferring_ownership: dict[TopicPartition, str] | None = {}

    def member_data(self, subscription: Subscription) -> MemberData:
        raise NotImplementedError

    def subscription_user_data(self) -> StickyUserData | int | None:
        """What this member puts in its JoinGroup subscription's user data."""
        raise NotImplementedError

    def on_assignment(self, partitions: list[TopicPartition], generation: int) -> None:
        """``onAssignment``: remember what the member received (and in which generation)."""
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
            elif all_equal and not (
                len(subscription.topics) == len(reference) and reference.issuperset(subscription.topics)
            ):
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
