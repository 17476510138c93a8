"""Rolling restarts with dynamic vs static membership, on a hand-checked example."""

from __future__ import annotations

import pytest

from engine.consumer.membership import (
    RollingRestartConfig,
    compare_rolling_restarts,
    restart_plan,
    rolling_restart,
)
from engine.errors import ScenarioError
from engine.scenario import parse_scenario

STATE = parse_scenario({"topics": {"t0": 6}, "members": [{"id": f"C{i}", "topics": ["t0"]} for i in range(3)]}).first


def test_docstring_example_counts() -> None:
    cfg = RollingRestartConfig(restart_ms=30_000, session_timeout_ms=45_000)
    assert rolling_restart(STATE, "range", cfg, static=False).rebalances == 6
    static = rolling_restart(STATE, "range", cfg, static=True)
    assert (static.rebalances, static.partitions_moved, static.consumer_seconds_paused) == (0, 0, 90.0)
    assert rolling_restart(STATE, "range", RollingRestartConfig(restart_ms=60_000), static=True).rebalances == 6


def test_hand_checked_dynamic_range_timeline() -> None:
    # range over 6 partitions: C0 0-1, C1 2-3, C2 4-5.  C0 leaves: C1 0-2, C2 3-5 -> t0-0,t0-1 (C0->C1)
    # and t0-3 (C1->C2) move = 3, one from a remaining member.  Eager pause (processing 1 s, rejoin 3 s,
    # sync 0.5 s): each remaining member stops from 1 s to 4.5 s = 3.5 s; the join pauses all three.
    r = rolling_restart(STATE, "range", RollingRestartConfig(), static=False)
    first = r.events[:2]
    assert [(e.time_ms, e.kind, e.moved, e.moved_from_remaining) for e in first] == [
        (0, "leave", 3, 1), (30_000, "join", 3, 3)]
    assert [e.pause_consumer_seconds for e in first] == [7.0, 10.5]
    assert r.partitions_moved == 3 + 3 + 2 + 2 + 3 + 3
    assert r.consumer_seconds_paused == pytest.approx(3 * (7.0 + 10.5) + 90.0)
    assert [e.time_ms for e in r.events] == [0, 30_000, 40_000, 70_000, 80_000, 110_000]


def test_static_long_restart_expires_then_rejoins() -> None:
    plan = restart_plan(STATE, RollingRestartConfig(restart_ms=60_000, session_timeout_ms=45_000), static=True)
    assert [(e.time_ms, e.kind) for e, _ in plan[:3]] == [(0, "down"), (45_000, "expire"), (60_000, "join")]


def test_comparison_rows_and_cooperative_pauses_less() -> None:
    rows = compare_rolling_restarts(STATE, RollingRestartConfig(), ["range", "cooperative-sticky"])
    assert [(r.strategy, r.membership) for r in rows] == [
        ("range", "dynamic"), ("range", "static"), ("cooperative-sticky", "dynamic"), ("cooperative-sticky", "static")]
    assert rows[2].rebalance_consumer_seconds < rows[0].rebalance_consumer_seconds
    assert rows[1].rebalances == rows[3].rebalances == 0


def test_bad_config_is_one_line_error() -> None:
    with pytest.raises(ScenarioError, match="restart_ms"):
        RollingRestartConfig(restart_ms=-1)
    with pytest.raises(ScenarioError, match="strategy"):
        rolling_restart(STATE, "fastest", RollingRestartConfig(), static=False)
