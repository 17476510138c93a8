"""Cluster metadata read live: topics, partitions, leaders, replicas, ISR, and the brokers' racks.

Topics and partitions come from one Metadata request (``list_topics``); broker racks from
``describe_cluster`` (Metadata again, with racks; it needs a known controller).  Internal topics
(``__consumer_offsets``, ``__transaction_state``) and topics the cluster reports an error for are
listed as unused.  When racks cannot be read (not authorised, or an old broker) the import goes on
without them and says so.

Worked example (asserted in tests/engine/admin/test_import_live.py against librdkafka's mock cluster): three
brokers on racks az1..az3 and a topic ``orders`` of 6 partitions with replication factor 3 give
``data.topics["orders"].partition_count == 6``, three replicas per partition and
``data.brokers == {1: "az1", 2: "az2", 3: "az3"}``.
"""

from __future__ import annotations

from typing import Any

from confluent_kafka import KafkaException

from engine.admin.client import Admin
from engine.admin.connection import ClusterError
from engine.tools.records import Imported, Unused


def read_topics(admin: Admin, data: Imported, topics: list[str] | None = None) -> None:
    """Partitions of ``topics`` (every topic when None) into ``data``."""
    try:
        if topics is not None and len(topics) == 1:
            metadata = admin.client.list_topics(topic=topics[0], timeout=admin.timeout)
        else:
            metadata = admin.client.list_topics(timeout=admin.timeout)
    except KafkaException as exc:
        raise admin.failure(exc, "read the cluster metadata") from None
    wanted = None if topics is None else set(topics)
    for name, topic in sorted(metadata.topics.items()):
        if wanted is not None and name not in wanted:
            continue
        _topic(data, name, topic)
    for broker_id in metadata.brokers:
        data.brokers.setdefault(int(broker_id), None)


def _topic(data: Imported, name: str, topic: Any) -> None:
    if name.startswith("__"):
        data.unused.append(Unused(None, name, "an internal topic"))
        return
    if topic.error is not None:
        data.unused.append(Unused(None, name, f"the cluster reported {topic.error.name()} for this topic"))
        return
    info = data.topic(name)
    info.partition_count = len(topic.partitions)
    for number, partition in topic.partitions.items():
        entry = info.partition(int(number))
        entry.leader = partition.leader if partition.leader >= 0 else None
        entry.replicas = tuple(partition.replicas)
        entry.isr = tuple(partition.isrs)
    if topic.partitions:
        info.replication_factor = max(len(p.replicas) for p in topic.partitions.values())


def read_racks(admin: Admin, data: Imported) -> None:
    """Each broker's ``broker.rack`` (None when unset); a failure is a note, not an error."""
    try:
        cluster = admin.wait(
            admin.client.describe_cluster(request_timeout=admin.timeout), "describe the cluster"
        )
    except ClusterError as exc:
        data.notes.append(f"broker racks were not read: {exc}")
        return
    for node in cluster.nodes:
        data.brokers[int(node.id)] = node.rack or None
