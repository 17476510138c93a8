"""KIP-848 server-side ``UniformAssignor`` (the group coordinator's default, name ``"uniform"``).

A port of ``UniformAssignor`` with its two builders:

* ``UniformHomogeneousAssignmentBuilder`` (every member subscribes to the same topics): quota =
  total / members, and ``total % members`` members get one more; each member, in ``HashMap`` order,
  keeps whole topics of its current assignment while they fit, then the first partitions of its
  ``HashSet<Integer>``.  An extra goes to a member that already holds ``quota + 1``; a member that
  holds less gives its extra up to a later member, unless it is one of the last members that must
  take the remaining extras (KAFKA-18688).  The unassigned partitions (topic by topic in
  ``HashSet<Uuid>`` order, then the revoked ones) fill the unfilled members in ``HashMap`` order.
* ``UniformHeterogeneousAssignmentBuilder``: keep what is still subscribed, hand out unassigned
  partitions topic by topic (topics sorted by partitions per subscriber desc, subscribers asc,
  ``Uuid.compareTo``) to the least-loaded subscriber, then move partitions from the most to the least
  loaded subscribers of each topic until balanced (at most 16 passes).

Results are ``dict[member_id, JavaHashMap[Uuid, JavaHashMap[int, None]]]`` whose iteration order is
Java's.  Worked example (asserted in tests/engine/coordinator/test_server_assign.py): members ``a``, ``b``, ``c`` all on
``t0`` (5 partitions) + ``t1`` (4), nothing owned yet -> every member gets 3 partitions, 9 in all.
"""

from __future__ import annotations

from engine.coordinator.group_spec import (
    HOMOGENEOUS,
    GroupSpec,
    MemberPartitions,
    PartitionAssignorError,
    PartitionSet,
    TopicDescriber,
    deep_copy_assignment,
    new_partition_set,
)
from engine.java.hashmap import JavaHashMap, hashset_copy_initial_capacity, presized_capacity
from engine.java.uuid import Uuid, uuid_hash_code

MAX_ITERATION_COUNT = 16


class _Targets:
    """``targetAssignment`` with the immutable/mutable distinction Kafka's copy-on-write relies on."""

    def __init__(self) -> None:
        self.maps: dict[str, MemberPartitions] = {}
        self.mutable: set[str] = set()

    def put(self, member_id: str, assignment: MemberPartitions, mutable: bool) -> None:
        self.maps[member_id] = assignment
        (self.mutable.add if mutable else self.mutable.discard)(member_id)

    def writable(self, member_id: str) -> MemberPartitions:
        if member_id not in self.mutable:
            self.put(member_id, deep_copy_assignment(self.maps[member_id]), True)
        return self.maps[member_id]


def assign_uniform(spec: GroupSpec, describer: TopicDescriber) -> dict[str, MemberPartitions]:
    """``UniformAssignor.assign``."""
    if not spec.member_ids:
        return {}
    if spec.subscription_type == HOMOGENEOUS:
        return _homogeneous(spec, describer)
    return _Heterogeneous(spec, describer).build()


# ------------------------------------------------------------------------------------ homogeneous


def _homogeneous(spec: GroupSpec, describer: TopicDescriber) -> dict[str, MemberPartitions]:
    first = spec.members[spec.member_ids[0]]
    subscribed = JavaHashMap.of(
        first.subscribed_topic_ids, uuid_hash_code, hashset_copy_initial_capacity(first.topic_ids_size)
    )
    if not len(subscribed):
        return {}
    unassigned, total = _unassigned_partitions(spec, describer, subscribed.keys())
    targets = _Targets()
    unfilled = _revoke_over_quota(spec, subscribed, total, unassigned, targets)
    index = 0
    for member_id, remaining in unfilled:
        assignment = targets.writable(member_id)
        for _ in range(remaining):
            if index >= len(unassigned):
                break
            topic_id, partition = unassigned[index]
            index += 1
            assignment.compute_if_absent(topic_id, new_partition_set).put(partition)
    if index < len(unassigned):
        raise PartitionAssignorError("Partitions were left unassigned")
    return targets.maps


def _unassigned_partitions(
    spec: GroupSpec, describer: TopicDescriber, topic_ids: list[Uuid]
) -> tuple[list[tuple[Uuid, int]], int]:
    unassigned: list[tuple[Uuid, int]] = []
    total = 0
    for topic_id in topic_ids:
        count = describer.num_partitions(topic_id)
        if count == -1:
            raise PartitionAssignorError(f"Members are subscribed to topic {topic_id} which doesn't exist")
        owners = spec.inverted.get(topic_id, {})
        unassigned.extend((topic_id, p) for p in range(count) if p not in owners)
        total += count
    return unassigned, total


