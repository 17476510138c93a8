"""``kafka-streams-groups.sh --describe`` (streams groups, KIP-1071; Kafka 4.2.0's tools/.../streams/
StreamsGroupCommand.java): a running streams group becomes a streams scenario whose step 0 is its next rebalance.

Formats (``printf`` widths from the content, as ``kafka-consumer-groups.sh``):

* ``--members``: ``GROUP MEMBER PROCESS CLIENT-ID ASSIGNMENTS``; with ``--verbose`` ``GROUP TARGET-ASSIGNMENT-EPOCH
  TOPOLOGY-EPOCH MEMBER MEMBER-PROTOCOL MEMBER-EPOCH PROCESS CLIENT-ID ASSIGNMENTS``.  ``ASSIGNMENTS`` is
  ``getTasksForPrinting``: for each kind with tasks, ``ACTIVE: `` then ``<subtopology>:[<partitions>]; `` per
  subtopology, then ``STANDBY: ...`` and ``WARMUP: ...`` (``--verbose`` adds ``TARGET-ACTIVE``, ``TARGET-STANDBY``,
  ``TARGET-WARMUP``); empty for a thread without tasks.
* ``--offsets`` (the default view): ``GROUP TOPIC PARTITION OFFSET-LAG`` (``--verbose``: ``GROUP TOPIC PARTITION
  CURRENT-OFFSET LEADER-EPOCH LOG-END-OFFSET OFFSET-LAG``): every source topic of every subtopology, with the
  partitions of that subtopology's active tasks (``getTopicPartitions``).
* ``Error: Streams group 'G' has no active members.`` (or ``does not exist.``) instead of a table.

What the scenario takes (one group; a paste with two, or with a consumer group, is refused):

* the threads (``MEMBER``) with their instance (``PROCESS``), in the order printed; their ``ACTIVE`` and ``STANDBY``
  tasks are ``Scenario.current_tasks``, so step 0 is the next rebalance of the running group;
* the subtopologies: the ids in the tasks listed, each with as many tasks as its largest partition + 1.  The tool
  does not print which topics a subtopology reads.  With the offsets view, all the topics of one partition count
  belong to the subtopology with that many tasks when it is the only one (the view lists each subtopology's topics
  with its tasks' partitions); any other subtopology reads a placeholder topic named for it, with as many
  partitions as its tasks, to be edited in the builder;
* ``stateful``: the tool does not print it either; a subtopology is stateful when a thread holds a standby replica
  of one of its tasks, else stateless; ``num_standby_replicas``: the most standby replicas any task has now.

Each inference is one line of the import's notes.  A realistic sample (two instances of two threads; subtopology 0
joins ``orders`` and ``payments`` with a standby replica per task, subtopology 1 filters ``shipments``), each row
split in two here to fit the page:

    >>> from engine.tools.detect import parse_text
    >>> members = (
    ...     "GROUP           MEMBER                 PROCESS                              "
    ...     "CLIENT-ID                          ASSIGNMENTS\\n"
    ...     "orders-enricher J2x9QnVfRkOe4gYb7LmZ1w 8d2f1c3e-5a7b-4e9f-b1c2-3d4e5f6a7b8c "
    ...     "enricher-a-StreamThread-1-consumer ACTIVE: 0:[0,3]; 1:[0]; STANDBY: 0:[2]; \\n"
    ...     "orders-enricher pT5cW8rHSM2aX0dK6uEjqA 8d2f1c3e-5a7b-4e9f-b1c2-3d4e5f6a7b8c "
    ...     "enricher-a-StreamThread-2-consumer ACTIVE: 0:[1,4]; STANDBY: 0:[5]; \\n"
    ...     "orders-enricher Zr4LmQ7xTnC0vB2yHs9dWg 1f9e8d7c-6b5a-4c3d-a2e1-f0a9b8c7d6e5 "
    ...     "enricher-b-StreamThread-1-consumer ACTIVE: 0:[2]; 1:[1]; STANDBY: 0:[0,3]; \\n"
    ...     "orders-enricher Vb6nK1pYQeS3wA8zJf5tXo 1f9e8d7c-6b5a-4c3d-a2e1-f0a9b8c7d6e5 "
    ...     "enricher-b-StreamThread-2-consumer ACTIVE: 0:[5]; 1:[2]; STANDBY: 0:[1,4]; \\n")
    >>> offsets = "GROUP           TOPIC           PARTITION  OFFSET-LAG\\n" + "".join(
    ...     f"orders-enricher {t:<15} {p:<10} 0\\n" for t, n in (("orders", 6), ("payments", 6), ("shipments", 3))
    ...     for p in range(n))
    >>> result = streams_scenario(parse_text(members + "\\n" + offsets))
    >>> streams = result.scenario.streams
    >>> [(s.id, s.source_topics, s.stateful) for s in streams.subtopologies], streams.num_standby_replicas
    ([('0', ('orders', 'payments'), True), ('1', ('shipments',), False)], 1)
    >>> result.scenario.current_tasks["J2x9QnVfRkOe4gYb7LmZ1w"]
    ThreadTasks(active={'0': (0, 3), '1': (0,)}, standby={'0': (2,)})
    >>> [m.process[:8] for m in result.scenario.first.members]
    ['8d2f1c3e', '8d2f1c3e', '1f9e8d7c', '1f9e8d7c']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.errors import ScenarioError
from engine.scenario import Scenario, parse_scenario
from engine.streams_scenario import check_current_tasks
from engine.tools.columns import Layout, columns_of
from engine.tools.records import Imported, StreamsGroupInfo, StreamsMemberInfo, Unused, line_error, shorten

MEMBERS_COLUMNS = frozenset({"GROUP", "MEMBER", "PROCESS", "CLIENT-ID", "ASSIGNMENTS"})
OFFSETS_COLUMNS = frozenset({"GROUP", "TOPIC", "PARTITION", "OFFSET-LAG"})
TASK_KINDS = ("ACTIVE", "STANDBY", "WARMUP", "TARGET-ACTIVE", "TARGET-STANDBY", "TARGET-WARMUP")
NUMBER_COLUMNS = ("TARGET-ASSIGNMENT-EPOCH", "TOPOLOGY-EPOCH", "MEMBER-EPOCH", "PARTITION", "CURRENT-OFFSET",
                  "LEADER-EPOCH", "LOG-END-OFFSET", "OFFSET-LAG")
UNUSED_COLUMNS = (
    (("TARGET-ASSIGNMENT-EPOCH", "TOPOLOGY-EPOCH", "MEMBER-PROTOCOL", "MEMBER-EPOCH"),
     "epochs and the member protocol are not part of a scenario"),
    (("CURRENT-OFFSET", "LEADER-EPOCH", "LOG-END-OFFSET", "OFFSET-LAG"),
     "committed offsets and lag are not part of a streams scenario"),
)
_NUMBER = re.compile(r"-|-?\d{1,19}", re.ASCII)
_ENTRY = re.compile(r"([^\s:\[\];]+):\[(\d{1,9}(?:,\d{1,9})*|)\];?", re.ASCII)
_MESSAGE = re.compile(r"^\s*(?:Error: )?Streams group '(?P<group>.*)' (?P<what>has no active members|does not exist)"
                      r"\.\s*$")


def table_kind(line: str) -> str | None:
    """``streams_members`` or ``streams_offsets`` when ``line`` is one of the tool's header lines."""
    if "ASSIGNMENTS" not in line and "OFFSET-LAG" not in line:
        return None  # fast path: every data row
    names = set(line.split())
    if MEMBERS_COLUMNS <= names:
        return "streams_members"
    return "streams_offsets" if OFFSETS_COLUMNS <= names else None


