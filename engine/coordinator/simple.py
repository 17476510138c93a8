"""Share groups' (KIP-932) server-side ``SimpleAssignor`` (group coordinator, name ``"simple"``).

A share group lets several members read one partition, so its assignor does not split partitions
between members; it spreads members over partitions.  One computation, in three steps:

1. every member takes ONE partition by hash: ``targets[abs(memberId.hashCode() % len(targets))]``
   (``String.hashCode``; Java's ``%`` keeps the dividend's sign), where ``targets`` lists the
   subscribed topics' partitions topic by topic in the subscription's iteration order;
2. each target partition that no member took in step 1 and that nobody held before is given
   round-robin over the members (``groupSpec.memberIds()``, a ``HashMap`` key order; heterogeneous
   subscriptions: per topic, over that topic's subscribers);
3. each member keeps its current partitions of topics still subscribed (homogeneous: by the group;
   heterogeneous: by that member) and adds the new ones.

Consequences Kafka accepts (and the dashboard shows): members may outnumber partitions (several
members per partition), and a partition held before only by members that stopped subscribing to its
topic gets no member at all (step 2 skips it because someone held it; step 3 drops it).

Worked example (asserted in tests/engine/coordinator/test_share_assign.py): one topic of 3 partitions, five members.
``"m1".hashCode()`` is 3428, so ``m1`` takes partition ``3428 % 3 = 2``; ``m2`` (3429) takes 0, ``m3``
takes 1, ``m4`` takes 2 and ``m5`` takes 0 — nothing is left for the round-robin::

    >>> spec = share_group_spec({"t": 3}, {m: ("t",) for m in ("m1", "m2", "m3", "m4", "m5")})
    >>> out = assign_simple(spec, TopicDescriber({topic_id("t"): 3}))
    >>> {m: sorted(p for _, p in out[m]) for m in sorted(out)}
    {'m1': [2], 'm2': [0], 'm3': [1], 'm4': [2], 'm5': [0]}

With 5 partitions and two members, ``m1`` hashes to 3 and ``m2`` to 4; partitions 0, 1, 2 go
round-robin in ``memberIds()`` order (``m1`` then ``m2``: HashMap buckets 4 and 5)::

    >>> spec = share_group_spec({"t": 5}, {"m1": ("t",), "m2": ("t",)})
    >>> out = assign_simple(spec, TopicDescriber({topic_id("t"): 5}))
    >>> sorted(p for _, p in out["m1"]), sorted(p for _, p in out["m2"])
    ([0, 2, 3], [1, 4])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from engine.coordinator.group_spec import (
    HOMOGENEOUS,
    GroupSpec,
    MemberPartitions,
    MemberSpec,
    TopicDescriber,
    subscription_type,
    topic_ids_order,
)
from engine.java.hashmap import JavaHashMap
from engine.java.strings import string_hash_code
from engine.java.uuid import Uuid, uuid_hash_code

TopicIdPartition = tuple[Uuid, int]
ShareAssignment = dict[str, set[TopicIdPartition]]
_NO_RECORD: MemberPartitions = JavaHashMap(uuid_hash_code)  # what ShareGroupSpec members carry instead


@dataclass
class ShareGroupSpec(GroupSpec):
    """A ``GroupSpec`` whose current assignment is kept as plain (topic id, partition) lists per member: the
    assignor uses it only as sets (who holds what), so Java's ``HashMap``/``HashSet`` order is not built."""

    held: dict[str, list[TopicIdPartition]] = field(default_factory=dict)


@lru_cache(maxsize=65_536)
def _hash(member_id: str) -> int:
    return string_hash_code(member_id)


def hashmap_keys(member_ids: Sequence[str]) -> list[str]:
    """Key order of a default ``HashMap<String, ...>`` after putting ``member_ids`` in order (a bucket
    growing past 8 keys in a table shorter than 64 resizes it, as Java does)."""
    return JavaHashMap.of(member_ids, _hash).keys()


def assign_simple(spec: GroupSpec, describer: TopicDescriber) -> ShareAssignment:
    """``SimpleAssignor.assign``: every member of the group -> its partitions (possibly empty)."""
    if not spec.member_ids:
        return {}
    if spec.subscription_type == HOMOGENEOUS:
        found = _assign_homogeneous(spec, describer)
    else:
        found = _assign_heterogeneous(spec, describer)
    return {m: found.get(m, set()) for m in spec.member_ids}  # groupAssignment: every member listed


