"""Everything recognised (a paste or a live read) -> a normal ``engine.scenario`` Scenario, plus a report.

* Topics: the topics the chosen group consumes (all recognised topics when there is no group), with
  their partition counts; a count nobody printed is inferred as the highest partition seen + 1 (noted).
* Members: the group's members in the order the tool printed them, ``group.instance.id`` where shown.
  Kafka's tools do not print subscriptions, so every member subscribes to every topic the group
  consumes (noted).  Client ids and hosts have no place in the scenario model and travel in the report.
* The current assignment: what each member owns now becomes ``Scenario.current_assignment``, so step 0
  is a rebalance of the running group (owned partitions and sticky's memory included), not of a new
  one; it is also returned beside the scenario for the preview.
* Replica racks: each partition's replica brokers mapped to their racks, where both are known.
* Weights: partition sizes from ``kafka-log-dirs.sh`` when given, else the group's lag.
* Share groups (``kafka-share-groups.sh --describe --members``): the scenario's ``group_type`` is
  ``"share"`` and a partition may be held by several members.
* A streams group (``kafka-streams-groups.sh --describe --members``): a streams scenario from its threads and their
  current tasks (``engine.tools.streams_groups``); nothing else is imported with it.
* Everything else is in ``unused`` (with line numbers) or ``notes``; nothing is dropped silently.

Worked example (asserted in tests/engine/tools/test_import_scenario.py): a members view of group ``g`` with
``c1`` on ``t(0,1)`` and ``c2`` on ``t(2)`` gives topics ``{"t": 3}`` (inferred, noted), members c1 and
c2 subscribed to ``t``, and ``current_assignment == {"c1": [t-0, t-1], "c2": [t-2]}``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine.errors import ScenarioError
from engine.scenario import Scenario, TopicPartition, check_current_assignment
from engine.tools.records import GroupInfo, Imported, StreamsGroupInfo, Unused
from engine.tools.scenario_builder import build_scenario, check_topics
from engine.tools.streams_groups import streams_scenario

WEIGHT_SOURCES = ("auto", "size", "lag", "none")


@dataclass(frozen=True)
class ImportResult:
    """The scenario and what came with it: the current assignment, unused input, notes; ``streams``: the streams
    group it was made from (then ``group`` is None and the current tasks are in ``scenario.current_tasks``)."""

    scenario: Scenario
    group: GroupInfo | None
    current_assignment: dict[str, list[TopicPartition]]
    weights_source: str
    groups: list[str]
    unused: list[Unused] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    streams: StreamsGroupInfo | None = None

    def report(self) -> dict[str, Any]:
        """What the scenario file carries beside the scenario (``import``), credentials never among it."""
        group = self.group
        out = {
            "sources": list(self.sources),
            "group": None
            if group is None
            else {
                "id": group.group_id,
                "state": group.state,
                "assignor": group.assignor,
                "protocol": group.protocol,
                "members": [
                    {
                        "id": m.member_id,
                        "client_id": m.client_id,
                        "host": m.host,
                        "instance_id": m.instance_id,
                    }
                    for m in group.members.values()
                ],
            },
            "weights": self.weights_source,
            "notes": list(self.notes),
            "unused": [
                {
                    "line": u.line,
                    "text": u.text,
                    "reason": u.reason,
                    **({"file": u.origin} if u.origin else {}),
                }
                for u in self.unused
            ],
        }
        if self.streams is not None:
            out["group"] = {"id": self.streams.group_id, "state": self.streams.state, "assignor": None,
                            "protocol": "streams",
                            "members": [{"id": m.member_id, "client_id": m.client_id, "process": m.process}
                                        for m in self.streams.members.values()]}
        return out

    def to_json(self, scenario_json: dict[str, Any]) -> dict[str, Any]:
        out = dict(scenario_json)  # scenario_to_json writes the checked current_assignment
        out["import"] = self.report()
        return out


def choose_group(data: Imported, group: str | None, notes: list[str]) -> GroupInfo | None:
    if group is not None:
        if group not in data.groups:
            found = ", ".join(repr(g) for g in sorted(data.groups)) or "none"
            raise ScenarioError(f"group {group!r} is not in the input; groups found: {found}")
        return data.groups[group]
    if not data.groups:
        return None
    chosen = sorted(data.groups)[0]
    if len(data.groups) > 1:
        notes.append(
            f"{len(data.groups)} groups in the input; importing {chosen!r} (choose another with --group)"
        )
    return data.groups[chosen]


def _group_partitions(group: GroupInfo, assigned_only: bool = False) -> dict[tuple[str, int], None]:
    """The partitions the group's members own or are to own (4.x target assignments); with
    ``assigned_only=False`` also those the group has committed offsets for."""
    seen: dict[tuple[str, int], None] = {}
    for member in group.members.values():
        seen.update(dict.fromkeys(member.assignment or ()))
        seen.update(dict.fromkeys(member.target_assignment or ()))
    seen.update(dict.fromkeys(group.owners))
    if not assigned_only:
        seen.update(dict.fromkeys(group.lag))
        seen.update(dict.fromkeys(group.offsets))
    return seen


def _topic_names(data: Imported, group: GroupInfo | None, unused: list[Unused]) -> list[str]:
    """The group's topics: those its members own now (those it has offsets for when nobody owns any)."""
    if group is None:
        return list(data.topics)
    consumed = dict.fromkeys(t for t, _ in _group_partitions(group, assigned_only=True))
    if not consumed:
        consumed = dict.fromkeys(t for t, _ in _group_partitions(group))
    if not consumed:
        return list(data.topics)
    stale = dict.fromkeys(t for t, _ in _group_partitions(group) if t not in consumed)
    if stale:
        unused.append(
            Unused(
                group.line,
                f"offsets of group {group.group_id!r} on {', '.join(map(repr, stale))}",
                "committed offsets on topics no member owns now",
            )
        )
    ordered = [t for t in data.topics if t in consumed] + [t for t in consumed if t not in data.topics]
    others = [t for t in data.topics if t not in consumed]
    if others:
        shown = ", ".join(others[:10]) + (", ..." if len(others) > 10 else "")
        line = data.topics[others[0]].line
        unused.append(
            Unused(line, f"{len(others):,} topic(s): {shown}", f"not consumed by group {group.group_id!r}")
        )
    return ordered