def is_message(line: str) -> bool:
    return "treams group '" in line and _MESSAGE.match(line) is not None


def read_message(data: Imported, number: int, line: str) -> None:
    """``Streams group 'G' has no active members.`` / ``does not exist.``: the group, with no threads."""
    m = _MESSAGE.match(line)
    assert m is not None
    group = data.streams_group(m.group("group"))
    group.line = group.line or number
    group.state = "Empty" if m.group("what") == "has no active members" else "Dead"


def parse_tasks(text: str, number: int) -> dict[str, dict[str, tuple[int, ...]]]:
    """An ``ASSIGNMENTS`` cell: task kind -> subtopology id -> partitions (ascending).

    >>> parse_tasks("ACTIVE: 0:[3,1]; 1:[0]; STANDBY: 0:[2]; ", 2)
    {'ACTIVE': {'0': (1, 3), '1': (0,)}, 'STANDBY': {'0': (2,)}}
    """
    out: dict[str, dict[str, tuple[int, ...]]] = {}
    kind = None
    for token in text.split():
        if token.endswith(":") and token[:-1] in TASK_KINDS:
            kind = token[:-1]
            out.setdefault(kind, {})
            continue
        m = _ENTRY.fullmatch(token)
        if m is None or kind is None:
            raise line_error(number, f"cannot read the tasks {shorten(text)!r} at {shorten(token, 40)!r}; expected "
                                     "ACTIVE: 0:[0,1]; 1:[2]; STANDBY: 0:[3];")
        partitions = {int(p) for p in m.group(2).split(",") if p}
        out[kind][m.group(1)] = tuple(sorted(partitions.union(out[kind].get(m.group(1), ()))))
    return out


