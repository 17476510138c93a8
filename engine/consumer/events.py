"""Group changes that trigger a rebalance, turned into the next ``GroupState``(s) of a scenario.

Example: starting from C0..C2 on ``t0`` (6 partitions), the timeline
``[RemoveMember("C1"), AddPartitions("t0", 2)]`` gives a scenario of 3 steps: the initial group, the
group without C1, and the group without C1 with ``t0`` at 8 partitions.

``CrashRejoin`` is two rebalances for a dynamic member (it is dropped after ``session.timeout.ms``,
then joins again as a new member) and none for a static member (``group.instance.id``): the broker
keeps its assignment while it restarts within the session timeout.

``make_event`` is the factory a form uses: an event kind (``EVENT_KINDS``) and the fields it reads
(``EVENT_FIELDS``), e.g. ``make_event("add-partitions", topic="t0", count=2) == AddPartitions("t0", 2)``;
``append_event`` keeps an event only if the timeline still builds with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.errors import ScenarioError
from engine.scenario import MAX_PARTITIONS_PER_TOPIC, MAX_STEPS, GroupState, Member, Scenario


@dataclass(frozen=True)
class RemoveMember:
    member_id: str

    def label(self) -> str:
        return f"{self.member_id} leaves"


@dataclass(frozen=True)
class AddMember:
    member_id: str
    topics: tuple[str, ...] | None = None  # None: the union of the group's subscriptions
    rack: str | None = None
    instance_id: str | None = None
    process: str | None = None  # a streams group's stream thread: its application instance

    def label(self) -> str:
        return f"{self.member_id} joins"


@dataclass(frozen=True)
class CrashRejoin:
    member_id: str

    def label(self) -> str:
        return f"{self.member_id} crashes and rejoins"


@dataclass(frozen=True)
class AddPartitions:
    topic: str
    count: int

    def label(self) -> str:
        return f"{self.topic} gets {self.count} more partition{'s' if self.count != 1 else ''}"


@dataclass(frozen=True)
class ChangeSubscription:
    member_id: str
    topics: tuple[str, ...]

    def label(self) -> str:
        return f"{self.member_id} subscribes to {', '.join(self.topics) or 'nothing'}"


Event = RemoveMember | AddMember | CrashRejoin | AddPartitions | ChangeSubscription
EVENT_KINDS: dict[str, str] = {  # kind -> what happens, in the words a form shows
    "remove": "a consumer leaves",
    "add": "a consumer joins",
    "crash-rejoin": "a consumer crashes and rejoins",
    "add-partitions": "partitions are added to a topic",
    "change-subscription": "a consumer changes its subscription",
}
EVENT_FIELDS: dict[str, tuple[str, ...]] = {  # kind -> the make_event fields it reads
    "remove": ("member",),
    "add": ("new_id",),
    "crash-rejoin": ("member",),
    "add-partitions": ("topic", "count"),
    "change-subscription": ("member", "topics"),
}


def make_event(kind: str, member: str = "", new_id: str = "", topic: str = "", count: int = 0,
               topics: Sequence[str] = ()) -> Event:
    """The event of ``kind`` built from the fields it reads (``EVENT_FIELDS``); others are ignored.

    Raises ``ScenarioError`` for an unknown kind or an empty new member id; whether the event fits the
    group is checked when it is applied (``apply_event``).
    """
    if kind == "remove":
        return RemoveMember(member)
    if kind == "crash-rejoin":
        return CrashRejoin(member)
    if kind == "add":
        if not new_id.strip():
            raise ScenarioError("add: the new member id is empty")
        return AddMember(new_id.strip())
    if kind == "add-partitions":
        return AddPartitions(topic, int(count))
    if kind == "change-subscription":
        return ChangeSubscription(member, tuple(topics))
    raise ScenarioError(f"event: must be one of {', '.join(EVENT_KINDS)}, got {kind!r}")


def _member(state: GroupState, member_id: str, event: str) -> Member:
    for m in state.members:
        if m.id == member_id:
            return m
    raise ScenarioError(f"{event}: no member {member_id!r} in the group")


def _without(state: GroupState, member_id: str) -> GroupState:
    return replace(state, members=tuple(m for m in state.members if m.id != member_id))


def _subscribed_topics(state: GroupState) -> tuple[str, ...]:
    return tuple(dict.fromkeys(t for m in state.members for t in m.topics)) or tuple(state.topics)


def _add_member(state: GroupState, event: AddMember) -> GroupState:
    if not event.member_id:
        raise ScenarioError("add: member id must not be empty")
    if any(m.id == event.member_id for m in state.members):
        raise ScenarioError(f"add: member {event.member_id!r} is already in the group")
    topics = event.topics if event.topics is not None else _subscribed_topics(state)
    member = Member(event.member_id, tuple(topics), event.rack, event.instance_id, event.process)
    return replace(state, members=(*state.members, member))


def _add_partitions(state: GroupState, event: AddPartitions) -> GroupState:
    if event.topic not in state.topics:
        raise ScenarioError(f"add-partitions: unknown topic {event.topic!r}")
    total = state.topics[event.topic] + event.count
    if event.count < 1 or total > MAX_PARTITIONS_PER_TOPIC:
        raise ScenarioError(
            f"add-partitions: count must be >= 1 and the topic <= {MAX_PARTITIONS_PER_TOPIC} partitions, got "
            f"{event.count}"
        )
    topics = {**state.topics, event.topic: total}
    racks = dict(state.partition_racks)
    if event.topic in racks:  # new partitions reuse the rack pattern of the existing ones
        old = racks[event.topic]
        racks[event.topic] = old + tuple(old[p % len(old)] for p in range(len(old), total))
    return replace(state, topics=topics, partition_racks=racks)


def _change_subscription(state: GroupState, event: ChangeSubscription) -> GroupState:
    old = _member(state, event.member_id, "change-subscription")
    new = replace(old, topics=tuple(dict.fromkeys(event.topics)))
    return replace(state, members=tuple(new if m.id == old.id else m for m in state.members))


def apply_event(state: GroupState, event: Event) -> list[GroupState]:
    """The group state(s) after ``event``: one rebalance each, two for a dynamic crash + rejoin."""
    if isinstance(event, RemoveMember):
        _member(state, event.member_id, "remove")
        return [_without(state, event.member_id)]
    if isinstance(event, AddMember):
        return [_add_member(state, event)]
    if isinstance(event, CrashRejoin):
        member = _member(state, event.member_id, "crash-rejoin")
        if member.instance_id is not None:
            return []
        gone = _without(state, member.id)
        return [gone, replace(gone, members=(*gone.members, member))]
    if isinstance(event, AddPartitions):
        return [_add_partitions(state, event)]
    if isinstance(event, ChangeSubscription):
        return [_change_subscription(state, event)]
    raise ScenarioError(f"event: unknown kind {type(event).__name__}")


@dataclass(frozen=True)
class Timeline:
    """A scenario whose steps 1.. come from events; ``labels[i]`` says what step i is."""

    scenario: Scenario
    labels: tuple[str, ...]
    notes: tuple[str, ...]
    crashed: tuple[tuple[str, ...], ...] = ()  # per step: members that left by crashing (no LeaveGroup)


def build_timeline(base: Scenario, events: Sequence[Event]) -> Timeline:
    """Replay ``events`` from ``base``'s step 0 into a new scenario (keeps name, description, weights)."""
    steps = [base.first]
    labels = ["initial group"]
    crashed: list[tuple[str, ...]] = [()]
    notes: list[str] = []
    for event in events:
        produced = apply_event(steps[-1], event)
        if not produced:
            notes.append(f"{event.label()}: static member restarts within session.timeout.ms - no rebalance")
        for i, state in enumerate(produced):
            steps.append(state)
            crashed.append((event.member_id,) if isinstance(event, CrashRejoin) and i == 0 else ())
            labels.append(event.label() if len(produced) == 1 else f"{event.label()} "
                                                                   f"({'crash' if i == 0 else 'rejoin'})")
    if len(steps) > MAX_STEPS:
        raise ScenarioError(f"timeline: at most {MAX_STEPS} steps, got {len(steps)}")
    scenario = Scenario(tuple(steps), base.name, base.description, base.weights, group_type=base.group_type,
                        streams=base.streams, current_tasks=base.current_tasks)
    return Timeline(scenario, tuple(labels), tuple(notes), tuple(crashed))


