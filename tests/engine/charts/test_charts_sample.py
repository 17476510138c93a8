"""Rebalance animations draw at most ANIMATION_CAP partitions and say so."""

from __future__ import annotations

from engine.charts.sample import ANIMATION_CAP, sample_travel
from engine.comparison import CLIENT
from engine.consumer.assignment import owners
from engine.presets import build_preset
from engine.scenario import GroupState, Scenario
from ui.assignments.cached import animations_figure
from ui.frame.state import ScenarioRef
from ui.scenario.cached import outcomes_of


def large_with_a_leave() -> Scenario:
    first = build_preset("large").first
    return Scenario(steps=(first, GroupState(first.topics, first.members[1:])))


def test_a_big_rebalance_animation_draws_a_capped_even_sample_and_says_so() -> None:
    scenario = large_with_a_leave()
    ref = ScenarioRef.of(scenario)
    for name in ("sticky", "range"):
        fig = animations_figure(ref, (CLIENT[name],), 1, 160)
        points = sum(len(t.x) for t in fig.data)
        assert 0 < points <= ANIMATION_CAP
        assert f"of {scenario.first.total_partitions:,} partitions drawn" in fig.layout.title.text
        assert len(fig.frames) and all(sum(len(d.x) for d in f.data) == points for f in fig.frames)


def test_the_sample_keeps_every_member_and_favours_moved_partitions() -> None:
    scenario = large_with_a_leave()
    outcomes = outcomes_of(ScenarioRef.of(scenario), CLIENT["range"])
    before, after = outcomes[0].assignment, outcomes[1].assignment
    s = sample_travel(before, after, None)
    assert set(s.before) == set(before) and set(s.after) == set(after)
    ob, oa = owners(before), owners(after)
    moved = sum(1 for tp in set(ob) | set(oa) if ob.get(tp) != oa.get(tp))
    assert s.moved_total == moved and s.moved_shown == min(moved, max(ANIMATION_CAP - (s.total - moved),
                                                                      ANIMATION_CAP * 3 // 4))
    assert s.shown == ANIMATION_CAP < s.total == scenario.first.total_partitions
    small = build_preset("seed-d")
    o = outcomes_of(ScenarioRef.of(small), CLIENT["sticky"])
    assert sample_travel(o[0].assignment, o[1].assignment, []).note == ""  # a small group: every partition
