"""Kafka's ``StickyAssignor`` (eager): the previous assignment and generation travel in the subscription's user data.

The algorithm is ``engine.consumer.assignors.abstract_sticky``'s; see its docstring for the worked example.
"""

from __future__ import annotations

from engine.consumer.assignors.abstract_sticky import AbstractStickyAssignor
from engine.consumer.assignors.common import (
    DEFAULT_GENERATION,
    StickyUserData,
    Subscription,
)
from engine.consumer.assignors.sticky_data import MemberData
from engine.scenario import TopicPartition

NAME = "sticky"


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
