"""The classic consumer-group protocol step by step: FIND_COORDINATOR, JOIN_GROUP, SYNC_GROUP, HEARTBEAT.

* Coordinator: ``__consumer_offsets`` partition
  ``Utils.abs(groupId.hashCode()) % offsets.topic.num.partitions`` (50); its leader broker is the group
  coordinator (``find_coordinators``).
* Strategy election (``ClassicGroup.selectProtocol``): a member may join only if the group is empty
  (then it needs a non-empty protocol list) or at least one of its protocols is supported by every
  current member (``supportsProtocols``), else JoinGroup fails with ``INCONSISTENT_GROUP_PROTOCOL``.
  The candidates are the protocols every member supports; each member votes for the first candidate in
  its own ``partition.assignment.strategy`` list; the most votes wins (a tie goes to the first maximum
  in ``HashMap<String, Integer>`` order).
* The first member to join leads; the leader alone runs the selected assignor and sends every
  member's assignment in its SyncGroup request; each member gets its own in the SyncGroup response.
* The client rebalance protocol (``ConsumerCoordinator``): the highest protocol supported by ALL the
  configured assignors — COOPERATIVE only if every strategy in the list is cooperative.

Worked example (asserted in tests/engine/consumer/test_protocol.py): members A ``[range]`` and B
``[cooperative-sticky, range]`` -> candidates ``{range}`` -> both vote range -> ``range``; once A is
also ``[cooperative-sticky, range]`` the vote is ``cooperative-sticky`` (while both still rebalance
EAGER, because their lists contain ``range``); after the second bounce to ``[cooperative-sticky]`` the
group rebalances COOPERATIVE.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.consumer.strategies import REBALANCE_PROTOCOLS, is_strategy, strategy_names, strategy_of
from engine.coordinator.offsets_partition import coordinator_partition
from engine.errors import LimitError, ScenarioError
from engine.java.strings import string_hash_code, string_hashmap_order
from engine.scenario import GroupState

OFFSETS_PARTITIONS = 50
INCONSISTENT_GROUP_PROTOCOL = "INCONSISTENT_GROUP_PROTOCOL"
INCONSISTENT_MESSAGE = (
    "The group member's supported protocols are incompatible with those of existing members or first group "
    "member tried to join with empty protocol type or empty protocol list."
)
MAX_MEMBERS = 1_000
MAX_STRATEGIES = 10

# Kafka defaults (ConsumerConfig / GroupCoordinatorConfig)
DEFAULT_SESSION_TIMEOUT_MS = 45_000
DEFAULT_HEARTBEAT_INTERVAL_MS = 3_000
DEFAULT_MAX_POLL_INTERVAL_MS = 300_000
GROUP_MIN_SESSION_TIMEOUT_MS = 6_000
GROUP_MAX_SESSION_TIMEOUT_MS = 1_800_000
GROUP_INITIAL_REBALANCE_DELAY_MS = 3_000


MAX_GROUP_IDS = 100_000
MAX_GROUP_ID_CHARS = 10_000


@dataclass(frozen=True)
class CoordinatorLookup:
    """FIND_COORDINATOR for one group: Java's ``groupId.hashCode()``, the ``__consumer_offsets`` partition."""

    group_id: str
    java_hashcode: int
    partition: int


def find_coordinators(group_ids: Sequence[str],
                      partitions: int = OFFSETS_PARTITIONS) -> list[CoordinatorLookup]:
    """``Utils.abs(groupId.hashCode()) % partitions`` per group (``"my-group"`` -> hashCode -1906497762, 12).

    At most ``MAX_GROUP_IDS`` ids of at most ``MAX_GROUP_ID_CHARS`` characters (``LimitError``).
    """
    if len(group_ids) > MAX_GROUP_IDS:
        raise LimitError(f"group ids: at most {MAX_GROUP_IDS:,}, got {len(group_ids):,}")
    out = []
    for i, group_id in enumerate(group_ids):
        if len(group_id) > MAX_GROUP_ID_CHARS:
            raise LimitError(f"group ids[{i}]: longer than {MAX_GROUP_ID_CHARS:,} characters")
        partition = coordinator_partition(group_id, partitions)
        out.append(CoordinatorLookup(group_id, string_hash_code(group_id), partition))
    return out


