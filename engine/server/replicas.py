"""Replica placement and partition leadership, as Kafka computes them.

* ``assign_replicas_to_brokers`` is ``AdminUtils.assignReplicasToBrokers`` (server-common): the
  rack-unaware round robin over the broker list with a per-lap replica shift, and the rack-aware
  variant over the rack-alternated broker list; ``fixed_start_index`` < 0 draws the start index and
  the replica shift at random (two ``Random.nextInt(n)`` calls), >= 0 uses it for both, as Kafka does.
  Kafka's exceptions become ``KafkaAdminError`` (``InvalidPartitionsException``,
  ``InvalidReplicationFactorException``, ``AdminOperationException``, and the
  ``IndexOutOfBoundsException``/``ArithmeticException`` Java would hit on absurd inputs).
* Leadership: the first live replica of each partition leads (the controller's offline-partition
  election: first replica in assignment order that is alive and in the ISR; every live replica is
  taken to be in sync); a surviving leader keeps its partitions; a preferred-leader election moves
  leadership back to the first replica where it is alive.
* Decommissioning a broker and the reassignment file: ``engine.server.reassignment``.
* ``python -m engine replicas`` (``cli_replicas``) answers with AdminUtils (spec section 6) unless the input
  says ``"placer": "striped"``: then ``StripedReplicaPlacer`` (``engine.metadata.placement.striped``, what a
  KRaft controller and, from Kafka 4.1 on, ``kafka-reassign-partitions.sh --generate`` use) with
  ``new Random(seed)`` (``"seed"``, a Java long, 0 when left out; brokers may say ``"fenced": true``).

Worked example (asserted in tests/engine/server/test_replicas.py): brokers 0..4 without racks, 10 partitions,
replication factor 3, fixed start index 0 -> partition 0 on [0, 1, 2], partition 5 on [0, 2, 3]
(the replica shift grows by one each time the partition id wraps the broker list).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cost import CLI_CEILING, admit, estimate_replicas, estimate_striped
from engine.cost.computations import replica_scan
from engine.errors import EngineError, KafkaError, LimitError
from engine.java.random import LONG_MAX, LONG_MIN
from engine.java.strings import string_compare_key, to_int32
from engine.metadata.placement.striped import PlacementError, UsableBroker, place_striped, racks_walked
from engine.release import follows

MAX_BROKERS = 10_000
MAX_PARTITIONS = 100_000
MAX_REPLICAS_TOTAL = 1_000_000
INT_MIN, INT_MAX = -(2**31), 2**31 - 1
SHORT_MIN, SHORT_MAX = -(2**15), 2**15 - 1
ADMIN_UTILS, STRIPED = "admin-utils", "striped"
PLACERS = (ADMIN_UTILS, STRIPED)  # the ``placer`` input field of ``python -m engine replicas``


class KafkaAdminError(KafkaError):
    """A Kafka exception ``AdminUtils`` would throw: ``str`` is ``"<Name>: <message>"``."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message


@dataclass(frozen=True)
class Broker:
    id: int
    rack: str | None = None


@dataclass(frozen=True)
class ReplicaPlacement:
    """Partition id -> replica broker ids (first = preferred leader)."""

    assignment: dict[int, list[int]]
    rack_alternated_broker_list: list[int] | None
    start_index: int
    replica_shift: int


def _jmod(a: int, b: int) -> int:
    """Java ``%`` on ints (truncated; ``ArithmeticException`` on zero)."""
    if b == 0:
        raise KafkaAdminError("ArithmeticException", "/ by zero")
    r = abs(a) % abs(b)
    return r if a >= 0 else -r


def _get(items: Sequence[int], index: int) -> int:
    if not 0 <= index < len(items):
        raise KafkaAdminError("IndexOutOfBoundsException",
                              f"Index {index} out of bounds for length {len(items)}")
    return items[index]


