"""``StripedReplicaPlacer``: where a KRaft controller puts a new topic's replicas (and, from Kafka 4.1 on,
what ``kafka-reassign-partitions.sh --generate`` proposes).

The placer is ported from ``org.apache.kafka.metadata.placement.StripedReplicaPlacer``, state for state:

* ``RackList``: the brokers grouped by rack in a ``java.util.HashMap`` keyed by ``Optional<String>``
  (brokers without a rack form one rack of their own, sorted first); each rack keeps its unfenced and its
  fenced brokers in two sorted lists, each with a random start offset (``nextInt(size)``, drawn rack by rack
  in the map's iteration order, fenced list first), and the rack list has one more (``nextInt(racks)``);
* a partition's leader is the next unfenced broker of the first rack at the current rack offset that has one;
  the followers come from the next racks in turn (unfenced brokers before fenced ones), skipping the leader's
  rack on the first lap; every partition moves the rack offset one step, and each broker list it reads one
  step too: the stripes;
* after as many partitions as there are unfenced brokers (when more than one), the rack names and every
  broker list are shuffled (``Collections.shuffle``) with the same ``Random``.

A controller builds its placer with ``new Random()``: unseeded, so every seed is one possible placement.
``place_striped(brokers, partitions, rf, seed)`` answers what Kafka computes with ``new Random(seed)``;
``create_topic`` adds the controller's checks and wording around it (``ReplicationControlManager``).
Brokers in controlled shutdown are not usable (leave them out); fenced ones may hold followers, never a leader.

Worked example (asserted in tests/engine/metadata/test_striped_placer.py; Java 17 running Kafka 4.2.0's class
prints the same): brokers 0..5 on racks r1, r2, r3 in turn, 6 partitions, replication factor 3,
``new Random(0)``::

    >>> brokers = [UsableBroker(i, f"r{i % 3 + 1}") for i in range(6)]
    >>> place_striped(brokers, 6, 3, 0).assignment
    {0: [5, 0, 4], 1: [3, 1, 2], 2: [4, 5, 0], 3: [2, 3, 1], 4: [0, 4, 5], 5: [1, 2, 3]}

Each partition has one replica per rack, the leaders cover all six brokers once, and the leader's rack
moves one step per partition (r3, r1, r2, r3, r1, r2): the random draws chose where the stripes start.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.errors import EngineError, KafkaError, LimitError
from engine.java.hashmap import JavaHashMap
from engine.java.random import JavaRandom, shuffle
from engine.java.strings import string_compare_key, string_hash_code

NO_BROKER = -1  # what BrokerList.next answers when the list has nothing more this epoch


class PlacementError(KafkaError):
    """A Kafka exception the placement throws: ``str`` is ``"<Name>: <message>"``."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message

    def __reduce__(self) -> tuple[type[PlacementError], tuple[str, str]]:
        """Pickled by name and message (a worker process sends it to the page)."""
        return PlacementError, (self.name, self.message)


def invalid_replication_factor(message: str) -> PlacementError:
    return PlacementError("InvalidReplicationFactorException", message)


@dataclass(frozen=True)
class UsableBroker:
    """``UsableBroker(id, rack, fenced)``: a broker the controller may place replicas on."""

    id: int
    rack: str | None = None
    fenced: bool = False


@dataclass(frozen=True)
class StripedPlacement:
    """Partition id -> replica broker ids (first = leader), the sorted rack names, the seed drawn from."""

    assignment: dict[int, list[int]]
    rack_names: list[str | None]
    seed: int


class _BrokerList:
    """``StripedReplicaPlacer.BrokerList``: brokers iterated from an offset, once per epoch."""

    __slots__ = ("brokers", "index", "offset", "epoch")

    def __init__(self) -> None:
        self.brokers: list[int] = []
        self.index = 0
        self.offset = 0
        self.epoch = 0

    def initialize(self, rnd: JavaRandom) -> None:
        if self.brokers:
            self.brokers.sort()
            self.offset = rnd.next_int(len(self.brokers))

    def shuffle(self, rnd: JavaRandom) -> None:
        shuffle(self.brokers, rnd)

    def next(self, epoch: int) -> int:
        """The next broker of this epoch, or ``NO_BROKER``; a new epoch restarts the walk one step further."""
        if not self.brokers:
            return NO_BROKER
        if self.epoch != epoch:
            self.epoch = epoch
            self.index = 0
            self.offset = (self.offset + 1) % len(self.brokers)
        if self.index >= len(self.brokers):
            return NO_BROKER
        broker = self.brokers[(self.index + self.offset) % len(self.brokers)]
        self.index += 1
        return broker