def _plausible(names: Sequence[str]) -> Callable[[list[str]], bool]:
    at = [i for i, name in enumerate(names) if name in NUMBER_COLUMNS]
    protocol = names.index("MEMBER-PROTOCOL") if "MEMBER-PROTOCOL" in names else None
    return lambda values: (all(_NUMBER.fullmatch(values[i]) for i in at)
                           and (protocol is None or values[protocol] in ("streams", "classic")))


def parse_table(data: Imported, header: tuple[int, str], rows: Sequence[tuple[int, str]]) -> None:
    """One table of the tool (a header and its rows)."""
    kind = table_kind(header[1])
    columns = columns_of(header[1])
    names = [c.name for c in columns]
    members = kind == "streams_members"
    layout = Layout(columns, members, "ASSIGNMENTS" if members else None, _plausible(names))
    for number, line in rows:
        values = layout.split(line)
        if values is None or not all(values[:-1] if members else values):  # only ASSIGNMENTS may be empty
            raise line_error(number, f"expected {len(names)} columns ({' '.join(names)}), got {shorten(line, 60)!r}")
        row = dict(zip(names, values))
        group = data.streams_group(row["GROUP"])
        group.line = group.line or number
        (_member_row if members else _offsets_row)(group, number, row)
    for unused, reason in UNUSED_COLUMNS:
        shown = [name for name in names if name in unused]
        if shown and rows:
            data.unused.append(Unused(header[0], " ".join(shown), reason))


def _member_row(group: StreamsGroupInfo, number: int, row: dict[str, str]) -> None:
    member_id = row["MEMBER"]
    if member_id in group.members:
        raise line_error(number, f"member {member_id!r} of streams group {group.group_id!r} is listed twice")
    group.members[member_id] = StreamsMemberInfo(member_id, row["PROCESS"], row["CLIENT-ID"],
                                                 parse_tasks(row["ASSIGNMENTS"], number), number)


def _offsets_row(group: StreamsGroupInfo, number: int, row: dict[str, str]) -> None:
    if not row["PARTITION"].isdigit():
        raise line_error(number, f"PARTITION must be a partition number, got {row['PARTITION']!r}")
    group.partitions.setdefault(row["TOPIC"], set()).add(int(row["PARTITION"]))


@dataclass(frozen=True)
class StreamsImport:
    """The streams scenario of the one streams group in the input, what was inferred (``notes``) and left out."""

    scenario: Scenario
    group: StreamsGroupInfo
    notes: list[str]
    unused: list[Unused]