def replica_index(first_replica_index: int, second_replica_shift: int, replica: int, n_brokers: int) -> int:
    """``AdminUtils.replicaIndex``: ``(first + 1 + (shift + replica) % (n - 1)) % n`` (long shift)."""
    shift = 1 + _jmod(to_int32(second_replica_shift + replica), n_brokers - 1)
    return to_int32(_jmod(first_replica_index + shift, n_brokers))


def rack_alternated_broker_list(broker_racks: Mapping[int, str]) -> list[int]:
    """``getRackAlternatedBrokerList``: racks in ``String`` order, brokers by id, one per rack in turn.

    ``{0: "a", 1: "a", 2: "b", 3: "c", 4: "c"}`` -> ``[0, 2, 3, 1, 4]``.
    """
    by_rack: dict[str, list[int]] = {}
    for broker, rack in broker_racks.items():
        by_rack.setdefault(rack, []).append(broker)
    racks = sorted(by_rack, key=string_compare_key)
    iterators = {rack: iter(sorted(ids)) for rack, ids in by_rack.items()}
    result: list[int] = []
    rack_index = 0
    while len(result) < len(broker_racks):
        nxt = next(iterators[racks[rack_index]], None)
        if nxt is not None:
            result.append(nxt)
        rack_index = (rack_index + 1) % len(racks)
    return result


def assign_replicas_to_brokers(
    brokers: Sequence[Broker],
    partitions: int,
    replication_factor: int,
    fixed_start_index: int = -1,
    start_partition_id: int = -1,
    rng: random.Random | None = None,
) -> ReplicaPlacement:
    """``AdminUtils.assignReplicasToBrokers``; raises ``KafkaAdminError`` where Kafka throws."""
    if partitions <= 0:
        raise KafkaAdminError("InvalidPartitionsException", "Number of partitions must be larger than 0.")
    if replication_factor <= 0:
        raise KafkaAdminError("InvalidReplicationFactorException",
                              "Replication factor must be larger than 0.")
    if replication_factor > len(brokers):
        raise KafkaAdminError(
            "InvalidReplicationFactorException",
            f"Replication factor: {replication_factor} larger than available brokers: {len(brokers)}.",
        )
    rng = rng or random.Random()
    if all(b.rack is None for b in brokers):
        return _rack_unaware(partitions, replication_factor, [b.id for b in brokers], fixed_start_index,
                             start_partition_id, rng)
    return _rack_aware(partitions, replication_factor, brokers, fixed_start_index, start_partition_id, rng)


def _starts(fixed_start_index: int, n: int, rng: random.Random) -> tuple[int, int]:
    if fixed_start_index >= 0:
        return fixed_start_index, fixed_start_index
    return rng.randrange(n), rng.randrange(n)


def _rack_unaware(
    partitions: int, rf: int, broker_list: list[int], fixed_start_index: int, start_partition_id: int,
    rng: random.Random,
) -> ReplicaPlacement:
    n = len(broker_list)
    start_index, shift = _starts(fixed_start_index, n, rng)
    first_shift = shift
    current = max(0, start_partition_id)
    out: dict[int, list[int]] = {}
    for _ in range(partitions):
        if current > 0 and _jmod(current, n) == 0:
            shift = to_int32(shift + 1)
        first = _jmod(to_int32(current + start_index), n)
        replicas = [_get(broker_list, first)]
        replicas.extend(_get(broker_list, replica_index(first, shift, j, n)) for j in range(rf - 1))
        out[current] = replicas
        current = to_int32(current + 1)
    return ReplicaPlacement(out, None, start_index, first_shift)