class _Rack:
    """``StripedReplicaPlacer.Rack``: its fenced and unfenced brokers."""

    __slots__ = ("fenced", "unfenced")

    def __init__(self) -> None:
        self.fenced = _BrokerList()
        self.unfenced = _BrokerList()

    def initialize(self, rnd: JavaRandom) -> None:
        self.fenced.initialize(rnd)
        self.unfenced.initialize(rnd)

    def shuffle(self, rnd: JavaRandom) -> None:
        self.fenced.shuffle(rnd)
        self.unfenced.shuffle(rnd)

    def next(self, epoch: int) -> int:
        broker = self.unfenced.next(epoch)
        return broker if broker >= 0 else self.fenced.next(epoch)


def optional_string_hash(rack: str | None) -> int:
    """``Optional<String>.hashCode()``: the string's hash, 0 when empty."""
    return 0 if rack is None else string_hash_code(rack)


def optional_string_order(rack: str | None) -> tuple[int, bytes]:
    """``OptionalStringComparator``: the empty rack first, then ``String.compareTo`` order."""
    return (0, b"") if rack is None else (1, string_compare_key(rack))


def _check_positive(replication_factor: int) -> None:
    if replication_factor <= 0:
        raise invalid_replication_factor(f"Invalid replication factor {replication_factor}: the replication "
                                         "factor must be positive.")


def _check_unfenced(unfenced: int) -> None:
    if unfenced == 0:
        raise invalid_replication_factor("All brokers are currently fenced.")


def _check_enough(replication_factor: int, total: int) -> None:
    if replication_factor > total:
        raise invalid_replication_factor(f"The target replication factor of {replication_factor} cannot be "
                                         f"reached because only {total} broker(s) are registered.")


class RackList:
    """``StripedReplicaPlacer.RackList``: the racks, the random offsets, and ``place`` for one partition."""

    def __init__(self, rnd: JavaRandom, brokers: Iterable[UsableBroker]) -> None:
        self.random = rnd
        self.racks: JavaHashMap[str | None, _Rack] = JavaHashMap(optional_string_hash)
        self.rack_names: list[str | None] = []
        self.total = self.unfenced = 0
        for broker in brokers:
            rack = self.racks.get(broker.rack)
            if rack is None:
                self.rack_names.append(broker.rack)
                rack = _Rack()
                self.racks.put(broker.rack, rack)
            if broker.fenced:
                rack.fenced.brokers.append(broker.id)
            else:
                self.unfenced += 1
                rack.unfenced.brokers.append(broker.id)
            self.total += 1
        if self.racks.treeified:
            raise LimitError("brokers: nine or more rack names share one java.util.HashMap bucket (a tree bin, "
                             "whose iteration order is not modelled)")
        self._by_name = dict(self.racks.items())
        for _, rack in self.racks.items():
            rack.initialize(rnd)
        self.rack_names.sort(key=optional_string_order)
        self.epoch = 0
        self.offset = rnd.next_int(len(self.rack_names)) if self.rack_names else 0

    def place(self, replication_factor: int) -> list[int]:
        """One partition's replicas (``RackList.place``)."""
        _check_positive(replication_factor)
        _check_enough(replication_factor, self.total)
        _check_unfenced(self.unfenced)
        if self.epoch == self.unfenced and self.unfenced > 1:
            self.shuffle()
            self.epoch = 0
        if self.offset == len(self.rack_names):
            self.offset = 0
        first, misses = self.offset, 0
        while True:
            leader = self._by_name[self.rack_names[first]].unfenced.next(self.epoch)
            if leader >= 0:
                break
            first = (first + 1) % len(self.rack_names)
            misses += 1
            if misses > len(self.rack_names):
                raise _endless()
        replicas = [leader]
        rack_index = self.offset
        for _ in range(1, replication_factor):
            result, misses = NO_BROKER, 0
            while result < 0:
                if rack_index == first:
                    first = -1
                else:
                    result = self._by_name[self.rack_names[rack_index]].next(self.epoch)
                rack_index = (rack_index + 1) % len(self.rack_names)
                misses += 1
                if result < 0 and misses > len(self.rack_names) + 1:
                    raise _endless()
            replicas.append(result)
        self.epoch += 1
        self.offset += 1
        return replicas

    def shuffle(self) -> None:
        shuffle(self.rack_names, self.random)
        for _, rack in self.racks.items():
            rack.shuffle(self.random)


