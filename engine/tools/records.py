"""What the import parsers and the live reads recognise: brokers, topics, partitions, groups, members.

Every parser (``consumer_groups``, ``topics``, ``log_dirs``, ``reassignment``, ``racks``) and the live
reads of ``engine.admin`` fill the same ``Imported`` record; ``to_scenario`` turns it into a scenario.
Whatever was seen but cannot be used is an ``Unused`` entry (line number, the text, why), never dropped.

Worked example (asserted in tests/engine/tools/test_tools_detect.py)::

    >>> data = Imported()
    >>> data.topic("orders").partition_count = 3
    >>> data.unused.append(Unused(7, "Elr: 1", "eligible leader replicas are not part of a scenario"))
    >>> str(data.unused[0])
    "line 7: 'Elr: 1' (eligible leader replicas are not part of a scenario)"
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import EngineError

MAX_TEXT_BYTES = 64 * 1024 * 1024  # a larger paste or file is refused before parsing


class PasteError(EngineError):
    """A recognised tool output is malformed: the message starts with ``line N:``."""


def line_error(line: int | None, message: str) -> PasteError:
    return PasteError(f"line {line}: {message}" if line else message)


def shorten(text: str, limit: int = 80) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass(frozen=True)
class Unused:
    """Something the paste or the cluster gave that the scenario cannot carry, and why."""

    line: int | None
    text: str
    reason: str
    origin: str = ""  # the file it came from, when several were read

    def __str__(self) -> str:
        where = " ".join(p for p in (self.origin, f"line {self.line}" if self.line else "") if p)
        return f"{where + ': ' if where else ''}{shorten(self.text)!r} ({self.reason})"


@dataclass
class PartitionInfo:
    """One partition: leader and replica broker ids (``kafka-topics.sh``, a plan, or metadata)."""

    leader: int | None = None
    replicas: tuple[int, ...] = ()
    isr: tuple[int, ...] = ()


@dataclass
class TopicInfo:
    """A topic: its partition count when known, and what is known per partition."""

    name: str
    partition_count: int | None = None
    replication_factor: int | None = None
    partitions: dict[int, PartitionInfo] = field(default_factory=dict)
    sizes: dict[int, int] = field(default_factory=dict)  # bytes, from kafka-log-dirs.sh
    line: int | None = None

    def partition(self, number: int) -> PartitionInfo:
        info = self.partitions.get(number)
        if info is None:
            info = self.partitions[number] = PartitionInfo()
        return info


@dataclass
class MemberInfo:
    """A group member as ``kafka-consumer-groups.sh`` or ``describeConsumerGroups`` shows it."""

    member_id: str
    client_id: str = ""
    host: str = ""
    instance_id: str | None = None
    assignment: list[tuple[str, int]] | None = None  # None: not shown (only a partition count, or no topics)
    target_assignment: list[tuple[str, int]] | None = None
    partition_count: int | None = None
    line: int | None = None


@dataclass
class GroupInfo:
    """A consumer group: state, assignor, protocol type, members, committed offsets and lag."""

    group_id: str
    state: str | None = None
    assignor: str | None = None
    protocol: str | None = None  # "classic" or "consumer" (KIP-848), or "share" (a share group, KIP-932)
    members: dict[str, MemberInfo] = field(default_factory=dict)
    lag: dict[tuple[str, int], int] = field(default_factory=dict)
    offsets: dict[tuple[str, int], int] = field(default_factory=dict)
    owners: dict[tuple[str, int], str] = field(default_factory=dict)  # from the per-partition view
    line: int | None = None

    def member(self, member_id: str) -> MemberInfo:
        info = self.members.get(member_id)
        if info is None:
            info = self.members[member_id] = MemberInfo(member_id)
        return info


@dataclass
class StreamsMemberInfo:
    """A stream thread as ``kafka-streams-groups.sh --describe --members`` shows it: its instance (``PROCESS``),
    client id, and its tasks by kind (``ACTIVE``, ``STANDBY``, ``WARMUP``, with ``--verbose`` also
    ``TARGET-ACTIVE``, ...), each as subtopology id -> partitions."""

    member_id: str
    process: str = ""
    client_id: str = ""
    tasks: dict[str, dict[str, tuple[int, ...]]] = field(default_factory=dict)
    line: int | None = None


@dataclass
class StreamsGroupInfo:
    """A streams group (KIP-1071): its threads, and the input partitions ``--describe --offsets`` listed."""

    group_id: str
    state: str | None = None
    members: dict[str, StreamsMemberInfo] = field(default_factory=dict)
    partitions: dict[str, set[int]] = field(default_factory=dict)  # topic -> partitions, from the offsets view
    line: int | None = None


@dataclass
class Imported:
    """Everything recognised in one paste (or one live read), merged across formats."""

    brokers: dict[int, str | None] = field(default_factory=dict)  # broker id -> rack
    topics: dict[str, TopicInfo] = field(default_factory=dict)
    groups: dict[str, GroupInfo] = field(default_factory=dict)
    streams: dict[str, StreamsGroupInfo] = field(default_factory=dict)  # kafka-streams-groups.sh
    unused: list[Unused] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)  # "kafka-topics.sh --describe (lines 1-40)", ...

    def topic(self, name: str) -> TopicInfo:
        info = self.topics.get(name)
        if info is None:
            info = self.topics[name] = TopicInfo(name)
        return info

    def group(self, group_id: str) -> GroupInfo:
        info = self.groups.get(group_id)
        if info is None:
            info = self.groups[group_id] = GroupInfo(group_id)
        return info

    def streams_group(self, group_id: str) -> StreamsGroupInfo:
        info = self.streams.get(group_id)
        if info is None:
            info = self.streams[group_id] = StreamsGroupInfo(group_id)
        return info
