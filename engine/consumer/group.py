"""Replay of Kafka's classic consumer-group protocol over a sequence of rebalances.

Exactly the protocol of ../shared/vectors/README.md: the group generation is +1 per rebalance
round; eager strategies (range, roundrobin, sticky) revoke everything before rejoining;
cooperative-sticky revokes only partitions of topics that left a member's subscription, keeps
the rest as ``ownedPartitions`` and runs follow-up rounds while any member loses a partition.
Each member has its own assignor instance, so sticky's user data and generation are Kafka's.

Worked example (seed article 002/004, sticky): C0..C2 on t0..t3 with 2 partitions each, then C1
leaves.  ``replay`` reports for step 1 ``moved == 3`` (C1's three partitions) and
``moved_from_remaining == 0``: sticky moved nothing that a remaining member owned.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.consumer.assignment import Assignment, assignment_to_json, count_moves, merged, revoked
from engine.consumer.assignors.common import Cluster, Subscription
from engine.consumer.strategies import ConsumerPartitionAssignor, Strategy, parse_strategy, strategy_of
from engine.cost import CLI_CEILING, admit, estimate_assign_command
from engine.errors import EngineError
from engine.gcpause import gc_paused
from engine.java.strings import string_hashmap_order
from engine.scenario import GroupState, Member, Scenario, TopicPartition, parse_scenario, tp_sort_key

DEFAULT_MAX_ROUNDS = 50


class AssignorError(EngineError):
    """Kafka's assignor itself threw (reported as Kafka would, not as bad input)."""


@dataclass(frozen=True)
class StepResult:
    """What one rebalance step ends with (``moved`` counts as ../shared/vectors/README.md says)."""

    assignment: Assignment
    moved: int
    moved_from_remaining: int
    generation: int
    leader: str
    rounds: int = 1
    converged: bool = True
    first_round_assignment: Assignment | None = None
    revoked_before_join: Assignment | None = None
    revoked_first_round: Assignment | None = None


@dataclass(frozen=True)
class ReplayResult:
    strategy: str
    steps: list[StepResult] = field(default_factory=list)


@dataclass
class MemberState:
    """A consumer's client-side state between rebalances."""

    member: Member
    assignor: ConsumerPartitionAssignor
    generation: int = -1
    owned: list[TopicPartition] = field(default_factory=list)


def cluster_of(state: GroupState) -> Cluster:
    """Metadata of a step: every topic, and replica racks where the scenario gives them."""
    racks = {t: tuple(frozenset(r) for r in per_partition)
             for t, per_partition in state.partition_racks.items()}
    return Cluster(dict(state.topics), racks)


def _subscription(ms: MemberState) -> Subscription:
    """``ConsumerProtocol`` v3 round trip of a member's JoinGroup subscription."""
    return Subscription(
        topics=sorted(ms.member.topics, key=lambda t: t.encode("utf-16-be", "surrogatepass")),
        owned_partitions=sorted(ms.owned, key=tp_sort_key),
        generation_id=ms.generation if ms.generation >= 0 else None,
        rack=ms.member.rack or None,
        instance_id=ms.member.instance_id,
        user_data=ms.assignor.subscription_user_data(),
    )


def _wire_order(partitions: list[TopicPartition]) -> list[TopicPartition]:
    """``ConsumerProtocol.serializeAssignment``: grouped by topic in first-appearance order."""
    by_topic: dict[str, list[TopicPartition]] = {}
    for tp in partitions:
        by_topic.setdefault(tp.topic, []).append(tp)
    return [tp for tps in by_topic.values() for tp in tps]


