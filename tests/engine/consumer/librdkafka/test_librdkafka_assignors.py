"""The port of librdkafka's assignors (engine/consumer/librdkafka), without a cluster.

* every public function's worked example (its doctest) holds;
* ``glibc_qsort`` is what the C library's ``qsort`` does, checked against libc itself;
* librdkafka's quirks the oracle found stay modelled (empty client.rack, non-convergence, crashes);
* every case of ``tests/vectors/librdkafka_assign.json`` (recorded from real librdkafka consumers
  by ``tests/support/gen_librdkafka_vectors.py``) replays exactly: assignments per member at
  every step, rounds, generations, leaders, and the leader's raw assignor output in its order.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import doctest
import importlib
import json
import random
from typing import Any

import pytest

from engine.consumer.group import assign_once
from engine.consumer.librdkafka import (
    GroupMember,
    LibrdkafkaFailure,
    TopicMetadata,
    assign,
    assign_state,
    replay_librdkafka,
)
from engine.consumer.librdkafka.model import group_member_cmp
from engine.consumer.librdkafka.qsort import glibc_qsort
from engine.errors import EngineError
from engine.scenario import TopicPartition, parse_scenario
from helpers import TESTS
from support.librdkafka_cases import compare_case

VECTORS = TESTS / "vectors" / "librdkafka_assign.json"
MODULES = ["", ".model", ".qsort", ".eligible", ".range", ".roundrobin", ".movements", ".sticky", ".metadata_cache",
           ".teaching", ".cli",
           ".cooperative", ".replay"]


@pytest.mark.parametrize("module", MODULES)
def test_worked_examples(module: str) -> None:
    mod = importlib.import_module("engine.consumer.librdkafka" + module)
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


# ---------------------------------------------------------------- glibc qsort


def _libc_qsort(items: list[Any], cmp: Any, element_size: int) -> list[Any]:
    """Sort indices with the real C ``qsort`` (elements of ``element_size`` bytes, index first)."""
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")

    class Element(ctypes.Structure):
        _fields_ = [("index", ctypes.c_int), ("pad", ctypes.c_char * (element_size - 4))]

    Compare = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(Element), ctypes.POINTER(Element))
    array = (Element * len(items))(*[Element(i) for i in range(len(items))])
    callback = Compare(lambda a, b: cmp(items[a.contents.index], items[b.contents.index]))
    libc.qsort.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t, Compare]
    libc.qsort(array, len(items), ctypes.sizeof(Element), callback)
    return [items[e.index] for e in array]


def _random_members(rng: random.Random, n: int) -> list[GroupMember]:
    return [GroupMember(f"0x7f{rng.randrange(1 << 24):06x}", (),
                        instance_id=rng.choice([None, None, f"s{rng.randrange(50)}"])) for _ in range(n)]


@pytest.mark.parametrize("element_size", [8, 48])  # rd_list pointers; roundrobin's member structs
def test_glibc_qsort_is_the_c_librarys_qsort_even_for_a_non_transitive_comparator(element_size: int) -> None:
    pytest.importorskip("ctypes.util")
    if not ctypes.util.find_library("c"):
        pytest.skip("no C library to compare with")
    rng = random.Random(5)
    for _ in range(200):
        members = _random_members(rng, rng.randint(0, 12))
        assert glibc_qsort(members, group_member_cmp) == _libc_qsort(members, group_member_cmp, element_size)


# ---------------------------------------------------------------- behaviours the oracle showed


def _scenario(steps: list[dict[str, Any]]) -> Any:
    return parse_scenario({"steps": steps})


def test_static_and_dynamic_members_mix_differently_than_java() -> None:
    """Java's range sorts static members first (by instance id); librdkafka compares instance ids
    only when both members are static, member ids otherwise."""
    members = [{"id": "m1", "topics": ["t0"], "instance_id": "z"}, {"id": "m2", "topics": ["t0"]},
               {"id": "m3", "topics": ["t0"], "instance_id": "a"}]
    state = _scenario([{"topics": {"t0": 3}, "members": members}]).first
    librdkafka = {m: [str(tp) for tp in tps] for m, tps in assign_state(state, "range").items()}
    java = {m: [str(tp) for tp in tps] for m, tps in assign_once(state, "range").items()}
    assert librdkafka == {"m1": ["t0-0"], "m2": ["t0-1"], "m3": ["t0-2"]}
    assert java == {"m3": ["t0-0"], "m1": ["t0-1"], "m2": ["t0-2"]}


def test_a_consumer_without_client_rack_sends_an_empty_rack_that_sticky_treats_as_foreign() -> None:
    """client.rack defaults to "" (not NULL): in rack-aware cooperative-sticky such a consumer
    matches no replica and is passed over in the rack pass (seen on real consumers)."""
    racks = {"t0": [["r0", "r1"]], "t1": [["r0", "r1"], ["r0"]]}
    members = [{"id": "0x7f0890590af0", "topics": ["t0", "t1"], "rack": "rx", "instance_id": "b-static"},
               {"id": "0x7f089019b750", "topics": ["t0", "t1"], "rack": "r0", "instance_id": "g-static"},
               {"id": "0x7f089050e5e0", "topics": ["t1"], "rack": None, "instance_id": "f-static"},
               {"id": "0x7f08901bd1c0", "topics": ["t1"], "rack": "r0"},
               {"id": "0x7f089052d9d0", "topics": ["t0", "t1"], "rack": "rx"}]
    out = assign_state(_scenario([{"topics": {"t0": 1, "t1": 2}, "members": members,
                                   "partition_racks": racks}]).first, "cooperative-sticky")
    assert {m: [str(tp) for tp in tps] for m, tps in out.items() if tps} == {
        "0x7f089019b750": ["t1-1"], "0x7f08901bd1c0": ["t1-0"], "0x7f089052d9d0": ["t0-0"]}


def test_cooperative_sticky_can_rebalance_forever() -> None:
    """Recorded on real consumers: t0-4 and t0-7 swap between a rack-less member and a member on
    an unknown rack at every round; librdkafka never settles (the oracle stops after 6 rounds)."""
    def member(mid: str, rack: str | None, static: str | None = None) -> dict[str, Any]:
        return {"id": mid, "topics": ["t0"], "rack": rack, "instance_id": static}

    base = [member("0x7f8d58008fd0", "r0"), member("0x7f8d580093e0", None),
            member("0x7f8d5800aa10", "r2", "p-static"), member("0x7f8d58008ba0", "r2", "g-static")]
    racks = {"t0": [[r] for r in ("r0", "r1", "r2") * 3]}
    joined = [member("0x7f8d5800b9a0", "r0"), member("0x7f8d58009660", "rx", "b-static")]
    steps = [{"topics": {"t0": 9}, "members": base + joined[:k], "partition_racks": racks} for k in range(3)]
    results = replay_librdkafka(_scenario(steps), "cooperative-sticky", max_rounds=12)
    assert [r.converged for r in results] == [True, True, False]
    assert results[2].rounds == 12
    swapped = [sorted(str(tp) for tp in raw["0x7f8d58009660"]) for raw in results[2].assignor_rounds[:4]]
    assert swapped == [["t0-7"], ["t0-4"], ["t0-7"], ["t0-4"]]


def test_a_cooperative_consumer_switching_to_an_uncached_topic_drops_partitions_without_a_rebalance() -> None:
    """Seen on real consumers: the subscription change waits for metadata, then the partitions of
    the dropped topic count as lost, and only a leader would rejoin; nobody consumes them until
    the next rebalance.  The leader itself, or eager strategies, rebalance as usual."""
    def members(m1_topics: list[str]) -> list[dict[str, Any]]:
        subs = [["t0", "t1"], m1_topics, ["t0"], ["t0", "t1"], ["t0"]]
        return [{"id": f"m{i}", "topics": t} for i, t in enumerate(subs)]

    steps = [{"topics": {"t0": 2, "t1": 5}, "members": members(["t1"])},
             {"topics": {"t0": 2, "t1": 5}, "members": members(["t0"])}]
    formed, switched = replay_librdkafka(_scenario(steps), "cooperative-sticky")
    assert formed.leader == "m0" and formed.assignment["m1"]
    assert switched.rounds == 0 and switched.generation == formed.generation
    assert switched.assignment["m1"] == [] and switched.revoked_before_join == {"m1": formed.assignment["m1"]}
    assert {m: tps for m, tps in switched.assignment.items() if m != "m1"} == {
        m: tps for m, tps in formed.assignment.items() if m != "m1"}
    eager = replay_librdkafka(_scenario(steps), "range")[1]
    assert eager.rounds == 1 and eager.generation == 2


def test_where_librdkafka_would_crash_the_engine_says_so() -> None:
    """A move back that reads a freed movement list (use-after-free in rdkafka_sticky_assignor.c)."""
    rng = random.Random(1)
    failures = 0
    for _ in range(300):
        topics = {f"t{i}": rng.randint(1, 12) for i in range(rng.randint(1, 3))}
        names = list(topics)

        def member(i: int) -> dict[str, Any]:
            return {"id": f"0x7f{rng.randrange(1 << 32):08x}",
                    "topics": [t for t in names if rng.random() < 0.6] or [names[0]],
                    "instance_id": rng.choice([None, f"s{i}"])}

        members = [member(i) for i in range(rng.randint(3, 6))]
        steps = [{"topics": topics, "members": list(members)}]
        for k in range(3):
            members = members[:-1] if k % 2 else [*members, member(10 + k)]
            steps.append({"topics": topics, "members": list(members)})
        try:
            replay_librdkafka(_scenario(steps), "cooperative-sticky")
        except LibrdkafkaFailure as exc:
            failures += 1
            assert "librdkafka" in str(exc)
    assert failures > 0


def test_assign_is_one_assignor_call() -> None:
    members = [GroupMember("b", ("t0",)), GroupMember("a", ("t0", "t1"))]
    metadata = [TopicMetadata("t0", 2), TopicMetadata("t1", 1)]
    assert assign("roundrobin", metadata, members) == {
        "a": [TopicPartition("t0", 0), TopicPartition("t1", 0)], "b": [TopicPartition("t0", 1)]}
    assert assign("range", metadata, []) == {}
    with pytest.raises(EngineError, match="librdkafka offers"):
        assign("sticky", metadata, members)


def test_unknown_topics_are_not_subscribed_and_a_member_without_topics_does_not_join() -> None:
    members = [{"id": "a", "topics": ["t0", "nope"]}, {"id": "b", "topics": ["nope"]}]
    steps = [{"topics": {"t0": 2}, "members": members}]
    result = replay_librdkafka(_scenario(steps), "range")[0]
    assert result.joined == ("a",)
    assert {m: len(tps) for m, tps in result.assignment.items()} == {"a": 2, "b": 0}


# ---------------------------------------------------------------- recorded real groups


def _vector_cases() -> list[dict[str, Any]]:
    if not VECTORS.is_file():
        pytest.skip(f"{VECTORS} not generated (tests/support/gen_librdkafka_vectors.py)")
    return list(json.loads(VECTORS.read_text(encoding="utf-8"))["cases"])


def test_vector_file_covers_all_strategies_with_steps() -> None:
    cases = _vector_cases()
    assert len(cases) >= 150
    assert {c["strategy"] for c in cases} == {"range", "roundrobin", "cooperative-sticky"}
    assert sum(len(c["expected"]) for c in cases) > len(cases)


def test_every_recorded_real_group_replays_exactly() -> None:
    problems = [d for case in _vector_cases() for d in compare_case(case)]
    assert problems == []


def _leader_changes_subscription(leader_rack: str | None = None, other_rack: str | None = "r0",
                                 racks: bool = True, new_topics: tuple[str, ...] = ("t0", "t1")) -> Any:
    """Case lk20250101-36's shape: the rack-less leader m0 reads only t1, the group also t0."""
    def members(m0_topics: list[str]) -> list[dict[str, Any]]:
        return [{"id": "m0", "topics": m0_topics, "rack": leader_rack},
                {"id": "m1", "topics": ["t0", "t1"], "rack": other_rack},
                {"id": "m2", "topics": ["t0", "t1"], "rack": other_rack}]

    state: dict[str, Any] = {"topics": {"t0": 2, "t1": 3, "t2": 1}}
    if racks:
        state["partition_racks"] = {"t0": [["r0", "r1"], ["r0"]], "t1": [["r0"], ["r1"], ["r0"]], "t2": [["r1"]]}
    return _scenario([{**state, "members": members(["t1"])}, {**state, "members": members(list(new_topics))}])


