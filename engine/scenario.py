"""The scenario model: topics, members, subscriptions and rebalance steps, validated once.

Raw JSON (the ``assign`` input shape of ../shared/spec/README.md, section 1 and 5) is parsed with
pydantic and turned into small frozen dataclasses the assignors use.  Every error is one line that
names the field and the bad value, e.g. ``members[3].id: duplicate 'C1'``.

Topic names follow Kafka's rule (``org.apache.kafka.common.internals.Topic.validate``): 1..249 of
``[a-zA-Z0-9._-]``, and not ``.`` or ``..``, so ``check_topic_name("topics", "orders v2")`` raises
``topics: not a legal Kafka topic name, got 'orders v2' (...)``.  The builder and the CLI refuse the
same names.

A streams group (``group_type: "streams"``, KIP-1071) carries its topology once: ``subtopologies`` (``id``,
``source_topics``, ``stateful``) and ``num_standby_replicas``; each member is a stream thread naming its application
instance, ``process``.  A subtopology has as many tasks in a step as the largest partition count of its source
topics there (``InternalTopicManager.computeNumberOfTasks``); a step without one of them is refused, as Kafka's
coordinator refuses the topology (``MISSING_SOURCE_TOPICS``).  Without ``subtopologies``: one stateless subtopology
per topic of the first step, numbered ``0, 1, ...``.  A thread's ``topics`` are the topology's (others are ignored):

    >>> s = parse_scenario({"group_type": "streams", "topics": {"orders": 6, "payments": 4},
    ...     "subtopologies": [{"id": "0", "source_topics": ["orders", "payments"], "stateful": True}],
    ...     "num_standby_replicas": 1, "members": [{"id": "t1", "process": "app-1"}]})
    >>> s.streams.task_counts(s.first.topics), s.first.members[0].topics
    ({'0': 6}, ('orders', 'payments'))
    >>> parse_scenario({"group_type": "streams", "topics": {"orders": 6}, "members": [{"id": "t1"}]})
    Traceback (most recent call last):
    ...
    engine.errors.ScenarioError: members[0].process: a stream thread must name its application instance, got None

The other group types never read or write these fields, so their files and links stay as they were.

Limits (also in docs/command-line.md):
  partitions per topic 1..100,000; partitions in a step <= 2,000,000; topics per step <= 20,000;
  members per step <= 20,000; names 1..249 characters (member ids up to 1,000); steps <= 200;
  subtopologies <= 1,000; num_standby_replicas 0..10.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr, ValidationError

from engine.errors import InputError, ScenarioError
from engine.inputs import decode_json, encode_json
from engine.java.strings import string_compare_key
from engine.streams_scenario import ThreadTasks, check_current_tasks, current_tasks_json

MAX_PARTITIONS_PER_TOPIC = 100_000
MAX_PARTITIONS_TOTAL = 2_000_000
MAX_TOPICS = 20_000
MAX_MEMBERS = 20_000
MAX_NAME_LENGTH = 249
MAX_MEMBER_ID_LENGTH = 1_000
MAX_STEPS = 200
TOPIC_NAME = re.compile(r"[a-zA-Z0-9._-]{1,249}")
_CONTROL = re.compile(r"[\x00-\x1f]")
TOPIC_NAME_RULE = "letters, digits, '.', '_', '-'; 1..249 characters; not '.' or '..'"
GROUP_TYPES = ("consumer", "share", "streams")  # a consumer group, a share group (KIP-932), a streams group (KIP-1071)
MAX_SUBTOPOLOGIES = 1_000
MAX_STANDBY_REPLICAS = 10  # the lab's bound; Kafka's group.streams.max.standby.replicas defaults to 2


class TopicPartition(NamedTuple):
    """A partition of a topic; ``str(tp)`` is Kafka's ``"<topic>-<partition>"``."""

    topic: str
    partition: int

    def __str__(self) -> str:
        return f"{self.topic}-{self.partition}"

    @classmethod
    def parse(cls, text: str) -> TopicPartition:
        """Parse ``"t0-2"``; the partition number is after the last ``-``."""
        topic, sep, number = text.rpartition("-")
        if not sep or not topic or not (number.isascii() and number.isdigit() and len(number) <= 10):
            raise ScenarioError(f"partition {text!r}: expected '<topic>-<partition>'")
        return cls(topic, int(number))


