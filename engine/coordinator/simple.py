"""Share groups' (KIP-932) server-side ``SimpleAssignor`` (group coordinator, name ``"simple"``).

A share group lets several members read one partition.  The assignor puts balance first and stickiness
second (KAFKA-18901; its homogeneous and heterogeneous builders are KAFKA-19362 and KAFKA-19363).  For a
scope of ``S`` members and ``P`` partitions (homogeneous: the whole group and every subscribed partition;
heterogeneous: one topic at a time, its subscribers and its partitions) the *desired sharing* is
``D = ceil(S / P)`` members per partition, and the j-th member of the scope wants
``ceil(x * (j + 1)) - ceil(x * j)`` partitions with ``x = D * P / S`` (an IEEE double).  Each builder
counts what members hold, revokes from members holding more than they want and from partitions shared
by more than ``D`` members, then fills the partitions that have fewer than ``D`` members from the members
that want more, cycling over them.  Which partitions move is decided by Java's ``HashMap``/``HashSet``
iteration orders, modelled here (``../shared/vectors/share_assign.README.md``), and so is the order of each
member's answer, which the coordinator records and reads back as the next computation's current assignment.

Worked example (asserted in tests/engine/coordinator/test_share_assign.py): eight members on three
partitions share each partition three ways; the first member wants two partitions, the others one::

    >>> desired_sharing(8, 3), desired_counts(8, 3)
    (3, [2, 1, 1, 1, 1, 1, 1, 1])
    >>> spec = share_group_spec({"t": 3}, {f"m{i}": ("t",) for i in range(8)})
    >>> out = assign_simple(spec, TopicDescriber({topic_id("t"): 3}))
    >>> sorted(sum(p == q for tps in out.values() for _, p in tps) for q in range(3))
    [3, 3, 3]
    >>> sorted(len(tps) for tps in out.values())
    [1, 1, 1, 1, 1, 1, 1, 2]

With ten partitions and four members every partition has one member; the members want 3, 2, 3, 2::

    >>> desired_sharing(4, 10), desired_counts(4, 10)
    (1, [3, 2, 3, 2])
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import repeat

from engine.coordinator.group_spec import (
    HOMOGENEOUS,
    GroupSpec,
    MemberPartitions,
    MemberSpec,
    TopicDescriber,
    subscription_type,
    topic_ids_order,
)
from engine.java.hashmap import (
    JavaHashMap,
    bucket_may_overflow,
    compute_if_absent_order,
    hashset_copy_initial_capacity,
    hashset_order,
)
from engine.java.strings import hashmap_spread, string_hash_code, table_size_for
from engine.java.tree_bin import TreeBinHashMap
from engine.java.uuid import Uuid, uuid_compare, uuid_hash_code

TopicIdPartition = tuple[Uuid, int]
ShareAssignment = dict[str, list[TopicIdPartition]]  # in the iteration order of each member's assignment
CurrentAssignment = list[tuple[Uuid, list[int]]]  # (topic, partitions) in the Java map's iteration order
_NO_RECORD: MemberPartitions = JavaHashMap(uuid_hash_code)  # what ShareGroupSpec members carry instead


@dataclass
class ShareGroupSpec(GroupSpec):
    """A ``GroupSpec`` whose current assignments are (topic id, partition) lists in record order; the
    assignor builds their ``HashMap<Uuid, HashSet<Integer>>`` iteration order itself (``current_assignment``)."""

    held: dict[str, list[TopicIdPartition]] = field(default_factory=dict)


# ------------------------------------------------------------------------------ shared quantities


def desired_sharing(members: int, partitions: int) -> int:
    """``D``: how many members each partition should have, ``ceil(members / partitions)`` (0 without partitions)."""
    return 0 if partitions == 0 else (members + partitions - 1) // partitions


def desired_counts(members: int, partitions: int) -> list[int]:
    """How many partitions the j-th member of a scope wants: ``ceil(x * (j + 1)) - ceil(x * j)`` with
    ``x = D * partitions / members`` in doubles.  They add up to ``D * partitions``, or one more when ``x``
    times the member count rounds above that integer (7 members, 29 partitions: 5, 4, 4, 4, 4, 4, 5)."""
    precise = desired_sharing(members, partitions) * partitions / members
    ceilings = [math.ceil(precise * j) for j in range(members + 1)]
    return [ceilings[j + 1] - ceilings[j] for j in range(members)]


def _float32(value: float) -> float:
    return float(struct.unpack("f", struct.pack("f", value))[0])


def helper_capacity(expected: int) -> int:
    """Table length of ``AssignorHelpers.newHashMap/newHashSet(expected)``: ``(int) ((expected + 1) / 0.75f + 1)``
    in float arithmetic, rounded up to a power of two."""
    return table_size_for(int(_float32(_float32(_float32(expected + 1) / _float32(0.75)) + 1)))


def _index_key(index: int) -> int:
    """Bucket of a member or partition index ``i < n`` in a helper-sized table for ``n``: ``i ^ (i >>> 16)``
    (one index per bucket; ascending below 65,536)."""
    return index ^ (index >> 16)


def index_order(indices: Iterable[int]) -> list[int]:
    """Iteration order of a helper-sized ``HashSet<Integer>``/``HashMap<Integer, ...>`` of member indices."""
    return sorted(indices, key=_index_key)


def _index_hash(index: int) -> int:
    """``Integer.hashCode`` of a partition number or member index (never negative)."""
    return index


def topic_partition_hashes(topic: Uuid, partitions: Iterable[int]) -> list[int]:
    """``TopicIdPartition.hashCode`` (a record) of the topic's partitions: ``31 * topicId.hashCode() + partition``
    in int arithmetic."""
    base = 31 * topic.hash_code() + 2**31
    return [((base + p) & 0xFFFFFFFF) - 2**31 for p in partitions]


def current_assignment(spec: GroupSpec, member_id: str) -> CurrentAssignment:
    """``memberAssignment(id).partitions()`` in iteration order: topics of a ``new HashMap<>()`` filled in
    record order, each a ``new HashSet<>(partitions)``."""
    if not isinstance(spec, ShareGroupSpec):
        return [(t, ps.keys()) for t, ps in spec.members[member_id].assignment.items()]
    by_topic: dict[Uuid, list[int]] = {}
    for topic, partition in spec.held.get(member_id, ()):
        by_topic.setdefault(topic, []).append(partition)
    topics = list(by_topic) if len(by_topic) == 1 else JavaHashMap.of(by_topic, uuid_hash_code).keys()
    return [(t, hashset_order(ps, _index_hash, hashset_copy_initial_capacity(len(ps))))
            for t, ps in ((t, by_topic[t]) for t in topics)]


# ------------------------------------------------------------------------- what each member ends with


def working_copy_order(original: CurrentAssignment, dropped: Iterable[Uuid], revoked: Sequence[TopicIdPartition],
                       given: Sequence[TopicIdPartition]) -> list[TopicIdPartition]:
    """Iteration order of a member's working copy: ``AssignorHelpers.deepCopyAssignment(original)`` (a
    ``new HashMap<>(size)`` of ``new HashSet<>(set)``) less the ``dropped`` topics, then each partition of
    ``revoked`` removed and each of ``given`` put by ``computeIfAbsent(topic, k -> new HashSet<>()).add(p)``,
    in order (a partition given twice calls it twice).  The coordinator records this order, and the next
    computation reads the member's assignment back in it."""
    removed: dict[Uuid, list[int]] = {}
    for t, p in revoked:
        removed.setdefault(t, []).append(p)
    added: dict[Uuid, list[int]] = {}
    for t, p in given:
        added.setdefault(t, []).append(p)
    sets = dict(original)
    return [(t, p) for t in _copied_topics(original, dropped, given) for p in hashset_order(
        sets.get(t, []), _index_hash, hashset_copy_initial_capacity(len(sets.get(t, []))), removed.get(t, ()),
        added.get(t, []))]


