"""One read-only import from a live cluster: metadata, racks, and optionally one consumer group.

The order is the order of failure a user can act on: the metadata request first (it tells
"cannot reach broker" and "authentication failed" apart), then the racks (optional), then the
group's description (required when a group is named), then its committed offsets and lag (optional:
"where the cluster allows" -- a refusal becomes a note).  Nothing is written to the cluster.

Worked example (asserted in tests/engine/admin/test_import_live.py): against librdkafka's mock cluster,
``import_live(Connection.parse(bootstraps, 5), None)`` returns the mock's topics with their
partition counts, replica lists and the brokers' racks; ``sources`` names the bootstrap servers.
"""

from __future__ import annotations

from engine.admin.client import Admin, admin_client
from engine.admin.connection import ClusterError, Connection
from engine.admin.groups import describe_group, list_groups, read_lag
from engine.admin.metadata import read_racks, read_topics
from engine.tools.records import GroupInfo, Imported


def group_partitions(group: GroupInfo, data: Imported) -> list[tuple[str, int]]:
    """Every partition of the topics the group's members own (partition counts from the metadata)."""
    topics = dict.fromkeys(t for m in group.members.values() for t, _ in m.assignment or ())
    out: list[tuple[str, int]] = []
    for topic in topics:
        info = data.topics.get(topic)
        count = info.partition_count if info is not None and info.partition_count else 0
        out.extend((topic, p) for p in range(count))
    return out


def read_group_lag(admin: Admin, group: GroupInfo, data: Imported) -> None:
    """Committed offsets and lag of ``group``; when refused, a note says why."""
    try:
        read_lag(admin, group, group_partitions(group, data))
    except ClusterError as exc:
        data.notes.append(f"lag was not read: {exc}")


def import_live(connection: Connection, group_id: str | None) -> Imported:
    """Everything the import needs from the cluster at ``connection`` (read-only)."""
    admin = admin_client(connection)
    data = Imported()
    read_topics(admin, data)
    read_racks(admin, data)
    where = f"live cluster at {connection.bootstrap}"
    data.sources.append(f"{where}: metadata of {len(data.topics):,} topic(s), {len(data.brokers)} broker(s)")
    if group_id:
        group = describe_group(admin, group_id)
        data.groups[group_id] = group
        read_group_lag(admin, group, data)
        data.sources.append(f"{where}: group {group_id!r} ({len(group.members)} member(s))")
    return data


def live_groups(connection: Connection) -> list[tuple[str, str, str]]:
    """``(group id, state, protocol)`` of the cluster's consumer groups."""
    return list_groups(admin_client(connection))
