"""Engine calls and figures cached on their inputs, so reruns are cheap.

Every cached function takes ``key`` (a SHA-256 of the scenario JSON, see ``scenario_key``) and the JSON
itself as ``_scenario_json`` (a leading underscore: Streamlit does not hash it), so a rerun hashes 64
characters instead of the whole scenario.  Results and figures use ``st.cache_resource``: the same inputs
give the very same object, read-only by convention.  Unpickling a Plotly figure from ``st.cache_data``
re-validates every array (about 0.3 s for a 2,000-partition animation), and an identical figure is what
keeps a running animation from restarting on a rerun.
"""

from __future__ import annotations

import hashlib
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from engine.charts.assignment import assignment_grid, load_bars
from engine.charts.rebalance import pause_timeline_figure, rebalance_animation
from engine.consumer.group import ReplayResult, replay
from engine.consumer.metrics import BalanceMetrics, balance_metrics
from engine.consumer.pause import PauseReport, ProtocolTimings, pause_report
from engine.coordinator.group_spec import PartitionAssignorError
from engine.coordinator.target_assignment import ServerAssignResult, server_assign
from engine.errors import EngineError
from engine.scenario import Scenario, TopicPartition, loads_scenario


def scenario_key(scenario_json: str) -> str:
    return hashlib.sha256(scenario_json.encode("utf-8")).hexdigest()


def frozen(fig: go.Figure) -> go.Figure:
    """Compute ``fig.to_dict()`` once: ``st.plotly_chart`` calls it (a deep copy + base64 of every array) on
    every rerun, about 0.1 s for a 2,000-partition animation.  The cached figure is never modified."""
    spec = fig.to_dict()
    fig.to_dict = lambda: spec  # type: ignore[method-assign]
    return fig


@st.cache_resource(max_entries=16, show_spinner=False)
def scenario_cached(key: str, _scenario_json: str) -> Scenario:
    return loads_scenario(_scenario_json)


@st.cache_resource(max_entries=64, show_spinner=False)
def replay_cached(key: str, strategy: str, _scenario_json: str) -> ReplayResult:
    return replay(scenario_cached(key, _scenario_json), strategy)


@st.cache_resource(max_entries=64, show_spinner=False)
def metrics_cached(key: str, strategy: str, step: int, _scenario_json: str) -> BalanceMetrics:
    scenario = scenario_cached(key, _scenario_json)
    result = replay_cached(key, strategy, _scenario_json).steps[step]
    return balance_metrics(result.assignment, scenario.steps[step], scenario.weights)


@st.cache_resource(max_entries=64, show_spinner=False)
def grid_figure(key: str, strategy: str, step: int, _scenario_json: str) -> go.Figure:
    state = scenario_cached(key, _scenario_json).steps[step]
    result = replay_cached(key, strategy, _scenario_json).steps[step]
    return frozen(assignment_grid(result.assignment, state.topics, state.member_ids))


@st.cache_resource(max_entries=64, show_spinner=False)
def bars_figure(key: str, strategy: str, step: int, _scenario_json: str) -> go.Figure:
    m = metrics_cached(key, strategy, step, _scenario_json)
    return frozen(load_bars(m.partitions_per_member, m.load_per_member))


def revoked_partitions(result: Any) -> list | None:
    """What a cooperative step revoked (None for eager strategies: they revoke everything)."""
    if result.revoked_first_round is None and result.revoked_before_join is None:
        return None
    return [tp for part in (result.revoked_before_join or {}, result.revoked_first_round or {}) for tps in part.values()
            for tp in tps]


def member_order(scenario: Scenario, step: int) -> list[str]:
    before, after = scenario.steps[step - 1].member_ids, scenario.steps[step].member_ids
    return list(dict.fromkeys([*before, *after]))


@st.cache_resource(max_entries=32, show_spinner=False)
def animation_figure(key: str, strategy: str, step: int, _scenario_json: str) -> go.Figure:
    """The rebalance from step-1 to step."""
    result = replay_cached(key, strategy, _scenario_json)
    before, after = result.steps[step - 1].assignment, result.steps[step].assignment
    revoked = revoked_partitions(result.steps[step]) if strategy == "cooperative-sticky" else None
    order = member_order(scenario_cached(key, _scenario_json), step)
    return frozen(rebalance_animation(before, after, order, revoked))


