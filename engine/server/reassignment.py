"""Moving replicas: decommissioning a broker, and ``kafka-reassign-partitions``' JSON file.

* ``decommission_generate`` is what ``kafka-reassign-partitions --generate --broker-list <others>``
  proposes (``assignReplicasToBrokers`` over the remaining brokers); ``decommission_minimal`` only
  replaces the removed broker's replicas.  ``reassignment_plan`` counts the replica moves, the bytes to
  copy and the time under a replication throttle.
* ``reassignment_json`` writes the file ``--execute`` reads (``--generate`` prints the same shape):
  ``{"version": 1, "partitions": [{"topic", "partition", "replicas"}, ...]}``, partitions in order.

Worked example (asserted in tests/engine/server/test_reassignment.py)::

    >>> reassignment_json("orders", {1: [2, 0], 0: [1, 2]})
    {'version': 1, 'partitions': [{'topic': 'orders', 'partition': 0, 'replicas': [1, 2]},
                                  {'topic': 'orders', 'partition': 1, 'replicas': [2, 0]}]}
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.errors import EngineError
from engine.server.replicas import Broker, assign_replicas_to_brokers

REASSIGNMENT_VERSION = 1  # the only version kafka-reassign-partitions writes and reads


def reassignment_json(topic: str, target: Mapping[int, Sequence[int]]) -> dict[str, Any]:
    """The ``--reassignment-json-file`` for one topic's ``target`` replicas (partition -> broker ids)."""
    return {
        "version": REASSIGNMENT_VERSION,
        "partitions": [{"topic": topic, "partition": p, "replicas": list(target[p])} for p in sorted(target)],
    }


def check_decommission(brokers: Sequence[Broker], replication_factor: int) -> None:
    """A broker can be removed only if enough brokers remain for every replica (``EngineError`` otherwise)."""
    if len(brokers) - 1 < replication_factor:
        raise EngineError(f"Cannot remove a broker: {len(brokers) - 1} brokers would remain for replication "
                          f"factor {replication_factor}.")


@dataclass(frozen=True)
class ReassignmentPlan:
    """Target replicas per partition and what it costs to get there."""

    target: dict[int, list[int]]
    moves: list[tuple[int, int, int]]          # (partition, broker losing a replica, broker gaining it)
    bytes_to_copy: int
    inbound_bytes: dict[int, int] = field(default_factory=dict)
    outbound_bytes: dict[int, int] = field(default_factory=dict)

    def seconds_under_throttle(self, throttle_bytes_per_sec: float) -> float:
        """Copy time when every broker's replication in and out is capped at the throttle rate.

        Inbound bytes land on each gaining broker; outbound bytes are read from the partition's current
        leader.  The slowest broker in either direction sets the time (brokers copy in parallel).
        """
        if throttle_bytes_per_sec <= 0:
            raise EngineError(f"throttle: must be > 0 bytes/s, got {throttle_bytes_per_sec}")
        worst = max([*self.inbound_bytes.values(), *self.outbound_bytes.values(), 0])
        return worst / throttle_bytes_per_sec


def reassignment_plan(
    current: Mapping[int, Sequence[int]],
    target: Mapping[int, Sequence[int]],
    leaders: Mapping[int, int | None],
    partition_bytes: int,
) -> ReassignmentPlan:
    """Moves from ``current`` to ``target`` replica sets; each added replica copies one partition."""
    moves: list[tuple[int, int, int]] = []
    inbound: dict[int, int] = {}
    outbound: dict[int, int] = {}
    for p, replicas in target.items():
        before = list(current.get(p, []))
        added = [b for b in replicas if b not in before]
        removed = [b for b in before if b not in replicas]
        for i, gaining in enumerate(added):
            losing = removed[i] if i < len(removed) else -1
            moves.append((p, losing, gaining))
            inbound[gaining] = inbound.get(gaining, 0) + partition_bytes
            source = leaders.get(p)
            if source is None or source not in replicas and source not in before:
                source = before[0] if before else gaining
            outbound[source] = outbound.get(source, 0) + partition_bytes
    return ReassignmentPlan({p: list(r) for p, r in target.items()}, moves, len(moves) * partition_bytes,
                            inbound, outbound)


def decommission_generate(
    brokers: Sequence[Broker], current: Mapping[int, Sequence[int]], removed: int, fixed_start_index: int,
    rng: random.Random | None = None,
) -> dict[int, list[int]]:
    """What ``kafka-reassign-partitions --generate --broker-list <others>`` proposes for one topic.

    ``calculateAssignment`` re-runs ``assignReplicasToBrokers`` over the remaining brokers with the
    topic's partition count and replication factor (random start unless ``fixed_start_index`` >= 0),
    so it may move far more than the removed broker's replicas.
    """
    remaining = [b for b in brokers if b.id != removed]
    rf = len(next(iter(current.values())))
    placement = assign_replicas_to_brokers(remaining, len(current), rf, fixed_start_index, -1, rng)
    return placement.assignment


def decommission_minimal(
    brokers: Sequence[Broker], current: Mapping[int, Sequence[int]], removed: int
) -> dict[int, list[int]]:
    """A minimal-move plan: each replica on the removed broker goes to the live broker with the fewest
    replicas that does not hold the partition yet, preferring one in a rack the partition lacks
    (ties: lowest broker id).  Leaders' positions are kept."""
    remaining = [b for b in brokers if b.id != removed]
    if not remaining:
        raise EngineError(f"decommission: broker {removed} is the only broker")
    rack_of = {b.id: b.rack for b in brokers}
    load = {b.id: 0 for b in remaining}
    for replicas in current.values():
        for b in replicas:
            if b in load:
                load[b] += 1
    out: dict[int, list[int]] = {}
    for p in sorted(current):
        replicas = list(current[p])
        if removed in replicas:
            held_racks = {rack_of.get(b) for b in replicas if b != removed}
            candidates = [b.id for b in remaining if b.id not in replicas]
            if candidates:
                best = min(
                    candidates,
                    key=lambda b: (rack_of.get(b) in held_racks and rack_of.get(b) is not None, load[b], b),
                )
                replicas[replicas.index(removed)] = best
                load[best] += 1
            else:
                replicas.remove(removed)
        out[p] = replicas
    return out


def plan_summary(name: str, plan: ReassignmentPlan, throttle_bytes_per_sec: float) -> dict[str, Any]:
    """A table row: replica moves, GiB to copy, hours under the throttle."""
    return {
        "plan": name,
        "replica moves": len(plan.moves),
        "GB to copy": round(plan.bytes_to_copy / 1024**3, 2),
        "hours under throttle": round(plan.seconds_under_throttle(throttle_bytes_per_sec) / 3600, 2),
    }