@dataclass(frozen=True)
class MemberProtocols:
    """A member's id and its ``partition.assignment.strategy`` list, in preference order."""

    member_id: str
    strategies: tuple[str, ...]
    instance_id: str | None = None


@dataclass(frozen=True)
class Election:
    """The outcome of the JoinGroup phase for members joining in list order."""

    accepted: tuple[str, ...]
    rejected: dict[str, str]                      # member -> error line
    candidates: tuple[str, ...]                   # protocols every accepted member supports (sorted)
    votes: dict[str, str]                         # member -> the protocol it votes for
    vote_counts: dict[str, int]                   # in Java HashMap order
    selected: str | None
    leader: str | None
    rebalance_protocols: dict[str, str] = field(default_factory=dict)  # member -> EAGER / COOPERATIVE


def client_rebalance_protocol(strategies: Sequence[str]) -> str:
    """``ConsumerCoordinator``: the highest ``RebalanceProtocol`` every configured assignor supports."""
    if not strategies:
        raise ScenarioError("partition.assignment.strategy: must list at least one strategy, got []")
    common = set(REBALANCE_PROTOCOLS)
    for name in strategies:
        common &= set(_protocols_of(name))
    if not common:
        raise ScenarioError(f"partition.assignment.strategy: {list(strategies)} have no commonly supported "
                            "rebalance protocol")
    return max(common, key=REBALANCE_PROTOCOLS.index)


def _protocols_of(name: str) -> tuple[str, ...]:
    """``ConsumerPartitionAssignor.supportedProtocols`` of a strategy, from the registry."""
    if not is_strategy(name):
        raise ScenarioError(f"strategy: unknown {name!r} (one of {', '.join(strategy_names())})")
    return strategy_of(name).supported_protocols


def _check(members: Sequence[MemberProtocols]) -> None:
    if len(members) > MAX_MEMBERS:
        raise ScenarioError(f"members: at most {MAX_MEMBERS}, got {len(members)}")
    seen: set[str] = set()
    for m in members:
        if not m.member_id or m.member_id in seen:
            raise ScenarioError(f"members: ids must be unique and non-empty, got {m.member_id!r}")
        seen.add(m.member_id)
        if len(m.strategies) > MAX_STRATEGIES:
            raise ScenarioError(f"member {m.member_id!r}: at most {MAX_STRATEGIES} strategies, got "
                                f"{len(m.strategies)}")
        if len(set(m.strategies)) != len(m.strategies):
            raise ScenarioError(f"member {m.member_id!r}: strategy listed twice in {list(m.strategies)}")
        for s in m.strategies:
            _protocols_of(s)


def elect_protocol(members: Sequence[MemberProtocols]) -> Election:
    """JoinGroup for each member in order, then ``selectProtocol`` over the accepted members."""
    _check(members)
    supported: dict[str, int] = {}
    accepted: list[MemberProtocols] = []
    rejected: dict[str, str] = {}
    for m in members:
        if not accepted:
            ok = bool(m.strategies)  # group EMPTY: a protocol type and a non-empty list suffice
        else:
            ok = any(supported.get(s, 0) == len(accepted) for s in m.strategies)
        if not ok:
            rejected[m.member_id] = (f"{INCONSISTENT_GROUP_PROTOCOL}: Member {m.member_id} does not support "
                                     f"any protocol every member supports ({INCONSISTENT_MESSAGE})")
            continue
        accepted.append(m)
        for s in m.strategies:
            supported[s] = supported.get(s, 0) + 1
    if not accepted:
        return Election((), rejected, (), {}, {}, None, None)
    candidates = {s for s, n in supported.items() if n == len(accepted)}
    votes = {m.member_id: next(s for s in m.strategies if s in candidates) for m in accepted}
    counts: dict[str, int] = {}
    for protocol in votes.values():
        counts[protocol] = counts.get(protocol, 0) + 1
    ordered = {p: counts[p] for p in string_hashmap_order(counts)}
    selected = None
    for p, n in ordered.items():  # Stream.max keeps the first maximum
        if selected is None or n > ordered[selected]:
            selected = p
    return Election(
        accepted=tuple(m.member_id for m in accepted),
        rejected=rejected,
        candidates=tuple(sorted(candidates)),
        votes=votes,
        vote_counts=ordered,
        selected=selected,
        leader=accepted[0].member_id,
        rebalance_protocols={m.member_id: client_rebalance_protocol(m.strategies) for m in accepted},
    )


