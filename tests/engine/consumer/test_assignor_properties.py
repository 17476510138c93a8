"""Property tests (hypothesis, derandomized: the same examples every run, seed printed by
``seeded_rng`` tests) for the invariants every assignor must keep."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.consumer.group import replay
from engine.consumer.invariants import spread, violations
from engine.consumer.strategies import STRATEGY_NAMES as STRATEGIES
from engine.scenario import Scenario, parse_scenario

PROFILE = settings(max_examples=60, deadline=None, derandomize=True)


@st.composite
def groups(draw: st.DrawFn, equal: bool = False) -> dict:
    n_topics = draw(st.integers(1, 4))
    topics = {f"t{i}": draw(st.integers(1, 9)) for i in range(n_topics)}
    n_members = draw(st.integers(1, 7))
    names = list(topics)
    members = []
    for i in range(n_members):
        subs = names if equal else draw(st.lists(st.sampled_from(names), min_size=1, unique=True))
        members.append({"id": f"c{i}", "topics": subs})
    return {"topics": topics, "members": members}


@PROFILE
@given(groups(), st.sampled_from(STRATEGIES))
def test_every_subscribed_partition_owned_once_by_a_subscriber(group: dict, strategy: str) -> None:
    scenario = parse_scenario(group)
    step = replay(scenario, strategy).steps[0]
    assert violations(scenario.first, step.assignment) == []


@PROFILE
@given(groups(equal=True), st.sampled_from(STRATEGIES))
def test_equal_subscriptions_balance_within_one(group: dict, strategy: str) -> None:
    scenario = parse_scenario(group)
    step = replay(scenario, strategy).steps[0]
    if strategy == "range" and len(group["topics"]) > 1:
        return  # range balances per topic: its total can be off by the number of topics
    assert spread(step.assignment) <= 1


def leave_one(group: dict, rng: random.Random) -> Scenario:
    leaver = rng.randrange(len(group["members"]))
    rest = [m for i, m in enumerate(group["members"]) if i != leaver]
    return parse_scenario({"steps": [group, {"topics": group["topics"], "members": rest}]})


@PROFILE
@given(groups(equal=True), st.integers(0, 2**31 - 1), st.sampled_from(["sticky", "cooperative-sticky"]))
def test_sticky_keeps_every_partition_of_remaining_members(group: dict, seed: int, strategy: str) -> None:
    if len(group["members"]) < 2:
        return
    scenario = leave_one(group, random.Random(seed))
    result = replay(scenario, strategy)
    before, after = result.steps[0].assignment, result.steps[1].assignment
    for member, partitions in after.items():
        assert set(before[member]) <= set(partitions), f"seed {seed}: {member} lost a partition"
    assert result.steps[1].moved_from_remaining == 0
    assert spread(after) <= 1


@PROFILE
@given(groups(), groups(), st.integers(0, 2**31 - 1))
def test_cooperative_first_round_never_hands_over_an_owned_partition(a: dict, b: dict, seed: int) -> None:
    rng = random.Random(seed)
    taken = {x["id"] for x in a["members"]}
    members = a["members"] + [m for m in b["members"] if rng.random() < 0.5 and m["id"] not in taken]
    topics = {**a["topics"], **{t: max(n, a["topics"].get(t, 0)) for t, n in b["topics"].items()}}
    second = {"topics": topics, "members": [m for m in members if rng.random() < 0.8] or members[:1]}
    scenario = parse_scenario({"steps": [a, second]})
    result = replay(scenario, "cooperative-sticky")
    owned = {tp: m for m, tps in result.steps[0].assignment.items() for tp in tps}
    step = result.steps[1]
    assert step.first_round_assignment is not None
    still_there = {m["id"] for m in second["members"]}
    for member, partitions in step.first_round_assignment.items():
        for tp in partitions:
            previous = owned.get(tp)
            assert previous is None or previous == member or previous not in still_there, (
                f"seed {seed}: {tp} handed from {previous} to {member} in the first round")
    assert violations(scenario.steps[1], step.assignment) == []


def test_random_rebalance_sequences_keep_invariants(seeded_rng: random.Random) -> None:
    rng = seeded_rng
    for _ in range(10):
        topics = {f"t{i}": rng.randint(1, 12) for i in range(rng.randint(1, 4))}
        steps = []
        ids = [f"m{i}" for i in range(rng.randint(2, 8))]
        for _ in range(4):
            present = [i for i in ids if rng.random() < 0.8] or ids[:1]
            members = [{"id": i, "topics": rng.sample(list(topics), rng.randint(1, len(topics)))}
                       for i in present]
            steps.append({"topics": dict(topics), "members": members})
            topics = {t: n + rng.choice([0, 0, 1]) for t, n in topics.items()}
        scenario = parse_scenario({"steps": steps})
        for strategy in STRATEGIES:
            for state, step in zip(scenario.steps, replay(scenario, strategy).steps):
                assert violations(state, step.assignment) == [], strategy
                assert step.converged


def test_round_cap_reports_a_group_that_does_not_settle() -> None:
    scenario = parse_scenario({"steps": [
        {"topics": {"t0": 4}, "members": [{"id": "C0", "topics": ["t0"]}]},
        {"topics": {"t0": 4}, "members": [{"id": "C0", "topics": ["t0"]}, {"id": "C1", "topics": ["t0"]}]},
    ]})
    capped = replay(scenario, "cooperative-sticky", max_rounds=1).steps[1]
    assert not capped.converged and capped.rounds == 1
    assert replay(scenario, "cooperative-sticky").steps[1].converged


@PROFILE
@given(groups(), st.integers(0, 3))
def test_closed_form_dealing_equals_kafkas_loop(group: dict, extra_steps: int) -> None:
    """The constrained builder's strided fast path gives exactly what the item-by-item loop gives."""
    from unittest import mock

    from engine.consumer.assignors.sticky_constrained import ConstrainedAssignmentBuilder

    scenario = parse_scenario({"steps": [group] * (1 + extra_steps)})
    for strategy in ("sticky", "cooperative-sticky"):
        fast = replay(scenario, strategy)
        with mock.patch.object(ConstrainedAssignmentBuilder, "_deal_in_stride", return_value=False):
            slow = replay(scenario, strategy)
        assert [s.assignment for s in fast.steps] == [s.assignment for s in slow.steps]