_new_tuple = tuple.__new__


def topic_partitions(topic: str, count: int) -> list[TopicPartition]:
    """``[TopicPartition(topic, 0), ..., TopicPartition(topic, count - 1)]``, built fast."""
    return [_new_tuple(TopicPartition, (topic, p)) for p in range(count)]


def tp_sort_key(tp: TopicPartition) -> tuple[bytes, int]:
    """Kafka's usual partition order: topic by Java ``String.compareTo``, then partition."""
    return (string_compare_key(tp.topic), tp.partition)


@dataclass(frozen=True)
class Member:
    """A consumer: ``id`` (member id), subscribed topics, ``client.rack``, ``group.instance.id``; in a streams
    group a stream thread, and ``process`` its application instance (``None`` in the other group types)."""

    id: str
    topics: tuple[str, ...]
    rack: str | None = None
    instance_id: str | None = None
    process: str | None = None


@dataclass(frozen=True)
class StreamsSubtopology:
    """A subtopology of a Kafka Streams application: its id, the topics it reads, whether it keeps state (has
    changelog topics: only its tasks get standby replicas)."""

    id: str
    source_topics: tuple[str, ...]
    stateful: bool = False

    def task_count(self, topics: Mapping[str, int]) -> int:
        """``InternalTopicManager.computeNumberOfTasks``: the largest partition count of its source topics."""
        return max(topics[t] for t in self.source_topics)


@dataclass(frozen=True)
class StreamsTopology:
    """A streams group's topology (the same in every step) and its ``num.standby.replicas``."""

    subtopologies: tuple[StreamsSubtopology, ...]
    num_standby_replicas: int = 0

    @property
    def source_topics(self) -> tuple[str, ...]:
        """Every subtopology's source topics, in order: what each stream thread reads."""
        return tuple(dict.fromkeys(t for s in self.subtopologies for t in s.source_topics))

    def task_counts(self, topics: Mapping[str, int]) -> dict[str, int]:
        """Subtopology id -> its number of tasks with these partition counts."""
        return {s.id: s.task_count(topics) for s in self.subtopologies}


def default_topology(topics: Mapping[str, int], num_standby_replicas: int = 0) -> StreamsTopology:
    """One stateless subtopology per topic, numbered ``0, 1, ...`` in topic order: a streams document's
    topology when it gives none."""
    return StreamsTopology(tuple(StreamsSubtopology(str(i), (t,)) for i, t in enumerate(topics)),
                           num_standby_replicas)


@dataclass(frozen=True)
class GroupState:
    """The group at one rebalance: cluster metadata and the members with their subscriptions."""

    topics: dict[str, int]
    members: tuple[Member, ...]
    partition_racks: dict[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)

    @property
    def member_ids(self) -> list[str]:
        return [m.id for m in self.members]

    def partitions(self, topic: str) -> list[TopicPartition]:
        return topic_partitions(topic, self.topics.get(topic, 0))

    @property
    def total_partitions(self) -> int:
        return sum(self.topics.values())


@dataclass(frozen=True)
class Scenario:
    """A rebalance sequence: step 0 is the first rebalance of a new group, or, when
    ``current_assignment`` is given (an imported group), a rebalance of a group whose members already
    own those partitions (what they report as owned, and what sticky's user data remembers).

    ``group_type`` is ``"consumer"``, ``"share"`` (a share group: the coordinator's ``simple``
    assignor, partitions read by several members; ``current_assignment`` may then list a partition
    under several members) or ``"streams"`` (a streams group: ``streams`` is its topology, members are
    stream threads, each with its ``process``; ``current_tasks``: what step 0's threads run before it, an
    imported group's, ``engine.streams_scenario``)."""

    steps: tuple[GroupState, ...]
    name: str = ""
    description: str = ""
    weights: dict[str, tuple[float, ...]] = field(default_factory=dict)
    current_assignment: dict[str, tuple[TopicPartition, ...]] = field(default_factory=dict)
    group_type: str = "consumer"
    streams: StreamsTopology | None = None
    current_tasks: dict[str, ThreadTasks] = field(default_factory=dict)

    @property
    def first(self) -> GroupState:
        return self.steps[0]

    @property
    def topology(self) -> StreamsTopology:
        """A streams group's topology: ``streams``, else (a scenario built in code without one) the default."""
        return self.streams or default_topology(self.first.topics)


