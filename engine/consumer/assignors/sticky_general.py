"""``AbstractStickyAssignor.GeneralAssignmentBuilder``: the sticky algorithm for groups whose
members subscribe to different topics (or whose first-iterated member subscribes to more).

Unowned partitions go to the least-loaded eligible member; then partitions move from
over-loaded members until ``is_balanced``, a partition preferring its previous owner.  The
result is only kept when it improves the balance score.  Java's ``TreeSet`` of members ordered by
(assignment size, member id) is a ``SortedList``; ``PartitionMovements`` keeps Java's
``HashSet`` order because it decides which partition actually moves.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from sortedcontainers import SortedList

from engine.consumer.assignors.common import DEFAULT_GENERATION, Assignment, Subscription
from engine.consumer.assignors.sticky_data import RackInfo, StickyAssignorView
from engine.java.hashmap import JavaHashMap
from engine.java.strings import string_compare_key, topic_partition_hash_code
from engine.scenario import TopicPartition, topic_partitions


@dataclass(frozen=True)
class ConsumerGenerationPair:
    consumer: str
    generation: int


def _tp_hash(tp: TopicPartition) -> int:
    return topic_partition_hash_code(tp.topic, tp.partition)


class PartitionMovements:
    """``AbstractStickyAssignor.PartitionMovements``: where partitions moved during balancing."""

    def __init__(self) -> None:
        self.by_topic: dict[str, dict[tuple[str, str], JavaHashMap[TopicPartition, None]]] = {}
        self.movements: dict[TopicPartition, tuple[str, str]] = {}

    def _remove_record(self, tp: TopicPartition) -> tuple[str, str]:
        pair = self.movements.pop(tp)
        for_topic = self.by_topic[tp.topic]
        for_topic[pair].remove(tp)
        if not len(for_topic[pair]):
            del for_topic[pair]
        if not for_topic:
            del self.by_topic[tp.topic]
        return pair

    def _add_record(self, tp: TopicPartition, pair: tuple[str, str]) -> None:
        self.movements[tp] = pair
        self.by_topic.setdefault(tp.topic, {}).setdefault(pair, JavaHashMap(_tp_hash)).put(tp)

    def move_partition(self, tp: TopicPartition, old: str, new: str) -> None:
        if tp in self.movements:
            source = self._remove_record(tp)[0]
            if source != new:
                self._add_record(tp, (source, new))
        else:
            self._add_record(tp, (old, new))

    def actual_partition_to_move(self, tp: TopicPartition, old: str, new: str) -> TopicPartition:
        """A partition that moved new -> old earlier moves back instead of ``tp``."""
        for_topic = self.by_topic.get(tp.topic)
        if for_topic is None:
            return tp
        if tp in self.movements:
            old = self.movements[tp][0]
        reverse = for_topic.get((new, old))
        return tp if reverse is None else reverse.keys()[0]  # iterator().next()


class _SortedMembers:
    """Java's ``TreeSet<String>`` ordered by (assignment size, member id)."""

    def __init__(self, assignment: Assignment) -> None:
        self.assignment = assignment
        self.keys = {m: string_compare_key(m) for m in assignment}
        self.items: SortedList = SortedList()
        self.sizes: dict[str, int] = {}

    def add(self, member: str) -> None:
        size = len(self.assignment[member])
        self.sizes[member] = size
        self.items.add((size, self.keys[member], member))

    def remove(self, member: str) -> None:
        size = self.sizes.pop(member, None)
        if size is not None:
            self.items.discard((size, self.keys[member], member))

    def first(self) -> str:
        return self.items[0][2]

    def last(self) -> str:
        return self.items[-1][2]

    def __iter__(self) -> Iterator[str]:
        return (item[2] for item in self.items)


def balance_score(assignment: Assignment) -> int:
    """``getBalanceScore``: sum over member pairs of the difference of their sizes."""
    sizes = sorted(len(v) for v in assignment.values())
    total, prefix = 0, 0
    for i, size in enumerate(sizes):
        total += size * i - prefix
        prefix += size
    return total