def _copied_topics(original: CurrentAssignment, dropped: Iterable[Uuid],
                   given: Sequence[TopicIdPartition]) -> list[Uuid]:
    """Iteration order of the working copy's topic map (``new HashMap<>(size)``, puts, removals, then a
    ``computeIfAbsent`` per partition given)."""
    gone = list(dropped)
    gone_set = set(gone)
    kept = [t for t, _ in original if t not in gone_set]
    kept_set = set(kept)
    new = [t for t in dict.fromkeys(t for t, _ in given) if t not in kept_set]
    if len(kept) + len(new) <= 1:
        return kept + new
    topics: TreeBinHashMap[Uuid, None] = TreeBinHashMap(uuid_hash_code, len(original), compare=uuid_compare)
    for t, _ in original:
        topics.put(t, None)
    for t in gone:  # in the original's order, as they are met
        topics.remove(t)
    resize_due = False  # a call after an insertion may resize; later calls for present topics change nothing
    for t, _ in given:
        if resize_due or t not in topics:
            resize_due = t not in topics
            topics.compute_if_absent(t, lambda: None)
    return topics.keys()


def _flat(assignment: CurrentAssignment) -> list[TopicIdPartition]:
    return [(t, p) for t, ps in assignment for p in ps]


# ------------------------------------------------------------------------------------ the fill step