@pytest.mark.parametrize("strategy", ["range", "roundrobin", "cooperative-sticky"])
def test_a_rack_less_leader_subscribing_to_a_topic_it_cached_for_the_assignor_reads_freed_memory(
        strategy: str) -> None:
    """Recorded on real consumers (case lk20250101-36, SIGSEGV in rd_kafka_topic_info_new_with_rack):
    the leader's metadata cache entry for t0 points into the freed rack-aware Metadata response."""
    with pytest.raises(LibrdkafkaFailure, match=r"consumer m0 \(no client.rack\).*for t0") as failure:
        replay_librdkafka(_leader_changes_subscription(), strategy)
    assert failure.value.undefined


@pytest.mark.parametrize("variant", [
    {"leader_rack": "r1"},  # the cache copies the racks it was asked to include
    {"other_rack": None},  # no member sends a rack: no rack-aware metadata is fetched
    {"racks": False},  # brokers without racks: no rack strings to read
    {"new_topics": ("t0", "t1", "t2")},  # t2 is not cached: a fresh Metadata request cleans every entry
])
def test_without_every_condition_the_subscription_change_is_safe(variant: dict[str, Any]) -> None:
    steps = replay_librdkafka(_leader_changes_subscription(**variant), "range")
    subscribed = set(variant.get("new_topics", ("t0", "t1")))
    assert steps[1].rounds == 1
    assert sorted(str(tp) for tps in steps[1].assignment.values() for tp in tps) == sorted(
        f"{t}-{p}" for t, n in {"t0": 2, "t1": 3, "t2": 1}.items() if t in subscribed for p in range(n))


