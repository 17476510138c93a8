"""Share groups' SimpleAssignor (engine.coordinator.simple) and ``python -m engine share-assign``: behaviours
read from Kafka's source (balance first, then stickiness), each checked by a case small enough to follow by hand.
Answers written out here were checked against Kafka's own ``SimpleAssignor`` run on the same input."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys

import pytest

from engine.coordinator import share_assignment, simple
from engine.coordinator.assignors import share_assignor
from engine.coordinator.group_spec import TopicDescriber
from engine.coordinator.share_assignment import parse_share_case, share_assign, step_shapes
from engine.coordinator.simple import (
    assign_simple,
    desired_counts,
    desired_sharing,
    fill,
    helper_capacity,
    index_order,
    share_group_spec,
    topic_id,
)
from engine.cost import estimate_share_assignment
from engine.errors import EngineError
from engine.java.hashmap import compute_if_absent_order
from engine.java.uuid import Uuid
from helpers import REPO


def _answer(case: dict) -> list[dict[str, list[str]]]:
    return [s.to_json()["assignment"] for s in share_assign(case).steps]


def _members(*ids: str, topics: tuple[str, ...] = ("t",)) -> list[dict]:
    return [{"id": m, "topics": list(topics)} for m in ids]


def test_registry_names_kafkas_class() -> None:
    entry = share_assignor("simple")
    assert entry.kafka_class == "org.apache.kafka.coordinator.group.assignor.SimpleAssignor"
    with pytest.raises(EngineError, match="assignor: must be one of simple, got 'uniform'"):
        share_assignor("uniform")


@pytest.mark.parametrize("module", [simple, share_assignment])
def test_worked_examples_in_the_docstrings_hold(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)  # type: ignore[arg-type]
    assert result.attempted >= 3 and result.failed == 0


# ------------------------------------------------------------------------- desired sharing and counts


def test_desired_sharing_is_members_over_partitions_rounded_up() -> None:
    assert [desired_sharing(s, p) for s, p in ((8, 3), (4, 10), (3, 3), (7, 3), (5, 0))] == [3, 1, 1, 3, 0]


def test_desired_counts_spread_d_times_p_over_the_members() -> None:
    assert desired_counts(4, 10) == [3, 2, 3, 2]     # x = 2.5
    assert desired_counts(3, 5) == [2, 2, 1]         # x = 5/3
    assert desired_counts(8, 3) == [2, 1, 1, 1, 1, 1, 1, 1]  # D = 3: 9 places over 8 members
    assert desired_counts(4, 8) == [2, 2, 2, 2]


def test_desired_counts_use_doubles_which_can_ask_for_one_partition_too_many() -> None:
    """x = 29/7 as a double times 7 is 29.000000000000004, whose ceiling is 30: Java's counts add up to 30
    partitions for 29 (exact fractions would give 4, 4, 4, 4, 4, 4, 5)."""
    assert desired_counts(7, 29) == [5, 4, 4, 4, 4, 4, 5]
    assert sum(desired_counts(14, 29)) == 30


def test_helper_capacity_is_assignor_helpers_new_hash_map() -> None:
    assert [helper_capacity(n) for n in (0, 1, 10, 11, 22, 23)] == [2, 4, 16, 32, 32, 64]


def test_member_indices_iterate_by_bucket_which_is_not_ascending_past_65536() -> None:
    assert index_order([3, 1, 2]) == [1, 2, 3]
    assert index_order([65_536, 65_537]) == [65_537, 65_536]  # i ^ (i >>> 16)


def test_compute_if_absent_links_at_the_head_and_a_full_bucket_doubles_a_short_table() -> None:
    assert compute_if_absent_order([5, 21, 6], 16) == ([1, 0, 2], 16)
    nine = [992 * k for k in range(1, 10)]  # all in bucket 0 of 16 and of 32
    order, capacity = compute_if_absent_order(nine, 16)
    assert capacity == 64  # the 8th key doubles 16 -> 32, the 9th 32 -> 64
    assert [nine[s] for s in order] == [7936, 5952, 3968, 1984, 8928, 6944, 4960, 2976, 992]


# ---------------------------------------------------------------------------------------- the fill step


def test_fill_cycles_the_unfilled_members_and_may_count_a_member_twice() -> None:
    """One partition needs 3 members, two members want more: the iterator gives it to 0 and 1, restarts and
    picks 0 again — Java's membersAssigned is not updated, so that counts, though it adds nothing."""
    given: list[tuple[int, int]] = []

    def give(member: int, partition: int) -> int:
        given.append((member, partition))
        return 1

    fill([7], 3, [1, 0], {0: 5, 1: 5}, lambda p: 0, lambda m, p: False, give)
    assert given == [(0, 7), (1, 7), (0, 7)]


