"""What librdkafka's group leader does to a COOPERATIVE assignment before SyncGroup.

``rd_kafka_cooperative_protocol_adjust_assignment`` (``src/rdkafka_cgrp.c``), KIP-429: from the
assignor's answer, a partition that some OTHER member still owns is withheld this round (its
owner revokes it and rejoins, and a follow-up rebalance hands it over); a partition nobody owns
is given out now; a partition someone owns but the assignor gave to nobody goes back to its
owner.  In Java the same withholding happens inside ``CooperativeStickyAssignor``; in
librdkafka it happens in the group coordinator code, after any assignor.

The three sets are ``rd_map_t`` walked newest-first; each member's list is built in that order
(the member sorts its assignment on receipt, so only the sets matter downstream).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engine.consumer.librdkafka.model import Assignment, GroupMember
from engine.scenario import TopicPartition


def _collect(members: Sequence[GroupMember],
             lists: Mapping[str, Iterable[TopicPartition]]) -> dict[TopicPartition, str]:
    """``rd_kafka_collect_partitions``: partition -> member (a later claim overwrites in place)."""
    out: dict[TopicPartition, str] = {}
    for m in members:
        for tp in lists.get(m.member_id, ()):
            out[tp] = m.member_id
    return out


def adjust_assignment(members: Sequence[GroupMember], assigned: Assignment) -> Assignment:
    """Each member's SyncGroup assignment after the cooperative adjustment.

    >>> t = [TopicPartition("t0", p) for p in range(3)]
    >>> a = GroupMember("a", ("t0",), owned=(t[0], t[1]))
    >>> b = GroupMember("b", ("t0",))
    >>> out = adjust_assignment([a, b], {"a": [t[0]], "b": [t[1], t[2]]})
    >>> {m: [str(tp) for tp in tps] for m, tps in out.items()}
    {'a': ['t0-0'], 'b': ['t0-2']}
    """
    by_assignor = _collect(members, assigned)
    by_owner = _collect(members, {m.member_id: m.owned for m in members})
    out: Assignment = {m.member_id: [] for m in members}
    kept = {tp: member for tp, member in reversed(list(by_assignor.items()))
            if tp in by_owner and by_owner[tp] == member}
    new = {tp: member for tp, member in reversed(list(by_assignor.items())) if tp not in by_owner}
    unknown = {tp: member for tp, member in reversed(list(by_owner.items())) if tp not in by_assignor}
    for chosen in (kept, new, unknown):
        for tp, member in reversed(list(chosen.items())):
            out[member].append(tp)
    return out
