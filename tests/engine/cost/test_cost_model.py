"""The cost model (engine.cost): its shapes, its one-line refusal, its fitted constants and what it lets through.

The constants themselves are measured by ``python -m bench cost`` (which prints the fit's worst error on
held-out cases); here: every model has measured constants for exactly the features that drive it, the
estimates grow with the shape, and the Kafka-scale shapes are estimated within the CLI ceiling.
"""

from __future__ import annotations

import random

import pytest

from engine import cost
from engine.cost import constants, terms
from engine.cost.shape import scenario_features
from engine.errors import LimitError
from engine.scenario import parse_scenario


def scenario(topics: int, per_topic: int, members: int, fraction: float = 1.0, steps: int = 1):
    rng = random.Random(22)
    names = [f"t{i}" for i in range(topics)]
    take = max(1, round(topics * fraction))
    rows = [{"id": f"c{i}", "topics": names if take == topics else sorted(rng.sample(names, take))}
            for i in range(members)]
    topic_map = dict.fromkeys(names, per_topic)
    return parse_scenario({"steps": [{"topics": topic_map, "members": rows[i:]} for i in range(steps)]})


def test_estimates_add_seconds_and_keep_the_larger_peak() -> None:
    a, b = cost.Estimate(1.0, 10, "a"), cost.Estimate(2.0, 5, "b")
    assert a + b == cost.Estimate(3.0, 10, "b")


def test_admit_refuses_in_one_line_naming_estimate_ceiling_and_drivers() -> None:
    big = cost.Estimate(300.0, 5 * cost.GIB, "2,000,000 partitions x 20,000 members (sticky)")
    with pytest.raises(LimitError) as refused:
        cost.admit(big, cost.CLI_CEILING)
    line = str(refused.value)
    assert "\n" not in line
    assert line == ("estimated 300 s and 5,120 MiB, over the command line's ceiling of 120 s and 4,096 MiB "
                    "(2,000,000 partitions x 20,000 members (sticky))")
    cost.admit(cost.Estimate(119.0, cost.GIB, "x"), cost.CLI_CEILING)
    with pytest.raises(LimitError, match="dashboard's ceiling"):
        cost.admit(cost.Estimate(1.0, 3 * cost.GIB, "x"), cost.DASHBOARD_CEILING)  # memory alone refuses


def test_ceilings_are_ordered() -> None:
    assert cost.INLINE_SECONDS < cost.DASHBOARD_CEILING.seconds <= cost.CLI_CEILING.seconds
    assert cost.DASHBOARD_CEILING.peak_bytes <= cost.CLI_CEILING.peak_bytes


def test_every_model_has_measured_constants_for_its_features_only() -> None:
    assert constants.RUN.startswith("python -m bench cost")  # a run of the benchmark wrote them
    for name, (seconds_terms, bytes_terms) in terms.TERMS.items():
        model = constants.MODELS[name]
        assert set(model["seconds"]) <= set(seconds_terms), name
        assert set(model["bytes"]) <= set(bytes_terms), name
        assert model["seconds"], f"{name}: no seconds term fitted"
        assert all(c >= 0 for part in model.values() for c in part.values()), name
    assert set(constants.MODELS) == set(terms.TERMS)


def test_features_follow_the_shape() -> None:
    same = scenario_features(scenario(4, 10, 3))
    assert (same["partitions"], same["members"], same["subscriptions"], same["general"]) == (40, 3, 12, 0)
    differing = scenario_features(scenario(4, 10, 3, fraction=0.5))
    assert differing["general"] == 40 * 3 and differing["scan"] == pytest.approx(40 * 3 / 1.5, rel=0.5)
    two = scenario(4, 10, 3, steps=2)
    assert scenario_features(two, cooperative_rounds=2)["partitions"] == 40 + 2 * 40  # the follow-up round


@pytest.mark.parametrize("client, strategy", [("java", "range"), ("java", "roundrobin"), ("java", "sticky"),
                                              ("java", "cooperative-sticky"), ("librdkafka", "range"),
                                              ("librdkafka", "roundrobin"), ("librdkafka", "cooperative-sticky")])
def test_assignment_estimates_grow_with_the_shape(client: str, strategy: str) -> None:
    small, large = scenario(10, 100, 10, 0.5), scenario(10, 1_000, 100, 0.5)
    assert cost.estimate_assignment(small, strategy, client).seconds < cost.estimate_assignment(
        large, strategy, client).seconds
    assert cost.estimate_assignment(small, strategy, client).seconds < cost.INLINE_SECONDS


def test_the_comparison_costs_every_assignor_it_shows() -> None:
    s = scenario(20, 500, 50, 0.5, steps=2)
    whole = cost.estimate_comparison(s)
    parts = [cost.estimate_assignment(s, name) for name in ("range", "roundrobin", "sticky", "cooperative-sticky")]
    parts += [cost.estimate_server_assignment(s, name) for name in ("uniform", "range")]
    assert whole.seconds == pytest.approx(sum(p.seconds for p in parts))
    assert "6 assignors" in whole.drivers
    assert cost.estimate_comparison(s, "librdkafka").drivers.startswith("10,000 partitions x 50 members (5 assignors")