def test_a_pass_that_gives_nothing_ends_the_fill() -> None:
    """Member 4 already reads partition 0: the pass gives nothing, so partition 0 stays short, and the
    iterator, still exhausted, gives nothing to partition 1 either."""
    given: list[tuple[int, int]] = []

    def give(member: int, partition: int) -> int:
        given.append((member, partition))
        return 1

    fill([0, 1], 2, [4], {4: 3}, lambda p: 1, lambda m, p: p == 0, give)
    assert given == []
    fill([1, 0], 2, [4], {4: 3}, lambda p: 1, lambda m, p: p == 0, give)
    assert given == [(4, 1)]


# ----------------------------------------------------------------------------------- homogeneous builder


def test_members_outnumbering_partitions_share_each_one_d_ways() -> None:
    answer = _answer({"topics": {"t": 3}, "members": _members(*(f"m{i}" for i in range(8)))})[0]
    readers = [sum(tp in tps for tps in answer.values()) for tp in ("t-0", "t-1", "t-2")]
    assert readers == [3, 3, 3]
    assert answer["m0"] == ["t-0", "t-1"]  # first in memberIds() order: desired 2
    assert all(len(tps) == 1 for m, tps in answer.items() if m != "m0")


def test_more_partitions_than_members_gives_each_partition_one_member() -> None:
    answer = _answer({"topics": {"t": 10}, "members": _members("a", "b", "c", "d")})[0]
    assert [len(answer[m]) for m in "abcd"] == [3, 2, 3, 2]  # memberIds() order a, b, c, d
    held = [tp for tps in answer.values() for tp in tps]
    assert sorted(held) == sorted(f"t-{p}" for p in range(10))


def test_a_joining_member_takes_partitions_from_an_overfilled_one() -> None:
    case = {"steps": [{"topics": {"t": 5}, "members": _members("m1")},
                      {"topics": {"t": 5}, "members": _members("m1", "m2")}]}
    first, second = _answer(case)
    assert first == {"m1": ["t-0", "t-1", "t-2", "t-3", "t-4"]}
    # m1 wants 3 (x = 2.5), keeps the first three of its HashSet<TopicIdPartition>; m2 gets the rest
    assert second == {"m1": ["t-0", "t-1", "t-2"], "m2": ["t-3", "t-4"]}


def test_an_over_shared_partition_keeps_d_members_and_the_others_are_refilled() -> None:
    members = [{"id": m, "topics": ["t"], "current_assignment": ["t-0"]} for m in "abc"]
    answer = _answer({"topics": {"t": 3}, "members": members})[0]
    assert answer == {"a": ["t-2"], "b": ["t-1"], "c": ["t-0"]}


def test_an_unchanged_group_is_a_fixed_point() -> None:
    step = {"topics": {"t": 7, "u": 5}, "members": _members(*(f"c{i}" for i in range(5)), topics=("t", "u"))}
    answers = _answer({"steps": [step, step, step]})
    assert answers[0] == answers[1] == answers[2]


def test_homogeneous_drops_topics_no_longer_subscribed() -> None:
    case = {"steps": [{"topics": {"t": 2, "u": 2}, "members": _members("a", "b", topics=("t", "u"))},
                      {"topics": {"t": 2, "u": 2}, "members": _members("a", "b", topics=("t",))}]}
    first, second = _answer(case)
    assert first == {"a": ["t-0", "u-1"], "b": ["t-1", "u-0"]}
    assert second == {"a": ["t-0"], "b": ["t-1"]}