def _rack_aware(
    partitions: int, rf: int, brokers: Sequence[Broker], fixed_start_index: int, start_partition_id: int,
    rng: random.Random,
) -> ReplicaPlacement:
    racks: dict[int, str] = {}
    for b in brokers:
        if b.rack is None:
            raise KafkaAdminError(
                "AdminOperationException", "Not all brokers have rack information for replica rack aware "
                                           "assignment."
            )
        racks[b.id] = b.rack
    num_racks = len(set(racks.values()))
    arranged = rack_alternated_broker_list(racks)
    n = len(arranged)
    start_index, shift = _starts(fixed_start_index, n, rng)
    first_shift = shift
    current = max(0, start_partition_id)
    out: dict[int, list[int]] = {}
    for _ in range(partitions):
        if current > 0 and _jmod(current, n) == 0:
            shift = to_int32(shift + 1)
        first = _jmod(to_int32(current + start_index), n)
        leader = _get(arranged, first)
        replicas = [leader]
        racks_with, brokers_with = {racks[leader]}, {leader}
        k = 0
        for _ in range(rf - 1):
            while True:
                broker = _get(arranged, replica_index(first, to_int32(shift * num_racks), k, n))
                rack = racks[broker]
                k += 1
                if (rack not in racks_with or len(racks_with) == num_racks) and (
                    broker not in brokers_with or len(brokers_with) == n
                ):
                    replicas.append(broker)
                    racks_with.add(rack)
                    brokers_with.add(broker)
                    break
        out[current] = replicas
        current = to_int32(current + 1)
    return ReplicaPlacement(out, arranged, start_index, first_shift)


# ----------------------------------------------------------------------------------- the CLI


def brokers_on_racks(count: int, racks: Sequence[str] = ()) -> list[Broker]:
    """Brokers ``0..count-1`` given the racks in turn (no racks: rack-unaware brokers).

    ``brokers_on_racks(4, ["r1", "r2"])`` puts brokers 0 and 2 on r1, 1 and 3 on r2.
    """
    return [Broker(i, racks[i % len(racks)] if racks else None) for i in range(count)]


def _int(where: str, value: Any, default: int | None = None) -> int:
    if value is None and default is not None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not INT_MIN <= value <= INT_MAX:
        raise EngineError(f"{where}: must be a 32-bit integer, got {value!r:.60}")
    return value


def parse_brokers(raw: Any) -> list[Broker]:
    """``brokers``: a list of ``{"id": int, "rack": str | null}`` (order significant)."""
    if not isinstance(raw, list):
        raise EngineError(f"brokers: must be a list of {{id, rack}} objects, got {raw!r:.60}")
    if len(raw) > MAX_BROKERS:
        raise LimitError(f"brokers: at most {MAX_BROKERS}, got {len(raw)}")
    out = []
    for i, b in enumerate(raw):
        if not isinstance(b, dict):
            raise EngineError(f"brokers[{i}]: must be an object with id and rack, got {b!r:.60}")
        rack = b.get("rack")
        if rack is not None and (not isinstance(rack, str) or len(rack) > 255):
            raise EngineError(f"brokers[{i}].rack: must be a string (<= 255 characters) or null, got "
                              f"{rack!r:.60}")
        out.append(Broker(_int(f"brokers[{i}].id", b.get("id")), rack))
    return out


def cli_replicas(payload: Any) -> dict[str, Any]:
    """``python -m engine replicas`` (spec section 6); Kafka exceptions come back as ``{"error"}``.

    ``"placer"`` picks the Kafka class: ``"admin-utils"`` (the default, the spec's ``AdminUtils``) or
    ``"striped"`` (``StripedReplicaPlacer``, ``_cli_striped``).
    """
    if not isinstance(payload, dict):
        raise EngineError(f"input: must be a JSON object, got {type(payload).__name__}")
    placer = payload.get("placer", ADMIN_UTILS)
    if placer not in PLACERS or not isinstance(placer, str):
        raise EngineError(f"placer: must be one of {', '.join(map(repr, PLACERS))}, got {placer!r:.60}")
    if placer == STRIPED:
        return _cli_striped(payload)
    for key in ("seed",):
        if key in payload:
            raise EngineError(f"{key}: only with placer 'striped' (AdminUtils draws from an unseeded Random)")
    brokers = parse_brokers(payload.get("brokers"))
    partitions = _int("partitions", payload.get("partitions"))
    rf = _int("replication_factor", payload.get("replication_factor"))
    fixed = _int("fixed_start_index", payload.get("fixed_start_index"), -1)
    start = _int("start_partition_id", payload.get("start_partition_id"), -1)
    _check_sizes(partitions, rf)
    admit(estimate_replicas(partitions, rf, replica_scan([b.rack for b in brokers])), CLI_CEILING, "replicas")
    try:
        placement = assign_replicas_to_brokers(brokers, partitions, rf, fixed, start)
    except KafkaAdminError as exc:
        return {"error": str(exc)}
    out: dict[str, Any] = {"assignment": {str(p): r for p, r in placement.assignment.items()}}
    if placement.rack_alternated_broker_list is not None:
        out["rack_alternated_broker_list"] = placement.rack_alternated_broker_list
    return out