# ------------------------------------------------------------------------------- rolling upgrade


@dataclass(frozen=True)
class UpgradeStage:
    """The group right after one member restarted with a new strategy list."""

    bounce: int                 # 1 or 2
    member: str
    strategies: dict[str, tuple[str, ...]]
    election: Election


def rolling_upgrade(
    member_ids: Sequence[str],
    start: Sequence[str] = ("range",),
    first_bounce: Sequence[str] = ("cooperative-sticky", "range"),
    second_bounce: Sequence[str] = ("cooperative-sticky",),
) -> list[UpgradeStage]:
    """The two-bounce upgrade from an eager strategy to cooperative-sticky, one member at a time.

    A restarted member leaves and joins again, so it joins a group made of the others (it is the last
    to join; members a previous stage rejected retry after the group's members).  Passing
    ``first_bounce=()`` skips the first bounce, showing the ``INCONSISTENT_GROUP_PROTOCOL`` a direct
    switch runs into (the rejected consumer fails with ``InconsistentGroupProtocolException``).
    """
    lists = {m: tuple(start) for m in member_ids}
    in_group = set(member_ids)
    stages: list[UpgradeStage] = []
    bounces = [(1, tuple(first_bounce))] if first_bounce else []
    bounces.append((2, tuple(second_bounce)))
    for bounce, target in bounces:
        for member in member_ids:
            lists[member] = target
            others = [m for m in member_ids if m != member]
            order = [m for m in others if m in in_group] + [m for m in others if m not in in_group] + [member]
            election = elect_protocol([MemberProtocols(m, lists[m]) for m in order])
            in_group = set(election.accepted)
            stages.append(UpgradeStage(bounce, member, dict(lists), election))
    return stages


# ------------------------------------------------------------------------------------ walkthrough


@dataclass(frozen=True)
class Timeouts:
    session_timeout_ms: int = DEFAULT_SESSION_TIMEOUT_MS
    heartbeat_interval_ms: int = DEFAULT_HEARTBEAT_INTERVAL_MS
    max_poll_interval_ms: int = DEFAULT_MAX_POLL_INTERVAL_MS

    def problems(self) -> list[str]:
        """What Kafka would refuse: client config checks and the broker's session-timeout bounds."""
        out = []
        if self.heartbeat_interval_ms >= self.session_timeout_ms:
            out.append("heartbeat.interval.ms must be lower than session.timeout.ms (the consumer refuses "
                       "the config)")
        if not GROUP_MIN_SESSION_TIMEOUT_MS <= self.session_timeout_ms <= GROUP_MAX_SESSION_TIMEOUT_MS:
            out.append(f"INVALID_SESSION_TIMEOUT: session.timeout.ms must be within the broker's "
                       f"group.min.session.timeout.ms ({GROUP_MIN_SESSION_TIMEOUT_MS}) and "
                       f"group.max.session.timeout.ms ({GROUP_MAX_SESSION_TIMEOUT_MS})")
        if self.heartbeat_interval_ms * 3 > self.session_timeout_ms:
            out.append("heartbeat.interval.ms is above a third of session.timeout.ms (Kafka's guidance): "
                       "fewer than 3 heartbeats fit in a session")
        return out


