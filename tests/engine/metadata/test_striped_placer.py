"""``engine.metadata.placement.striped``: Kafka 4.2.0's StripedReplicaPlacerTest transcribed (its ``MockRandom``),
placements the Java class computed with ``new Random(seed)`` (Java 17, Kafka 4.2.0's source), and properties."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.errors import EngineError
from engine.java.random import JavaRandom, to_int64
from engine.java.strings import to_int32
from engine.metadata.placement.striped import (
    PlacementError,
    RackList,
    StripedReplicaPlacer,
    UsableBroker,
    _BrokerList,
    create_topic,
    place_striped,
    racks_walked,
)


class MockRandom(JavaRandom):
    """Kafka's ``org.apache.kafka.server.util.MockRandom``: a 64-bit LCG from state 17 behind ``next(bits)``."""

    def __init__(self, state: int = 17) -> None:
        super().__init__(0)
        self.state = state

    def next(self, bits: int) -> int:
        self.state = to_int64(self.state * 2862933555777941757 + 3037000493)
        return to_int32((self.state & (2**64 - 1)) >> (64 - bits))


def b(broker_id: int, rack: str | None = None, fenced: bool = False) -> UsableBroker:
    return UsableBroker(broker_id, rack, fenced)


def place(brokers: list[UsableBroker], partitions: int, rf: int) -> list[list[int]]:
    return StripedReplicaPlacer(MockRandom()).place(brokers, partitions, rf)


# --------------------------------------------------------------------- StripedReplicaPlacerTest, 4.2.0


def test_broker_list() -> None:
    assert _BrokerList().next(1) == -1
    brokers = _BrokerList()
    brokers.brokers.extend([0, 1, 2, 3])
    assert [brokers.next(0) for _ in range(6)] == [0, 1, 2, 3, -1, -1]
    assert [brokers.next(1) for _ in range(5)] == [1, 2, 3, 0, -1]


def test_avoid_fenced_replica_if_possible_on_single_rack() -> None:
    racks = RackList(MockRandom(), [b(3), b(1, fenced=True), b(0), b(4), b(2)])
    assert (racks.total, racks.unfenced, racks.rack_names) == (5, 4, [None])
    for bad in (0, -1):
        with pytest.raises(PlacementError, match="InvalidReplicationFactorException"):
            racks.place(bad)
    assert [racks.place(4) for _ in range(5)] == [[3, 4, 0, 2], [4, 0, 2, 3], [0, 2, 3, 4], [2, 3, 4, 0],
                                                  [0, 4, 3, 2]]


def test_multi_partition_topic_on_a_single_unfenced_broker() -> None:
    assert place([b(0), b(1, fenced=True)], 3, 1) == [[0], [0], [0]]


def test_placement_on_the_fenced_replica_when_needed() -> None:
    racks = RackList(MockRandom(), [b(3), b(1, fenced=True), b(2)])
    assert (racks.total, racks.unfenced) == (3, 2)
    assert [racks.place(3) for _ in range(4)] == [[3, 2, 1], [2, 3, 1], [3, 2, 1], [2, 3, 1]]


def test_rack_list_with_multiple_racks() -> None:
    racks = RackList(MockRandom(), [b(11, "1"), b(10, "1"), b(30, "3"), b(31, "3"), b(21, "2"),
                                    b(20, "2", fenced=True)])
    assert (racks.total, racks.unfenced, racks.rack_names) == (6, 5, ["1", "2", "3"])
    assert [racks.place(4) for _ in range(3)] == [[11, 21, 31, 10], [21, 30, 10, 20], [31, 11, 21, 30]]


def test_rack_list_with_invalid_racks() -> None:
    racks = RackList(MockRandom(), [b(11, "1"), b(10, "1"), b(30, "3", True), b(31, "3", True), b(20, "2", True),
                                    b(21, "2", True), b(41, "4"), b(40, "4", True)])
    assert (racks.total, racks.unfenced, racks.rack_names) == (8, 3, ["1", "2", "3", "4"])
    assert [racks.place(4) for _ in range(3)] == [[41, 11, 21, 30], [10, 20, 31, 41], [41, 21, 30, 11]]


