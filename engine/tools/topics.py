"""``kafka-topics.sh --describe``: a topic line and one line per partition, ``Key: value`` fields.

From TopicCommand (core/.../admin/TopicCommand.scala up to 3.x, tools/.../TopicCommand.java after)::

    Topic: orders\tTopicId: Qx..\tPartitionCount: 3\tReplicationFactor: 2\tConfigs: min.insync.replicas=2
    \tTopic: orders\tPartition: 0\tLeader: 1\tReplicas: 1,2\tIsr: 1,2\tElr: 2\tLastKnownElr: 1

``TopicId`` since 2.8, ``Adding Replicas``/``Removing Replicas`` during a reassignment, ``Elr`` and
``LastKnownElr`` since 3.8/4.0 (``N/A`` when the broker does not report them), ``Leader: none`` for a
partition without a leader.  Terminals often turn the tabs into spaces on copy, so fields are found
by their names as well.  Partition counts and replica lists are used (replicas give replica racks
when broker racks are known); the other fields are listed as unused, once per field name.

Worked example (asserted in tests/engine/tools/test_tools_topics.py)::

    >>> fields_of("Topic: t\\tPartition: 2\\tLeader: none\\tReplicas: 3,1\\tIsr: \\tElr: N/A")
    {'Topic': 't', 'Partition': '2', 'Leader': 'none', 'Replicas': '3,1', 'Isr': '', 'Elr': 'N/A'}
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.inputs import is_whole_number
from engine.scenario import is_legal_topic_name
from engine.tools.records import Imported, Unused, line_error, shorten

KEYS = (
    "TopicId",
    "Topic",
    "PartitionCount",
    "ReplicationFactor",
    "Configs",
    "MarkedForDeletion",
    "Partition",
    "Leader",
    "Adding Replicas",
    "Removing Replicas",
    "Replicas",
    "Isr",
    "LastKnownElr",
    "Elr",
    "Offline",
    "Observers",
)
_KEY = re.compile(r"(?:^|(?<=\s))(" + "|".join(re.escape(k) for k in KEYS) + r"):[ \t]?")
_PARTITION_LINE = re.compile(
    r"\s*Topic: ([^\t]+)\tPartition: (\d{1,10})\tLeader: (-?\d{1,10}|none)"
    r"\tReplicas: ([\d,]*)\tIsr: ([\d,]*)(.*)"
)
_EMPTY_TAILS = frozenset({"\tElr: \tLastKnownElr: ", "\tElr: N/A\tLastKnownElr: N/A"})
_BROKER_LIST = re.compile(r"-?\d{1,10}(?:,-?\d{1,10})*")
USED_FIELDS = frozenset({"Topic", "PartitionCount", "ReplicationFactor", "Partition", "Replicas"})
UNUSED_FIELDS = {
    "TopicId": "topic ids are not part of a scenario",
    "Configs": "topic configs are not part of a scenario",
    "MarkedForDeletion": "the topic is being deleted",
    "Leader": "partition leaders are not part of a consumer-group scenario",
    "Isr": "in-sync replica sets are not part of a scenario",
    "Elr": "eligible leader replicas are not part of a scenario",
    "LastKnownElr": "last known eligible leader replicas are not part of a scenario",
    "Adding Replicas": "a reassignment in progress: the scenario uses the current replica list",
    "Removing Replicas": "a reassignment in progress: the scenario uses the current replica list",
    "Offline": "offline replicas are not part of a scenario",
    "Observers": "observer replicas (Confluent) are not part of a scenario",
}


def is_topic_line(line: str) -> bool:
    """A topic line (``Topic: x ... PartitionCount: n``) or a partition line (``Topic: x Partition: n``)."""
    stripped = line.lstrip()
    return stripped.startswith("Topic:") and ("PartitionCount:" in line or "Partition:" in line)


def fields_of(line: str) -> dict[str, str]:
    """The ``Key: value`` fields of a line: split at tabs as printed, else found by their names."""
    if "\t" in line:
        out = {}
        for part in line.split("\t"):
            key, sep, value = part.partition(":")
            if sep:
                out[key.strip()] = value.strip()
            elif part.strip():
                out[part.strip()] = ""
        return out
    matches = list(_KEY.finditer(line))
    return {
        m.group(1): line[m.end() : nxt.start() if nxt else len(line)].strip()
        for m, nxt in zip(matches, [*matches[1:], None])
    }


def _int(fields: dict[str, str], key: str, number: int) -> int:
    text = fields.get(key, "")
    if not is_whole_number(text):
        raise line_error(number, f"{key} must be a whole number, got {shorten(text, 40)!r}")
    return int(text)


def _brokers(fields: dict[str, str], key: str, number: int) -> tuple[int, ...]:
    text = fields.get(key, "").replace(" ", "")
    if not text:
        return ()
    if not _BROKER_LIST.fullmatch(text):
        raise line_error(number, f"{key} must be broker ids separated by commas, got {shorten(text, 40)!r}")
    return tuple(map(int, text.split(",")))


@dataclass
class TopicsReader:
    """Reads the lines of one ``--describe`` output into ``data``; unused fields are counted per name."""

    data: Imported
    unused: dict[str, tuple[int, int]] = field(default_factory=dict)  # field -> (first line, count)
    described: set[tuple[str, int]] = field(default_factory=set)
    legal: set[str] = field(default_factory=set)

    def read(self, number: int, line: str) -> None:
        m = _PARTITION_LINE.match(line)
        if m is not None and m.group(1) in self.legal:  # the common case, read in one match
            self._fast_partition(number, m)
            return
        fields = fields_of(line)
        topic = fields.get("Topic", "")
        if topic not in self.legal:
            if not is_legal_topic_name(topic):
                raise line_error(number, f"topic name {shorten(topic, 60)!r} is not a legal Kafka topic name")
            self.legal.add(topic)
        self._count(number, fields)
        if "Partition" in fields:
            self._partition(number, topic, fields)
        else:
            self._topic(number, topic, fields)

    def _topic(self, number: int, name: str, fields: dict[str, str]) -> None:
        info = self.data.topic(name)
        if info.partition_count is not None and info.line is not None:
            raise line_error(number, f"topic {name!r} is described twice (first on line {info.line})")
        info.line = number
        info.partition_count = _int(fields, "PartitionCount", number)
        if "ReplicationFactor" in fields:
            info.replication_factor = _int(fields, "ReplicationFactor", number)

    def _partition(self, number: int, name: str, fields: dict[str, str]) -> None:
        info = self.data.topic(name)
        partition = _int(fields, "Partition", number)
        if info.partition_count is not None and partition >= info.partition_count:
            raise line_error(
                number,
                f"partition {partition} of {name!r} is beyond its PartitionCount {info.partition_count}",
            )
        if (name, partition) in self.described:
            raise line_error(number, f"partition {name}-{partition} is described twice")
        self.described.add((name, partition))
        leader = fields.get("Leader", "none")
        replicas = _brokers(fields, "Replicas", number)
        entry = info.partition(partition)
        entry.leader = None if leader in ("none", "-1", "") else _int(fields, "Leader", number)
        entry.replicas, entry.isr = replicas, _brokers(fields, "Isr", number)

    def _fast_partition(self, number: int, m: re.Match[str]) -> None:
        topic, partition, leader, replicas, isr, rest = m.groups()
        if rest and rest not in _EMPTY_TAILS:
            self._count(number, fields_of(rest))
        for key, value in (("Leader", leader), ("Isr", isr)):
            if value:
                first, count = self.unused.get(key, (number, 0))
                self.unused[key] = (first, count + 1)
        self._partition(
            number, topic, {"Partition": partition, "Leader": leader, "Replicas": replicas, "Isr": isr}
        )

    def _count(self, number: int, fields: dict[str, str]) -> None:
        for key in fields:
            if key not in USED_FIELDS and fields[key] not in ("", "false", "N/A"):
                first, count = self.unused.get(key, (number, 0))
                self.unused[key] = (first, count + 1)

    def finish(self) -> None:
        for key, (first, count) in sorted(self.unused.items(), key=lambda kv: kv[1][0]):
            lines = f"{count:,} line{'s' if count > 1 else ''}"
            self.data.unused.append(
                Unused(first, f"{key} ({lines})", UNUSED_FIELDS.get(key, "a field the import does not know"))
            )