def append_event(base: Scenario, events: Sequence[Event], event: Event) -> list[Event]:
    """``events`` plus ``event`` if the timeline still builds from ``base``; else ``ScenarioError``."""
    extended = [*events, event]
    build_timeline(base, extended)
    return extended


def default_events(base: Scenario) -> list[Event]:
    """The timeline shown before any event is chosen: the last consumer leaves."""
    return [RemoveMember(base.first.members[-1].id)] if base.first.members else []


def free_member_id(scenario: Scenario, prefix: str = "C") -> str:
    """The first ``C<n>`` no step of ``scenario`` uses (the id a joining consumer is offered)."""
    taken = {m.id for step in scenario.steps for m in step.members}
    return next(f"{prefix}{i}" for i in range(len(taken) + 1) if f"{prefix}{i}" not in taken)


def step_labels(scenario: Scenario) -> tuple[str, ...]:
    """Describe each step of a scenario by diffing it with the previous one (for saved/preset steps)."""
    labels = ["initial group"]
    for prev, cur in zip(scenario.steps, scenario.steps[1:], strict=False):
        labels.append(describe_change(prev, cur))
    return tuple(labels)


def describe_change(prev: GroupState, cur: GroupState) -> str:
    old = {m.id: m for m in prev.members}
    new = {m.id: m for m in cur.members}
    parts = [f"{m} leaves" for m in old if m not in new]
    parts += [f"{m} joins" for m in new if m not in old]
    parts += [f"{m} changes subscription" for m in new
              if m in old and set(new[m].topics) != set(old[m].topics)]
    parts += [f"{t}: {prev.topics.get(t, 0)} -> {n} partitions" for t, n in cur.topics.items()
              if prev.topics.get(t) != n]
    parts += [f"{t} deleted" for t in prev.topics if t not in cur.topics]
    return "; ".join(parts) or "rejoin (no change)"


