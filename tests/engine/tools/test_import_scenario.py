"""Recognised input -> a normal scenario: topics, members, current assignment, racks, weights, report."""

from __future__ import annotations

import doctest
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.consumer.group import replay
from engine.errors import EngineError, LimitError, ScenarioError
from engine.scenario import TopicPartition, loads_scenario, parse_scenario, scenario_to_json
from engine.tools import scenario_builder
from engine.tools.detect import parse_text
from engine.tools.records import GroupInfo, Imported, MemberInfo
from engine.tools.scenario_builder import build_scenario
from engine.tools.to_scenario import to_scenario
from helpers import TESTS

FIXTURES = TESTS / "fixtures" / "kafka_tools"
MEMBERS_VIEW = """
GROUP           CONSUMER-ID     HOST            CLIENT-ID       #PARTITIONS     ASSIGNMENT
g               c1              /10.0.0.1       app             2               t(0,1)
g               c2              /10.0.0.2       app             1               t(2)
"""


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def test_worked_examples() -> None:
    assert doctest.testmod(scenario_builder).failed == 0
    result = to_scenario(parse_text(MEMBERS_VIEW))
    assert result.scenario.first.topics == {"t": 3}
    assert [(m.id, m.topics) for m in result.scenario.first.members] == [("c1", ("t",)), ("c2", ("t",))]
    assert result.current_assignment == {
        "c1": [TopicPartition("t", 0), TopicPartition("t", 1)],
        "c2": [TopicPartition("t", 2)],
    }
    assert any("inferred" in n for n in result.notes)


@pytest.mark.parametrize("path", sorted(p.name for p in FIXTURES.iterdir()))
def test_every_usable_fixture_gives_a_scenario_the_model_accepts(path: str) -> None:
    try:
        result = to_scenario(parse_text(fixture(path)))
    except ScenarioError as exc:  # only outputs that name no topic at all
        assert "has no topics" in str(exc) and path in {
            "cg_members_verbose_38.txt",
            "cg_rebalancing.txt",
            "cg_state_3x.txt",
            "cg_state_4x_verbose.txt",
            "racks.csv",
        }
        return
    assert parse_scenario(scenario_to_json(result.scenario)) == result.scenario
    document = result.to_json(scenario_to_json(result.scenario))
    assert loads_scenario(json.dumps(document)) == result.scenario  # extra fields are ignored on load


def test_the_session_transcript_becomes_the_group() -> None:
    result = to_scenario(parse_text(fixture("cluster_bundle.txt")))
    first = result.scenario.first
    assert first.topics == {"orders": 6, "payments": 3}  # refunds: offsets only, nobody owns it now
    assert len(first.members) == 4 and all(m.topics == ("orders", "payments") for m in first.members)
    assert first.partition_racks["orders"][0] == ("euw1-az1", "euw1-az2", "euw1-az3")
    assert first.partition_racks["payments"][2] == ("euw1-az3", "euw1-az1", "euw1-az2")
    assert result.weights_source == "lag" and result.scenario.weights["payments"] == (3.0, 0.0, 1200.0)
    assert sum(len(v) for v in result.current_assignment.values()) == 9
    reasons = [u.reason for u in result.unused]
    assert "committed offsets on topics no member owns now" in reasons
    assert "not consumed by group 'orders-service'" in reasons
    report = result.report()
    assert report["group"]["assignor"] == "cooperative-sticky" and report["group"]["state"] == "Stable"
    assert report["group"]["members"][1]["host"] == "/10.20.2.12"


def test_the_imported_group_runs_on_the_engine() -> None:
    scenario = to_scenario(parse_text(fixture("cluster_bundle.txt"))).scenario
    for strategy in ("range", "cooperative-sticky"):
        step = replay(scenario, strategy).steps[0]
        assert sum(len(p) for p in step.assignment.values()) == 9


