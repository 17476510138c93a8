"""Kafka's ``CooperativeStickyAssignor``: the sticky algorithm under the cooperative protocol.

Members keep their owned partitions across a rebalance (the previous assignment travels as
``ownedPartitions`` + generation in the subscription).  A partition that must change owner is
first only revoked: it is withheld from the new owner in this round, and handed over in the
follow-up rebalance that the revoking member triggers.

Worked example: C0 owns t0-0..t0-3 alone (generation 1) and C1 joins.  The sticky target is
``C0 = [t0-0, t0-1]``, ``C1 = [t0-2, t0-3]``, but the first round returns
``C0 = [t0-0, t0-1]``, ``C1 = []`` (t0-2 and t0-3 are revoked, not yet handed over); the second
round gives C1 ``[t0-2, t0-3]``.
"""

from __future__ import annotations

from engine.consumer.assignors.abstract_sticky import AbstractStickyAssignor
from engine.consumer.assignors.common import DEFAULT_GENERATION, Assignment, Cluster, Subscription
from engine.consumer.assignors.sticky_data import MemberData
from engine.scenario import TopicPartition

NAME = "cooperative-sticky"


class CooperativeStickyAssignor(AbstractStickyAssignor):
    name = NAME

    def __init__(self) -> None:
        super().__init__()
        self.generation = DEFAULT_GENERATION

    def on_assignment(self, partitions: list[TopicPartition], generation: int) -> None:
        self.generation = generation

    def subscription_user_data(self) -> int:
        """The user data carries only the generation (``COOPERATIVE_STICKY_ASSIGNOR_USER_DATA_V0``)."""
        return self.generation

    def member_data(self, subscription: Subscription) -> MemberData:
        if subscription.generation_id is not None:
            return MemberData(tuple(subscription.owned_partitions), subscription.generation_id)
        encoded = subscription.user_data if isinstance(subscription.user_data, int) else None
        return MemberData(tuple(subscription.owned_partitions), encoded)

    def assign(self, cluster: Cluster, subscriptions: dict[str, Subscription]) -> Assignment:
        assignment = super().assign(cluster, subscriptions)
        transferring = self.partitions_transferring_ownership
        if transferring is None:
            transferring = compute_partitions_transferring_ownership(subscriptions, assignment)
        for tp, consumer in transferring.items():
            partitions = assignment[consumer]
            if tp in partitions:
                partitions.remove(tp)
        return assignment


def compute_partitions_transferring_ownership(
    subscriptions: dict[str, Subscription], assignment: Assignment
) -> dict[TopicPartition, str]:
    """Partitions newly assigned to one member while another member still owns them."""
    added: dict[TopicPartition, str] = {}
    revoked: set[TopicPartition] = set()
    for consumer, assigned in assignment.items():
        owned = subscriptions[consumer].owned_partitions
        owned_set = set(owned)
        added.update({tp: consumer for tp in assigned if tp not in owned_set})
        assigned_set = set(assigned)
        revoked.update(tp for tp in owned if tp not in assigned_set)
    return {tp: c for tp, c in added.items() if tp in revoked}