def fill(partitions: Iterable[int], sharing: int, unfilled: Iterable[int], desired: Mapping[int, int] | Sequence[int],
         size_of: Callable[[int], int], holds: Callable[[int, int], bool], give: Callable[[int, int], int]) -> None:
    """``assignRemainingPartitions``: one pass over the partitions (map order), one iterator over the
    unfilled members that restarts when it runs out.

    A partition with fewer than ``sharing`` members takes members from the iterator: each one not among its
    members at the start of this step gets it (``give`` answers that member's new count; reaching its
    desired count takes it out of ``unfilled``).  When the iterator runs out having given nothing since its
    last start, the partition is left short, and so is every later one; the pass stops once ``unfilled`` is
    empty.  The partition's members are not updated while it is filled, so after a restart a member may be
    given the same partition twice, which counts against the partition's need.
    """
    order = index_order(unfilled)
    alive = set(order)
    position, assigned = 0, False
    for partition in partitions:
        need = sharing - size_of(partition)
        while need > 0:
            if position == len(order):
                if not assigned:
                    break
                order, position, assigned = [m for m in order if m in alive], 0, False
            member = order[position]  # never empty here: the unfilled members still want at least `need`
            position += 1
            if not holds(member, partition):
                need -= 1
                assigned = True
                if give(member, partition) >= desired[member]:
                    alive.discard(member)
        if not alive:
            return


# ------------------------------------------------------------------------------------- the assignor


def assign_simple(spec: GroupSpec, describer: TopicDescriber) -> ShareAssignment:
    """``SimpleAssignor.assign``: every member of the group -> its partitions (possibly none), in Kafka's order."""
    if not spec.member_ids:
        return {}
    if spec.subscription_type == HOMOGENEOUS:
        found = _assign_homogeneous(spec, describer)
    else:
        found = _assign_heterogeneous(spec, describer)
    return {m: found.get(m, []) for m in spec.member_ids}  # groupAssignment: every member listed


