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
  coordinator computes the new target at once and each member reconciles on its own heartbeat, at most
  ``heartbeat_interval_ms`` apart (the broker's ``group.consumer.heartbeat.interval.ms``).  The model
  takes the full interval each time (an upper bound).  The group changes at ``change`` = the session
  timeout for a crash, the end of the leaver's in-flight batch for a graceful leave (it revokes, then
  sends its leave heartbeat), else 0.  A partition that moves between remaining members stays with its
  old owner until that owner's next heartbeat (``change + H``) and its batch (``+ processing_ms``);
  only then is it revoked and released, and the new owner receives it on its next heartbeat (``+ H``).
  A departed member's partitions are free at ``change`` and reach their new owner at ``change + H``.
  Partitions that keep their owner never pause, so members that neither lose nor gain never pause.

A partition of a member that left is unavailable from the moment it left (0 for a crash; after its
in-flight batch for a graceful leave). A consumer's pause is the union of the outages of the partitions
it owned before or owns after. Example (``tests/test_pause.py``): C0,C1 own 2 partitions each, C1 leaves
gracefully, timings processing 1000 / rejoin 3000 / sync 500: eager pauses C0 from 1000 to 4500 (3.5
consumer-seconds); cooperative hands C1's partitions to C0 at the end of round 1 (3500) and C0's own
partitions never pause, so C0 waits for its new partitions from 1000 to 3500 (2.5 consumer-seconds).
KIP-848 with ``heartbeat_interval_ms`` 3000: C1 revokes and leaves at 1000, C0 receives t-2, t-3 on its
next heartbeat at 4000: C0 pauses from 1000 to 4000 (3.0 consumer-seconds, 6.0 partition-seconds).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

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
    consumer_seconds: float
    partition_seconds: float
    paused_partitions: int


def _merge(intervals: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for start, end in sorted({i for i in intervals if i[1] > i[0]}):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return tuple(out)


def _outages(
    before: Assignment, after: Assignment, crashed: set[str], protocol: str, t: ProtocolTimings, rounds: int
) -> tuple[dict[TopicPartition, tuple[int, int]], tuple[Phase, ...], int]:
    old, new = owners(before), owners(after)
    detect = t.session_timeout_ms if crashed else 0
    phases = [Phase("waiting for session.timeout.ms", 0, detect)] if crashed else []
    remaining = set(after)
    outages: dict[TopicPartition, tuple[int, int]] = {}
    if protocol == "consumer":
        return _consumer_outages(old, new, set(before), crashed, t, remaining)
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
) -> tuple[dict[TopicPartition, tuple[int, int]], tuple[Phase, ...], int]:
    """KIP-848: per-member reconciliation on heartbeats; only partitions that change owner pause."""
    departed = members_before - remaining
    change = t.session_timeout_ms if crashed else (t.processing_ms if departed else 0)
    hb = t.heartbeat_interval_ms
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
    outages, phases, end = _outages(before, after, set(crashed), protocol, timings, rounds)
    pauses: dict[str, tuple[tuple[int, int], ...]] = {}
    for member in after:
        mine = set(before.get(member, ())) | set(after[member])
        pauses[member] = _merge(outages[tp] for tp in mine if tp in outages)
    consumer_ms = sum(e - s for ivs in pauses.values() for s, e in ivs)
    partition_ms = sum(e - s for s, e in outages.values() if e > s)
    return PauseReport(
        protocol=protocol,
        phases=phases,
        member_pauses=pauses,
        end_ms=end,
        consumer_seconds=consumer_ms / 1000,
        partition_seconds=partition_ms / 1000,
        paused_partitions=sum(1 for s, e in outages.values() if e > s),
    )