@dataclass(frozen=True)
class ProtocolStep:
    api: str
    sender: str
    receiver: str
    request: str
    response: str
    note: str


def walkthrough(
    group_id: str,
    members: Sequence[MemberProtocols],
    assignment: dict[str, list[str]] | None = None,
    timeouts: Timeouts = Timeouts(),
) -> tuple[Election, list[ProtocolStep]]:
    """The request/response sequence of one rebalance of a new group."""
    election = elect_protocol(members)
    partition = coordinator_partition(group_id)
    coordinator = f"leader of __consumer_offsets-{partition}"
    steps = [ProtocolStep(
        "FIND_COORDINATOR", "every member", "any broker", f"key={group_id!r}, key_type=GROUP",
        f"the broker leading __consumer_offsets-{partition}",
        f"abs(hashCode({group_id!r}) = {string_hash_code(group_id)}) % {OFFSETS_PARTITIONS} = {partition}",
    )]
    for m in members:
        steps.extend(_join_steps(m, election, coordinator, timeouts))
    if election.leader is not None:
        steps.extend(_sync_steps(election, coordinator, assignment or {}, timeouts))
    return election, steps


def _join_steps(m: MemberProtocols, election: Election, coordinator: str, timeouts: Timeouts) -> list[ProtocolStep]:
    """One member's JoinGroup(s): refused, or (dynamic members) MEMBER_ID_REQUIRED then the real join."""
    if m.member_id in election.rejected:
        return [ProtocolStep("JOIN_GROUP", m.member_id, coordinator, f"protocols={list(m.strategies)}",
                             INCONSISTENT_GROUP_PROTOCOL, election.rejected[m.member_id])]
    steps = []
    if m.instance_id is None:
        steps.append(ProtocolStep("JOIN_GROUP", m.member_id, coordinator, "member_id='' (first attempt)",
                                  "MEMBER_ID_REQUIRED + a member id (clientId-UUID)",
                                  "KIP-394: a dynamic member must rejoin with the id it was given"))
    role = "leader" if m.member_id == election.leader else "follower"
    steps.append(ProtocolStep(
        "JOIN_GROUP", m.member_id, coordinator,
        f"protocol_type=consumer, protocols={list(m.strategies)}"
        + (f", group_instance_id={m.instance_id!r}" if m.instance_id else "")
        + f", session_timeout={timeouts.session_timeout_ms}, "
          f"rebalance_timeout={timeouts.max_poll_interval_ms}",
        f"protocol_name={election.selected!r}, leader={election.leader!r}"
        + (", members=[every member's subscription]" if role == "leader" else ", members=[]"),
        f"{role}; the coordinator waits for every known member (up to the rebalance timeout; a new group "
        f"also waits group.initial.rebalance.delay.ms = {GROUP_INITIAL_REBALANCE_DELAY_MS})",
    ))
    return steps


def _sync_steps(election: Election, coordinator: str, assignment: dict[str, list[str]],
                timeouts: Timeouts) -> list[ProtocolStep]:
    """The leader's SyncGroup with every assignment, the followers' empty ones, then heartbeats."""
    assert election.leader is not None
    steps = [ProtocolStep(
        "SYNC_GROUP", election.leader, coordinator,
        f"assignments for all {len(election.accepted)} members, computed by the leader's "
        f"{election.selected!r} assignor",
        f"its own assignment: {assignment.get(election.leader, '...')}",
        "only the leader sends assignments; the coordinator stores them and answers every SyncGroup",
    )]
    for member in election.accepted[1:]:
        steps.append(ProtocolStep("SYNC_GROUP", member, coordinator, "assignments=[] (follower)",
                                  f"its assignment: {assignment.get(member, '...')}",
                                  "followers wait for the leader's SyncGroup"))
    steps.append(ProtocolStep(
        "HEARTBEAT", "every member", coordinator, f"every heartbeat.interval.ms = {timeouts.heartbeat_interval_ms}",
        "NONE, or REBALANCE_IN_PROGRESS (rejoin now)",
        f"no heartbeat for session.timeout.ms = {timeouts.session_timeout_ms} -> the member is removed; "
        f"no poll() for max.poll.interval.ms = {timeouts.max_poll_interval_ms} -> the consumer leaves "
        "the group",
    ))
    return steps


