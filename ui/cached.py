"""Engine calls cached on their inputs (the scenario JSON text is the key), so reruns are cheap."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from engine.charts.assignment import assignment_grid, load_bars
from engine.charts.rebalance import pause_timeline_figure, rebalance_animation
from engine.group import ReplayResult, replay
from engine.metrics import BalanceMetrics, balance_metrics
from engine.pause import PauseReport, ProtocolTimings, pause_report
from engine.scenario import loads_scenario


@st.cache_data(max_entries=64, show_spinner=False)
def replay_cached(scenario_json: str, strategy: str) -> ReplayResult:
    return replay(loads_scenario(scenario_json), strategy)


@st.cache_data(max_entries=64, show_spinner=False)
def metrics_cached(scenario_json: str, strategy: str, step: int) -> BalanceMetrics:
    scenario = loads_scenario(scenario_json)
    result = replay_cached(scenario_json, strategy).steps[step]
    return balance_metrics(result.assignment, scenario.steps[step], scenario.weights)


@st.cache_data(max_entries=64, show_spinner=False)
def grid_figure(scenario_json: str, strategy: str, step: int) -> go.Figure:
    scenario = loads_scenario(scenario_json)
    state = scenario.steps[step]
    result = replay_cached(scenario_json, strategy).steps[step]
    return assignment_grid(result.assignment, state.topics, state.member_ids)


@st.cache_data(max_entries=64, show_spinner=False)
def bars_figure(scenario_json: str, strategy: str, step: int) -> go.Figure:
    m = metrics_cached(scenario_json, strategy, step)
    return load_bars(m.partitions_per_member, m.load_per_member)


def _revoked(scenario_json: str, strategy: str, step: int) -> list | None:
    result = replay_cached(scenario_json, strategy).steps[step]
    if strategy != "cooperative-sticky":
        return None
    out = []
    for part in (result.revoked_before_join or {}, result.revoked_first_round or {}):
        for tps in part.values():
            out.extend(tps)
    return out


def member_order(scenario_json: str, step: int) -> list[str]:
    scenario = loads_scenario(scenario_json)
    before, after = scenario.steps[step - 1].member_ids, scenario.steps[step].member_ids
    return list(dict.fromkeys([*before, *after]))


@st.cache_data(max_entries=32, show_spinner=False)
def animation_figure(scenario_json: str, strategy: str, step: int) -> go.Figure:
    """The rebalance from step-1 to step (cached so a rerun sends the same figure and does not restart it)."""
    result = replay_cached(scenario_json, strategy)
    before, after = result.steps[step - 1].assignment, result.steps[step].assignment
    return rebalance_animation(before, after, member_order(scenario_json, step), _revoked(scenario_json, strategy, step))


@st.cache_data(max_entries=64, show_spinner=False)
def pause_cached(scenario_json: str, strategy: str, step: int, timings: ProtocolTimings, crashed: tuple[str, ...]) -> PauseReport:
    result = replay_cached(scenario_json, strategy)
    protocol = "cooperative" if strategy == "cooperative-sticky" else "eager"
    cur = result.steps[step]
    return pause_report(protocol, result.steps[step - 1].assignment, cur.assignment, timings, crashed, cur.rounds)


@st.cache_data(max_entries=32, show_spinner=False)
def pause_figure(scenario_json: str, step: int, timings: ProtocolTimings, crashed: tuple[str, ...]) -> go.Figure:
    reports = {s: pause_cached(scenario_json, s, step, timings, crashed) for s in ("sticky", "cooperative-sticky")}
    return pause_timeline_figure({"eager (sticky)": reports["sticky"], "cooperative (cooperative-sticky)": reports["cooperative-sticky"]})