class GroupReplay:
    """Drives one strategy (looked up in ``engine.consumer.strategies``) through a scenario's steps."""

    def __init__(self, strategy: str | Strategy, max_rounds: int = DEFAULT_MAX_ROUNDS) -> None:
        if max_rounds < 1:
            raise EngineError(f"max_rounds: must be >= 1, got {max_rounds}")
        self.spec = strategy_of(strategy)
        self.strategy = self.spec.name
        self.max_rounds = max_rounds
        self.members: dict[str, MemberState] = {}
        self.generation = 0
        self.leader: str | None = None
        self.previous: Assignment | None = None

    def seed(self, state: GroupState, current: Mapping[str, Sequence[TopicPartition]]) -> None:
        """Start from a running group (an imported one): generation 1, each member of ``state`` owning
        ``current[member]`` and its assignor remembering it (``onAssignment``), the first member leading."""
        if not current:
            return
        self.generation = 1
        for m in state.members:
            ms = MemberState(m, self.spec.factory(), generation=1, owned=list(current.get(m.id, ())))
            ms.assignor.on_assignment(_wire_order(ms.owned), 1)
            self.members[m.id] = ms
        self.leader = state.members[0].id if state.members else None
        self.previous = {m: list(ms.owned) for m, ms in self.members.items()}

    def _join(self, state: GroupState) -> dict[str, list[TopicPartition]]:
        """Membership changes and ``onJoinPrepare``; returns what cooperative revoked."""
        current = {m.id: m for m in state.members}
        self.members = {
            m.id: self.members.get(m.id) or MemberState(m, self.spec.factory())
            for m in state.members
        }
        revoked: dict[str, list[TopicPartition]] = {}
        for member_id, ms in self.members.items():
            ms.member = current[member_id]
            if not self.spec.cooperative:  # EAGER: onJoinPrepare revokes everything
                ms.owned = []
                continue
            topics = set(ms.member.topics)
            revoked[member_id] = sorted((tp for tp in ms.owned if tp.topic not in topics), key=tp_sort_key)
            ms.owned = [tp for tp in ms.owned if tp.topic in topics]
        if self.leader not in self.members:
            self.leader = state.members[0].id if state.members else None
        return revoked

    def _round(self, cluster: Cluster) -> Assignment:
        """One JoinGroup/SyncGroup round: the leader's assignor runs over the HashMap of subscriptions."""
        self.generation += 1
        order = string_hashmap_order(self.members)
        subscriptions = {m: _subscription(self.members[m]) for m in order}
        try:
            with gc_paused():
                result = self._assign(cluster, subscriptions)
        except (RuntimeError, KeyError, IndexError, StopIteration) as exc:
            raise AssignorError(f"{self.strategy}: Kafka's assignor fails on this group ({exc})") from None
        for member_id, ms in self.members.items():
            ms.assignor.on_assignment(_wire_order(result.get(member_id, [])), self.generation)
            ms.generation = self.generation
        return {m: list(result.get(m, [])) for m in self.members}

    def _assign(self, cluster: Cluster, subscriptions: dict[str, Subscription]) -> Assignment:
        """Only the leader's assignor runs (``ConsumerCoordinator.onLeaderElected``)."""
        assert self.leader is not None
        return self.members[self.leader].assignor.assign(cluster, subscriptions)

    def step(self, state: GroupState) -> StepResult:
        revoked_before = self._join(state)
        if not self.members:
            return self._finish({}, 1, True, None, None, None)
        cluster = cluster_of(state)
        owned_at_join = {m: set(ms.owned) for m, ms in self.members.items()}
        first = self._round(cluster)
        final, rounds = first, 1
        revoked_first = {m: sorted(owned_at_join[m] - set(first[m]), key=tp_sort_key) for m in first}
        converged = True
        if self.spec.cooperative:
            lost = any(revoked_first.values())
            for ms in self.members.values():
                ms.owned = list(final[ms.member.id])
            while lost:
                if rounds >= self.max_rounds:
                    converged = False
                    break
                before = {m: set(ms.owned) for m, ms in self.members.items()}
                final = self._round(cluster)
                rounds += 1
                lost = any(before[m] - set(final[m]) for m in final)
                for ms in self.members.values():
                    ms.owned = list(final[ms.member.id])
            return self._finish(final, rounds, converged, first, revoked_before, revoked_first)
        for ms in self.members.values():
            ms.owned = list(final[ms.member.id])
        return self._finish(final, 1, True, None, None, None)

    def _finish(self, final: Assignment, rounds: int, converged: bool, first: Assignment | None,
                revoked_before: Assignment | None, revoked_first: Assignment | None) -> StepResult:
        moved, moved_remaining = count_moves(self.previous, final)
        self.previous = final
        return StepResult(
            assignment=final,
            moved=moved,
            moved_from_remaining=moved_remaining,
            generation=self.generation,
            leader=self.leader or "",
            rounds=rounds,
            converged=converged,
            first_round_assignment=first,
            revoked_before_join=revoked_before,
            revoked_first_round=revoked_first,
        )


def replay(scenario: Scenario, strategy: str | Strategy,
           max_rounds: int = DEFAULT_MAX_ROUNDS) -> ReplayResult:
    """Run every step of the scenario under one strategy."""
    group = GroupReplay(strategy, max_rounds)
    group.seed(scenario.first, scenario.current_assignment)
    return ReplayResult(group.strategy, [group.step(state) for state in scenario.steps])


def revocations(previous: Assignment, step: StepResult) -> Assignment:
    """What the members that stay revoke during ``step`` (``previous``: the step before's assignment).

    Cooperative steps carry it (the partitions of unsubscribed topics, then what the first round
    withheld); an eager step revokes everything its remaining members owned.
    """
    if step.revoked_before_join is None and step.revoked_first_round is None:
        return revoked(previous, {m: [] for m in step.assignment})
    return merged(step.revoked_before_join, step.revoked_first_round)


def assign_once(state: GroupState, strategy: str | Strategy) -> Assignment:
    """The assignment a new group with this state gets (step 0 of a replay)."""
    return GroupReplay(strategy).step(state).assignment


# ---------------------------------------------------------------- JSON (CLI)


def step_to_json(step: StepResult, strategy: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "assignment": assignment_to_json(step.assignment),
        "moved": step.moved,
        "moved_from_remaining": step.moved_from_remaining,
        "generation": step.generation,
        "leader": step.leader,
    }
    if strategy_of(strategy).cooperative:
        out["first_round_assignment"] = assignment_to_json(step.first_round_assignment)
        out["revoked_before_join"] = assignment_to_json(step.revoked_before_join)
        out["revoked_first_round"] = assignment_to_json(step.revoked_first_round)
        out["rounds"] = step.rounds
        out["converged"] = step.converged
    return out


def cli_assign(payload: Any) -> dict[str, Any]:
    """``python -m engine assign``: one case in, ``{"steps": [...]}`` out."""
    strategy = parse_strategy(payload)
    scenario = parse_scenario(payload)
    admit(estimate_assign_command(scenario, strategy), CLI_CEILING, "assign")
    result = replay(scenario, strategy)
    return {"steps": [step_to_json(s, strategy) for s in result.steps]}