@pytest.mark.parametrize(("brokers", "rf", "message"), [
    ([b(11, "1", True), b(10, "1", True)], 1, "All brokers are currently fenced."),
    ([b(11, "1"), b(10, "1")], 3, "The target replication factor of 3 cannot be reached because only 2 broker(s) "
                                  "are registered."),
    ([b(11, "1"), b(10, "1")], 0, "Invalid replication factor 0: the replication factor must be positive."),
])
def test_the_placers_refusals(brokers: list[UsableBroker], rf: int, message: str) -> None:
    with pytest.raises(PlacementError) as caught:
        place(brokers, 1, rf)
    assert (caught.value.name, caught.value.message) == ("InvalidReplicationFactorException", message)
    assert str(caught.value) == f"InvalidReplicationFactorException: {message}"


def test_successful_placement() -> None:
    assert place([b(0), b(3), b(2), b(1)], 5, 3) == [[2, 3, 0], [3, 0, 1], [0, 1, 2], [1, 2, 3], [1, 0, 2]]


def test_even_distribution() -> None:
    counts = Counter(tuple(r) for r in place([b(0), b(1), b(2), b(3)], 200, 2))
    assert counts == {(0, 1): 14, (0, 2): 22, (0, 3): 14, (1, 0): 17, (1, 2): 17, (1, 3): 16, (2, 0): 13,
                      (2, 1): 17, (2, 3): 20, (3, 0): 20, (3, 1): 19, (3, 2): 11}


def test_rack_list_refusals() -> None:
    with pytest.raises(PlacementError, match="^InvalidReplicationFactorException: All brokers are currently "
                                             "fenced.$"):
        RackList(MockRandom(), [b(0, None, True), b(1, None, True), b(2, None, True)]).place(3)
    two = RackList(MockRandom(), [b(11, "1"), b(10, "1")])
    with pytest.raises(PlacementError, match="The target replication factor of 3 cannot be reached"):
        two.place(3)
    with pytest.raises(PlacementError, match="Invalid replication factor -1: the replication factor must be "
                                             "positive."):
        two.place(-1)


# --------------------------------------------------------------------- new Random(seed), as Java computes it

RACKS_R1_R3 = [b(i, f"r{i % 3 + 1}") for i in range(6)]
COLLIDING = [b(0, "Aa"), b(1, "BB"), b(2, "Aa"), b(3, "BB"), b(4, "C")]  # "Aa" and "BB": hashCode 2112 both


@pytest.mark.parametrize(("brokers", "partitions", "rf", "seed", "expected"), [
    (RACKS_R1_R3, 6, 3, 0, [[5, 0, 4], [3, 1, 2], [4, 5, 0], [2, 3, 1], [0, 4, 5], [1, 2, 3]]),
    ([b(0), b(1, "a"), b(2, "a", True), b(3, "b"), b(4, "b"), b(5, None, True)], 8, 3, 42,
     [[1, 3, 0], [4, 0, 1], [0, 1, 3], [1, 4, 0], [3, 0, 1], [0, 1, 4], [1, 3, 0], [4, 0, 1]]),
    (COLLIDING, 12, 2, -7,  # a shuffle after every five partitions (five unfenced brokers)
     [[0, 3], [1, 4], [4, 2], [0, 3], [1, 4], [2, 1], [3, 4], [4, 0], [2, 1], [3, 4], [2, 1], [3, 4]]),
    ([b(3), b(1), b(0), b(2)], 10, 2, 123456789012345,
     [[2, 3], [3, 0], [0, 1], [1, 2], [1, 3], [3, 0], [0, 2], [2, 1], [2, 3], [3, 0]]),
    (COLLIDING, 4, 3, 5, [[4, 2, 1], [0, 3, 4], [1, 4, 2], [4, 0, 3]]),
    ([b(1, "BB"), b(0, "Aa"), b(3, "BB"), b(2, "Aa"), b(4, "C")], 4, 3, 5,  # the same cluster listed otherwise:
     [[4, 0, 3], [2, 1, 4], [3, 4, 0], [4, 2, 1]]),                       # the HashMap's bucket order differs
    ([b(0, "a"), b(1, "a", True), b(2, "b", True), b(3, "b", True)], 3, 4, 9,
     [[0, 3, 2, 1], [0, 2, 1, 3], [0, 3, 2, 1]]),
])
def test_placements_java_computed(brokers: list[UsableBroker], partitions: int, rf: int, seed: int,
                                  expected: list[list[int]]) -> None:
    assert list(place_striped(brokers, partitions, rf, seed).assignment.values()) == expected