def test_homogeneous_uses_the_first_member_in_hashmap_order() -> None:
    spec = share_group_spec({"t": 2, "u": 2}, {"a": ("t", "u"), "b": ("t", "u")}, kind="HOMOGENEOUS")
    assert spec.member_ids == ["a", "b"]
    out = assign_simple(spec, TopicDescriber({topic_id("t"): 2, topic_id("u"): 2}))
    assert sum(len(v) for v in out.values()) == 4


def test_no_subscribed_topic_empties_every_member() -> None:
    members = [{"id": m, "topics": [], "current_assignment": [f"t-{i}"]} for i, m in enumerate("ab")]
    assert _answer({"topics": {"t": 2}, "members": members})[0] == {"a": [], "b": []}


def test_the_balance_promise_breaks_when_the_doubles_ask_for_one_too_many() -> None:
    """14 members on 29 partitions want 30 between them (see desired counts above); Kafka 4.2.0 leaves the
    member that joins with one partition while m0 and m12 hold three."""
    names = [f"m{i}" for i in range(14)]
    case = {"steps": [{"topics": {"t": 29}, "members": _members(*names[:13])},
                      {"topics": {"t": 29}, "members": _members(*names)}]}
    answer = _answer(case)[1]
    assert {m: len(tps) for m, tps in answer.items() if len(tps) != 2} == {"m0": 3, "m12": 3, "m13": 1}
    assert sorted(tp for tps in answer.values() for tp in tps) == sorted(f"t-{p}" for p in range(29))


def test_colliding_partitions_follow_javas_treeify_resize() -> None:
    """Nine one-partition topics whose TopicIdPartition hashes share a bucket: computeIfAbsent doubles the
    table twice (8 keys in a bucket of a table under 64), which reorders finalAssignmentByPartition."""
    names = [f"c{k}" for k in range(1, 10)]
    ids = {t: str(Uuid(0, 32 * k)) for k, t in enumerate(names, 1)}
    answer = _answer({"topics": dict.fromkeys(names, 1), "topic_ids": ids,
                      "members": _members("m0", "m1", "m2", topics=tuple(names))})[0]
    assert answer == {"m0": ["c2-0", "c4-0", "c7-0"], "m1": ["c1-0", "c5-0", "c8-0"],
                      "m2": ["c3-0", "c6-0", "c9-0"]}


# --------------------------------------------------------------------------------- heterogeneous builder


def test_a_member_leaving_a_topic_hands_its_partitions_to_the_subscribers() -> None:
    case = {"steps": [
        {"topics": {"t": 2, "u": 1}, "members": [{"id": "a", "topics": ["t"]}, {"id": "b", "topics": ["t"]}]},
        {"topics": {"t": 2, "u": 1}, "members": [{"id": "a", "topics": ["t"]}, {"id": "b", "topics": ["u"]}]},
    ]}
    first, second = _answer(case)
    assert first == {"a": ["t-0"], "b": ["t-1"]}
    assert second == {"a": ["t-0", "t-1"], "b": ["u-0"]}


def test_heterogeneous_keeps_partitions_of_topics_nobody_subscribes_to() -> None:
    case = {"steps": [{"topics": {"t": 2, "u": 2}, "members": _members("a", "b", topics=("t", "u"))},
                      {"topics": {"t": 2, "u": 2, "v": 1},
                       "members": [{"id": "a", "topics": ["t"]}, {"id": "b", "topics": ["v"]}]}]}
    second = _answer(case)[1]
    assert second == {"a": ["t-0", "t-1", "u-1"], "b": ["u-0", "v-0"]}  # u is never visited


def test_unknown_topics_are_skipped_and_a_member_with_none_gets_nothing() -> None:
    answer = _answer({"topics": {"t": 2}, "members": [{"id": "a", "topics": ["t", "gone"]},
                                                      {"id": "b", "topics": ["gone"]}]})[0]
    assert answer == {"a": ["t-0", "t-1"], "b": []}


def test_heterogeneous_with_no_existing_topic_empties_every_member() -> None:
    members = [{"id": "a", "topics": ["gone"], "current_assignment": ["t-0"]},
               {"id": "b", "topics": ["x"], "current_assignment": ["t-1"]}]
    assert _answer({"topics": {"t": 2}, "members": members})[0] == {"a": [], "b": []}