@dataclass
class _Homogeneous:
    """``SimpleHomogeneousAssignmentBuilder`` over target indices (``targets[j]`` is a (topic, partition)).

    ``holders[j]``: the members added to partition j's set while counting, in order, and ``left[j]`` those
    removed from it by the overfilled members, in order; ``held[i]``: what member i keeps of its targets (its
    set in ``finalAssignmentByMember``), ``revoked[i]`` what it lost, in order; ``size[j]``: partition j's
    member count; ``gained[i]``: what the fill step gives member i, ``given[i]`` the same in order, repeats
    included.
    """

    targets: list[TopicIdPartition]
    hashes: list[int]  # TopicIdPartition.hashCode of each target
    current: list[list[int]]  # each member's current targets, in its assignment's iteration order
    desired: list[int] = field(init=False)
    sharing: int = field(init=False)
    holders: dict[int, list[int]] = field(default_factory=dict)
    left: dict[int, list[int]] = field(default_factory=dict)
    held: list[set[int]] = field(init=False)
    revoked: list[list[int]] = field(init=False)
    size: list[int] = field(init=False)
    gained: list[set[int]] = field(init=False)
    given: list[list[int]] = field(init=False)

    def __post_init__(self) -> None:
        members, partitions = len(self.current), len(self.targets)
        self.sharing, self.desired = desired_sharing(members, partitions), desired_counts(members, partitions)
        self.held = [set() for _ in self.current]
        self.revoked = [[] for _ in self.current]
        self.gained = [set() for _ in self.current]
        self.given = [[] for _ in self.current]
        self.size = [0] * partitions

    def build(self) -> None:
        """The four steps: ``held``, ``revoked`` and ``given`` end as each member's assignment."""
        unfilled, overfilled = self.count()
        self.revoke_overfilled(overfilled)
        order = self.partition_order()
        self.revoke_overshared(order, unfilled)
        fill(order, self.sharing, unfilled, self.desired, self.size.__getitem__, lambda i, j: j in self.held[i],
             self.give)

    def count(self) -> tuple[set[int], set[int]]:
        """``revokeUnassignablePartitions``: record what each member keeps; answer (unfilled, overfilled)."""
        unfilled, overfilled = set(), set()
        for i in index_order(range(len(self.current))):
            for j in self.current[i]:
                self.holders.setdefault(j, []).append(i)
                self.held[i].add(j)
                self.size[j] += 1
            if len(self.current[i]) < self.desired[i]:
                unfilled.add(i)
            elif len(self.current[i]) > self.desired[i]:
                overfilled.add(i)
        return unfilled, overfilled

    def revoke_overfilled(self, overfilled: set[int]) -> None:
        """``revokeOverfilledMembers``: each member drops partitions in its set's order down to its count."""
        for i in index_order(overfilled):
            for j in hashset_order(self.current[i], self.hashes.__getitem__):
                self.drop(i, j)
                self.left.setdefault(j, []).append(i)
                if len(self.held[i]) == self.desired[i]:
                    break

    def partition_order(self) -> list[int]:
        """Iteration order of ``finalAssignmentByPartition`` (helper-sized for ``P``): its keys enter by
        ``computeIfAbsent`` — first the partitions members hold, then the other targets in target order."""
        entered = [*self.holders, *(j for j in range(len(self.targets)) if j not in self.holders)]
        spreads = [hashmap_spread(self.hashes[j]) for j in entered]
        order, _ = compute_if_absent_order(spreads, helper_capacity(len(self.targets)))
        return [entered[s] for s in order]

    def revoke_overshared(self, order: list[int], unfilled: set[int]) -> None:
        """``revokeOversharedPartitions``: a partition with more than ``D`` members drops them in its set's
        order; each one dropped becomes unfilled."""
        for j in order:
            if self.size[j] <= self.sharing:
                continue
            for i in hashset_order(self.holders[j], _index_hash, removes=self.left.get(j, ())):
                self.drop(i, j)
                unfilled.add(i)
                if self.size[j] <= self.sharing:
                    break

    def drop(self, i: int, j: int) -> None:
        self.held[i].discard(j)
        self.revoked[i].append(j)
        self.size[j] -= 1

    def give(self, i: int, j: int) -> int:
        self.gained[i].add(j)
        self.given[i].append(j)
        return len(self.held[i]) + len(self.gained[i])

    def copied(self, i: int) -> bool:
        """Whether member i ends with a working copy: one is made once it counts its desired number (and at
        least one), and by every change."""
        held = len(self.current[i])
        return (held >= self.desired[i] and held > 0) or bool(self.revoked[i]) or bool(self.given[i])


def _assign_homogeneous(spec: GroupSpec, describer: TopicDescriber) -> ShareAssignment:
    first = spec.members[spec.member_ids[0]]
    if not first.topic_names:  # TopicIds.isEmpty() counts names, missing topics included
        return {}
    offset: dict[Uuid, int] = {}
    targets: list[TopicIdPartition] = []
    hashes: list[int] = []
    for t in first.subscribed_topic_ids:  # computeTargetPartitions
        offset[t] = len(targets)
        partitions = range(describer.num_partitions(t))
        targets.extend(zip(repeat(t), partitions))
        hashes.extend(topic_partition_hashes(t, partitions))
    original = [current_assignment(spec, m) for m in spec.member_ids]
    b = _Homogeneous(targets, hashes, [[offset[t] + p for t, ps in held if t in offset for p in ps]
                                       for held in original])
    b.build()
    out: ShareAssignment = {}
    for i, m in enumerate(spec.member_ids):
        dropped = [t for t, _ in original[i] if t not in offset]  # not subscribed any more, or deleted
        if dropped or b.copied(i):
            out[m] = working_copy_order(original[i], dropped, [targets[j] for j in b.revoked[i]],
                                        [targets[j] for j in b.given[i]])
        else:
            out[m] = _flat(original[i])
    return out