@st.cache_resource(max_entries=64, show_spinner=False)
def pause_cached(key: str, strategy: str, step: int, timings: ProtocolTimings, crashed: tuple[str, ...],
                 _scenario_json: str) -> PauseReport:
    result = replay_cached(key, strategy, _scenario_json)
    protocol = "cooperative" if strategy == "cooperative-sticky" else "eager"
    cur = result.steps[step]
    return pause_report(protocol, result.steps[step - 1].assignment, cur.assignment, timings, crashed, cur.rounds)


@st.cache_resource(max_entries=64, show_spinner=False)
def server_cached(key: str, assignor: str, _scenario_json: str) -> ServerAssignResult:
    """KIP-848 server-side target assignments (``uniform`` or ``range``) of every step.

    Raises ``EngineError`` or ``PartitionAssignorError`` (not cached: Streamlit re-raises on the next call).
    """
    return server_assign(scenario_cached(key, _scenario_json), assignor)


@st.cache_resource(max_entries=64, show_spinner=False)
def server_assignment(key: str, assignor: str, step: int, _scenario_json: str) -> dict[str, list[TopicPartition]]:
    """One step's server target as ``TopicPartition`` lists (the shape the figures and metrics take)."""
    result = server_cached(key, assignor, _scenario_json).steps[step]
    return {m: [TopicPartition.parse(tp) for tp in tps] for m, tps in result.assignment.items()}


@st.cache_resource(max_entries=64, show_spinner=False)
def server_metrics_cached(key: str, assignor: str, step: int, _scenario_json: str) -> BalanceMetrics:
    scenario = scenario_cached(key, _scenario_json)
    return balance_metrics(server_assignment(key, assignor, step, _scenario_json), scenario.steps[step], scenario.weights)


@st.cache_resource(max_entries=64, show_spinner=False)
def server_grid_figure(key: str, assignor: str, step: int, _scenario_json: str) -> go.Figure:
    state = scenario_cached(key, _scenario_json).steps[step]
    return frozen(assignment_grid(server_assignment(key, assignor, step, _scenario_json), state.topics, state.member_ids))


@st.cache_resource(max_entries=64, show_spinner=False)
def server_bars_figure(key: str, assignor: str, step: int, _scenario_json: str) -> go.Figure:
    m = server_metrics_cached(key, assignor, step, _scenario_json)
    return frozen(load_bars(m.partitions_per_member, m.load_per_member))


def server_revoked(key: str, assignor: str, step: int, _scenario_json: str) -> int:
    """Partitions the step takes away from members that stay (current target minus new target)."""
    r = server_cached(key, assignor, _scenario_json).steps[step]
    return sum(len(set(r.current_assignment.get(m, ())) - set(tps)) for m, tps in r.assignment.items())


@st.cache_resource(max_entries=64, show_spinner=False)
def server_pause_cached(key: str, assignor: str, step: int, timings: ProtocolTimings, crashed: tuple[str, ...],
                        _scenario_json: str) -> PauseReport:
    before = server_assignment(key, assignor, step - 1, _scenario_json)
    after = server_assignment(key, assignor, step, _scenario_json)
    return pause_report("consumer", before, after, timings, crashed)


@st.cache_resource(max_entries=32, show_spinner=False)
def pause_figure(key: str, step: int, timings: ProtocolTimings, crashed: tuple[str, ...], _scenario_json: str) -> go.Figure:
    eager = pause_cached(key, "sticky", step, timings, crashed, _scenario_json)
    coop = pause_cached(key, "cooperative-sticky", step, timings, crashed, _scenario_json)
    reports = {"eager (sticky)": eager, "cooperative (cooperative-sticky)": coop}
    try:
        reports["consumer KIP-848 (uniform)"] = server_pause_cached(key, "uniform", step, timings, crashed, _scenario_json)
    except (EngineError, PartitionAssignorError):
        pass  # the page reports the server assignor's error in its table
    return frozen(pause_timeline_figure(reports))