def _the_group(data: Imported, wanted: str | None) -> StreamsGroupInfo:
    names = sorted(data.streams)
    if wanted is not None and wanted not in data.streams:
        found = ", ".join(repr(g) for g in sorted([*data.groups, *names]))
        raise ScenarioError(f"group {wanted!r} is not in the input; groups found: {found}")
    if len(names) > 1:
        raise ScenarioError(f"{len(names)} streams groups in the input ({', '.join(map(repr, names))}): paste one "
                            "group's kafka-streams-groups.sh output at a time")
    if data.groups:
        raise ScenarioError(f"the input holds streams group {names[0]!r} and consumer group(s) "
                            f"{', '.join(map(repr, sorted(data.groups)))}: import one group at a time")
    group = data.streams[names[0]]
    if not group.members:
        raise ScenarioError(f"streams group {group.group_id!r} has no active members: paste kafka-streams-groups.sh "
                            "--describe --members of a running group")
    return group


def _id_order(sub: str) -> tuple[int, int, str]:
    return (0, int(sub), "") if sub.isdigit() and len(sub) < 10 else (1, 0, sub)


def _task_counts(group: StreamsGroupInfo) -> dict[str, int]:
    """Subtopology id -> its tasks: the largest partition any thread lists + 1, in id order."""
    top: dict[str, int] = {}
    for member in group.members.values():
        for by_sub in member.tasks.values():
            for sub, partitions in by_sub.items():
                top[sub] = max(top.get(sub, 0), max(partitions, default=-1) + 1)
    return {sub: top[sub] for sub in sorted(top, key=_id_order) if top[sub]}


def _match_topics(counts: dict[str, int], group: StreamsGroupInfo,
                  unused: list[Unused]) -> tuple[dict[str, list[str]], str]:
    """Subtopology -> the offsets view's topics it reads (when its task count tells), and that note."""
    seen = {t: max(ps) + 1 for t, ps in group.partitions.items()}
    subs: dict[int, list[str]] = {}
    for sub, n in counts.items():
        subs.setdefault(n, []).append(sub)
    topics: dict[int, list[str]] = {}
    for topic, n in seen.items():
        topics.setdefault(n, []).append(topic)
    reads = {sub: topics[n] for sub, n in counts.items() if len(subs[n]) == 1 and n in topics}
    matched = {t for ts in reads.values() for t in ts}
    left = [t for t in seen if t not in matched]
    if left:
        unused.append(Unused(group.line, ", ".join(left), "topics of the offsets view whose subtopology cannot be "
                                                          "told: none or several have as many tasks as they have "
                                                          "partitions"))
    shown = "; ".join(f"{sub}: {', '.join(f'`{t}`' for t in ts)}" for sub, ts in reads.items())
    return reads, (f"source topics matched by partition count (the offsets view lists each subtopology's topics "
                   f"with its tasks' partitions): {shown}" if reads else "")


def _placeholder(sub: str, taken: set[str]) -> str:
    name = "subtopology-" + re.sub(r"[^a-zA-Z0-9._-]", "_", sub)[:200]
    while name in taken:
        name += "_"
    taken.add(name)
    return name


def _topology(group: StreamsGroupInfo, notes: list[str], unused: list[Unused]) -> dict[str, Any]:
    """The document's topics, subtopologies and num_standby_replicas, inferred; each inference noted."""
    counts = _task_counts(group)
    if not counts:
        raise ScenarioError(f"streams group {group.group_id!r}: no thread lists a task, so its subtopologies are "
                            "unknown; paste the --members output of a group that runs its tasks")
    reads, matched = _match_topics(counts, group, unused) if group.partitions else ({}, "")
    taken = {t for ts in reads.values() for t in ts}
    topics: dict[str, int] = {}
    placeholders = []
    subtopologies = []
    standbys = _standby_replicas(group)
    stateful = {sub for sub, _ in standbys}
    for sub, n in counts.items():
        if sub not in reads:
            reads[sub] = [_placeholder(sub, taken)]
            placeholders.append(f"{sub}: {reads[sub][0]} ({n})")
        topics.update(dict.fromkeys(reads[sub], n))
        subtopologies.append({"id": sub, "source_topics": reads[sub], "stateful": sub in stateful})
    if matched:
        notes.append(matched)
    if placeholders:
        shown = "; ".join(placeholders[:5]) + ("; ..." if len(placeholders) > 5 else "")
        notes.append("kafka-streams-groups.sh does not print which topics a subtopology reads: "
                     f"{len(placeholders)} subtopology(ies) read a placeholder topic named for it, with as many "
                     f"partitions as its tasks ({shown}); rename them in the builder")
    if not group.partitions:
        notes.append("paste kafka-streams-groups.sh --describe --offsets of the group too: its topics are matched "
                     "to subtopologies where their partition counts tell")
    notes.append("stateful is inferred (the tool does not print it): subtopologies with standby replicas are "
                 f"stateful ({', '.join(i for i in counts if i in stateful) or 'none'}), the others stateless "
                 f"({', '.join(i for i in counts if i not in stateful) or 'none'}); change it in the builder")
    replicas = max(standbys.values(), default=0)
    notes.append(f"num.standby.replicas is inferred as {replicas}: the most standby replicas any task has now")
    return {"topics": topics, "subtopologies": subtopologies, "num_standby_replicas": replicas}


