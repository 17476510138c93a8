"""librdkafka's cooperative-sticky assignor (``src/rdkafka_sticky_assignor.c``).

librdkafka registers exactly one sticky assignor, ``cooperative-sticky``
(``rd_kafka_sticky_assignor_init``); there is no eager ``sticky``.  It is a port of Java's OLD
``AbstractStickyAssignor`` general algorithm only: there is no "constrained" fast path for equal
subscriptions, so groups where Java takes ``constrainedAssign`` can come out differently.
Ownership comes from each member's ``owned`` partitions and ``generation`` (the sticky user data
is sent but not read).

Its maps are ``rd_map_t``: iteration walks a list with the newest element FIRST (insertion at
the head; overwriting a key keeps its place; delete and re-insert moves it to the front), never
the hash buckets.  Here maps are Python dicts walked with ``reversed``.  Its lists are
``rd_list_t`` / partition lists: append at the end, delete by first match with ``memmove``.

Worked example: three new members ``m1, m2, m3`` on one topic of 6 partitions get two each:
``m1 = [t0-0, t0-3]``, ``m2 = [t0-1, t0-4]``, ``m3 = [t0-2, t0-5]`` (see ``assign``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.consumer.librdkafka.eligible import EligibleTopic, use_rack_aware_assignment
from engine.consumer.librdkafka.model import (
    Assignment,
    GroupMember,
    LibrdkafkaFailure,
    c_key,
    tp_c_key,
)
from engine.consumer.librdkafka.movements import PartitionMovements, PartitionRef
from engine.consumer.librdkafka.qsort import glibc_qsort
from engine.scenario import TopicPartition

NAME = "cooperative-sticky"

Owner = tuple[str, int]  # ConsumerGenerationPair_t: (member id, generation)


@dataclass
class RackInfo:
    """``rd_kafka_rack_info_t``: member racks and partition replica racks, when rack-aware."""

    member_rack: dict[str, str | None]
    partition_racks: dict[TopicPartition, tuple[str, ...]]

    def mismatch(self, consumer: str, tp: TopicPartition) -> bool:
        """``rd_kafka_racks_mismatch``: the consumer has a rack and no replica of tp is on it."""
        rack = self.member_rack.get(consumer)
        racks = self.partition_racks.get(tp)
        return rack is not None and (racks is None or rack not in racks)


def rack_info(topics: Sequence[EligibleTopic]) -> RackInfo | None:
    """``rd_kafka_rack_info_new``: None unless ``use_rack_aware_assignment`` over all topics."""
    if not use_rack_aware_assignment(topics):
        return None
    members: dict[str, str | None] = {}
    racks: dict[TopicPartition, tuple[str, ...]] = {}
    for topic in topics:
        for m in topic.members:
            members[m.member_id] = m.rack
        for p in range(topic.metadata.partition_count):
            racks[TopicPartition(topic.name, p)] = topic.metadata.racks_of(p)
    return RackInfo(members, racks)


def _generation_cmp(a: Owner, b: Owner) -> int:
    return a[1] - b[1]


def balance_score(assignment: dict[str, list[TopicPartition]]) -> int:
    """``getBalanceScore``: sum over member pairs of the difference in partition counts.

    >>> balance_score({"a": [], "b": [TopicPartition("t", 0)], "c": [TopicPartition("t", 1)] * 3})
    6
    """
    sizes = [len(v) for v in assignment.values()]
    return sum(abs(sizes[i] - sizes[j]) for i in range(len(sizes)) for j in range(i + 1, len(sizes)))


class StickyRun:
    """One call of ``rd_kafka_sticky_assignor_assign_cb``; attribute names follow the C code."""

    def __init__(self, members: Sequence[GroupMember], topics: Sequence[EligibleTopic]) -> None:
        self.members = members
        self.rack = rack_info(topics)
        self.subscriptions: dict[str, tuple[str, ...]] = {}
        self.current: dict[str, list[TopicPartition]] = {}
        self.prev: dict[TopicPartition, Owner] = {}
        self.owner: dict[TopicPartition, str] = {}  # currentPartitionConsumer
        self.potential_partitions: dict[str, list[TopicPartition]] = {}  # consumer2AllPotentialPartitions
        self.potential_sets: dict[str, set[TopicPartition]] = {}
        self.potential_consumers: dict[TopicPartition, list[str]] = {}  # partition2AllPotentialConsumers
        self.movements = PartitionMovements()
        self.sorted_subs: list[str] = []  # sortedCurrentSubscriptions
        self._version = 0  # bumped on every change of the assignment, so is_balanced can be cached
        self._balanced: tuple[int, bool] = (-1, False)
        self._prepopulate()
        for topic in topics:
            self._populate_potential(topic)

    # ------------------------------------------------------------------ preparation

    def _prepopulate(self) -> None:
        """``prepopulateCurrentAssignments``: owners from owned partitions and generations."""
        claims: dict[TopicPartition, list[Owner]] = {}
        for m in self.members:
            self.subscriptions[m.member_id] = m.subscription
            self.current[m.member_id] = []
            self.potential_partitions[m.member_id] = []
            self.potential_sets[m.member_id] = set()
            for tp in m.owned:
                claims.setdefault(tp, []).append((m.member_id, m.generation))
                self.owner[tp] = m.member_id
        for tp in reversed(list(claims)):
            owners = glibc_qsort(claims[tp], _generation_cmp)
            if any(owners[i - 1][1] == owners[i][1] for i in range(1, len(owners))):
                self.owner.pop(tp, None)
                continue
            self.current[owners[-1][0]].append(tp)
            if len(owners) >= 2:
                self.prev[tp] = owners[-2]

    def _populate_potential(self, topic: EligibleTopic) -> None:
        """``populatePotentialMaps`` for one eligible topic."""
        for m in topic.members:
            mine = self.potential_partitions[m.member_id]
            for p in range(topic.metadata.partition_count):
                tp = TopicPartition(topic.name, p)
                mine.append(tp)
                self.potential_sets[m.member_id].add(tp)
                self.potential_consumers.setdefault(tp, []).append(m.member_id)

    def _subscriptions_identical(self) -> bool:
        """``areSubscriptionsIdentical``: consecutive consumer lists equal, then partition sets."""
        previous: list[str] | None = None
        for tp in reversed(list(self.potential_consumers)):
            consumers = self.potential_consumers[tp]
            if previous is not None and consumers != previous:
                return False
            previous = consumers
        previous_set: set[TopicPartition] | None = None
        for consumer in reversed(list(self.potential_partitions)):
            mine = self.potential_sets[consumer]
            if previous_set is not None and mine != previous_set:
                return False
            previous_set = mine
        return True

    def sort_partitions(self, fresh: bool) -> list[TopicPartition]:
        """``sortPartitions``: the order in which partitions are considered for reassignment."""
        if fresh or not self._subscriptions_identical():
            order = list(reversed(list(self.potential_consumers)))
            return sorted(order, key=lambda tp: (len(self.potential_consumers[tp]), c_key(tp.topic),
                                                 tp.partition))
        out: list[TopicPartition] = []
        remaining: dict[str, list[TopicPartition]] = {}
        for consumer in reversed(list(self.current)):
            self.current[consumer].sort(key=tp_c_key)
            valid = [tp for tp in self.current[consumer] if tp in self.potential_consumers]
            if valid:
                remaining[consumer] = valid
        consumers = list(remaining)

        def by_count(c: str) -> tuple[int, bytes]:
            return (len(remaining[c]), c_key(c))

        consumers.sort(key=by_count)
        while consumers:
            mine = remaining[consumers[-1]]
            moved_before = [tp for tp in mine if tp in self.prev]
            if moved_before:
                mine.remove(moved_before[0])
                out.append(moved_before[0])
            elif mine:
                out.append(mine.pop(0))
            else:
                consumers.pop()
                continue
            consumers.sort(key=by_count)
        was_empty = not out
        seen = set(out)
        for tp in reversed(list(self.potential_consumers)):
            if tp not in seen:
                out.append(tp)
                seen.add(tp)
        if was_empty:
            out.sort(key=tp_c_key)
        return out

    # ------------------------------------------------------------------ moving partitions

    def _sub_key(self, consumer: str) -> tuple[int, bytes]:
        return (len(self.current[consumer]), c_key(consumer))

    def _resort(self) -> None:
        self.sorted_subs.sort(key=self._sub_key)
        self._version += 1

    def _count(self, consumer: str | None) -> int:
        if consumer is None or consumer not in self.current:
            raise LibrdkafkaFailure("cooperative-sticky: librdkafka dereferences a missing consumer "
                                    "assignment (NULL, crash)")
        return len(self.current[consumer])

    def _maybe_assign_partition(self, tp: TopicPartition, rack: RackInfo | None) -> bool:
        """``maybeAssignPartition``: to the least loaded consumer that may take it."""
        for consumer in self.sorted_subs:
            if tp not in self.potential_sets[consumer]:
                continue
            if rack is not None and rack.mismatch(consumer, tp):
                continue
            self.current[consumer].append(tp)
            self.owner[tp] = consumer
            self._resort()
            return True
        return False

    def _maybe_assign(self, unassigned: list[TopicPartition], remove_assigned: bool,
                      rack: RackInfo | None) -> None:
        """``maybeAssign``."""
        i = 0
        while i < len(unassigned):
            tp = unassigned[i]
            if not self.potential_consumers.get(tp):
                i += 1
                continue
            if self._maybe_assign_partition(tp, rack) and remove_assigned:
                del unassigned[i]
                continue
            i += 1

    def _process_movement(self, ref: PartitionRef, new_consumer: str) -> None:
        """``processPartitionMovement`` (re-reads the partition pointer after the bookkeeping)."""
        old_consumer = self.owner.get(ref.get())
        if old_consumer is None:
            raise LibrdkafkaFailure("cooperative-sticky: librdkafka moves a partition without owner (crash)")
        self.movements.move_partition(ref, old_consumer, new_consumer)
        tp = ref.get()
        self.current[new_consumer].append(tp)
        if old_consumer not in self.current:
            raise LibrdkafkaFailure("cooperative-sticky: librdkafka dereferences a NULL assignment (crash)")
        if tp in self.current[old_consumer]:
            self.current[old_consumer].remove(tp)
        self.owner[tp] = new_consumer
        self._resort()

    def _reassign_to(self, tp: TopicPartition, new_consumer: str) -> None:
        """``reassignPartitionToConsumer``."""
        consumer = self.owner[tp]
        self._process_movement(self.movements.partition_to_move(tp, consumer, new_consumer), new_consumer)

    def _reassign(self, tp: TopicPartition) -> None:
        """``reassignPartition``: to the least loaded consumer that may take it."""
        for consumer in self.sorted_subs:
            if tp in self.potential_sets[consumer]:
                self._reassign_to(tp, consumer)
                return
        raise LibrdkafkaFailure("cooperative-sticky: reassignPartition(): no new consumer found (abort)")

    def is_balanced(self) -> bool:
        """``isBalanced`` (a pure function of the assignment: cached until it changes)."""
        if self._balanced[0] != self._version:
            self._balanced = (self._version, self._is_balanced())
        return self._balanced[1]

    def _is_balanced(self) -> bool:
        minimum = len(self.current[self.sorted_subs[0]])
        maximum = len(self.current[self.sorted_subs[-1]])
        if minimum >= maximum - 1:
            return True
        holder: dict[TopicPartition, str] = {}
        for consumer in reversed(list(self.current)):
            for tp in self.current[consumer]:
                holder[tp] = consumer
        for consumer in self.sorted_subs:
            mine = self.current[consumer]
            potential = self.potential_partitions[consumer]
            if len(mine) == len(potential):
                continue
            mine_set = set(mine)
            for tp in potential:
                if tp in mine_set:
                    continue
                if len(mine) < self._count(holder.get(tp)):
                    return False
        return True

    def _rack_local_move(self, tp: TopicPartition, consumer: str, count: int) -> bool:
        """The rack-aware branch of ``performReassignments``: True when it moved tp."""
        if self.rack is None:
            return False
        rack = self.rack.member_rack.get(consumer)
        racks = self.rack.partition_racks.get(tp)
        if rack is None or not racks or rack not in racks:
            return False
        for other in self.potential_consumers[tp]:
            other_rack = self.rack.member_rack.get(other)
            if other_rack is None or other_rack not in racks:
                continue
            if count <= self._count(other) + 1:
                continue
            self._reassign(tp)
            return True
        return False

    def perform_reassignments(self, reassignable: list[TopicPartition]) -> bool:
        """``performReassignments``: repeat passes while anything moved; True if something did."""
        performed = False
        while True:
            modified = False
            i = 0
            while i < len(reassignable) and not self.is_balanced():
                tp = reassignable[i]
                i += 1
                consumer = self.owner.get(tp)
                if consumer is None:
                    raise LibrdkafkaFailure("cooperative-sticky: rd_assert(consumer) fails in librdkafka "
                                            "(abort)")
                count = len(self.current[consumer])
                previous = self.prev.get(tp)
                if previous is not None and count > self._count(previous[0]) + 1:
                    self._reassign_to(tp, previous[0])
                    performed = modified = True
                    continue
                if self._rack_local_move(tp, consumer, count):
                    performed = modified = True
                    continue
                for other in self.potential_consumers[tp]:
                    if other == consumer or count <= self._count(other) + 1:
                        continue
                    self._reassign(tp)
                    performed = modified = True
                    break
            if not modified:
                return performed

    # ------------------------------------------------------------------ the assignment

    def _can_participate(self, consumer: str) -> bool:
        """``consumerCanParticipateInReassignment``."""
        mine = self.current[consumer]
        if len(mine) < len(self.potential_partitions[consumer]):
            return True
        return any(len(self.potential_consumers.get(tp, ())) >= 2 for tp in mine)

    def balance(self, sorted_partitions: list[TopicPartition], unassigned: list[TopicPartition],
                revocation_required: bool) -> None:
        """``balance``."""
        initializing = len(self.current[self.sorted_subs[-1]]) == 0
        leftover = unassigned
        if self.rack is not None and self.rack.member_rack:
            leftover = list(unassigned)
            self._maybe_assign(leftover, True, self.rack)
        self._maybe_assign(leftover, False, None)
        for tp in reversed(list(self.potential_consumers)):
            if len(self.potential_consumers[tp]) >= 2:
                continue
            for lst in (sorted_partitions, unassigned):
                if tp in lst:
                    lst.remove(tp)
        fixed: dict[str, list[TopicPartition]] = {}
        i = 0
        while i < len(self.sorted_subs):
            consumer = self.sorted_subs[i]
            if self._can_participate(consumer):
                i += 1
                continue
            del self.sorted_subs[i]
            fixed[consumer] = list(self.current.pop(consumer))
            self._version += 1
        before = {c: list(self.current[c]) for c in reversed(list(self.current))}
        owners_before = {tp: self.owner[tp] for tp in reversed(list(self.owner))}
        if not revocation_required and unassigned:
            self.perform_reassignments(unassigned)
        performed = self.perform_reassignments(sorted_partitions)
        if not initializing and performed and balance_score(self.current) >= balance_score(before):
            for c in reversed(list(before)):
                self.current[c] = list(before[c])
            self.owner.clear()
            for tp in reversed(list(owners_before)):
                self.owner[tp] = owners_before[tp]
            self._version += 1
        if fixed:
            for consumer in reversed(list(fixed)):
                self.current[consumer] = fixed[consumer]
                self.sorted_subs.append(consumer)
            self._resort()

    def run(self) -> Assignment:
        """The body of ``rd_kafka_sticky_assignor_assign_cb`` after the maps are built."""
        fresh = not self.current
        sorted_partitions = self.sort_partitions(fresh)
        unassigned = list(sorted_partitions)
        revocation_required = False
        for consumer in reversed(list(self.current)):
            mine = self.current[consumer]
            i = 0
            while i < len(mine):
                tp = mine[i]
                if tp not in self.potential_consumers:
                    self.owner.pop(tp, None)
                    del mine[i]
                elif tp.topic not in self.subscriptions[consumer] or (
                        self.rack is not None and self.rack.mismatch(consumer, tp)):
                    revocation_required = True
                    del mine[i]
                else:
                    if tp in unassigned:
                        unassigned.remove(tp)
                    i += 1
        self.sorted_subs = sorted(reversed(list(self.current)), key=self._sub_key)
        self.balance(sorted_partitions, unassigned, revocation_required)
        return {m.member_id: list(self.current[m.member_id]) for m in self.members}


def assign(members: Sequence[GroupMember], topics: Sequence[EligibleTopic]) -> Assignment:
    """``rd_kafka_sticky_assignor_assign_cb``: member id -> partitions (member-array order).

    >>> from engine.consumer.librdkafka.model import TopicMetadata
    >>> ms = [GroupMember(m, ("t0",)) for m in ("m1", "m2", "m3")]
    >>> out = assign(ms, [EligibleTopic(TopicMetadata("t0", 6), ms)])
    >>> {m: [str(tp) for tp in tps] for m, tps in out.items()}
    {'m1': ['t0-0', 't0-3'], 'm2': ['t0-1', 't0-4'], 'm3': ['t0-2', 't0-5']}
    """
    if not members:
        return {}
    return StickyRun(members, topics).run()