class GeneralAssignmentBuilder:
    def __init__(self, assignor: StickyAssignorView, partitions_per_topic: dict[str, int],
                 rack_info: RackInfo, current: dict[str, list[TopicPartition]],
                 subscriptions: dict[str, Subscription]) -> None:
        self.assignor = assignor
        self.partitions_per_topic = partitions_per_topic
        self.rack_info = rack_info
        self.subscriptions = subscriptions
        self.total = sum(partitions_per_topic.values())
        self.topic_consumers: dict[str, list[str]] = {t: [] for t in partitions_per_topic}
        self.consumer_topics: dict[str, list[str]] = {}
        self.consumer_topic_sets: dict[str, frozenset[str]] = {}
        for consumer, subscription in subscriptions.items():
            topics = [t for t in subscription.topics if t in partitions_per_topic]
            self.consumer_topics[consumer] = topics
            self.consumer_topic_sets[consumer] = frozenset(topics)
            for t in topics:
                self.topic_consumers[t].append(consumer)
            current.setdefault(consumer, [])
        self.current = current
        self.partition_consumer = {tp: c for c, tps in current.items() for tp in tps}
        topics = sorted(partitions_per_topic, key=lambda t: (len(self.topic_consumers[t]), string_compare_key(t)))
        self.sorted_all_partitions = [tp for t in topics for tp in topic_partitions(t, partitions_per_topic[t])]
        self.sorted_members = _SortedMembers(current)
        self.revocation_required = False
        self.movements = PartitionMovements()
        # caches over the reassignment phase (exact: recomputed after every change)
        self._balanced: bool | None = None
        self._topic_owners: dict[str, dict[str, int]] = {}
        self._topic_min_size: dict[str, int] = {}

    # ------------------------------------------------------------------ build
    def build(self) -> Assignment:
        prev: dict[TopicPartition, ConsumerGenerationPair] = {}
        self._prepopulate_current_assignments(prev)
        assigned = self._assign_owned_partitions()
        unassigned = [tp for tp in self.sorted_all_partitions if tp not in assigned]
        for member in self.current:
            self.sorted_members.add(member)
        self._balance(prev, unassigned)
        return self.current

    def _prepopulate_current_assignments(self, prev: dict[TopicPartition, ConsumerGenerationPair]) -> None:
        max_generation = self.assignor.max_generation
        for consumer, subscription in self.subscriptions.items():
            data = self.assignor.member_data(subscription)
            if data.generation is not None and data.generation < max_generation:
                self._update_prev(prev, data.partitions, consumer, data.generation)
            elif data.generation is None and max_generation > DEFAULT_GENERATION:
                self._update_prev(prev, data.partitions, consumer, DEFAULT_GENERATION)

    @staticmethod
    def _update_prev(prev: dict[TopicPartition, ConsumerGenerationPair], partitions: tuple[TopicPartition, ...],
                     consumer: str, generation: int) -> None:
        for tp in partitions:
            existing = prev.get(tp)
            if existing is None or generation > existing.generation:
                prev[tp] = ConsumerGenerationPair(consumer, generation)

    def _assign_owned_partitions(self) -> set[TopicPartition]:
        assigned: set[TopicPartition] = set()
        for consumer, partitions in self.current.items():
            topics = set(self.subscriptions[consumer].topics)
            kept = []
            for tp in partitions:
                if tp.topic not in self.topic_consumers:
                    self.partition_consumer.pop(tp, None)
                elif tp.topic not in topics or self.rack_info.racks_mismatch(consumer, tp):
                    self.revocation_required = True
                else:
                    kept.append(tp)
                    assigned.add(tp)
            partitions[:] = kept
        return assigned

    # ------------------------------------------------------------------ helpers
    def _size(self, consumer: str) -> int:
        return len(self.current[consumer])

    def _max_assignment_size(self, consumer: str) -> int:
        topics = self.consumer_topics[consumer]
        if len(topics) == len(self.partitions_per_topic):
            return self.total
        return sum(self.partitions_per_topic[t] for t in topics)

    def _is_balanced(self) -> bool:
        """``isBalanced``, cached until the assignment changes."""
        if self._balanced is None:
            self._balanced = self._compute_balanced()
        return self._balanced

    def _compute_balanced(self) -> bool:
        """No member could take a partition of its topics from a member with 2+ more partitions.

        Members are visited smallest first; once ``size + 2`` exceeds the largest size nobody can.
        """
        items = self.sorted_members.items
        largest = items[-1][0]
        if items[0][0] >= largest - 1:
            return True
        for size, _, consumer in items:
            if size + 2 > largest:
                return True
            if size == self._max_assignment_size(consumer):
                continue
            for topic in self.consumer_topics[consumer]:
                for owner in self._topic_owners.get(topic, ()):
                    if owner != consumer and len(self.current[owner]) > size + 1:
                        return False
        return True

    def _index_owners(self) -> None:
        self._topic_owners = {}
        for consumer, partitions in self.current.items():
            for tp in partitions:
                owners = self._topic_owners.setdefault(tp.topic, {})
                owners[consumer] = owners.get(consumer, 0) + 1
        self._topic_min_size = {}
        self._balanced = None

    def _on_moved(self, tp: TopicPartition, old: str, new: str) -> None:
        owners = self._topic_owners.setdefault(tp.topic, {})
        owners[old] -= 1
        if not owners[old]:
            del owners[old]
        owners[new] = owners.get(new, 0) + 1
        for topic in (*self.consumer_topics[old], *self.consumer_topics[new]):
            self._topic_min_size.pop(topic, None)
        self._balanced = None

    def _min_subscriber_size(self, topic: str) -> int:
        cached = self._topic_min_size.get(topic)
        if cached is None:
            cached = min(len(self.current[c]) for c in self.topic_consumers[topic] if c in self.current)
            self._topic_min_size[topic] = cached
        return cached

    def _maybe_assign_partition(self, tp: TopicPartition, use_racks: bool) -> bool:
        for consumer in self.sorted_members:
            if tp.topic in self.consumer_topic_sets[consumer] and not (
                use_racks and self.rack_info.racks_mismatch(consumer, tp)
            ):
                self.sorted_members.remove(consumer)
                self.current[consumer].append(tp)
                self.partition_consumer[tp] = consumer
                self.sorted_members.add(consumer)
                return True
        return False

    def _maybe_assign(
        self, partitions: list[TopicPartition], use_racks: bool, remove_assigned: bool
    ) -> list[TopicPartition]:
        left = []
        for tp in partitions:
            if not self.topic_consumers[tp.topic]:
                left.append(tp)
                continue
            if not (self._maybe_assign_partition(tp, use_racks) and remove_assigned):
                left.append(tp)
        return left

    def _can_consumer_participate(self, consumer: str) -> bool:
        if self._size(consumer) < self._max_assignment_size(consumer):
            return True
        return any(len(self.topic_consumers[tp.topic]) >= 2 for tp in self.current[consumer])

    # ------------------------------------------------------------------ balance
    def _balance(self, prev: dict[TopicPartition, ConsumerGenerationPair], unassigned: list[TopicPartition]) -> None:
        initializing = not self.current[self.sorted_members.last()]
        to_assign = unassigned
        if self.rack_info.consumer_racks:
            to_assign = self._maybe_assign(list(unassigned), True, True)
        self._maybe_assign(to_assign, False, False)
        fixed_topics = {t for t, cs in self.topic_consumers.items() if len(cs) < 2}
        self.sorted_all_partitions = [tp for tp in self.sorted_all_partitions if tp.topic not in fixed_topics]
        unassigned = [tp for tp in unassigned if tp.topic not in fixed_topics]
        fixed: dict[str, list[TopicPartition]] = {}
        for consumer in self.consumer_topics:
            if not self._can_consumer_participate(consumer):
                self.sorted_members.remove(consumer)
                fixed[consumer] = self.current.pop(consumer)
        pre_balance = {c: list(tps) for c, tps in self.current.items()}
        pre_balance_owners = dict(self.partition_consumer)
        self._index_owners()
        if not self.revocation_required:
            self._perform_reassignments(unassigned, prev)
        performed = self._perform_reassignments(self.sorted_all_partitions, prev)
        if not initializing and performed and balance_score(self.current) >= balance_score(pre_balance):
            self.current.clear()
            self.current.update({c: list(tps) for c, tps in pre_balance.items()})
            self.partition_consumer = pre_balance_owners
        for consumer, partitions in fixed.items():
            self.current[consumer] = partitions

    def _perform_reassignments(self, partitions: list[TopicPartition],
                               prev: dict[TopicPartition, ConsumerGenerationPair]) -> bool:
        performed = False
        modified = True
        while modified:
            modified = False
            for tp in partitions:
                if self._is_balanced():
                    break
                if self._reassign_one(tp, prev):
                    performed = modified = True
        return performed

    def _reassign_one(self, tp: TopicPartition, prev: dict[TopicPartition, ConsumerGenerationPair]) -> bool:
        consumer = self.partition_consumer[tp]
        size = self._size(consumer)
        previous = prev.get(tp)
        if previous is not None and size > self._size(previous.consumer) + 1:
            self._reassign_to(tp, previous.consumer)
            return True
        consumer_rack = self.rack_info.consumer_racks.get(consumer)
        partition_racks = self.rack_info.partition_racks.get(tp)
        if consumer_rack is not None and partition_racks and consumer_rack in partition_racks:
            for other in self.topic_consumers[tp.topic]:
                other_rack = self.rack_info.consumer_racks.get(other)
                if other_rack is None or other_rack not in partition_racks:
                    continue
                if size > self._size(other) + 1:
                    self._reassign(tp)
                    return True
        if size > self._min_subscriber_size(tp.topic) + 1:
            self._reassign(tp)
            return True
        return False

    def _reassign(self, tp: TopicPartition) -> None:
        new_consumer = next(c for c in self.sorted_members if tp.topic in self.consumer_topic_sets[c])
        self._reassign_to(tp, new_consumer)

    def _reassign_to(self, tp: TopicPartition, new_consumer: str) -> None:
        consumer = self.partition_consumer[tp]
        self._process_movement(self.movements.actual_partition_to_move(tp, consumer, new_consumer), new_consumer)

    def _process_movement(self, tp: TopicPartition, new_consumer: str) -> None:
        old = self.partition_consumer[tp]
        self.sorted_members.remove(old)
        self.sorted_members.remove(new_consumer)
        self.movements.move_partition(tp, old, new_consumer)
        self.current[old].remove(tp)
        self.current[new_consumer].append(tp)
        self.partition_consumer[tp] = new_consumer
        self._on_moved(tp, old, new_consumer)
        self.sorted_members.add(new_consumer)
        self.sorted_members.add(old)