# ---------------------------------------------------------------- pydantic input models


class _MemberIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: StrictStr
    topics: list[StrictStr] = []
    rack: StrictStr | None = None
    instance_id: StrictStr | None = None
    process: Any = None  # read only in a streams group (streams_fields)


class _StepIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    topics: dict[StrictStr, StrictInt]
    members: list[_MemberIn]
    partition_racks: dict[StrictStr, list[list[StrictStr]]] | None = None


class _ScenarioIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: StrictStr = ""
    description: StrictStr = ""
    topics: dict[StrictStr, StrictInt] | None = None
    members: list[_MemberIn] | None = None
    partition_racks: dict[StrictStr, list[list[StrictStr]]] | None = None
    steps: list[_StepIn] | None = None
    weights: dict[StrictStr, list[float]] | None = None
    current_assignment: dict[StrictStr, list[StrictStr]] | None = None
    group_type: StrictStr = "consumer"
    subtopologies: Any = None  # these three are read only in a streams group (streams_fields)
    num_standby_replicas: Any = None
    current_tasks: Any = None


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _loc(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif out and not out.endswith("]") and part in ("topics", "members", "partition_racks"):
            out += f".{part}"
        else:
            out += f".{part}" if out else str(part)
    return out or "input"


def _pydantic_message(error: ValidationError) -> str:
    first = error.errors()[0]
    where = _loc(tuple(first.get("loc", ())))
    what = first.get("msg", "invalid").replace("Input should be", "must be")
    return f"{where}: {what}, got {_describe(first.get('input'))}"


def _check_name(where: str, name: str, limit: int = MAX_NAME_LENGTH) -> None:
    """Any other string is accepted, lone surrogates included: Java strings hold them (UTF-16 units)."""
    if not name or not name.strip():
        raise ScenarioError(f"{where}: must not be empty, got {name!r}")
    if len(name) > limit:
        raise ScenarioError(f"{where}: longer than {limit} characters ({len(name)})")
    if _CONTROL.search(name):
        raise ScenarioError(f"{where}: control characters are not allowed, got {_describe(name)}")


def is_legal_topic_name(name: str) -> bool:
    """Kafka's ``Topic.validate``: 1..249 of ``[a-zA-Z0-9._-]``, and not ``.`` or ``..``."""
    return TOPIC_NAME.fullmatch(name) is not None and name not in (".", "..")


def check_topic_name(where: str, name: str) -> None:
    """Raise a one-line ``ScenarioError`` naming ``name`` unless Kafka would accept it as a topic name."""
    if not is_legal_topic_name(name):
        raise ScenarioError(
            f"{where}: not a legal Kafka topic name, got {_describe(name)} ({TOPIC_NAME_RULE})")


def _check_topics(where: str, topics: dict[str, int]) -> None:
    if len(topics) > MAX_TOPICS:
        raise ScenarioError(f"{where}: at most {MAX_TOPICS} topics, got {len(topics)}")
    for name, count in topics.items():
        _check_name(f"{where}[{name!r}]", name)
        check_topic_name(f"{where}[{name!r}]", name)
        if not 1 <= count <= MAX_PARTITIONS_PER_TOPIC:
            raise ScenarioError(
                f"{where}[{name!r}]: partitions must be 1..{MAX_PARTITIONS_PER_TOPIC}, got {count}"
            )
    total = sum(topics.values())
    if total > MAX_PARTITIONS_TOTAL:
        raise ScenarioError(f"{where}: at most {MAX_PARTITIONS_TOTAL} partitions in all, got {total}")


def _check_members(where: str, members: list[_MemberIn]) -> None:
    if len(members) > MAX_MEMBERS:
        raise ScenarioError(f"{where}: at most {MAX_MEMBERS} members, got {len(members)}")
    seen: set[str] = set()
    instances: set[str] = set()
    checked: set[str] = set()
    for i, m in enumerate(members):
        _check_name(f"{where}[{i}].id", m.id, MAX_MEMBER_ID_LENGTH)
        if m.id in seen:
            raise ScenarioError(f"{where}[{i}].id: duplicate {m.id!r}")
        seen.add(m.id)
        for j, topic in enumerate(m.topics):
            if topic not in checked:  # each distinct name once: subscriptions repeat a few names
                _check_name(f"{where}[{i}].topics[{j}]", topic)
                checked.add(topic)
        if m.rack is not None:
            _check_name(f"{where}[{i}].rack", m.rack)
        if m.instance_id is not None:
            _check_name(f"{where}[{i}].instance_id", m.instance_id)
            if m.instance_id in instances:
                raise ScenarioError(f"{where}[{i}].instance_id: duplicate {m.instance_id!r}")
            instances.add(m.instance_id)


def _check_racks(where: str, racks: dict[str, list[list[str]]], topics: dict[str, int]) -> None:
    for topic, per_partition in racks.items():
        if topic not in topics:
            raise ScenarioError(f"{where}[{topic!r}]: unknown topic {topic!r}")
        if len(per_partition) != topics[topic]:
            raise ScenarioError(
                f"{where}[{topic!r}]: needs one rack list per partition ({topics[topic]}), "
                f"got {len(per_partition)}"
            )


def _build_step(where: str, step: _StepIn) -> GroupState:
    _check_topics(f"{where}topics", step.topics)
    _check_members(f"{where}members", step.members)
    racks = step.partition_racks or {}
    _check_racks(f"{where}partition_racks", racks, step.topics)
    members = tuple(
        Member(m.id, tuple(dict.fromkeys(m.topics)), m.rack, m.instance_id) for m in step.members
    )
    return GroupState(
        topics=dict(step.topics),
        members=members,
        partition_racks={t: tuple(tuple(r) for r in rs) for t, rs in racks.items()},
    )


def _check_no_shrinking(steps: tuple[GroupState, ...]) -> None:
    """Kafka can add partitions to a topic but never remove them."""
    for i in range(1, len(steps)):
        for topic, count in steps[i].topics.items():
            before = steps[i - 1].topics.get(topic)
            if before is not None and count < before:
                raise ScenarioError(
                    f"steps[{i}].topics[{topic!r}]: partitions cannot shrink (Kafka only adds them), "
                    f"{before} -> {count}"
                )


def _check_weights(weights: dict[str, list[float]], topics: dict[str, int]) -> dict[str, tuple[float, ...]]:
    out: dict[str, tuple[float, ...]] = {}
    for topic, values in weights.items():
        if topic not in topics:
            raise ScenarioError(f"weights[{topic!r}]: unknown topic {topic!r}")
        if len(values) != topics[topic]:
            raise ScenarioError(f"weights[{topic!r}]: needs {topics[topic]} values, got {len(values)}")
        for p, v in enumerate(values):
            if not (v >= 0 and v < float("inf")):
                raise ScenarioError(f"weights[{topic!r}][{p}]: must be a finite number >= 0, got {v}")
        out[topic] = tuple(float(v) for v in values)
    return out


def check_current_assignment(
    current: dict[str, list[str]], first: GroupState, shared: bool = False
) -> dict[str, tuple[TopicPartition, ...]]:
    """What step 0's members own before it: known members, existing partitions, each owned once (a share
    group, ``shared``: each at most once per member, several members may hold it)."""
    members = {m.id for m in first.members}
    owner: dict[TopicPartition, str] = {}
    out: dict[str, list[TopicPartition]] = {}
    for member, names in current.items():
        where = f"current_assignment[{_describe(member)}]"
        if member not in members:
            raise ScenarioError(f"{where}: not a member of the first step")
        held: set[TopicPartition] = set()
        for j, text in enumerate(names):
            try:
                tp = TopicPartition.parse(text)
            except ScenarioError as exc:
                raise ScenarioError(f"{where}[{j}]: {exc}") from None
            if not 0 <= tp.partition < first.topics.get(tp.topic, 0):
                raise ScenarioError(f"{where}[{j}]: no partition {text!r} in the first step's topics")
            if tp in held or (tp in owner and not shared):
                raise ScenarioError(f"{where}[{j}]: {text!r} is already owned by {owner[tp]!r}")
            owner.setdefault(tp, member)
            held.add(tp)
            out.setdefault(member, []).append(tp)
    return {member: tuple(tps) for member, tps in out.items()}


def _check_counts_first(data: dict[str, Any]) -> None:
    """Steps, members and topics counted before the model validates a million of them."""
    steps = data.get("steps")
    if isinstance(steps, list) and len(steps) > MAX_STEPS:
        raise ScenarioError(f"steps: at most {MAX_STEPS}, got {len(steps)}")
    states = [s for s in steps if isinstance(s, dict)] if isinstance(steps, list) else []
    for where, state in [("", data)] + [(f"steps[{i}].", s) for i, s in enumerate(states)]:
        members, topics = state.get("members"), state.get("topics")
        if isinstance(members, list) and len(members) > MAX_MEMBERS:
            raise ScenarioError(f"{where}members: at most {MAX_MEMBERS} members, got {len(members)}")
        if isinstance(topics, dict) and len(topics) > MAX_TOPICS:
            raise ScenarioError(f"{where}topics: at most {MAX_TOPICS} topics, got {len(topics)}")


def _subtopology(where: str, item: Any) -> StreamsSubtopology:
    item = item if isinstance(item, dict) else {"id": item}
    sub_id, topics, stateful = item.get("id"), item.get("source_topics"), item.get("stateful", False)
    if not isinstance(sub_id, str):
        raise ScenarioError(f"{where}.id: must be a string, got {_describe(sub_id)}")
    _check_name(f"{where}.id", sub_id)
    if not isinstance(topics, list) or not topics:  # Kafka: "Subtopology does not contain any source topics"
        raise ScenarioError(f"{where}.source_topics: must be a non-empty list of topic names, got {_describe(topics)}")
    for j, topic in enumerate(topics):
        if not isinstance(topic, str):
            raise ScenarioError(f"{where}.source_topics[{j}]: must be a string, got {_describe(topic)}")
        check_topic_name(f"{where}.source_topics[{j}]", topic)
    if not isinstance(stateful, bool):
        raise ScenarioError(f"{where}.stateful: must be true or false, got {_describe(stateful)}")
    return StreamsSubtopology(sub_id, tuple(dict.fromkeys(topics)), stateful)


def _subtopologies(value: Any) -> tuple[StreamsSubtopology, ...]:
    """Distinct ids; a topic read by one subtopology only (Kafka Streams: "Topic ... has already been registered
    by another source")."""
    if not isinstance(value, list) or not value:
        raise ScenarioError(f"subtopologies: must be a non-empty list, got {_describe(value)}")
    if len(value) > MAX_SUBTOPOLOGIES:
        raise ScenarioError(f"subtopologies: at most {MAX_SUBTOPOLOGIES}, got {len(value)}")
    subs: dict[str, StreamsSubtopology] = {}
    reader: dict[str, str] = {}
    for i, item in enumerate(value):
        sub = _subtopology(f"subtopologies[{i}]", item)
        if sub.id in subs:
            raise ScenarioError(f"subtopologies[{i}].id: duplicate {sub.id!r}")
        for j, topic in enumerate(sub.source_topics):
            if topic in reader:
                raise ScenarioError(f"subtopologies[{i}].source_topics[{j}]: {topic!r} is already a source topic "
                                    f"of subtopology {reader[topic]!r} (Kafka Streams reads a topic in one place)")
            reader[topic] = sub.id
        subs[sub.id] = sub
    return tuple(subs.values())


def _check_source_topics(topology: StreamsTopology, steps: tuple[GroupState, ...], one_step: bool) -> None:
    """Kafka's coordinator refuses a topology whose source topics are not all there (``MISSING_SOURCE_TOPICS``)."""
    for i, step in enumerate(steps):
        for k, sub in enumerate(topology.subtopologies):
            for j, topic in enumerate(sub.source_topics):
                if topic not in step.topics:
                    where = "topics" if one_step else f"steps[{i}].topics"
                    raise ScenarioError(f"subtopologies[{k}].source_topics[{j}]: {topic!r} is not in {where} "
                                        f'(Kafka: "Source topics {topic} are missing.")')


def _threads(where: str, raw: list[_MemberIn], step: GroupState, topics: tuple[str, ...]) -> GroupState:
    """The step's members as stream threads: each names its process and reads the topology's source topics."""
    members = []
    for i, (m, member) in enumerate(zip(raw, step.members, strict=True)):
        if not isinstance(m.process, str):
            raise ScenarioError(f"{where}members[{i}].process: a stream thread must name its application "
                                f"instance, got {_describe(m.process)}")
        _check_name(f"{where}members[{i}].process", m.process)
        members.append(Member(member.id, topics, member.rack, member.instance_id, m.process))
    return GroupState(step.topics, tuple(members), step.partition_racks)


def _streams(raw: _ScenarioIn, raw_steps: list[_StepIn], steps: tuple[GroupState, ...]
             ) -> tuple[tuple[GroupState, ...], StreamsTopology, dict[str, ThreadTasks]]:
    """A streams group's topology (checked against every step), its stream threads, what step 0's threads run."""
    standby = 0 if raw.num_standby_replicas is None else raw.num_standby_replicas
    if isinstance(standby, bool) or not isinstance(standby, int) or not 0 <= standby <= MAX_STANDBY_REPLICAS:
        raise ScenarioError(f"num_standby_replicas: must be a whole number 0..{MAX_STANDBY_REPLICAS}, "
                            f"got {_describe(standby)}")
    topology = (default_topology(steps[0].topics, standby) if raw.subtopologies is None
                else StreamsTopology(_subtopologies(raw.subtopologies), standby))
    if raw.current_assignment:
        raise ScenarioError("current_assignment: a streams group's members hold tasks, not partitions; leave it "
                            f"out, got {_describe(raw.current_assignment)}")
    one_step = raw.steps is None
    _check_source_topics(topology, steps, one_step)
    threads = tuple(_threads("" if one_step else f"steps[{i}].", r.members, s, topology.source_topics)
                    for i, (r, s) in enumerate(zip(raw_steps, steps, strict=True)))
    current = check_current_tasks(raw.current_tasks, steps[0].member_ids, topology.task_counts(steps[0].topics))
    return threads, topology, current


CLIENTS = ("java", "librdkafka")  # whose assignors run in the group leader: Kafka's Java client or librdkafka


def parse_client(data: Any) -> str:
    """The optional ``client`` field of an ``assign`` input (default ``"java"``).

    >>> parse_client({}), parse_client({"client": "librdkafka"})
    ('java', 'librdkafka')
    >>> parse_client({"client": "go"})
    Traceback (most recent call last):
    ...
    engine.errors.ScenarioError: client: must be "java" or "librdkafka", got 'go'
    """
    value = data.get("client", "java") if isinstance(data, dict) else "java"
    if not isinstance(value, str) or value not in CLIENTS:
        shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
        raise ScenarioError(f'client: must be "java" or "librdkafka", got {shown}')
    return value


def parse_scenario(data: Any) -> Scenario:
    """Validate a raw JSON object into a ``Scenario`` (raises ``ScenarioError``, one line)."""
    if not isinstance(data, dict):
        raise ScenarioError(f"input: must be a JSON object, got {type(data).__name__}")
    _check_counts_first(data)
    try:
        raw = _ScenarioIn.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError(_pydantic_message(exc)) from None
    if raw.steps is not None:
        if not raw.steps:
            raise ScenarioError("steps: must not be empty, got []")
        if len(raw.steps) > MAX_STEPS:
            raise ScenarioError(f"steps: at most {MAX_STEPS}, got {len(raw.steps)}")
        raw_steps = raw.steps
        steps = tuple(_build_step(f"steps[{i}].", s) for i, s in enumerate(raw_steps))
        _check_no_shrinking(steps)
    else:
        if raw.topics is None or raw.members is None:
            missing = "topics" if raw.topics is None else "members"
            raise ScenarioError(f"{missing}: required (or give steps)")
        raw_steps = [_StepIn(topics=raw.topics, members=raw.members, partition_racks=raw.partition_racks)]
        steps = (_build_step("", raw_steps[0]),)
    if raw.group_type not in GROUP_TYPES:
        raise ScenarioError(f"group_type: must be consumer, share or streams, got {_describe(raw.group_type)}")
    streams, tasks = None, dict[str, ThreadTasks]()
    if raw.group_type == "streams":
        steps, streams, tasks = _streams(raw, raw_steps, steps)
    weights = _check_weights(raw.weights or {}, steps[0].topics)
    current = check_current_assignment(raw.current_assignment or {}, steps[0], shared=raw.group_type == "share")
    return Scenario(steps, raw.name, raw.description, weights, current, raw.group_type, streams, tasks)


def _topology_json(topology: StreamsTopology) -> dict[str, Any]:
    return {"num_standby_replicas": topology.num_standby_replicas,
            "subtopologies": [{"id": s.id, "source_topics": list(s.source_topics), "stateful": s.stateful}
                              for s in topology.subtopologies]}


def _member_json(m: Member) -> dict[str, Any]:
    out = {"id": m.id, "topics": list(m.topics), "rack": m.rack, "instance_id": m.instance_id}
    if m.process is not None:  # a stream thread's application instance: no other member has one
        out["process"] = m.process
    return out


def _step_json(step: GroupState) -> dict[str, Any]:
    out: dict[str, Any] = {"topics": dict(step.topics), "members": [_member_json(m) for m in step.members]}
    if step.partition_racks:
        out["partition_racks"] = {t: [list(r) for r in rs] for t, rs in step.partition_racks.items()}
    return out


def scenario_to_json(scenario: Scenario) -> dict[str, Any]:
    """The save format (spec section 5); ``parse_scenario`` of it gives back an equal scenario."""
    out: dict[str, Any] = {"name": scenario.name, "description": scenario.description}
    out.update(_step_json(scenario.first))
    if len(scenario.steps) > 1:
        out["steps"] = [_step_json(s) for s in scenario.steps]
    if scenario.weights:
        out["weights"] = {t: list(w) for t, w in scenario.weights.items()}
    if scenario.current_assignment:
        out["current_assignment"] = {m: [str(tp) for tp in tps] for m, tps in scenario.current_assignment.items()}
    if scenario.group_type != "consumer":  # written only for the other groups: older files and links stay as they were
        out["group_type"] = scenario.group_type
    if scenario.group_type == "streams":
        out.update(_topology_json(scenario.topology))
        if scenario.current_tasks:
            out["current_tasks"] = current_tasks_json(scenario.current_tasks)
    return out


def dumps_scenario(scenario: Scenario) -> str:
    """The save format as text; a lone surrogate in a name is written ``\\udXXX``, so it encodes as UTF-8."""
    return encode_json(scenario_to_json(scenario), indent=2)


def loads_scenario(text: str | bytes) -> Scenario:
    """Parse a saved scenario file (upload, paste, share link) through the input boundary.

    ``engine.inputs`` checks size, nesting and numbers before parsing; any refusal is one ``ScenarioError``.
    """
    try:
        data = decode_json(text, "scenario file")
    except InputError as exc:
        raise ScenarioError(str(exc)) from None
    return parse_scenario(data)