REBALANCE_TRIGGERS: tuple[tuple[str, str], ...] = (
    ("a member joins", "JoinGroup from a new member (or a static member whose session had expired)"),
    ("a member leaves", "LeaveGroup on close() (dynamic members; static members do not send it)"),
    ("session timeout", "no heartbeat within session.timeout.ms: the coordinator removes the member"),
    ("poll timeout", "poll() not called within max.poll.interval.ms: the consumer sends LeaveGroup"),
    ("subscription change", "a member subscribes to a different topic list or pattern match"),
    ("partitions added", "the leader sees a subscribed topic's partition count change in metadata"),
)


def parse_strategy_lines(text: str, known_members: Sequence[str] = ()) -> list[MemberProtocols]:
    """``"C0: cooperative-sticky, range"`` per line -> members in line order (the join order).

    Raises ``ScenarioError`` naming the line for anything else.  At most ``MAX_MEMBERS`` lines.
    """
    out: list[MemberProtocols] = []
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > MAX_MEMBERS:
        raise ScenarioError(f"strategy lists: at most {MAX_MEMBERS} lines, got {len(lines)}")
    for number, line in enumerate(lines, start=1):
        member, sep, rest = line.partition(":")
        member = member.strip()
        if not sep or not member:
            raise ScenarioError(f"line {number}: expected 'member: strategy, strategy', got "
                                f"{line.strip()[:60]!r}")
        if len(member) > 249:
            raise ScenarioError(f"line {number}: member id longer than 249 characters")
        strategies = tuple(s.strip() for s in rest.split(",") if s.strip())
        for s in strategies:
            if not is_strategy(s):
                raise ScenarioError(f"line {number}: unknown strategy {s[:60]!r} "
                                    f"(one of {', '.join(strategy_names())})")
        out.append(MemberProtocols(member, strategies))
    _check(out)
    return out


# ------------------------------------------------------------------------------------ as tables


def sync_group_state(state: GroupState, election: Election) -> GroupState | None:
    """The group the SyncGroup assigns: ``state`` with the accepted members only, if all of them are in it."""
    accepted = set(election.accepted)
    if election.selected is None or not accepted <= set(state.member_ids):
        return None
    return GroupState(topics=state.topics, members=tuple(m for m in state.members if m.id in accepted),
                      partition_racks=state.partition_racks)


def vote_rows(members: Sequence[MemberProtocols], election: Election) -> list[dict[str, Any]]:
    """Per member: its strategy list, its vote and the rebalance protocol its client runs."""
    return [
        {
            "member": m.member_id,
            "strategies": ", ".join(m.strategies),
            "votes for": election.votes.get(m.member_id, "— rejected"),
            "client rebalance protocol": election.rebalance_protocols.get(m.member_id, "—"),
        }
        for m in members
    ]


def walkthrough_rows(steps: Sequence[ProtocolStep]) -> list[dict[str, str]]:
    return [{"api": s.api, "from": s.sender, "request": s.request, "response": s.response, "note": s.note}
            for s in steps]


def upgrade_rows(stages: Sequence[UpgradeStage]) -> list[dict[str, Any]]:
    """Per restart of the rolling upgrade: the lists, the vote, the rebalance protocols, who is rejected."""
    return [{"bounce": s.bounce, "restarted": s.member,
             "lists": "; ".join(f"{m}=[{', '.join(v)}]" for m, v in s.strategies.items()),
             "vote selects": s.election.selected or "—",
             "rebalance protocols": ", ".join(sorted(set(s.election.rebalance_protocols.values()))),
             "rejected": ", ".join(s.election.rejected) or ""} for s in stages]
