"""Share groups' SimpleAssignor (engine.coordinator.simple) and ``python -m engine share-assign``: behaviours
read from Kafka's source, each checked by a case small enough to follow by hand."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.coordinator.assignors import share_assignor
from engine.coordinator.group_spec import TopicDescriber
from engine.coordinator.share_assignment import parse_share_case, share_assign, step_shapes
from engine.coordinator.simple import assign_simple, share_group_spec, topic_id
from engine.cost import estimate_share_assignment
from engine.errors import EngineError
from engine.java.strings import INT_MIN, string_hash_code
from helpers import REPO


def _answer(case: dict) -> list[dict[str, list[str]]]:
    return [s.to_json()["assignment"] for s in share_assign(case).steps]


def test_registry_names_kafkas_class() -> None:
    entry = share_assignor("simple")
    assert entry.kafka_class == "org.apache.kafka.coordinator.group.assignor.SimpleAssignor"
    with pytest.raises(EngineError, match="assignor: must be one of simple, got 'uniform'"):
        share_assignor("uniform")


def test_members_outnumbering_partitions_share_them() -> None:
    members = [{"id": f"c{i}", "topics": ["t"]} for i in range(8)]
    answer = _answer({"topics": {"t": 3}, "members": members})[0]
    assert all(len(tps) == 1 for tps in answer.values())  # hashed once each, nothing left over
    held = [tp for tps in answer.values() for tp in tps]
    assert len(held) == 8 and set(held) <= {"t-0", "t-1", "t-2"}
    for member, tps in answer.items():
        assert tps == [f"t-{abs(string_hash_code(member)) % 3}"]


def test_java_remainder_keeps_the_sign_then_abs() -> None:
    """``"polygenelubricants".hashCode()`` is Integer.MIN_VALUE: Math.abs(MIN % 3) = 2."""
    assert string_hash_code("polygenelubricants") == INT_MIN
    answer = _answer({"topics": {"t": 3}, "members": [{"id": "polygenelubricants", "topics": ["t"]}]})[0]
    assert "t-2" in answer["polygenelubricants"]


def test_round_robin_skips_partitions_someone_holds_and_keeps_holdings() -> None:
    """Step 2 gives only partitions nobody holds; step 3 keeps what members hold."""
    case = {"steps": [
        {"topics": {"t": 5}, "members": [{"id": "m1", "topics": ["t"]}]},
        {"topics": {"t": 5}, "members": [{"id": "m1", "topics": ["t"]}, {"id": "m2", "topics": ["t"]}]},
    ]}
    first, second = _answer(case)
    assert first == {"m1": ["t-0", "t-1", "t-2", "t-3", "t-4"]}
    # m2 hashes to 3429 % 5 = 4; m1 keeps everything; every partition is held, so no round-robin
    assert second == {"m1": ["t-0", "t-1", "t-2", "t-3", "t-4"], "m2": ["t-4"]}


def test_a_partition_held_only_by_a_member_who_left_its_topic_gets_none() -> None:
    """Heterogeneous: b stops subscribing to t; b's t partition is held, so not re-given, and b drops it."""
    case = {"steps": [
        {"topics": {"t": 2, "u": 1}, "members": [{"id": "a", "topics": ["t"]}, {"id": "b", "topics": ["t"]}]},
        {"topics": {"t": 2, "u": 1}, "members": [{"id": "a", "topics": ["t"]}, {"id": "b", "topics": ["u"]}]},
    ]}
    first, second = _answer(case)
    assert first == {"a": ["t-1"], "b": ["t-0"]}  # "a" 97 % 2 = 1, "b" 98 % 2 = 0
    assert second == {"a": ["t-1"], "b": ["u-0"]}
    assert "t-0" not in {tp for tps in second.values() for tp in tps}


def test_homogeneous_uses_the_first_member_in_hashmap_order() -> None:
    spec = share_group_spec({"t": 2, "u": 2}, {"a": ("t", "u"), "b": ("t", "u")}, kind="HOMOGENEOUS")
    assert spec.member_ids == ["a", "b"]
    out = assign_simple(spec, TopicDescriber({topic_id("t"): 2, topic_id("u"): 2}))
    assert sum(len(v) for v in out.values()) == 4


def test_unknown_topics_are_skipped_and_a_member_with_none_gets_nothing() -> None:
    answer = _answer({"topics": {"t": 2}, "members": [{"id": "a", "topics": ["t", "gone"]},
                                                      {"id": "b", "topics": ["gone"]}]})[0]
    assert answer == {"a": ["t-0", "t-1"], "b": []}


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
    code = ("import sys; import engine.budgets as b; from engine.cost import Ceiling, GIB; "
            f"b.CLI_CEILING = Ceiling('command line', {seconds!r}, 4 * GIB); "
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
    assert answers[0] == {"steps": [{"assignment": {"a": ["t-0"]}}]}
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