@dataclass
class _TopicBuilder:
    """``TopicAssignmentPartialBuilder`` for one topic ``t``.

    ``holding``: the members whose current assignment holds t (``oldGroupAssignment`` order) with their
    partitions of t in set order; ``holdings[i][t]``: what member i keeps of t (its set in
    ``finalAssignmentByMember`` before the fill), ``revoked[i]`` what it loses, in order; ``holders[p]``: the
    members added to partition p's set while counting, in order, and ``left[p]`` those removed from it by the
    overfilled members; ``size[p]``: its member count now; ``gained[i]``: what the fill step gives member i,
    also appended to ``given[i]`` in order, repeats included.
    """

    topic: Uuid
    partitions: int
    subscribers: list[int]
    holding: list[tuple[int, list[int]]]
    holdings: list[dict[Uuid, set[int]]]
    revoked: list[list[TopicIdPartition]]
    given: list[list[TopicIdPartition]]
    holders: dict[int, list[int]] = field(default_factory=dict)
    left: dict[int, list[int]] = field(default_factory=dict)
    size: dict[int, int] = field(default_factory=dict)
    gained: dict[int, set[int]] = field(default_factory=dict)

    def build(self) -> None:
        """The four steps for t: ``holdings``, ``revoked`` and ``given`` end with t's assignment."""
        sharing = desired_sharing(len(self.subscribers), self.partitions)
        desired = dict(zip(self.subscribers, desired_counts(len(self.subscribers), self.partitions)))
        self.count()
        self.revoke_overfilled(desired)
        self.revoke_overshared(sharing)
        unfilled = [i for i in self.subscribers if len(self.holdings[i].get(self.topic, ())) < desired[i]]
        fill(index_order(range(self.partitions)), sharing, unfilled, desired, lambda p: self.size.get(p, 0),
             lambda i, p: p in self.holdings[i].get(self.topic, ()), self.give)

    def count(self) -> None:
        """Every member holding t, whether or not it subscribes: partition -> members, in the order added."""
        for i, ps in self.holding:
            for p in ps:
                self.holders.setdefault(p, []).append(i)
                self.size[p] = self.size.get(p, 0) + 1

    def revoke_overfilled(self, desired: dict[int, int]) -> None:
        """Members over their count (non-subscribers want 0) drop partitions in their set's order."""
        for i, added in self.holding:
            mine, wanted = self.holdings[i][self.topic], desired.get(i, 0)
            if len(mine) > wanted:
                for p in hashset_order(added, _index_hash):
                    self.drop(i, p)
                    self.left.setdefault(p, []).append(i)
                    if len(mine) == wanted:
                        break

    def revoke_overshared(self, sharing: int) -> None:
        """Partitions (in map order) with more than ``D`` members drop members in their set's order."""
        for p in index_order(self.holders):
            if self.size[p] <= sharing:
                continue
            for i in hashset_order(self.holders[p], _index_hash, removes=self.left_in_order(p)):
                self.drop(i, p)
                if self.size[p] <= sharing:
                    break

    def left_in_order(self, p: int) -> list[int]:
        """The members removed from partition p's set, in the order ``finalAssignmentByMember`` (a map keyed by
        member index, helper-sized for the subscribers) visits them: it matters only to a set that may hold a
        tree bin."""
        left = self.left.get(p, [])
        if len(left) < 2 or not bucket_may_overflow(self.holders[p], _index_hash):
            return left
        by_member: TreeBinHashMap[int, None] = TreeBinHashMap(_index_hash, helper_capacity(len(self.subscribers)))
        for i, ps in self.holding:
            for _ in ps:
                by_member.compute_if_absent(i, lambda: None)
        rank = {i: r for r, i in enumerate(by_member.keys())}
        return sorted(left, key=rank.__getitem__)

    def drop(self, i: int, p: int) -> None:
        self.holdings[i][self.topic].discard(p)
        self.revoked[i].append((self.topic, p))
        self.size[p] -= 1

    def give(self, i: int, p: int) -> int:
        self.gained.setdefault(i, set()).add(p)
        self.given[i].append((self.topic, p))
        return len(self.holdings[i].get(self.topic, ())) + len(self.gained[i])