def _revoke_over_quota(
    spec: GroupSpec,
    subscribed: JavaHashMap[Uuid, None],
    total: int,
    unassigned: list[tuple[Uuid, int]],
    targets: _Targets,
) -> list[tuple[str, int]]:
    """``maybeRevokePartitions``: returns the unfilled members with their remaining quota."""
    members = len(spec.member_ids)
    minimum, extra = divmod(total, members)
    unfilled: list[tuple[str, int]] = []
    for index, member_id in enumerate(spec.member_ids):
        old = spec.members[member_id].assignment
        new: MemberPartitions | None = None
        has_extra = extra > 0
        quota = minimum + has_extra
        for topic_id, partitions in old.items():
            if topic_id not in subscribed:
                new = new if new is not None else deep_copy_assignment(old)
                new.remove(topic_id)
            elif len(partitions) <= quota:
                quota -= len(partitions)
            else:
                for partition in partitions.keys():
                    if quota > 0:
                        quota -= 1
                        continue
                    new = new if new is not None else deep_copy_assignment(old)
                    parts = new.get(topic_id)
                    assert parts is not None
                    parts.remove(partition)
                    if not len(parts):
                        new.remove(topic_id)
                    unassigned.append((topic_id, partition))
        if quota > 0 and has_extra and members - index > extra:
            quota -= 1  # an unfilled member gives the extra up, unless it is one of the last ``extra`` members
            has_extra = False
        if quota > 0:
            unfilled.append((member_id, quota))
        extra -= has_extra
        targets.put(member_id, old if new is None else new, new is not None)
    return unfilled


# ---------------------------------------------------------------------------------- heterogeneous


class _Balancer:
    """``UniformHeterogeneousAssignmentBuilder.MemberAssignmentBalancer``."""

    def __init__(self, sizes: list[int]) -> None:
        self.sizes = sizes
        self.sorted: list[int] = []
        self.least_end = 0
        self.least_count = -1
        self.next_least = 0
        self.most_start = 0
        self.most_end = 0
        self.most_count = 1
        self.next_most = -1

    def initialize(self, members: list[int]) -> int:
        if not members:
            raise ValueError("Cannot balance an empty subscriber list.")
        sizes = self.sizes
        self.sorted = sorted(members, key=lambda m: (sizes[m], m))
        self.least_end = 0
        self.least_count = sizes[self.sorted[0]] - 1
        self.next_least = 0
        self.most_start = self.most_end = len(self.sorted)
        self.most_count = sizes[self.sorted[-1]] + 1
        self.next_most = len(self.sorted) - 1
        return sizes[self.sorted[-1]] - sizes[self.sorted[0]]

    def next_least_loaded(self) -> int:
        if self.next_least >= self.least_end:
            self.least_count += 1
            while self.least_end < len(self.sorted) and self.sizes[self.sorted[self.least_end]] == self.least_count:
                self.least_end += 1
            self.next_least = 0
        member = self.sorted[self.next_least]
        self.next_least += 1
        return member

    def next_most_loaded(self) -> int:
        if self.next_most < self.most_start:
            if self.most_end <= self.most_start and self.most_start > 0:
                self.most_count = self.sizes[self.sorted[self.most_start - 1]]
            else:
                self.most_count -= 1
            while self.most_start > 0 and self.sizes[self.sorted[self.most_start - 1]] == self.most_count:
                self.most_start -= 1
            self.next_most = self.most_end - 1
        if self.next_most < 0:
            return -1
        member = self.sorted[self.next_most]
        self.next_most -= 1
        return member

    def exclude_most_loaded(self) -> None:
        i, j = self.next_most + 1, self.most_end - 1
        self.sorted[i], self.sorted[j] = self.sorted[j], self.sorted[i]
        self.most_end -= 1

    def is_balanced(self) -> bool:
        return self.most_count - self.least_count <= 1


