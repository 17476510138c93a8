"""What librdkafka's assignors receive: the leader's member array and the Metadata response.

``GroupMember`` mirrors ``rd_kafka_group_member_t`` as the leader parses it from the JoinGroup
response (``rd_kafka_group_MemberMetadata_consumer_read``): member id, ``group.instance.id``,
the subscribed topics in the order the member serialized them, owned partitions, generation
and ``client.rack``.  ``TopicMetadata`` mirrors one topic of the leader's Metadata response with
its per-partition replica racks (deduplicated and sorted, as ``rd_kafka_populate_metadata_topic_racks``
leaves them).

librdkafka compares strings with ``strcmp`` / ``memcmp``: byte order of the UTF-8 encoding,
not Java's UTF-16 order.  ``c_key`` is that sort key.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import EngineError
from engine.scenario import TopicPartition

Assignment = dict[str, list[TopicPartition]]


def c_key(text: str) -> bytes:
    """Sort key equal to C ``strcmp`` / ``rd_kafkap_str_cmp`` on the UTF-8 bytes.

    >>> sorted(["c2", "c10", "\\uff01", "\\U0001F600"], key=c_key)
    ['c10', 'c2', '\\uff01', '\\U0001f600']
    """
    return text.encode("utf-8", "surrogatepass")


def c_cmp(a: str, b: str) -> int:
    """``strcmp(a, b)`` reduced to its sign.

    >>> c_cmp("t1", "t10"), c_cmp("b", "a"), c_cmp("x", "x")
    (-1, 1, 0)
    """
    ka, kb = c_key(a), c_key(b)
    return (ka > kb) - (ka < kb)


def tp_c_key(tp: TopicPartition) -> tuple[bytes, int]:
    """``rd_kafka_topic_partition_cmp``: topic by ``strcmp``, then partition.

    >>> sorted([TopicPartition("t1", 0), TopicPartition("t0", 2)], key=tp_c_key)
    [TopicPartition(topic='t0', partition=2), TopicPartition(topic='t1', partition=0)]
    """
    return (c_key(tp.topic), tp.partition)


@dataclass
class GroupMember:
    """One entry of the leader's ``members`` array (``rd_kafka_group_member_t``).

    ``subscription``: topics as serialized by the member (``strcmp`` order, only topics that
    exist in its metadata).  ``owned``: the member's current assignment (empty for eager
    strategies).  ``generation``: -1 for a member without assignor state.  ``rack``: a
    librdkafka consumer without ``client.rack`` sends an EMPTY rack (the property defaults to
    ``""``), which librdkafka's sticky assignor treats as a rack matching no replica (only
    NULL, from clients that send none, means "no rack" there); range ignores empty racks.
    """

    member_id: str
    subscription: tuple[str, ...]
    instance_id: str | None = None
    rack: str | None = None
    owned: tuple[TopicPartition, ...] = ()
    generation: int = -1


@dataclass(frozen=True)
class TopicMetadata:
    """A topic in the leader's Metadata response; ``racks[p]``: sorted distinct replica racks."""

    name: str
    partition_count: int
    racks: tuple[tuple[str, ...], ...] = ()

    def racks_of(self, partition: int) -> tuple[str, ...]:
        """Replica racks of one partition (empty when the cluster has no rack information)."""
        return self.racks[partition] if partition < len(self.racks) else ()


def group_member_cmp(a: GroupMember, b: GroupMember) -> int:
    """``rd_kafka_group_member_cmp``: by ``group.instance.id`` when BOTH members are static,
    otherwise by member id (byte order).

    Not transitive when static and dynamic members mix, hence ``glibc_qsort``:

    >>> s_z = GroupMember("0x9", (), instance_id="z")
    >>> d_5 = GroupMember("0x5", ())
    >>> s_a = GroupMember("0x1", (), instance_id="a")
    >>> group_member_cmp(s_a, s_z), group_member_cmp(s_z, d_5), group_member_cmp(d_5, s_a)
    (-1, 1, 1)
    """
    if a.instance_id is not None and b.instance_id is not None:
        return c_cmp(a.instance_id, b.instance_id)
    return c_cmp(a.member_id, b.member_id)


class LibrdkafkaFailure(EngineError):
    """librdkafka itself would fail here: a failed ``rd_assert`` (abort), a NULL dereference, or a
    read of freed memory whose outcome is undefined.  Raised instead of guessing an answer.

    ``undefined``: the read of freed memory may also go unnoticed (the real client then goes on).

    >>> LibrdkafkaFailure("x", undefined=True).undefined, LibrdkafkaFailure("y").undefined
    (True, False)
    """

    def __init__(self, message: str, undefined: bool = False) -> None:
        super().__init__(message)
        self.undefined = undefined