def _partition_counts(
    data: Imported, group: GroupInfo | None, names: list[str], notes: list[str]
) -> dict[str, int]:
    highest: dict[str, int] = {}
    for topic, partition in _group_partitions(group) if group else ():
        highest[topic] = max(highest.get(topic, -1), partition)
    counts: dict[str, int] = {}
    inferred = []
    for name in names:
        info = data.topics.get(name)
        seen = [highest.get(name, -1)]
        if info is not None:
            seen += [max(info.partitions, default=-1), max(info.sizes, default=-1)]
        top = max(seen) + 1
        known = info.partition_count if info is not None else None
        if known is None:
            inferred.append(name)
        elif top > known:
            notes.append(
                f"topic {name!r}: partitions up to {top - 1} are in use but kafka-topics.sh printed "
                f"PartitionCount {known} (outputs from different times?); using {top}"
            )
        counts[name] = max(known or 0, top)
    if inferred:
        notes.append(
            f"partition count inferred as the highest partition seen + 1 for {len(inferred):,} topic(s) "
            f"({', '.join(inferred[:5])}{', ...' if len(inferred) > 5 else ''}); paste kafka-topics.sh "
            "--describe to be exact"
        )
    return counts


def current_assignment(group: GroupInfo, notes: list[str]) -> dict[str, list[TopicPartition]]:
    """Member -> its partitions now: the members view where it shows them, else the offsets view."""
    from_owners: dict[str, list[tuple[str, int]]] = {m: [] for m in group.members}
    for tp, owner in group.owners.items():
        from_owners.setdefault(owner, []).append(tp)
    out: dict[str, list[TopicPartition]] = {}
    disagree = []
    for member_id, member in group.members.items():
        shown = member.assignment
        if shown is not None and group.owners and sorted(shown) != sorted(from_owners[member_id]):
            disagree.append(member_id)
        chosen = shown if shown is not None else from_owners[member_id]
        out[member_id] = [TopicPartition(t, p) for t, p in chosen]
    if disagree:
        notes.append(
            f"the members view and the offsets view disagree for {len(disagree)} member(s) "
            f"({', '.join(disagree[:3])}); the members view is used"
        )
    return out