def _check_sizes(partitions: int, rf: int) -> None:
    if partitions > MAX_PARTITIONS:
        raise LimitError(f"partitions: at most {MAX_PARTITIONS}, got {partitions}")
    if partitions * max(rf, 0) > MAX_REPLICAS_TOTAL:
        raise LimitError(f"partitions x replication_factor: at most {MAX_REPLICAS_TOTAL}, got "
                         f"{partitions * rf}")


def _seed(value: Any) -> int:
    """``seed``: the Java ``long`` given to ``new Random(seed)``; 0 when left out."""
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not LONG_MIN <= value <= LONG_MAX:
        raise EngineError(f"seed: must be a 64-bit integer (a Java long), got {value!r:.60}")
    return value


def usable_brokers(raw: Any) -> list[UsableBroker]:
    """``brokers`` for the striped placer: ``{"id", "rack", "fenced"}`` with distinct ids >= 0.

    ``fenced`` (default false): registered but not caught up, so it may hold followers, never a leader.
    KRaft broker ids are >= 0 (the placer answers -1 for "no broker").
    """
    brokers = parse_brokers(raw)
    seen: set[int] = set()
    out = []
    for i, (b, item) in enumerate(zip(brokers, raw)):
        fenced = item.get("fenced", False)
        if not isinstance(fenced, bool):
            raise EngineError(f"brokers[{i}].fenced: must be true or false, got {fenced!r:.60}")
        if b.id < 0:
            raise EngineError(f"brokers[{i}].id: a KRaft broker id is >= 0, got {b.id}")
        if b.id in seen:
            raise EngineError(f"brokers[{i}].id: {b.id} appears twice")
        seen.add(b.id)
        out.append(UsableBroker(b.id, b.rack, fenced))
    return out


def _cli_striped(payload: dict[str, Any]) -> dict[str, Any]:
    """``"placer": "striped"``: ``new StripedReplicaPlacer(new Random(seed)).place(...)`` over ``brokers`` in
    the given order; ``fixed_start_index`` and ``start_partition_id`` are refused (the placer draws its
    starts from the Random and numbers the partitions from 0)."""
    for key in ("fixed_start_index", "start_partition_id"):
        if key in payload:
            raise EngineError(f"{key}: does not apply to placer 'striped' (StripedReplicaPlacer draws its "
                              "starts from the Random; leave it out)")
    brokers = usable_brokers(payload.get("brokers"))
    partitions = _int("partitions", payload.get("partitions"))
    rf = _int("replication_factor", payload.get("replication_factor"))
    if not SHORT_MIN <= rf <= SHORT_MAX:
        raise EngineError(f"replication_factor: must be a 16-bit integer (PlacementSpec's short), got {rf}")
    seed = _seed(payload.get("seed"))
    _check_sizes(partitions, rf)
    admit(estimate_striped(partitions, rf, racks_walked(brokers, rf)), CLI_CEILING, "replicas")
    try:
        placement = place_striped(brokers, partitions, rf, seed)
    except PlacementError as exc:
        return {"error": str(exc)}
    return {"follows": follows("replicas-striped"), "placer": STRIPED, "seed": seed,
            "assignment": {str(p): r for p, r in placement.assignment.items()}}


