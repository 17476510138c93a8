"""A simple, explicit model of how long partitions stop being consumed during one rebalance.

Phases (all times in ms from the moment the group changes):

* detection: 0 for a graceful change (LeaveGroup, JoinGroup, new partitions); ``session_timeout_ms`` when
  a member crashed (the coordinator only notices when its session expires).
* EAGER (range, round-robin, sticky): every member finishes its in-flight batch (``processing_ms``),
  revokes EVERYTHING and rejoins (``rejoin_ms``); the leader assigns and SyncGroup returns (``sync_ms``).
  Every partition owned by a remaining member is paused from revoke to the end of SyncGroup.
* COOPERATIVE (cooperative-sticky): round 1 (``rejoin_ms`` + ``sync_ms``) runs while members keep
  processing; partitions of departed members are handed out at its end. Partitions that move between
  remaining members are revoked after the owner's in-flight batch (``processing_ms``) and handed out by
  round 2 (``rejoin_ms`` + ``sync_ms``); each further round adds the same again.

* CONSUMER (KIP-848, ``group.protocol=consumer``): no JoinGroup/SyncGroup and no global barrier. The
  coordinator computes the new target at once and each member learns it from the response to its next
  heartbeat, sent every ``heartbeat_interval_ms`` (the broker's ``group.consumer.heartbeat.interval.ms``).
  A change falls anywhere in a member's interval, so the expected wait is half an interval (``wait_ms``);
  the bound is a full one (``partition_seconds_bound``).  The group changes at ``change`` = the session
  timeout for a crash, the end of the leaver's in-flight batch for a graceful leave (it revokes, then
  sends its leave heartbeat at once), else 0.  A partition that moves between remaining members stays
  with its old owner until that owner's next heartbeat (``change + wait``) and its batch
  (``+ processing_ms``); then it is revoked and the owner acknowledges at once (AbstractMembershipManager:
  ACKNOWLEDGING heartbeats without waiting for the interval); the new owner receives it on its own next
  heartbeat (``+ wait``).  A departed member's partitions are free at ``change`` and reach their new owner
  at ``change + wait``.  Partitions that keep their owner never pause.

What a rebalance costs is first the partitions in transit: ``partition_seconds`` (unavailable
partition-seconds; eager: every partition, incremental protocols: only those that move).  A consumer
that keeps consuming three of its four partitions while one is in transit is not stopped:
``stopped_consumer_seconds`` counts only the time a consumer that was consuming consumes nothing (the
stop-the-world of eager); ``member_pauses`` (the union of a member's partitions' outages) shows where
some of its partitions are in transit.

A partition of a member that left is unavailable from the moment it left (0 for a crash; after its
in-flight batch for a graceful leave). Example (``tests/engine/consumer/test_pause.py``): C0,C1 own 2 partitions each,
C1 leaves gracefully, timings processing 1000 / rejoin 3000 / sync 500: eager stops C0 from 1000 to 4500
(3.5 consumer-seconds stopped, 4 x 3.5 = 14 partition-seconds); cooperative hands C1's partitions to C0
at the end of round 1 (3500) and C0's own partitions never pause (0 stopped, 2 x 2.5 = 5 partition-seconds).
KIP-848 with ``heartbeat_interval_ms`` 3000: C1 revokes and leaves at 1000, C0 receives its partitions on
its next heartbeat, expected at 2500 (3.0 partition-seconds; bound 4000: 6.0).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.consumer.assignment import AssignmentView as Assignment
from engine.consumer.assignment import owners
from engine.errors import ScenarioError
from engine.scenario import TopicPartition

MAX_TIMING_MS = 3_600_000
PROTOCOLS = ("eager", "cooperative", "consumer")


@dataclass(frozen=True)
class ProtocolTimings:
    """Editable timings (ms); defaults: Kafka's session.timeout.ms 45 s and plausible client times."""

    session_timeout_ms: int = 45_000
    rejoin_ms: int = 3_000
    sync_ms: int = 500
    processing_ms: int = 1_000
    heartbeat_interval_ms: int = 5_000  # group.consumer.heartbeat.interval.ms (KIP-848 only)

    def __post_init__(self) -> None:
        for name in ("session_timeout_ms", "rejoin_ms", "sync_ms", "processing_ms", "heartbeat_interval_ms"):
            value = getattr(self, name)
            if not 0 <= value <= MAX_TIMING_MS:
                raise ScenarioError(f"{name}: must be 0..{MAX_TIMING_MS} ms, got {value}")


