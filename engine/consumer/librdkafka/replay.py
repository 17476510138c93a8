"""A classic consumer group of librdkafka clients, replayed over a scenario's rebalance steps.

Per step, every member that has at least one existing subscribed topic joins (a librdkafka
consumer whose subscription matches no topic does not send JoinGroup at all:
``rd_kafka_cgrp_join`` returns early), in the order the step lists them; that order IS the
JoinGroup member order the leader sees.  librdkafka never re-sorts that array before the
assignor; range and roundrobin sort by member id themselves, cooperative-sticky walks it.
On librdkafka's mock cluster (``rdkafka_mock_cgrp.c``) the order is first-join order, kept
across rebalances (members are appended to a TAILQ and only removed when they leave); its
leader is the first member, unless that one is static, then the static member with the lowest
``group.instance.id``.  Real member ids are broker-generated, and since the assignors order
members by id, feed the ids the broker really assigned.

Per round, each member sends its subscription (existing topics, ``strcmp`` order), its owned
partitions (its group assignment, sorted) and its generation (-1 until its assignor state
exists: cooperative-sticky only).  EAGER strategies (range, roundrobin) revoke everything before
joining.  COOPERATIVE (cooperative-sticky) drops only partitions of topics it no longer
subscribes to, or that no longer exist; the leader adjusts the assignor's answer
(``adjust_assignment``) and every member that lost a partition revokes it and rejoins, which
triggers a follow-up round for the whole group, until a round revokes nothing.

Generations count rebalance rounds from 1, as a Kafka broker does (the mock cluster's
generation ids are one higher: it starts at 1 and increments before the first election).

Worked example: see ``replay_librdkafka``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.consumer.group import StepResult, count_moves
from engine.consumer.librdkafka import range as range_assignor
from engine.consumer.librdkafka import roundrobin as roundrobin_assignor
from engine.consumer.librdkafka import sticky as sticky_assignor
from engine.consumer.librdkafka.cooperative import adjust_assignment
from engine.consumer.librdkafka.eligible import eligible_topics, requested_topics
from engine.consumer.librdkafka.metadata_cache import MetadataCache
from engine.consumer.librdkafka.model import Assignment, GroupMember, TopicMetadata, c_cmp, c_key, tp_c_key
from engine.errors import EngineError
from engine.scenario import GroupState, Member, Scenario, TopicPartition

STRATEGIES = ("range", "roundrobin", "cooperative-sticky")
COOPERATIVE = ("cooperative-sticky",)
DEFAULT_MAX_ROUNDS = 50

_ASSIGNORS = {
    "range": range_assignor.assign,
    "roundrobin": roundrobin_assignor.assign,
    "cooperative-sticky": sticky_assignor.assign,
}


@dataclass(frozen=True)
class LibrdkafkaStepResult(StepResult):
    """``StepResult`` plus what only librdkafka's replay knows.

    ``assignor_rounds``: the assignor's raw answer in each round (before the cooperative
    adjustment), member lists in the order the assignor built them and members in the order
    the leader's debug log prints them.  ``joined``: the members in JoinGroup order.
    """

    assignor_rounds: tuple[Assignment, ...] = ()
    joined: tuple[str, ...] = field(default_factory=tuple)


@dataclass
class ClientState:
    """A librdkafka consumer between rebalances: its group assignment and assignor state, the
    subscription it joined with, and its metadata cache (``metadata_cache``)."""

    member: Member
    owned: list[TopicPartition] = field(default_factory=list)
    generation: int = -1
    topics: tuple[str, ...] = ()
    cache: MetadataCache = field(default_factory=MetadataCache)


def step_metadata(state: GroupState, topics: Sequence[str]) -> list[TopicMetadata]:
    """The leader's Metadata response for these topics (request order), with replica racks.

    >>> st = GroupState({"t0": 2, "t1": 1}, (), {"t0": (("r2", "r1", "r2"), ())})
    >>> step_metadata(st, ["t1", "t0"])
    [TopicMetadata(name='t1', partition_count=1, racks=()), \
TopicMetadata(name='t0', partition_count=2, racks=(('r1', 'r2'), ()))]
    """
    out = []
    for topic in topics:
        racks = state.partition_racks.get(topic, ())
        out.append(TopicMetadata(topic, state.topics[topic],
                                 tuple(tuple(sorted(set(r), key=c_key)) for r in racks)))
    return out


def effective_topics(member: Member, state: GroupState) -> tuple[str, ...]:
    """What a member subscribes to in JoinGroup: its existing topics in ``strcmp`` order.

    >>> effective_topics(Member("m", ("t2", "gone", "t10")), GroupState({"t2": 1, "t10": 1}, ()))
    ('t10', 't2')
    """
    return tuple(sorted((t for t in set(member.topics) if state.topics.get(t, 0) > 0), key=c_key))


def mock_leader(members: Sequence[Member]) -> str:
    """``rd_kafka_mock_cgrp_classic_elect_leader``: first member, or the lowest static id.

    >>> mock_leader([Member("x", (), instance_id="s2"), Member("y", ()), Member("z", (), instance_id="s1")])
    'z'
    >>> mock_leader([Member("y", ()), Member("z", (), instance_id="s1")])
    'y'
    """
    leader = members[0]
    for m in members[1:]:
        if leader.instance_id is not None and m.instance_id is not None and c_cmp(leader.instance_id,
                                                                                 m.instance_id) > 0:
            leader = m
    return leader.id


def _sorted(tps: Iterable[TopicPartition]) -> list[TopicPartition]:
    return sorted(tps, key=tp_c_key)


class LibrdkafkaGroupReplay:
    """Drives one librdkafka strategy through a scenario's steps."""

    def __init__(self, strategy: str, max_rounds: int = DEFAULT_MAX_ROUNDS) -> None:
        if strategy not in STRATEGIES:
            raise EngineError(f"strategy: librdkafka offers {', '.join(STRATEGIES)}, got {strategy!r}")
        if max_rounds < 1:
            raise EngineError(f"max_rounds: must be >= 1, got {max_rounds}")
        self.strategy = strategy
        self.max_rounds = max_rounds
        self.clients: dict[str, ClientState] = {}
        self.generation = 0
        self.leader = ""
        self.metadata: list[TopicMetadata] = []
        self.previous: Assignment | None = None

    @property
    def cooperative(self) -> bool:
        return self.strategy in COOPERATIVE

    def _stalls(self, client: ClientState, subscription: tuple[str, ...],
                topics: tuple[str, ...]) -> list[TopicPartition]:
        """Partitions a cooperative client drops WITHOUT rejoining when the application changes
        its subscription.

        A new subscription with a topic missing from the client's metadata cache is applied after
        a Metadata request (``rd_kafka_cgrp_modify_subscription``); then
        ``rd_kafka_cgrp_metadata_update_check`` treats the owned partitions of dropped topics as
        lost and rejoins only if the client is the group leader.  Empty: it rejoins.
        """
        if not self.cooperative or set(subscription) <= client.cache.topics or client.member.id == self.leader:
            return []
        return [tp for tp in client.owned if tp.topic not in topics]

    def _metadata_changed(self, state: GroupState) -> bool:
        """A topic of the last round's Metadata changed (partition count, replica racks, gone)."""
        known = [t for t in self.metadata if state.topics.get(t.name, 0) > 0]
        return len(known) != len(self.metadata) or step_metadata(state, [t.name for t in known]) != known

    def _join(self, state: GroupState) -> tuple[bool, Assignment]:
        """Membership and subscription changes: (does the group rebalance?, revoked before join).

        A scenario step is a rebalance (as in the Java replay: a step without changes is a
        forced rejoin), except when its only changes are subscription changes that librdkafka
        applies without rejoining (``_stalls``).
        """
        joining = [m for m in state.members if effective_topics(m, state)]
        rebalance = not self.clients or [m.id for m in joining] != list(self.clients)
        rebalance = rebalance or self._metadata_changed(state)
        stalled_any = False
        clients: dict[str, ClientState] = {}
        dropped: Assignment = {}
        for m in joining:
            topics = effective_topics(m, state)
            client = self.clients.get(m.id)
            if client is None:
                client = ClientState(m, topics=topics, cache=MetadataCache(topics=set(m.topics)))
            elif set(m.topics) != set(client.member.topics):
                stalled = self._stalls(client, m.topics, topics)
                rebalance = rebalance or not stalled
                stalled_any = stalled_any or bool(stalled)
                dropped[m.id] = stalled
                client.cache.subscribe(m.id, m.topics)
            elif topics != client.topics:
                rebalance = True  # a subscribed topic appeared or disappeared: metadata-driven rejoin
            client.topics = topics
            client.member = m
            clients[m.id] = client
        self.clients = clients
        if not rebalance and stalled_any:
            for member_id, tps in dropped.items():
                client = clients[member_id]
                client.owned = [tp for tp in client.owned if tp not in tps]
            return False, {m: _sorted(tps) for m, tps in dropped.items()}
        revoked: Assignment = {}
        for client in clients.values():
            if not self.cooperative:
                client.owned = []
                continue
            revoked[client.member.id] = [tp for tp in client.owned if tp.topic not in client.topics]
            client.owned = [tp for tp in client.owned if tp.topic in client.topics]
        return True, revoked

    def _group_members(self, state: GroupState) -> list[GroupMember]:
        return [
            GroupMember(
                member_id=c.member.id,
                subscription=effective_topics(c.member, state),
                instance_id=c.member.instance_id,
                rack=c.member.rack or "",
                owned=tuple(c.owned),
                generation=c.generation,
            )
            for c in self.clients.values()
        ]

    def _round(self, state: GroupState) -> tuple[Assignment, Assignment]:
        """One JoinGroup/SyncGroup round: (the assignor's raw answer, what each member receives)."""
        self.generation += 1
        members = self._group_members(state)
        requested = requested_topics(members)
        metadata = step_metadata(state, requested)
        self.metadata = metadata
        self.leader = mock_leader([c.member for c in self.clients.values()])
        leader = self.clients[self.leader]
        leader.cache.leader_fetch(requested, rack_less=not leader.member.rack,
                                  any_member_rack=any(m.rack for m in members),
                                  racked={t.name for t in metadata if any(t.racks)})
        raw = _ASSIGNORS[self.strategy](members, eligible_topics(metadata, members))
        received = adjust_assignment(members, raw) if self.cooperative else raw
        for client in self.clients.values():
            client.owned = _sorted(received.get(client.member.id, []))
            if self.cooperative:
                client.generation = self.generation
        return raw, {m: _sorted(received.get(m, [])) for m in self.clients}

    def step(self, state: GroupState) -> LibrdkafkaStepResult:
        """Apply one scenario step and report it as the Java replay does.

        A step with no membership, subscription or metadata change runs no rebalance
        (``rounds == 0``, generation unchanged); see ``_stalls`` for the one subscription change
        that does not rebalance either.
        """
        rebalance, revoked_before = self._join(state)
        if not self.clients:
            return self._finish(state, {}, 0, True, None, None, None, ())
        if not rebalance:
            held = {m: list(c.owned) for m, c in self.clients.items()}
            return self._finish(state, held, 0, True, held if self.cooperative else None,
                                revoked_before if self.cooperative else None,
                                {m: [] for m in held} if self.cooperative else None, ())
        owned_at_join = {m: set(c.owned) for m, c in self.clients.items()}
        raw, first = self._round(state)
        rounds, final, raws = 1, first, [raw]
        converged = True
        revoked_first = {m: _sorted(owned_at_join[m] - set(first[m])) for m in first}
        lost = self.cooperative and any(revoked_first.values())
        while lost:
            if rounds >= self.max_rounds:
                converged = False
                break
            before = {m: set(c.owned) for m, c in self.clients.items()}
            raw, final = self._round(state)
            raws.append(raw)
            rounds += 1
            lost = any(before[m] - set(final[m]) for m in final)
        if not self.cooperative:
            return self._finish(state, final, 1, True, None, None, None, tuple(raws))
        return self._finish(state, final, rounds, converged, first, revoked_before, revoked_first,
                            tuple(raws))

    def _finish(self, state: GroupState, final: Assignment, rounds: int, converged: bool,
                first: Assignment | None, revoked_before: Assignment | None,
                revoked_first: Assignment | None, raws: tuple[Assignment, ...]) -> LibrdkafkaStepResult:
        full = {m.id: list(final.get(m.id, [])) for m in state.members}
        moved, moved_remaining = count_moves(self.previous, full)
        self.previous = full
        joined = [c.member for c in self.clients.values()]
        return LibrdkafkaStepResult(
            assignment=full,
            moved=moved,
            moved_from_remaining=moved_remaining,
            generation=self.generation,
            leader=self.leader if joined else "",
            rounds=rounds,
            converged=converged,
            first_round_assignment=first,
            revoked_before_join=revoked_before,
            revoked_first_round=revoked_first,
            assignor_rounds=raws,
            joined=tuple(m.id for m in joined),
        )


