"""``AbstractStickyAssignor.ConstrainedAssignmentBuilder``: the sticky algorithm when every member subscribes to
the same topics.  Owned partitions are kept up to each member's quota (members in Java ``HashMap`` order decide
who keeps an extra one); the rest are dealt round-robin to under-quota members sorted by id."""

from __future__ import annotations

import math
from collections import Counter

from engine.consumer.assignors.common import (
    Assignment,
)
from engine.consumer.assignors.sticky_data import RackInfo, StickyAssignorView
from engine.java.strings import string_compare_key
from engine.scenario import TopicPartition, topic_partitions


class ConstrainedAssignmentBuilder:
    """``ConstrainedAssignmentBuilder``: every member subscribes to the same topics."""

    def __init__(self, assignor: StickyAssignorView, partitions_per_topic: dict[str, int],
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