def _target_partitions(topic_ids: Iterable[Uuid], describer: TopicDescriber) -> list[TopicIdPartition]:
    """``computeTargetPartitions``: partitions 0..n-1 of each topic, topics in subscription order.

    The ids come from ``TopicIds``, which skips names of topics that do not exist, so Kafka's
    ``PartitionAssignorException`` for a count of -1 cannot happen here.
    """
    return [(t, p) for t in topic_ids for p in range(describer.num_partitions(t))]


def _current_owners(spec: GroupSpec) -> dict[TopicIdPartition, list[str]]:
    """``currentAssignment``: partition -> the members holding it now."""
    owners: dict[TopicIdPartition, list[str]] = {}
    for member_id in spec.member_ids:
        if isinstance(spec, ShareGroupSpec):
            held = spec.held.get(member_id, [])
        else:
            held = [(t, p) for t, partitions in spec.members[member_id].assignment.items() for p in partitions.keys()]
        for tp in dict.fromkeys(held):  # a HashSet per topic: each partition once per member
            owners.setdefault(tp, []).append(member_id)
    return owners


def _hash_assignment(targets: Sequence[TopicIdPartition], member_ids: Iterable[str],
                     out: dict[TopicIdPartition, list[str]]) -> None:
    """``memberHashAssignment``: ``Math.abs(hashCode % size)`` equals ``abs(hashCode) % size``."""
    if targets:
        for member_id in member_ids:
            out.setdefault(targets[abs(_hash(member_id)) % len(targets)], []).append(member_id)


def _round_robin(member_ids: Sequence[str], targets: Iterable[TopicIdPartition],
                 out: dict[TopicIdPartition, list[str]]) -> None:
    """``roundRobinAssignment``: one iterator over the members, restarted when it runs out."""
    for i, tp in enumerate(targets):
        out.setdefault(tp, []).append(member_ids[i % len(member_ids)])


def _combine(kept: Iterable[tuple[TopicIdPartition, str]], new: dict[TopicIdPartition, list[str]]) -> ShareAssignment:
    final: ShareAssignment = {}
    for tp, member_id in kept:
        final.setdefault(member_id, set()).add(tp)
    for tp, members in new.items():
        for member_id in members:
            final.setdefault(member_id, set()).add(tp)
    return final


def _assign_homogeneous(spec: GroupSpec, describer: TopicDescriber) -> ShareAssignment:
    first = spec.members[spec.member_ids[0]]
    if not first.topic_names:  # TopicIds.isEmpty() counts names, missing topics included
        return {}
    subscribed = first.subscribed_set
    targets = _target_partitions(first.subscribed_topic_ids, describer)
    current = _current_owners(spec)
    new: dict[TopicIdPartition, list[str]] = {}
    _hash_assignment(targets, spec.member_ids, new)
    _round_robin(spec.member_ids, [tp for tp in targets if tp not in new and tp not in current], new)
    kept = [(tp, m) for tp, members in current.items() if tp[0] in subscribed for m in members]
    return _combine(kept, new)


def _assign_heterogeneous(spec: GroupSpec, describer: TopicDescriber) -> ShareAssignment:
    """Each member's target list is its topics' partitions in its own subscription order; lists are
    not built (members x partitions): a hashed index is found in the member's cumulative counts."""
    # memberToPartitionsSubscription: a fresh HashMap of the members with a non-empty subscription
    subscribing = hashmap_keys([m for m in spec.member_ids if spec.members[m].topic_names])
    subscribers: dict[Uuid, list[str]] = {}  # topicToMemberSubscription (a LinkedHashSet per topic)
    new: dict[TopicIdPartition, list[str]] = {}
    for member_id in subscribing:
        topics = [(t, describer.num_partitions(t)) for t in spec.members[member_id].subscribed_topic_ids]
        for topic_id, _ in topics:
            subscribers.setdefault(topic_id, []).append(member_id)
        total = sum(n for _, n in topics)
        if total:
            index = abs(_hash(member_id)) % total  # memberHashAssignment over this member's list
            for topic_id, n in topics:
                if index < n:
                    new.setdefault((topic_id, index), []).append(member_id)
                    break
                index -= n
    current = _current_owners(spec)
    for topic_id, members in subscribers.items():  # each topic restarts its own round-robin iterator
        left = [tp for tp in ((topic_id, p) for p in range(describer.num_partitions(topic_id)))
                if tp not in new and tp not in current]
        _round_robin(members, left, new)
    subscribed = {t: set(members) for t, members in subscribers.items()}
    kept = [(tp, m) for tp, members in current.items() for m in members if m in subscribed.get(tp[0], ())]
    return _combine(kept, new)


# ------------------------------------------------------------------------- building a GroupSpec


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
    ``current``: member id -> the (topic, partition)s it holds now; ``kind`` defaults to
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