def _assign_heterogeneous(spec: GroupSpec, describer: TopicDescriber) -> ShareAssignment:
    members = [spec.members[m] for m in spec.member_ids]
    topics = JavaHashMap.of([t for m in members for t in m.subscribed_topic_ids], uuid_hash_code).keys()
    if not topics:
        return {}
    subscribers: dict[Uuid, list[int]] = {}
    for i, member in enumerate(members):
        for t in member.subscribed_topic_ids:
            subscribers.setdefault(t, []).append(i)
    current = [current_assignment(spec, m) for m in spec.member_ids]
    holding: dict[Uuid, list[tuple[int, list[int]]]] = {}
    for i in index_order(range(len(members))):  # oldGroupAssignment order
        for t, ps in current[i]:
            holding.setdefault(t, []).append((i, ps))
    holdings = [{t: set(ps) for t, ps in held} for held in current]
    revoked: list[list[TopicIdPartition]] = [[] for _ in members]
    given: list[list[TopicIdPartition]] = [[] for _ in members]
    for t in topics:  # topics no member subscribes to any more are never visited: their holders keep them
        _TopicBuilder(t, describer.num_partitions(t), subscribers[t], holding.get(t, []), holdings, revoked,
                      given).build()
    return {m: working_copy_order(current[i], (), revoked[i], given[i]) if revoked[i] or given[i]
            else _flat(current[i]) for i, m in enumerate(spec.member_ids)}  # a working copy is made by a change


# ------------------------------------------------------------------------- building a GroupSpec


@lru_cache(maxsize=65_536)
def _hash(member_id: str) -> int:
    return string_hash_code(member_id)


def hashmap_keys(member_ids: Sequence[str]) -> list[str]:
    """Key order of a default ``HashMap<String, ...>`` after putting ``member_ids`` in order (a bucket
    growing past 8 keys in a table shorter than 64 resizes it, as Java does)."""
    return JavaHashMap.of(member_ids, _hash).keys()


def topic_id(name: str) -> Uuid:
    """The deterministic id the dashboard gives a topic that has none (``Uuid.for_name``)."""
    return Uuid.for_name(name)


def share_group_spec(
    topics: Mapping[str, int],
    subscriptions: Mapping[str, Sequence[str]],
    current: Mapping[str, Sequence[tuple[str, int]]] | None = None,
    topic_ids: Mapping[str, Uuid] | None = None,
    kind: str | None = None,
) -> GroupSpec:
    """The ``GroupSpec`` the coordinator hands ``SimpleAssignor`` for one computation.

    ``subscriptions``: member id -> subscribed topic names (missing topics allowed: skipped);
    ``current``: member id -> the (topic, partition)s it holds now, in record order; ``kind`` defaults to
    ``ModernGroup.subscriptionType`` over the names.
    """
    ids = dict(topic_ids) if topic_ids is not None else {t: topic_id(t) for t in topics}
    existing = {t: ids[t] for t in topics}
    members: dict[str, MemberSpec] = {}
    orders: dict[tuple[str, ...], list[Uuid]] = {}  # members mostly share one subscription
    held: dict[str, list[TopicIdPartition]] = {}
    for member_id, names in subscriptions.items():
        key = tuple(names)
        if key not in orders:
            orders[key] = topic_ids_order(key, existing)
        held[member_id] = [(ids[topic], p) for topic, p in (current or {}).get(member_id, ())]
        members[member_id] = MemberSpec(member_id, None, key, orders[key], _NO_RECORD)
    chosen = kind or subscription_type([tuple(n) for n in subscriptions.values()])
    return ShareGroupSpec(hashmap_keys(list(subscriptions)), members, chosen, held=held)