def events_between(prev: GroupState, cur: GroupState) -> list[Event] | None:
    """The events that turn ``prev`` into ``cur`` (leaves, joins, new subscriptions, added partitions), or
    None when the change is not one of them (a topic deleted or shrunk, a rack or instance id changed).

    >>> a = GroupState({"t0": 2}, (Member("C0", ("t0",)), Member("C1", ("t0",))))
    >>> events_between(a, GroupState({"t0": 4}, (Member("C0", ("t0",)),)))
    [RemoveMember(member_id='C1'), AddPartitions(topic='t0', count=2)]
    """
    old, new = {m.id: m for m in prev.members}, {m.id: m for m in cur.members}
    out: list[Event] = [RemoveMember(m) for m in old if m not in new]
    for m in new.values():
        if m.id not in old:
            out.append(AddMember(m.id, m.topics, m.rack, m.instance_id, m.process))
        elif (m.rack, m.instance_id, m.process) != (old[m.id].rack, old[m.id].instance_id, old[m.id].process):
            return None
        elif m.topics != old[m.id].topics:
            out.append(ChangeSubscription(m.id, m.topics))
    for topic, count in prev.topics.items():
        grown = cur.topics.get(topic, 0) - count
        if grown < 0:
            return None
        if grown:
            out.append(AddPartitions(topic, grown))
    if set(cur.topics) - set(prev.topics):
        return None
    return out


def rebuild_steps(old: Scenario, first: GroupState) -> tuple[Scenario, str | None]:
    """``old``'s later steps replayed as events on an edited step 0 (``first``), and a notice for the user.

    A preset's "C1 leaves" stays "C1 leaves" of the edited group; a step that no longer fits (C1 is gone)
    or that is not a plain event drops every later step, and the notice says so.  None: nothing to say.
    """
    alone = replace(old, steps=(first,))
    if len(old.steps) == 1:
        return alone, None
    steps = [first]
    for prev, cur in zip(old.steps, old.steps[1:], strict=False):
        found = events_between(prev, cur)
        if found is None:
            return alone, "The later rebalance steps were dropped: they do not replay as events on the edited group."
        state = steps[-1]
        try:
            for event in found:
                state = apply_event(state, event)[0]
        except ScenarioError as exc:
            return alone, f"The later rebalance steps were dropped: {exc}."
        steps.append(state)
    rebuilt = replace(old, steps=tuple(steps))
    return rebuilt, ("The later rebalance steps were rebuilt on the edited group: "
                     + "; ".join(step_labels(rebuilt)[1:]) + ".")