def generate_striped(brokers: Sequence[Broker], current: Mapping[int, Sequence[int]], removed: int,
                     seed: int) -> dict[int, list[int]]:
    """What ``kafka-reassign-partitions --generate --broker-list <the others>`` proposes for one topic with
    ``StripedReplicaPlacer`` (Kafka 4.1 on): ``new Random(seed)`` over the remaining brokers, none fenced, with the
    topic's partition count and replication factor (``ReassignPartitionsCommand.calculateAssignment``)."""
    others = [UsableBroker(b.id, b.rack) for b in brokers if b.id != removed]
    rf = len(next(iter(current.values())))
    return place_striped(others, len(current), rf, seed).assignment


# ----------------------------------------------------------------------------------- leadership


def preferred_leaders(assignment: Mapping[int, Sequence[int]]) -> dict[int, int]:
    """The preferred leader of each partition: its first replica."""
    return {p: replicas[0] for p, replicas in assignment.items()}


def elect_after_failure(
    assignment: Mapping[int, Sequence[int]], leaders: Mapping[int, int | None], dead: Iterable[int]
) -> dict[int, int | None]:
    """Leaders after brokers die: a live leader stays; otherwise the first live replica (None = offline).

    The controller's ``offlinePartitionLeaderElection`` with every live replica in the ISR and
    unclean election off.
    """
    gone = set(dead)
    out: dict[int, int | None] = {}
    for p, replicas in assignment.items():
        current = leaders.get(p)
        if current is not None and current not in gone:
            out[p] = current
        else:
            out[p] = next((b for b in replicas if b not in gone), None)
    return out


def preferred_leader_election(
    assignment: Mapping[int, Sequence[int]], leaders: Mapping[int, int | None], dead: Iterable[int]
) -> dict[int, int | None]:
    """``kafka-leader-election --election-type PREFERRED``: the first replica leads where it is alive."""
    gone = set(dead)
    return {p: (replicas[0] if replicas[0] not in gone else leaders.get(p))
            for p, replicas in assignment.items()}


def leader_counts(leaders: Mapping[int, int | None], brokers: Iterable[int]) -> dict[int, int]:
    """Partitions led per broker (every listed broker present, 0 included)."""
    counts = {b: 0 for b in brokers}
    for leader in leaders.values():
        if leader is not None:
            counts[leader] = counts.get(leader, 0) + 1
    return counts


def leader_skew(counts: Mapping[int, int], live: Iterable[int]) -> float:
    """Most leaderships on one live broker divided by the fair share (1.0 = perfectly even)."""
    live = list(live)
    total = sum(counts.get(b, 0) for b in live)
    if not live or total == 0:
        return 0.0
    return max(counts.get(b, 0) for b in live) / (total / len(live))


def leader_imbalance_ratio(
    assignment: Mapping[int, Sequence[int]], leaders: Mapping[int, int | None], broker: int
) -> float:
    """``auto.leader.rebalance`` check: share of the broker's preferred partitions it does not lead.

    The controller triggers a preferred-leader election for a broker whose ratio exceeds
    ``leader.imbalance.per.broker.percentage`` (10 by default), every
    ``leader.imbalance.check.interval.seconds`` (300).
    """
    preferred = [p for p, replicas in assignment.items() if replicas and replicas[0] == broker]
    if not preferred:
        return 0.0
    return sum(1 for p in preferred if leaders.get(p) != broker) / len(preferred)


def leadership_rows(assignment: Mapping[int, Sequence[int]], preferred: Mapping[int, int],
                    leaders: Mapping[int, int | None]) -> list[dict[str, Any]]:
    """Per partition: its replicas, preferred leader and current leader ("offline" when none is alive)."""
    return [{"partition": p, "replicas": str(list(assignment[p])), "preferred leader": preferred[p],
             "leader": leaders[p] if leaders[p] is not None else "offline"} for p in sorted(assignment)]
