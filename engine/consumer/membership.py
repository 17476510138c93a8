"""Static membership (KIP-345) and rolling restarts: how many rebalances, moves and paused seconds.

Every member restarts once, one after another: member ``i`` goes down at ``t_i``, is back at
``t_i + restart_ms``, and the next one goes down ``gap_ms`` later.  What the group coordinator sees:

* dynamic member (no ``group.instance.id``): ``close()`` sends LeaveGroup -> a rebalance at ``t_i``
  without it; its JoinGroup at ``t_i + restart_ms`` -> a second rebalance.  Two per restart.
* static member, ``restart_ms < session.timeout.ms``: no LeaveGroup is sent; it rejoins with the same
  ``group.instance.id`` before its session expires and the coordinator hands back its cached
  assignment: no rebalance.  Its partitions simply wait while it is down.
* static member, ``restart_ms >= session.timeout.ms``: the session expires at
  ``t_i + session.timeout.ms`` -> a rebalance without it (its partitions move); when it comes back its
  unknown instance joins as a new member -> a second rebalance to give it partitions again.

Partitions moved per rebalance come from replaying the client assignor (``engine.consumer.group.replay``);
paused consumer-seconds from ``engine.consumer.pause.pause_report`` (eager strategies stop everyone,
cooperative-sticky only the partitions that move) plus each restarting member's own downtime.

Worked example (asserted in tests/engine/consumer/test_membership.py): 3 members on one 6-partition topic, range,
restart 30 s, session timeout 45 s: dynamic -> 6 rebalances; static -> 0 rebalances and exactly
3 x 30 = 90 consumer-seconds paused (only the restarting members' own downtime); static with a
60 s restart -> 6 rebalances.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.consumer.pause import ProtocolTimings, pause_report
from engine.consumer.strategies import STRATEGY_NAMES, strategy_of
from engine.errors import LimitError, ScenarioError
from engine.scenario import GroupState, Scenario

MAX_TIME_MS = 3_600_000
MAX_RESTART_MEMBERS = 200
MAX_RESTART_WORK = 20_000_000


@dataclass(frozen=True)
class RollingRestartConfig:
    """Times in ms; ``rejoin_ms``, ``sync_ms``, ``processing_ms`` feed the pause model."""

    restart_ms: int = 30_000
    session_timeout_ms: int = 45_000
    gap_ms: int = 10_000
    rejoin_ms: int = 3_000
    sync_ms: int = 500
    processing_ms: int = 1_000

    def __post_init__(self) -> None:
        for name in ("restart_ms", "session_timeout_ms", "gap_ms", "rejoin_ms", "sync_ms", "processing_ms"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_TIME_MS:
                raise ScenarioError(f"{name}: must be 0..{MAX_TIME_MS} ms, got {value!r}")

    def timings(self) -> ProtocolTimings:
        return ProtocolTimings(self.session_timeout_ms, self.rejoin_ms, self.sync_ms, self.processing_ms)


@dataclass(frozen=True)
class RestartEvent:
    """One thing the coordinator sees; ``rebalance`` events carry their cost."""

    time_ms: int
    member: str
    kind: str            # "down", "leave", "expire", "join", "static-rejoin"
    rebalance: bool
    moved: int = 0
    moved_from_remaining: int = 0
    rounds: int = 0
    pause_consumer_seconds: float = 0.0
    duration_ms: int = 0

    @property
    def label(self) -> str:
        return {
            "down": "goes down (static: no LeaveGroup)",
            "leave": "LeaveGroup -> rebalance",
            "expire": "session.timeout.ms expired -> rebalance",
            "join": "JoinGroup -> rebalance",
            "static-rejoin": "rejoins with its group.instance.id: cached assignment, no rebalance",
        }[self.kind]


@dataclass(frozen=True)
class RollingRestartResult:
    strategy: str
    static: bool
    events: list[RestartEvent]
    downtime_consumer_seconds: float
    total_ms: int

    @property
    def rebalances(self) -> int:
        return sum(1 for e in self.events if e.rebalance)

    @property
    def partitions_moved(self) -> int:
        return sum(e.moved for e in self.events)

    @property
    def rebalance_consumer_seconds(self) -> float:
        return sum(e.pause_consumer_seconds for e in self.events)

    @property
    def consumer_seconds_paused(self) -> float:
        """Rebalance pauses of the other members plus the restarting members' own downtime."""
        return self.rebalance_consumer_seconds + self.downtime_consumer_seconds


def _with_membership(state: GroupState, static: bool) -> GroupState:
    members = tuple(replace(m, instance_id=(m.instance_id or m.id) if static else None)
                    for m in state.members)
    return replace(state, members=members)