class _Heterogeneous:
    """``UniformHeterogeneousAssignmentBuilder``."""

    def __init__(self, spec: GroupSpec, describer: TopicDescriber) -> None:
        self.spec = spec
        self.describer = describer
        self.member_ids = list(spec.member_ids)
        self.sizes = [0] * len(self.member_ids)
        self.subscribers: dict[Uuid, list[int]] = {}
        for index, member_id in enumerate(self.member_ids):
            for topic_id in spec.members[member_id].subscribed_topic_ids:
                if describer.num_partitions(topic_id) == -1:
                    raise PartitionAssignorError(f"Members are subscribed to topic {topic_id} which doesn't exist")
                self.subscribers.setdefault(topic_id, []).append(index)
        self.owners = {t: [-1] * describer.num_partitions(t) for t in self.subscribers}
        self.targets = _Targets()

    def _topic_key(self, topic_id: Uuid) -> tuple[float, int, Uuid]:
        subscribers = len(self.subscribers[topic_id])
        return (-self.describer.num_partitions(topic_id) / subscribers, subscribers, topic_id)

    def build(self) -> dict[str, MemberPartitions]:
        if not self.subscribers:
            return {}
        self._revoke_unsubscribed()
        self._assign_remaining()
        balanceable = [t for t in self.subscribers if len(self.subscribers[t]) >= 2]
        if balanceable:
            self._balance_topics(balanceable)
        return self.targets.maps

    def _revoke_unsubscribed(self) -> None:
        for index, member_id in enumerate(self.member_ids):
            member = self.spec.members[member_id]
            old = member.assignment
            new: MemberPartitions | None = None
            for topic_id, partitions in old.items():
                if topic_id in member.subscribed_set:
                    self.sizes[index] += len(partitions)
                    owners = self.owners[topic_id]
                    for partition in partitions.keys():
                        owners[partition] = index
                else:
                    new = new if new is not None else deep_copy_assignment(old)
                    new.remove(topic_id)
            self.targets.put(member_id, old if new is None else new, new is not None)

    def _assign_remaining(self) -> None:
        unassigned = {t: [p for p, o in enumerate(owners) if o == -1] for t, owners in self.owners.items()}
        balancer = _Balancer(self.sizes)
        for topic_id in sorted((t for t, ps in unassigned.items() if ps), key=self._topic_key):
            balancer.initialize(self.subscribers[topic_id])
            for partition in unassigned[topic_id]:
                self._assign(topic_id, partition, balancer.next_least_loaded())

    def _balance_topics(self, topic_ids: list[Uuid]) -> None:
        ordered = sorted(topic_ids, key=self._topic_key)
        last_rebalanced = -1
        balancer = _Balancer(self.sizes)
        for _ in range(MAX_ITERATION_COUNT):
            for index, topic_id in enumerate(ordered):
                if index == last_rebalanced:
                    return
                moved = self._balance_topic(topic_id, balancer)
                if moved > 0 or last_rebalanced == -1:
                    last_rebalanced = index

    def _balance_topic(self, topic_id: Uuid, balancer: _Balancer) -> int:
        moved = 0
        owners = self.owners[topic_id]
        if balancer.initialize(self.subscribers[topic_id]) <= 1:
            return moved
        partitions = sorted(range(len(owners)), key=lambda p: (owners[p], p))
        start: dict[int, int] = {}
        end: dict[int, int] = {}
        for i, partition in enumerate(partitions):
            start.setdefault(owners[partition], i)
            end[owners[partition]] = i + 1
        while not balancer.is_balanced():
            most = -1
            while True:
                most = balancer.next_most_loaded()
                if most == -1:
                    break
                if most not in end or end[most] - start[most] <= 0:
                    balancer.exclude_most_loaded()
                    continue
                break
            if most == -1:
                break
            partition = partitions[end[most] - 1]
            end[most] -= 1
            least = balancer.next_least_loaded()
            if balancer.is_balanced():
                break
            self._assign(topic_id, partition, least)
            moved += 1
        return moved

    def _assign(self, topic_id: Uuid, partition: int, member_index: int) -> None:
        old = self.owners[topic_id][partition]
        if old != -1:
            self._remove(topic_id, partition, old)
        self._add(topic_id, partition, member_index)

    def _add(self, topic_id: Uuid, partition: int, member_index: int) -> None:
        assignment = self.targets.writable(self.member_ids[member_index])
        assignment.compute_if_absent(topic_id, lambda: self._presized_set(topic_id)).put(partition)
        self.owners[topic_id][partition] = member_index
        self.sizes[member_index] += 1

    def _presized_set(self, topic_id: Uuid) -> PartitionSet:
        count = self.describer.num_partitions(topic_id)
        subscribers = len(self.subscribers[topic_id])
        estimate = (count + subscribers - 1) // subscribers
        return new_partition_set(presized_capacity(estimate))

    def _remove(self, topic_id: Uuid, partition: int, member_index: int) -> None:
        assignment = self.targets.writable(self.member_ids[member_index])
        parts = assignment.get(topic_id)
        if parts is not None:
            parts.remove(partition)
            if not len(parts):
                assignment.remove(topic_id)
        self.owners[topic_id][partition] = -1
        self.sizes[member_index] -= 1
