"""A partition's replication as the broker and the controller decide it: which writes are accepted, the high
watermark, and who leads after a failure (in-sync replicas, ``min.insync.replicas``, unclean election).

The rules, from Kafka 4.x's code:

* ``Partition.appendRecordsToLeader``: a produce request with ``acks=all`` (-1) is refused with
  ``NOT_ENOUGH_REPLICAS`` when the ISR has fewer members than ``min.insync.replicas``; ``acks=0`` and
  ``acks=1`` are written by the leader whatever the ISR's size.
* ``Partition.maybeIncrementLeaderHW``: the high watermark is the smallest log end offset (LEO) among the
  leader and the followers in the ISR; an out-of-sync follower does not hold it back.  While the ISR is
  smaller than ``min.insync.replicas`` the high watermark does not move (``isUnderMinIsr``, added with KIP-966).
  (The broker also waits for a caught-up follower about to join the ISR; not modelled.)
* ``PartitionChangeBuilder.electLeader`` (KRaft; ``PartitionLeaderElectionAlgorithms.offlinePartitionLeaderElection``
  in the ZooKeeper controller): the new leader is the first replica **in assignment order** that is alive and in
  the ISR.  If none is and ``unclean.leader.election.enable`` is true, the first live replica in assignment order
  leads and the ISR becomes that replica alone; records above its LEO are lost.  Without it the partition stays
  offline (no leader).  Eligible leader replicas (ELR, KIP-966) are not modelled.

Worked example (asserted in ``tests/engine/server/test_replication.py``): replicas ``[0, 1, 2]``, ISR ``[0, 2]``
(broker 1 fell behind), LEOs ``{0: 10, 1: 4, 2: 8}``, ``min.insync.replicas=2``::

    >>> state = ReplicaState((0, 1, 2), (0, 2), 0, {0: 10, 1: 4, 2: 8})
    >>> high_watermark(state, min_insync=2)      # min LEO over the ISR: broker 1 does not count
    8
    >>> produce_error(state, acks=-1, min_insync=2), produce_error(state, acks=-1, min_insync=3)
    ('NONE', 'NOT_ENOUGH_REPLICAS')
    >>> after = fail_broker(state, 0, unclean=False)     # the leader dies: first live ISR replica in order
    >>> after.leader, after.isr
    (2, (2,))
    >>> gone = fail_broker(after, 2, unclean=False)      # the last ISR member dies: offline
    >>> unclean = fail_broker(after, 2, unclean=True)    # ...unless an out-of-sync replica may lead
    >>> gone.leader is None, unclean.leader, lost_records(unclean, high_watermark(state, 2))
    (True, 1, 4)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from engine.errors import ScenarioError

ACKS: Final = (0, 1, -1)  # acks=0, acks=1, acks=all
MAX_REPLICAS: Final = 64


@dataclass(frozen=True)
class ReplicaState:
    """One partition: its replicas in assignment order, the ISR, the leader (None = offline) and each LEO."""

    replicas: tuple[int, ...]
    isr: tuple[int, ...]
    leader: int | None
    leo: Mapping[int, int]
    dead: frozenset[int] = field(default_factory=frozenset)
    unclean: bool = False  # the current leader came from an unclean election

    def __post_init__(self) -> None:
        if not 1 <= len(self.replicas) <= MAX_REPLICAS or len(set(self.replicas)) != len(self.replicas):
            raise ScenarioError(f"replicas: 1..{MAX_REPLICAS} distinct broker ids, got {list(self.replicas)}")
        stray = [b for b in (*self.isr, *self.leo) if b not in self.replicas]
        if stray:
            raise ScenarioError(f"replicas: broker {stray[0]} is not a replica of the partition {list(self.replicas)}")
        if self.leader is not None and self.leader not in self.isr:
            raise ScenarioError(f"leader: broker {self.leader} is not in the ISR {list(self.isr)}")


def _acks(acks: int) -> int:
    if acks not in ACKS or isinstance(acks, bool):
        raise ScenarioError(f"acks: one of 0, 1, -1 (all), got {acks!r}")
    return acks


def produce_error(state: ReplicaState, acks: int, min_insync: int) -> str:
    """The error code the leader answers a produce request with (``NONE`` = written), as
    ``Partition.appendRecordsToLeader`` decides it; no leader is ``NOT_LEADER_OR_FOLLOWER``."""
    if state.leader is None:
        return "NOT_LEADER_OR_FOLLOWER"
    if _acks(acks) == -1 and len(state.isr) < min_insync:
        return "NOT_ENOUGH_REPLICAS"
    return "NONE"


def high_watermark(state: ReplicaState, min_insync: int, current: int = 0) -> int:
    """The leader's high watermark: the smallest LEO in the ISR, never below ``current`` (it only grows), and
    ``current`` itself while the ISR is under ``min.insync.replicas``."""
    if state.leader is None or len(state.isr) < min_insync:
        return current
    return max(current, min(state.leo.get(b, 0) for b in state.isr))


def elect_leader(replicas: Sequence[int], isr: Sequence[int], live: Sequence[int] | frozenset[int],
                 unclean: bool) -> tuple[int | None, bool]:
    """(new leader or None, whether the election was unclean): the first live ISR replica in assignment order,
    else (with ``unclean.leader.election.enable``) the first live replica."""
    alive = set(live)
    for broker in replicas:
        if broker in alive and broker in isr:
            return broker, False
    if unclean:
        for broker in replicas:
            if broker in alive:
                return broker, True
    return None, False


def fail_broker(state: ReplicaState, broker: int, unclean: bool) -> ReplicaState:
    """Broker ``broker`` dies: the controller fences it, removes it from the ISR (the last member stays, as
    KRaft never empties the ISR without ELR) and elects a leader if it led; an unclean leader's log is the
    truth from then on (the ISR becomes that replica alone)."""
    if broker not in state.replicas:
        raise ScenarioError(f"broker: {broker} is not a replica of the partition {list(state.replicas)}")
    dead = state.dead | {broker}
    live = [b for b in state.replicas if b not in dead]
    isr = tuple(b for b in state.isr if b != broker) or state.isr
    if state.leader is not None and state.leader != broker:
        return ReplicaState(state.replicas, isr, state.leader, state.leo, dead, state.unclean)
    leader, was_unclean = elect_leader(state.replicas, isr, live, unclean)
    if leader is None:
        return ReplicaState(state.replicas, isr, None, state.leo, dead, False)
    return ReplicaState(state.replicas, (leader,) if was_unclean else isr, leader, state.leo, dead, was_unclean)


def lost_records(after: ReplicaState, high_watermark_before: int) -> int:
    """Records consumers could already read (below the high watermark before the failure) that the new leader
    does not have: ``HW - new leader's LEO`` after an unclean election, 0 after a clean one (every ISR member
    has everything below the high watermark)."""
    if after.leader is None or not after.unclean:
        return 0
    return max(0, high_watermark_before - after.leo.get(after.leader, 0))