def replay_librdkafka(scenario: Scenario, strategy: str,
                      max_rounds: int = DEFAULT_MAX_ROUNDS) -> list[LibrdkafkaStepResult]:
    """Every step of the scenario with librdkafka clients (member order = JoinGroup order).

    >>> from engine.scenario import parse_scenario
    >>> sc = parse_scenario({"steps": [
    ...     {"topics": {"t0": 4}, "members": [{"id": "a", "topics": ["t0"]}, {"id": "b", "topics": ["t0"]}]},
    ...     {"topics": {"t0": 4}, "members": [{"id": "a", "topics": ["t0"]}]}]})
    >>> steps = replay_librdkafka(sc, "cooperative-sticky")
    >>> [{m: [str(tp) for tp in tps] for m, tps in s.assignment.items()} for s in steps]
    [{'a': ['t0-0', 't0-2'], 'b': ['t0-1', 't0-3']}, {'a': ['t0-0', 't0-1', 't0-2', 't0-3']}]
    >>> [(s.generation, s.rounds, s.moved) for s in steps]
    [(1, 1, 0), (2, 1, 2)]
    """
    group = LibrdkafkaGroupReplay(strategy, max_rounds)
    if scenario.current_assignment:
        raise EngineError("current_assignment: not modelled for the librdkafka client (its replay starts from a "
                          "new group)")
    return [group.step(state) for state in scenario.steps]


def assign_state(state: GroupState, strategy: str) -> Assignment:
    """The assignment a new group of librdkafka clients in this state ends with (step 0)."""
    return LibrdkafkaGroupReplay(strategy).step(state).assignment