def restart_plan(state: GroupState, config: RollingRestartConfig,
                 static: bool) -> list[tuple[RestartEvent, GroupState | None]]:
    """The events in time order, each with the group state after it (None when nothing changes)."""
    if not state.members:
        raise ScenarioError("members: a rolling restart needs at least one member, got none")
    if len(state.members) > MAX_RESTART_MEMBERS:
        raise LimitError(f"members: at most {MAX_RESTART_MEMBERS} for a rolling restart, got "
                         f"{len(state.members)}")
    work = len(state.members) ** 2 * state.total_partitions  # 2 rebalances per member, each over every partition
    if work > MAX_RESTART_WORK:
        raise LimitError(f"rolling restart: members² x partitions at most {MAX_RESTART_WORK:,} (about 5 s), got "
                         f"{len(state.members):,}² x {state.total_partitions:,} = {work:,}; try fewer members or "
                         "topics")
    full = _with_membership(state, static)
    plan: list[tuple[RestartEvent, GroupState | None]] = []
    t = 0
    for member in full.members:
        without = replace(full, members=tuple(m for m in full.members if m.id != member.id))
        back = t + config.restart_ms
        if not static:
            plan.append((RestartEvent(t, member.id, "leave", True), without))
            plan.append((RestartEvent(back, member.id, "join", True), full))
        elif config.restart_ms < config.session_timeout_ms:
            plan.append((RestartEvent(t, member.id, "down", False), None))
            plan.append((RestartEvent(back, member.id, "static-rejoin", False), None))
        else:
            plan.append((RestartEvent(t, member.id, "down", False), None))
            plan.append((RestartEvent(t + config.session_timeout_ms, member.id, "expire", True), without))
            plan.append((RestartEvent(back, member.id, "join", True), full))
        t = back + config.gap_ms
    return plan


def rolling_restart(
    state: GroupState, strategy: str, config: RollingRestartConfig, static: bool, max_rounds: int = 50
) -> RollingRestartResult:
    """The whole rolling restart for one client strategy and one membership kind."""
    protocol = strategy_of(strategy).mode  # ScenarioError for an unknown strategy
    from engine.consumer.group import replay

    plan = restart_plan(state, config, static)
    start = _with_membership(state, static)
    states = [start] + [s for _, s in plan if s is not None]
    steps = replay(Scenario(steps=tuple(states)), strategy, max_rounds).steps
    events: list[RestartEvent] = []
    index = 0
    for event, after in plan:
        if after is None:
            events.append(event)
            continue
        before_step, step = steps[index], steps[index + 1]
        index += 1
        crashed = [event.member] if event.kind == "expire" else []
        report = pause_report(protocol, before_step.assignment, step.assignment, config.timings(), crashed,
                              step.rounds)
        events.append(replace(event, moved=step.moved, moved_from_remaining=step.moved_from_remaining,
                              rounds=step.rounds, pause_consumer_seconds=report.consumer_seconds,
                              duration_ms=report.end_ms))
    downtime = len(state.members) * config.restart_ms / 1000
    total = max((e.time_ms + e.duration_ms for e in events), default=0)
    return RollingRestartResult(strategy, static, events, downtime, total)


@dataclass(frozen=True)
class RestartComparison:
    strategy: str
    membership: str
    rebalances: int
    partitions_moved: int
    consumer_seconds_paused: float
    rebalance_consumer_seconds: float
    total_seconds: float


def compare_rolling_restarts(
    state: GroupState, config: RollingRestartConfig, strategies: Sequence[str] = STRATEGY_NAMES
) -> list[RestartComparison]:
    """One row per strategy and membership kind (dynamic, static)."""
    return [comparison_of(rolling_restart(state, strategy, config, static))
            for strategy in strategies for static in (False, True)]


def comparison_of(r: RollingRestartResult) -> RestartComparison:
    """The comparison row of one replayed restart (no second replay: pages keep the timeline and the row)."""
    return RestartComparison(r.strategy, "static" if r.static else "dynamic", r.rebalances, r.partitions_moved,
                             r.consumer_seconds_paused, r.rebalance_consumer_seconds, r.total_ms / 1000)


def restart_comparison_rows(rows: Sequence[RestartComparison]) -> list[dict[str, object]]:
    """The comparison as table rows (seconds rounded to 0.1)."""
    return [{"strategy": r.strategy, "membership": r.membership, "rebalances": r.rebalances,
             "partitions moved": r.partitions_moved,
             "consumer-seconds paused": round(r.consumer_seconds_paused, 1),
             "of which rebalance pauses": round(r.rebalance_consumer_seconds, 1),
             "duration (s)": round(r.total_seconds, 1)} for r in rows]