def test_size_weights_win_and_can_be_chosen() -> None:
    text = fixture("cg_offsets_3x.txt") + fixture("log_dirs.txt")
    auto = to_scenario(parse_text(text))
    assert auto.weights_source == "size" and auto.scenario.weights["orders"][0] == 10 * 2**20 + 3
    lag = to_scenario(parse_text(text), weights="lag")
    assert lag.scenario.weights["orders"] == (12.0, 0.0, 340.0, 5.0, 0.0, 77.0)
    assert to_scenario(parse_text(text), weights="none").scenario.weights == {}
    with pytest.raises(ScenarioError, match="the input has no partition sizes"):
        to_scenario(parse_text(fixture("cg_offsets_3x.txt")), weights="size")


def test_racks_need_every_replica_list() -> None:
    text = fixture("racks.csv") + "\n" + fixture("reassign_plan.json")
    result = to_scenario(parse_text(text))
    assert result.scenario.first.partition_racks["payments"][0] == ("euw1-az1", "euw1-az2", "euw1-az3")
    partial = fixture("racks.csv") + "\n\tTopic: t\tPartition: 1\tLeader: 1\tReplicas: 1\tIsr: 1\n"
    result = to_scenario(parse_text(partial))
    assert result.scenario.first.topics == {"t": 2} and result.scenario.first.partition_racks == {}
    assert any("incomplete" in n for n in result.notes)


def test_4x_reconciling_member_counts_its_target() -> None:
    result = to_scenario(parse_text(fixture("cg_members_verbose_4x.txt")))
    assert result.scenario.first.topics == {"orders": 6, "payments": 3}  # orders-5 is only in a target
    assert any("target assignment different" in n for n in result.notes)
    assert any("consumer protocol (KIP-848)" in n for n in result.notes)


def test_choosing_among_groups() -> None:
    data = Imported()
    for name in ("b", "a"):
        data.group(name).members["m"] = MemberInfo("m", assignment=[("t", 0)])
    assert to_scenario(data).group.group_id == "a"
    assert to_scenario(data, "b").group.group_id == "b"
    with pytest.raises(ScenarioError, match=r"group 'c' is not in the input; groups found: 'a', 'b'"):
        to_scenario(data, "c")


def test_limits_and_bad_names_are_one_line() -> None:
    data = Imported()
    data.topic("t").partition_count = 100_001
    with pytest.raises(LimitError, match=r"topic 't': partitions must be 1..100,000, got 100,001"):
        to_scenario(data)
    group = GroupInfo("g")
    group.members["bad\x01id"] = MemberInfo("bad\x01id", assignment=[("t", 0)])
    data = Imported(groups={"g": group})
    with pytest.raises(ScenarioError, match=r"members\[0\]\.id: control characters"):
        to_scenario(data)


_names = st.text(st.sampled_from("ab.-_\x01 "), min_size=0, max_size=4)


@settings(max_examples=150, deadline=None)
@given(
    topics=st.dictionaries(_names, st.integers(-1, 4), max_size=3),
    members=st.lists(st.tuples(_names, st.none() | _names), max_size=4),
    weight=st.none() | st.floats(allow_nan=True, allow_infinity=True),
)
def test_the_fast_builder_agrees_with_parse_scenario(topics, members, weight) -> None:
    weights = {t: [weight] * n for t, n in topics.items() if weight is not None and n > 0}
    document = {
        "name": "n",
        "description": "",
        "topics": topics,
        "weights": weights,
        "members": [{"id": i, "topics": list(topics), "rack": None, "instance_id": s} for i, s in members],
    }
    try:
        expected = parse_scenario(document)
    except EngineError:
        with pytest.raises(EngineError):
            build_scenario("n", "", topics, members, {}, weights)
        return
    assert build_scenario("n", "", topics, members, {}, weights) == expected


def test_a_classic_group_has_no_target_so_it_is_not_reconciling() -> None:
    """TARGET-ASSIGNMENT "-" in a classic group means no target (the classic protocol has none); the
    import must not report the members as reconciling towards an empty target."""
    result = to_scenario(parse_text(fixture("cg_members_verbose_4x_classic.txt")))
    assert not any("target assignment different" in n for n in result.notes), result.notes
    consumer = to_scenario(parse_text(fixture("cg_members_verbose_4x.txt")))
    assert consumer.scenario.first.members  # the consumer-protocol view still reads its targets
