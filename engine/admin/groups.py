"""Consumer groups read live: list them, describe one, and its committed offsets and lag.

``group_from_description`` converts confluent-kafka's ``ConsumerGroupDescription`` (members with
their client ids, hosts, ``group.instance.id`` and assignment; the assignor; the state; classic or
consumer protocol) into the import's ``GroupInfo``; it is pure, so the conversion is tested on
objects built with confluent-kafka's own constructors.  ``read_lag`` adds committed offsets
(OffsetFetch) and log-end offsets (ListOffsets), with Kafka's lag rule: no lag without a committed
offset (``ConsumerGroupCommand.getLag``).

Worked example (asserted in tests/engine/admin/test_import_admin.py)::

    >>> from confluent_kafka import ConsumerGroupState, ConsumerGroupType, Node, TopicPartition
    >>> from confluent_kafka.admin import ConsumerGroupDescription, MemberAssignment, MemberDescription
    >>> m = MemberDescription("c-1", "app", "/10.0.0.1", MemberAssignment([TopicPartition("t", 0)]))
    >>> g = group_from_description(ConsumerGroupDescription("g", False, [m], "range",
    ...     ConsumerGroupState.STABLE, Node(1, "k", 9092), type=ConsumerGroupType.CLASSIC))
    >>> g.state, g.assignor, g.protocol, g.members["c-1"].assignment
    ('Stable', 'range', 'classic', [('t', 0)])
"""

from __future__ import annotations

from typing import Any

from confluent_kafka import (
    ConsumerGroupState,
    ConsumerGroupTopicPartitions,
    ConsumerGroupType,
    TopicPartition,
)
from confluent_kafka.admin import OffsetSpec

from engine.admin.client import Admin
from engine.admin.connection import ClusterError
from engine.tools.records import GroupInfo, MemberInfo

STATES = {
    ConsumerGroupState.STABLE: "Stable",
    ConsumerGroupState.EMPTY: "Empty",
    ConsumerGroupState.DEAD: "Dead",
    ConsumerGroupState.PREPARING_REBALANCING: "PreparingRebalance",
    ConsumerGroupState.COMPLETING_REBALANCING: "CompletingRebalance",
    ConsumerGroupState.UNKNOWN: "Unknown",
}
PROTOCOLS = {ConsumerGroupType.CLASSIC: "classic", ConsumerGroupType.CONSUMER: "consumer"}


def _partitions(assignment: Any) -> list[tuple[str, int]] | None:
    if assignment is None:
        return None
    return [(tp.topic, int(tp.partition)) for tp in assignment.topic_partitions or []]


def group_from_description(description: Any) -> GroupInfo:
    """The import's view of a ``ConsumerGroupDescription``."""
    group = GroupInfo(description.group_id)
    group.state = STATES.get(description.state, str(description.state))
    group.assignor = description.partition_assignor or None
    group.protocol = PROTOCOLS.get(description.type)
    for member in description.members:
        info = MemberInfo(
            member.member_id,
            member.client_id or "",
            member.host or "",
            member.group_instance_id or None,
            _partitions(member.assignment) or [],
        )
        info.target_assignment = _partitions(getattr(member, "target_assignment", None))
        info.partition_count = len(info.assignment or [])
        group.members[member.member_id] = info
    return group


def list_groups(admin: Admin) -> list[tuple[str, str, str]]:
    """``(group id, state, protocol)`` of every consumer group the client may see."""
    result = admin.wait(
        admin.client.list_consumer_groups(request_timeout=admin.timeout), "list consumer groups"
    )
    if result.errors and not result.valid:
        raise ClusterError(
            f"cannot list consumer groups at {admin.connection.bootstrap}: {result.errors[0].str()}"
        )
    return sorted(
        (g.group_id, STATES.get(g.state, "Unknown"), PROTOCOLS.get(g.type, "classic")) for g in result.valid
    )


def describe_group(admin: Admin, group_id: str) -> GroupInfo:
    futures = admin.client.describe_consumer_groups([group_id], request_timeout=admin.timeout)
    description = admin.wait(futures[group_id], f"describe group {group_id!r}")
    return group_from_description(description)


def _committed(admin: Admin, group_id: str, partitions: list[tuple[str, int]] | None) -> list[Any]:
    wanted = None if partitions is None else [TopicPartition(t, p) for t, p in partitions]
    request = [ConsumerGroupTopicPartitions(group_id, wanted)]
    futures = admin.client.list_consumer_group_offsets(request, request_timeout=admin.timeout)
    result = admin.wait(futures[group_id], f"read the committed offsets of group {group_id!r}")
    return list(result.topic_partitions or [])


def read_lag(admin: Admin, group: GroupInfo, partitions: list[tuple[str, int]]) -> None:
    """Committed offsets of ``group`` and the lag of each (``log-end - committed``), into ``group``.

    All of the group's committed offsets are asked for (as ``kafka-consumer-groups.sh`` does); a broker
    that answers that with nothing (old brokers, librdkafka's mock) is asked for ``partitions``."""
    committed = _committed(admin, group.group_id, None)
    if not committed and partitions:
        committed = _committed(admin, group.group_id, partitions)
    for tp in committed:
        if tp.error is None and tp.offset >= 0:
            group.offsets[(tp.topic, int(tp.partition))] = int(tp.offset)
    if not group.offsets:
        return
    specs = {TopicPartition(t, p): OffsetSpec.latest() for t, p in group.offsets}
    ends = admin.client.list_offsets(specs, request_timeout=admin.timeout)
    for tp, future in ends.items():
        end = admin.wait(future, f"read the log-end offset of {tp.topic}-{tp.partition}")
        key = (tp.topic, int(tp.partition))
        group.lag[key] = int(end.offset) - group.offsets[key]