def _endless() -> EngineError:
    return EngineError("StripedReplicaPlacer finds no broker left for this partition and would loop forever "
                       "(Kafka's controller hangs on this input)")


class StripedReplicaPlacer:
    """``new StripedReplicaPlacer(random)``; ``place`` may be called for several topics with one ``Random``."""

    def __init__(self, rnd: JavaRandom) -> None:
        self.random = rnd

    def place(self, brokers: Iterable[UsableBroker], partitions: int, replication_factor: int) -> list[list[int]]:
        """``place(new PlacementSpec(0, partitions, rf), cluster)``: one replica list per partition.

        The rack list is built (and its random offsets drawn) before the checks, as in Kafka.
        """
        racks = RackList(self.random, brokers)
        _check_positive(replication_factor)
        _check_unfenced(racks.unfenced)
        _check_enough(replication_factor, racks.total)
        return [racks.place(replication_factor) for _ in range(partitions)]


def place_striped(brokers: Sequence[UsableBroker], partitions: int, replication_factor: int,
                  seed: int) -> StripedPlacement:
    """``new StripedReplicaPlacer(new Random(seed)).place(...)`` over ``brokers`` in the cluster's order."""
    placed = StripedReplicaPlacer(JavaRandom(seed)).place(brokers, partitions, replication_factor)
    names = sorted(dict.fromkeys(b.rack for b in brokers), key=optional_string_order)
    return StripedPlacement(dict(enumerate(placed)), names, seed)


def racks_walked(brokers: Sequence[UsableBroker], replication_factor: int) -> int:
    """Racks one partition's placement may walk past without taking a broker, at most: those without an unfenced
    broker (the leader's search passes them) and, once the replicas outnumber the racks, every other rack on
    each replica (a rack whose brokers are all taken is passed on every later lap).

    ``racks_walked([UsableBroker(0, "a"), UsableBroker(1, "b", fenced=True)], 2)`` is 1.
    """
    unfenced = {b.rack for b in brokers if not b.fenced}
    racks = {b.rack for b in brokers}
    laps = (len(racks) - 1) * replication_factor if replication_factor > len(racks) else 0
    return len(racks - unfenced) + laps


def create_topic(brokers: Sequence[UsableBroker], partitions: int, replication_factor: int,
                 seed: int) -> StripedPlacement:
    """A KRaft controller creating a topic (``ReplicationControlManager.createTopic``, no manual assignment).

    It refuses a replication factor or partition count of 0 or below -1 (-1 = the broker default, not
    modelled: give the number) before placing, and words the placer's refusals as ``"Unable to replicate the
    partition <rf> time(s): <the placer's message>"``.
    """
    if replication_factor < -1 or replication_factor == 0:
        raise invalid_replication_factor("Replication factor must be larger than 0, or -1 to use the default "
                                         "value.")
    if partitions < -1 or partitions == 0:
        raise PlacementError("InvalidPartitionsException",
                             "Number of partitions was set to an invalid non-positive value.")
    if replication_factor == -1 or partitions == -1:
        raise EngineError("create topic: -1 (the broker's default) is not modelled; give the number")
    try:
        return place_striped(brokers, partitions, replication_factor, seed)
    except PlacementError as exc:
        raise invalid_replication_factor(
            f"Unable to replicate the partition {replication_factor} time(s): {exc.message}") from exc