@dataclass(frozen=True)
class Phase:
    name: str
    start_ms: int
    end_ms: int


@dataclass(frozen=True)
class PauseReport:
    """Outcome of the model for one protocol and one rebalance step."""

    protocol: str
    phases: tuple[Phase, ...]
    member_pauses: dict[str, tuple[tuple[int, int], ...]]  # merged intervals per member (ms)
    end_ms: int
    consumer_seconds: float  # sum of member_pauses: some partition of the member in transit
    partition_seconds: float  # partition-seconds unavailable (KIP-848: expected heartbeat waits)
    paused_partitions: int
    partition_seconds_bound: float = 0.0  # the same with full heartbeat intervals (classic: = partition_seconds)
    member_stops: dict[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)  # consuming nothing
    stopped_consumer_seconds: float = 0.0  # sum of member_stops


def _merge(intervals: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for start, end in sorted({i for i in intervals if i[1] > i[0]}):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return tuple(out)


def _outages(
    before: Assignment, after: Assignment, crashed: set[str], protocol: str, t: ProtocolTimings, rounds: int,
    wait_ms: int = 0,
) -> tuple[dict[TopicPartition, tuple[int, int]], tuple[Phase, ...], int]:
    old, new = owners(before), owners(after)
    detect = t.session_timeout_ms if crashed else 0
    phases = [Phase("waiting for session.timeout.ms", 0, detect)] if crashed else []
    remaining = set(after)
    outages: dict[TopicPartition, tuple[int, int]] = {}
    if protocol == "consumer":
        return _consumer_outages(old, new, set(before), crashed, t, remaining, wait_ms)
    if protocol == "eager":
        revoke = detect + t.processing_ms
        end = revoke + t.rejoin_ms + t.sync_ms
        phases += [
            Phase("finish batch, revoke all", detect, revoke),
            Phase("JoinGroup", revoke, revoke + t.rejoin_ms),
            Phase("SyncGroup", revoke + t.rejoin_ms, end),
        ]
        for tp, owner in old.items():
            left = 0 if owner in crashed else t.processing_ms
            outages[tp] = (revoke if owner in remaining else left, end)
        return outages, tuple(phases), end
    round1 = detect + t.rejoin_ms + t.sync_ms
    phases += [Phase("JoinGroup (round 1)", detect, detect + t.rejoin_ms),
               Phase("SyncGroup (round 1)", detect + t.rejoin_ms, round1)]
    moving = {tp for tp, owner in old.items() if owner in remaining and new.get(tp, owner) != owner}
    end = round1
    if moving:
        extra = max(rounds, 2) - 1
        revoke = round1 + t.processing_ms
        end = round1 + extra * (t.processing_ms + t.rejoin_ms + t.sync_ms)
        phases += [Phase("finish batch, revoke moving", round1, revoke),
                   Phase("JoinGroup + SyncGroup (round 2+)", revoke, end)]
    for tp, owner in old.items():
        if owner not in remaining:
            outages[tp] = (0 if owner in crashed else t.processing_ms, round1)
        elif tp in moving:
            outages[tp] = (round1 + t.processing_ms, end)
    return outages, tuple(phases), end


def _consumer_outages(
    old: dict[TopicPartition, str],
    new: dict[TopicPartition, str],
    members_before: set[str],
    crashed: set[str],
    t: ProtocolTimings,
    remaining: set[str],
    hb: int,
) -> tuple[dict[TopicPartition, tuple[int, int]], tuple[Phase, ...], int]:
    """KIP-848: per-member reconciliation on heartbeats, each ``hb`` ms after the change (half an interval
    expected, a full one at most); only partitions that change owner pause."""
    departed = members_before - remaining
    change = t.session_timeout_ms if crashed else (t.processing_ms if departed else 0)
    phases = [Phase("waiting for session.timeout.ms", 0, change)] if crashed else []
    if departed and not crashed:
        phases.append(Phase("leaver finishes batch, leave heartbeat", 0, change))
    learn, revoke = change + hb, change + hb + t.processing_ms
    outages: dict[TopicPartition, tuple[int, int]] = {}
    moving = False
    for tp, owner in old.items():
        if owner not in remaining and tp in new:
            outages[tp] = (0 if owner in crashed else t.processing_ms, learn)
        elif owner in remaining and new.get(tp, owner) != owner:
            outages[tp] = (revoke, revoke + hb)
            moving = True
    phases.append(Phase("members' next heartbeat", change, learn))
    end = learn
    if moving:
        end = revoke + hb
        phases += [Phase("old owners finish batch, revoke", learn, revoke),
                   Phase("new owners' next heartbeat", revoke, end)]
    return outages, tuple(phases), end


def wait_ms(timings: ProtocolTimings, bound: bool = False) -> int:
    """KIP-848: how long after a change a member's next heartbeat comes: half an interval expected (the
    change falls anywhere in it), a full interval at most.  ``wait_ms(ProtocolTimings()) == 2500``."""
    return timings.heartbeat_interval_ms if bound else timings.heartbeat_interval_ms // 2


def _owned(tp: TopicPartition, mine_before: bool, mine_after: bool, outage: tuple[int, int] | None,
           end: int) -> list[tuple[int, int]]:
    """When a member consumes ``tp`` within [0, end): kept partitions except their outage, a lost one until
    it is revoked, a gained one once it arrives."""
    if mine_before and mine_after:
        return [(0, end)] if outage is None else [(0, outage[0]), (outage[1], end)]
    if mine_before:
        return [(0, end if outage is None else outage[0])]
    return [(end if outage is None else outage[1], end)]


def _stops(before: Assignment, after: Assignment, outages: dict[TopicPartition, tuple[int, int]],
           end: int) -> dict[str, tuple[tuple[int, int], ...]]:
    """Per member that was consuming: the intervals of [0, end) in which it consumes nothing."""
    stops: dict[str, tuple[tuple[int, int], ...]] = {}
    for member in after:
        had, has = set(before.get(member, ())), set(after[member])
        if not had:
            continue
        consuming = _merge(iv for tp in had | has for iv in _owned(tp, tp in had, tp in has, outages.get(tp), end))
        gaps, at = [], 0
        for s, e in consuming:
            if s > at:
                gaps.append((at, s))
            at = max(at, e)
        if at < end:
            gaps.append((at, end))
        stops[member] = tuple(gaps)
    return stops


def _seconds(intervals: Iterable[tuple[int, int]]) -> float:
    return sum(e - s for s, e in intervals if e > s) / 1000


def pause_report(
    protocol: str,
    before: Assignment,
    after: Assignment,
    timings: ProtocolTimings,
    crashed: Iterable[str] = (),
    rounds: int = 1,
) -> PauseReport:
    """Model one rebalance from ``before`` to ``after`` (final) under ``protocol``.

    ``protocol`` is "eager", "cooperative" (classic group protocol) or "consumer" (KIP-848).
    """
    if protocol not in PROTOCOLS:
        raise ScenarioError(f"protocol: must be eager, cooperative or consumer, got {protocol!r}")
    gone = set(crashed)
    outages, phases, end = _outages(before, after, gone, protocol, timings, rounds, wait_ms(timings))
    bound = outages
    if protocol == "consumer":
        bound = _outages(before, after, gone, protocol, timings, rounds, wait_ms(timings, bound=True))[0]
    pauses: dict[str, tuple[tuple[int, int], ...]] = {}
    for member in after:
        mine = set(before.get(member, ())) | set(after[member])
        pauses[member] = _merge(outages[tp] for tp in mine if tp in outages)
    stops = _stops(before, after, outages, end)
    return PauseReport(
        protocol=protocol,
        phases=phases,
        member_pauses=pauses,
        end_ms=end,
        consumer_seconds=_seconds(iv for ivs in pauses.values() for iv in ivs),
        partition_seconds=_seconds(outages.values()),
        paused_partitions=sum(1 for s, e in outages.values() if e > s),
        partition_seconds_bound=_seconds(bound.values()),
        member_stops=stops,
        stopped_consumer_seconds=_seconds(iv for ivs in stops.values() for iv in ivs),
    )