def test_rolling_restart_and_protocol_timeline_grow_with_members() -> None:
    few, many = scenario(10, 100, 5), scenario(10, 100, 50)
    strategies = ("range", "cooperative-sticky")
    assert cost.estimate_rolling_restart(few, strategies).seconds < cost.estimate_rolling_restart(
        many, strategies).seconds
    assert cost.estimate_protocol_timeline(few).seconds < cost.estimate_protocol_timeline(many).seconds


def test_kafka_scale_shapes_are_estimated_within_the_cli_ceiling() -> None:
    half = scenario(100, 500, 500, 0.5, steps=2)  # 50,000 partitions, 500 members on half the topics
    for strategy in ("sticky", "cooperative-sticky"):
        cost.admit(cost.estimate_assignment(half, strategy), cost.CLI_CEILING)
    names = [f"t{i}" for i in range(100)]
    members = [{"id": f"c{i}", "topics": names} for i in range(2_000)]
    topic_map = dict.fromkeys(names, 2_000)  # 200,000 partitions, 2,000 members, then one leaves
    uniform = parse_scenario({"steps": [{"topics": topic_map, "members": members},
                                        {"topics": topic_map, "members": members[1:]}]})
    for strategy in ("range", "roundrobin", "sticky", "cooperative-sticky"):
        cost.admit(cost.estimate_assignment(uniform, strategy), cost.CLI_CEILING)


def test_the_issue_link_shape_is_refused_by_the_dashboard_ceiling() -> None:
    """A share link of 20 topics x 100,000 partitions, 200 members, 10 steps (90 s and 4.5 GiB seen)."""
    s = scenario(20, 100_000, 200, 0.5, steps=10)
    estimate = cost.estimate_comparison(s)
    with pytest.raises(LimitError, match=r"2,000,000 partitions x 200 members \(6 assignors, differing"):
        cost.admit(estimate, cost.DASHBOARD_CEILING)


def test_counts_estimates_name_their_drivers() -> None:
    assert cost.estimate_wheel(100, 3).drivers == "100 timer tasks x 3 wheel levels"
    assert cost.estimate_replicas(10, 3, 4).drivers == ("10 partitions x replication factor 3, "
                                                        "4 brokers scanned per replica")
    assert cost.estimate_import(2048).drivers == "2,048 bytes of tool output"
    assert cost.estimate_share_delivery(events=10, in_flight=2_000).drivers == ("10 delivery events over 2,000 "
                                                                                "in-flight records")
    assert cost.estimate_wheel(1_000, 41).seconds > cost.estimate_wheel(1_000, 2).seconds


def test_share_assignment_features_count_held_partitions_given_or_chained() -> None:
    from engine.cost.computations import share_assignment_features
    from engine.cost.share import ShareMember, ShareStep, share_step_shapes

    members = [ShareMember(f"m{i}", ("a", "b") if i % 2 else ("a",), {"a": 3} if i < 2 else None) for i in range(10)]
    first = ShareStep({"a": 60, "b": 40}, members)  # two members given 3 partitions each, the others nothing
    second = ShareStep({"a": 60, "b": 40}, [ShareMember(m.id, m.topics) for m in members[1:]])  # step 1's answers
    shapes = share_step_shapes([first, second])
    assert [(s.held, s.differ, s.topics) for s in shapes] == [(6.0, True, 2), (pytest.approx(100 - 6), True, 2)]
    features = share_assignment_features(shapes)
    assert (features["partitions"], features["subscriptions"], features["differing"]) == (200, 29, 29)
    one = cost.estimate_share_assignment(shapes[:1])
    assert one.drivers == "100 partitions x 10 members (share group, differing subscriptions), 1 step"
    assert one.seconds < cost.estimate_share_assignment(shapes).seconds


def test_a_share_group_scenario_is_estimated_as_its_share_assignment_and_on_the_pages() -> None:
    s = scenario(20, 500, 50, 0.5, steps=2)
    share = parse_scenario({**{"steps": [{"topics": dict(st.topics), "members": [
        {"id": m.id, "topics": list(m.topics)} for m in st.members]} for st in s.steps]}, "group_type": "share"})
    shapes = cost.assignment.share_step_shapes(share)
    assert [(x.partitions, x.members, x.differ) for x in shapes] == [(10_000, 50, True), (10_000, 49, True)]
    assert shapes[0].held == 0 and shapes[1].held == pytest.approx(shapes[0].answered * 49 / 50, rel=0.05)
    assert cost.estimate_share_scenario(share).seconds == pytest.approx(
        cost.estimate_share_assignment(shapes).seconds)
    whole = cost.estimate_comparison(share)
    assert "7 assignors" in whole.drivers  # the pages' assignors and the share group's simple
    assert whole.seconds == pytest.approx(cost.estimate_comparison(s).seconds + cost.estimate_share_scenario(
        share).seconds)


def test_share_deliver_answer_is_estimated_per_state_cell() -> None:
    small, large = cost.estimate_share_deliver_answer(100, 1_000), cost.estimate_share_deliver_answer(1_000, 10_000)
    assert small.seconds < large.seconds and small.peak_bytes < large.peak_bytes
    assert large.drivers == "1,000 delivery events x 10,000 in-flight records, each step's state written"