def test_the_worked_example_and_the_rack_names() -> None:
    placement = place_striped(RACKS_R1_R3, 6, 3, 0)
    assert placement.assignment == {0: [5, 0, 4], 1: [3, 1, 2], 2: [4, 5, 0], 3: [2, 3, 1], 4: [0, 4, 5],
                                    5: [1, 2, 3]}
    assert placement.rack_names == ["r1", "r2", "r3"] and placement.seed == 0
    assert place_striped([b(0, "b"), b(1), b(2, "a")], 1, 1, 0).rack_names == [None, "a", "b"]


# --------------------------------------------------------------------- properties


@pytest.mark.parametrize(("brokers", "racks", "rf"), [(6, 3, 3), (9, 3, 3), (12, 4, 3), (5, 5, 3), (8, 2, 2)])
def test_distinct_replicas_one_per_rack_and_leaders_spread(brokers: int, racks: int, rf: int) -> None:
    cluster = [b(i, f"r{i % racks}") for i in range(brokers)]
    for seed in range(20):
        assignment = place_striped(cluster, brokers * 50, rf, seed).assignment
        for replicas in assignment.values():
            assert len(set(replicas)) == rf
            assert len({f"r{x % racks}" for x in replicas}) == min(rf, racks)
        leaders = Counter(replicas[0] for replicas in assignment.values())
        assert len(leaders) == brokers and max(leaders.values()) <= 2 * 50, leaders  # all lead, none 2x its share
        held = Counter(x for r in assignment.values() for x in r).values()  # racks of one size: within 5%
        assert max(held) - min(held) <= max(held) / 20, held


def test_one_broker_per_rack_step_leads_each_broker_once_a_round() -> None:
    for seed in range(20):
        assignment = place_striped(RACKS_R1_R3, 60, 3, seed).assignment
        assert set(Counter(r[0] for r in assignment.values()).values()) == {10}


def test_several_brokers_a_rack_repeat_in_lockstep() -> None:
    """With rf = racks, each rack's list moves one step per partition as the rack offset does: Java answers the
    same three replica sets for the first nine partitions, and six of the nine brokers lead none of them."""
    cluster = [b(i, f"r{i % 3}") for i in range(9)]
    first = list(place_striped(cluster, 9, 3, 0).assignment.values())
    assert first == [[2, 3, 4], [6, 7, 5], [1, 8, 0]] * 3
    assert {r[0] for r in first} == {1, 2, 6}


def test_a_fenced_broker_never_leads_but_may_follow() -> None:
    cluster = [b(0, "a"), b(1, "a", True), b(2, "b"), b(3, "c", True)]
    assignment = place_striped(cluster, 40, 4, 3).assignment
    assert {r[0] for r in assignment.values()} <= {0, 2}
    assert all(sorted(r) == [0, 1, 2, 3] for r in assignment.values())


def test_the_rack_list_is_drawn_before_the_checks() -> None:
    rnd = JavaRandom(1)
    with pytest.raises(PlacementError):
        StripedReplicaPlacer(rnd).place([b(0, "a"), b(1, "b")], 1, 0)
    after = JavaRandom(1)
    for bound in (1, 1, 2):  # rack a's list, rack b's list, the rack offset
        after.next_int(bound)
    assert rnd.next_int() == after.next_int()


def test_the_controllers_checks_and_wording() -> None:
    with pytest.raises(PlacementError, match="^InvalidReplicationFactorException: Replication factor must be "
                                             "larger than 0, or -1 to use the default value.$"):
        create_topic(RACKS_R1_R3, 3, 0, 0)
    with pytest.raises(PlacementError, match="^InvalidPartitionsException: Number of partitions was set to an "
                                             "invalid non-positive value.$"):
        create_topic(RACKS_R1_R3, 0, 3, 0)
    with pytest.raises(PlacementError) as caught:
        create_topic(RACKS_R1_R3, 3, 7, 0)
    assert str(caught.value) == ("InvalidReplicationFactorException: Unable to replicate the partition 7 time(s): "
                                 "The target replication factor of 7 cannot be reached because only 6 broker(s) "
                                 "are registered.")
    with pytest.raises(EngineError, match="-1"):
        create_topic(RACKS_R1_R3, -1, 3, 0)
    assert create_topic(RACKS_R1_R3, 6, 3, 0) == place_striped(RACKS_R1_R3, 6, 3, 0)


def test_racks_walked_bounds_the_work() -> None:
    assert racks_walked(RACKS_R1_R3, 3) == 0
    assert racks_walked([b(0, "a"), b(1, "b", True)], 2) == 1  # rack b has no unfenced broker
    assert racks_walked([b(0, "a"), b(1, "b"), b(2, "b")], 3) == 3  # 3 replicas over 2 racks: 1 rack x 3