def test_a_group_real_librdkafka_aborts_while_forming_fails_in_the_engine_for_any_order() -> None:
    """Generator case lk20250101-218 (no vector: the leader aborts before any member id is logged).  Rerun
    under gdb, real 2.16.0 consumers abort in 3 of 3 runs on ``assert(!rd_strcmp(existing_cpair->dst,
    old_consumer))`` in PartitionMovements_movePartition (rdkafka_sticky_assignor.c:404).  The engine fails
    on that assert whatever the JoinGroup order and the byte order of the broker-made member ids."""
    racks = {"t0": [["r0", "r1"], ["r0"], ["r0", "r1"], ["r0", "r1"], ["r0"]]}
    racks["t1"] = racks["t0"] + [["r0", "r1"], ["r0", "r1"], ["r0"]]
    racks["t2"] = racks["t1"] + [["r0", "r1"], ["r0", "r1"], ["r0"], ["r0", "r1"]]
    members = [(["t0", "t2"], "rx", "p-static"), (["t0", "t1", "t2"], "r1", "o-static"),
               (["t0", "t1"], None, None), (["t1"], None, "k-static")]
    rng = random.Random(218)
    for _ in range(40):
        ids = [f"0x7f{rng.randrange(1 << 24):06x}" for _ in members]
        order = rng.sample(range(len(members)), len(members))
        state = {"topics": {"t0": 5, "t1": 8, "t2": 12}, "partition_racks": racks,
                 "members": [{"id": ids[i], "topics": members[i][0], "rack": members[i][1],
                              "instance_id": members[i][2]} for i in order]}
        with pytest.raises(LibrdkafkaFailure, match=r"rd_assert\(existing_cpair->dst == old_consumer\)"):
            replay_librdkafka(_scenario([state]), "cooperative-sticky")