def _standby_replicas(group: StreamsGroupInfo) -> dict[tuple[str, int], int]:
    """Task -> how many threads hold a standby replica of it."""
    out: dict[tuple[str, int], int] = {}
    for member in group.members.values():
        for sub, partitions in member.tasks.get("STANDBY", {}).items():
            for p in partitions:
                out[(sub, p)] = out.get((sub, p), 0) + 1
    return out


def _thread_notes(group: StreamsGroupInfo, notes: list[str], unused: list[Unused]) -> None:
    warming = [m for m in group.members.values() if m.tasks.get("WARMUP")]
    if warming:
        unused.append(Unused(warming[0].line, f"WARMUP tasks of {len(warming)} stream thread(s)",
                             "warm-up tasks are not part of a scenario"))
    moving = [m for m in group.members.values() if any(k.startswith("TARGET-") for k in m.tasks) and any(
        m.tasks.get(f"TARGET-{k}", {}) != m.tasks.get(k, {}) for k in ("ACTIVE", "STANDBY"))]
    if moving:
        notes.append(f"{len(moving)} stream thread(s) have target tasks different from their current ones (the "
                     "group is reconciling); step 0 starts from the current ones")


def _others(data: Imported, unused: list[Unused]) -> None:
    """What the other tools gave (topics, replicas, sizes, racks): a streams scenario takes none of it."""
    if data.topics or data.brokers:
        line = next((t.line for t in data.topics.values() if t.line), None)
        unused.append(Unused(line, f"{len(data.topics):,} topic(s) and {len(data.brokers):,} broker(s) from the "
                                   "other tools", "a streams group's topics come from kafka-streams-groups.sh "
                                                  "--describe --offsets"))


def streams_scenario(data: Imported, group_id: str | None = None) -> StreamsImport:
    """The scenario of the input's streams group (``group_id`` when given); see the module docstring."""
    group = _the_group(data, group_id)
    notes, unused = list(data.notes), list(data.unused)
    document = _topology(group, notes, unused)
    _thread_notes(group, notes, unused)
    _others(data, unused)
    threads = list(group.members.values())
    processes = len({m.process for m in threads})
    document.update(
        name=f"{group.group_id} (imported)", group_type="streams",
        description=f"Imported streams group {group.group_id!r}: {len(threads):,} stream thread(s) in "
                    f"{processes:,} application instance(s).",
        members=[{"id": m.member_id, "process": m.process} for m in threads])
    scenario = parse_scenario(document)
    current = {m.member_id: {kind.lower(): {s: list(ps) for s, ps in m.tasks.get(kind, {}).items()}
                             for kind in ("ACTIVE", "STANDBY")} for m in threads}
    try:
        checked = check_current_tasks(current, scenario.first.member_ids,
                                      scenario.topology.task_counts(scenario.first.topics))
    except ScenarioError as exc:
        notes.append(f"the group's current tasks are not used ({exc}): step 0 forms the group anew")
    else:
        scenario = replace(scenario, current_tasks=checked)
    unused.sort(key=lambda u: u.line or 0)
    return StreamsImport(scenario, group, notes, unused)