def _members(group: GroupInfo, topics: list[str], notes: list[str]) -> list[tuple[str, str | None]]:
    if group.members:
        notes.append(
            "Kafka's tools do not print subscriptions: every member subscribes to every topic the group "
            f"consumes ({len(topics):,})"
        )
    targets = [
        m
        for m in group.members.values()
        if m.target_assignment is not None and sorted(m.target_assignment) != sorted(m.assignment or [])
    ]
    if targets:
        notes.append(
            f"{len(targets)} member(s) have a target assignment different from the current one "
            "(the group is reconciling); step 0 carries the current one"
        )
    return [(m.member_id, m.instance_id or None) for m in group.members.values()]


def _rack_rows(
    data: Imported, topic: str, count: int, cache: dict[tuple[int, ...], tuple[str, ...]], missing: set[int]
) -> list[tuple[str, ...]] | None:
    """The racks of each partition's replicas (None when a partition's replica list is unknown)."""
    info = data.topics.get(topic)
    parts = info.partitions if info else {}
    rows = []
    for p in range(count):
        entry = parts.get(p)
        if entry is None or not entry.replicas:
            return None
        racks = cache.get(entry.replicas)
        if racks is None:
            missing.update(b for b in entry.replicas if data.brokers.get(b) is None)
            racks = cache[entry.replicas] = tuple(
                r for b in entry.replicas if (r := data.brokers.get(b)) is not None
            )
        rows.append(racks)
    return rows


def _racks(data: Imported, counts: dict[str, int], notes: list[str]) -> dict[str, list[tuple[str, ...]]]:
    if not any(data.brokers.values()):
        if any(p.replicas for t in counts if t in data.topics for p in data.topics[t].partitions.values()):
            notes.append(
                "replica lists are known but broker racks are not: add broker,rack lines for replica racks"
            )
        return {}
    out: dict[str, list[tuple[str, ...]]] = {}
    cache: dict[tuple[int, ...], tuple[str, ...]] = {}
    missing: set[int] = set()
    partial = []
    for topic, count in counts.items():
        rows = _rack_rows(data, topic, count, cache, missing)
        if rows is None:
            partial.append(topic)
        else:
            out[topic] = rows
    if missing:
        notes.append(f"brokers without a known rack: {', '.join(map(str, sorted(missing)[:20]))}")
    if partial:
        notes.append(
            f"no replica racks for {len(partial):,} topic(s) whose replica lists are incomplete "
            f"({', '.join(partial[:5])})"
        )
    return out


def _available(data: Imported, group: GroupInfo | None, counts: dict[str, int]) -> dict[str, bool]:
    return {
        "size": any(data.topics[t].sizes for t in counts if t in data.topics),
        "lag": group is not None and any(t in counts for t, _ in group.lag),
    }


def _weights(
    data: Imported, group: GroupInfo | None, counts: dict[str, int], source: str, notes: list[str]
) -> tuple[dict[str, list[float]], str]:
    if source not in WEIGHT_SOURCES:
        raise ScenarioError(f"weights: must be one of {', '.join(WEIGHT_SOURCES)}, got {source!r}")
    available = _available(data, group, counts)
    if source == "auto":
        source = "size" if available["size"] else "lag" if available["lag"] else "none"
    elif source != "none" and not available[source]:
        what = "partition sizes (kafka-log-dirs.sh)" if source == "size" else "lag (kafka-consumer-groups.sh)"
        raise ScenarioError(f"weights: the input has no {what}")
    if source == "none":
        return {}, source
    values: dict[str, list[float]] = {t: [0.0] * n for t, n in counts.items()}
    if source == "size":
        for t in counts:
            for p, size in data.topics[t].sizes.items() if t in data.topics else ():
                values[t][p] = float(size)
    else:
        assert group is not None
        for (t, p), lag in group.lag.items():
            if t in values:
                values[t][p] = float(max(lag, 0))
    flat = [t for t, v in values.items() if not any(v)]
    if flat:
        notes.append(f"{len(flat):,} topic(s) have no {source} to weigh by (all 0): uniform load for them")
    return {t: v for t, v in values.items() if any(v)}, source