# ------------------------------------------------------------------------------------------ the CLI


@pytest.mark.parametrize("case, message", [
    ({"topics": {"t": 1}, "members": []}, "steps[0].members: a share group needs at least one member"),
    ({"topics": {"t": 1}, "members": [{"id": "a", "topics": ["t"], "current_assignment": ["t-3"]}]},
     "t-3 does not exist"),
    ({"topics": {"t": 1}, "members": [{"id": "a"}, {"id": "a"}]}, "duplicate 'a'"),
    ({"topics": {"t": "x"}, "members": [{"id": "a"}]}, "partitions must be"),
])
def test_bad_cases_are_refused_naming_the_field(case: dict, message: str) -> None:
    with pytest.raises(EngineError, match=message.replace("[", r"\[").replace("]", r"\]")):
        share_assign(case)


def _cli_under_ceiling(case: dict, seconds: float) -> subprocess.CompletedProcess[str]:
    """``python -m engine share-assign`` with the command line's ceiling lowered to ``seconds`` (the real
    ceiling, 120 s, is beyond any case the document limits let in: see README, "Limits")."""
    code = ("import sys; import engine.coordinator.share_assignment as m; from engine.cost import Ceiling, GIB; "
            f"m.CLI_CEILING = Ceiling('command line', {seconds!r}, 4 * GIB); "
            "from engine.cli import main; sys.exit(main(['share-assign', '-']))")
    return subprocess.run([sys.executable, "-c", code], input=json.dumps(case), capture_output=True, text=True,
                          cwd=REPO, timeout=120)


def test_the_cli_refuses_work_over_its_ceiling_in_one_line_naming_the_estimate() -> None:
    topics = {f"t{i}": 1_000 for i in range(20)}
    members = [{"id": f"m{i}", "topics": list(topics)} for i in range(300)]
    case = {"steps": [{"topics": topics, "members": members}, {"topics": topics, "members": members[1:]}]}
    estimate = estimate_share_assignment(step_shapes(parse_share_case(case)[1]))
    over = _cli_under_ceiling(case, estimate.seconds * 0.99)
    assert over.returncode == 2 and over.stdout == ""
    assert over.stderr.count("\n") == 1 and over.stderr.startswith("error: share-assign: estimated ")
    assert "over the command line's ceiling" in over.stderr
    assert over.stderr.rstrip().endswith("MiB (20,000 partitions x 300 members (share group), 2 steps)")
    under = _cli_under_ceiling(case, estimate.seconds * 1.01)  # just under: it runs
    assert under.returncode == 0, under.stderr
    assert len(json.loads(under.stdout)["steps"]) == 2


def test_cli_batch_answers_in_place_and_refuses_with_one_line() -> None:
    batch = [{"topics": {"t": 1}, "members": [{"id": "a", "topics": ["t"]}]}, {"topics": {"t": 1}, "members": []}]
    out = subprocess.run([sys.executable, "-m", "engine", "share-assign", "-"], input=json.dumps(batch),
                         capture_output=True, text=True, cwd=REPO, timeout=60)
    assert out.returncode == 0
    answers = json.loads(out.stdout)
    assert answers[0]["steps"] == [{"assignment": {"a": ["t-0"]}}]
    assert "at least one member" in answers[1]["error"]
    bad = subprocess.run([sys.executable, "-m", "engine", "share-assign", "-"], input=json.dumps(batch[1]),
                         capture_output=True, text=True, cwd=REPO, timeout=60)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "members" in bad.stderr


def test_a_dashboard_scenario_may_empty_the_group() -> None:
    from engine.scenario import parse_scenario

    scenario = parse_scenario({"steps": [{"topics": {"t": 2}, "members": [{"id": "a", "topics": ["t"]}]},
                                         {"topics": {"t": 2}, "members": []}], "group_type": "share"})
    steps = share_assign(scenario).steps
    assert steps[0].to_json() == {"assignment": {"a": ["t-0", "t-1"]}} and steps[1].assignment == {}