def _describe_group(group: GroupInfo | None) -> str:
    if group is None:
        return "Imported topics (no consumer group)."
    parts = [
        f"state {group.state}" if group.state else "",
        f"assignor {group.assignor}" if group.assignor else "",
        f"{group.protocol} protocol" if group.protocol else "",
    ]
    detail = ", ".join(p for p in parts if p)
    kind = "share group" if group.protocol == "share" else "consumer group"
    return f"Imported {kind} {group.group_id!r}" + (f" ({detail})." if detail else ".")


def _group_notes(group: GroupInfo | None, notes: list[str]) -> None:
    if group is None:
        notes.append(
            "no consumer group in the input: the scenario has topics only; add consumers in the builder"
        )
    elif not group.members:
        notes.append(f"group {group.group_id!r} has no active members: step 0 has no consumers")
    if group is not None and group.protocol == "share":
        notes.append(
            f"group {group.group_id!r} is a share group (KIP-932): several members may read one partition; "
            "the Assignments page shows the coordinator's simple assignor"
        )
    if group is not None and group.protocol == "consumer":
        notes.append(
            f"group {group.group_id!r} uses the consumer protocol (KIP-848): the broker assigns "
            f"({group.assignor or 'uniform'}); see the Group Protocol page"
        )


def _with_current(scenario: Scenario, current: dict[str, list[TopicPartition]], notes: list[str]) -> Scenario:
    """The scenario starting from what the group's members own now (``Scenario.current_assignment``)."""
    owned = {m: [str(tp) for tp in tps] for m, tps in current.items() if tps}
    try:
        checked = check_current_assignment(owned, scenario.first, shared=scenario.group_type == "share")
    except ScenarioError as exc:
        notes.append(f"the group's current assignment is not used ({exc}): step 0 forms the group anew")
        return scenario
    return replace(scenario, current_assignment=checked)


def to_scenario(data: Imported, group: str | None = None, weights: str = "auto") -> ImportResult:
    """The scenario for ``group`` (the only or first group when None); see the module docstring."""
    if data.streams:
        if weights not in ("auto", "none"):
            raise ScenarioError(f"weights: a streams group import has none, got {weights!r}")
        found = streams_scenario(data, group)
        return ImportResult(found.scenario, None, {}, "none", sorted(data.streams), found.unused, found.notes,
                            list(data.sources), found.group)
    notes, unused = list(data.notes), list(data.unused)
    chosen = choose_group(data, group, notes)
    names = _topic_names(data, chosen, unused)
    if not names:
        raise ScenarioError(
            "the input has no topics: add kafka-topics.sh --describe or the group's --describe output"
        )
    counts = _partition_counts(data, chosen, names, notes)
    check_topics(counts)
    _group_notes(chosen, notes)
    members = _members(chosen, names, notes) if chosen else []
    current = current_assignment(chosen, notes) if chosen else {}
    racks = _racks(data, counts, notes)
    if racks and members:
        notes.append(
            "Kafka's tools do not print the consumers' client.rack: set it in the builder for "
            "rack-aware assignment"
        )
    values, source = _weights(data, chosen, counts, weights, notes)
    name = f"{chosen.group_id} (imported)" if chosen else "imported topics"
    built = build_scenario(name, _describe_group(chosen), counts, members, racks, values)
    if chosen is not None and chosen.protocol == "share":
        built = replace(built, group_type="share")
    scenario = _with_current(built, current, notes)
    unused.sort(key=lambda u: u.line or 0)
    return ImportResult(
        scenario, chosen, current, source, sorted(data.groups), unused, notes, list(data.sources)
    )
