"""The four client assignors and the two KIP-848 server assignors side by side for the current scenario."""

from __future__ import annotations

import io
import json

import pandas as pd
import streamlit as st

from engine.consumer.events import step_labels
from engine.consumer.explain import ASSIGNOR_CLASSES, STRATEGY_LABELS, WHY, callouts_for, config_line
from engine.coordinator.group_spec import PartitionAssignorError
from engine.coordinator.target_assignment import SERVER_ASSIGNORS, equivalent_server_assignor
from engine.errors import EngineError
from engine.scenario import STRATEGIES
from ui.cached import (
    bars_figure,
    grid_figure,
    metrics_cached,
    replay_cached,
    scenario_key,
    server_bars_figure,
    server_cached,
    server_grid_figure,
    server_metrics_cached,
)
from ui.layout import page_setup
from ui.sidebar import render_sidebar
from ui.state import current_preset, current_scenario, current_scenario_json, init_state

page_setup("Assignments", "🧮", "Range, round-robin, sticky and cooperative-sticky on the same group, side by side, "
           "and the new consumer protocol's server-side uniform and range assignors.")
init_state()
render_sidebar()

scenario_json = current_scenario_json()
scenario = current_scenario()
key = scenario_key(scenario_json)
labels = step_labels(scenario)
step = 0
if len(scenario.steps) > 1:
    step = st.selectbox("Rebalance step", range(len(scenario.steps)), format_func=lambda i: f"step {i}: {labels[i]}",
                        key="assign.step", help="Step 0 is the first rebalance; later steps follow the scenario's changes.")
state = scenario.steps[step]

with st.spinner("Computing the four assignments..."):
    results = {s: replay_cached(key, s, scenario_json) for s in STRATEGIES}
    metrics = {s: metrics_cached(key, s, step, scenario_json) for s in STRATEGIES}

SERVER_LABELS = {a: f"{a} (KIP-848)" for a in SERVER_ASSIGNORS}
server_results = {}
server_metrics = {}
server_errors: dict[str, str] = {}
with st.spinner("Computing the server-side (KIP-848) assignments..."):
    for a in SERVER_ASSIGNORS:
        try:
            server_results[a] = server_cached(key, a, scenario_json)
            server_metrics[a] = server_metrics_cached(key, a, step, scenario_json)
        except (EngineError, PartitionAssignorError) as exc:
            server_errors[a] = str(exc)


def _fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _metrics_row(label: str, protocol: str, m, moved: int, converged: bool) -> dict:
    return {
        "strategy": label,
        "group.protocol": protocol,
        "min partitions": m.min_partitions,
        "max partitions": m.max_partitions,
        "spread": m.spread,
        "idle consumers": len(m.idle_members),
        "max load / mean": _fmt(m.max_load_over_mean),
        "cross-rack share": "-" if m.cross_rack_share is None else f"{m.cross_rack_share:.0%}",
        "moved (this step)": moved,
        "converged": converged,
    }


rows = []
for s in STRATEGIES:
    rows.append(_metrics_row(s, "classic", metrics[s], results[s].steps[step].moved, results[s].steps[step].converged))
for a in server_metrics:
    rows.append(_metrics_row(SERVER_LABELS[a], "consumer", server_metrics[a], server_results[a].steps[step].moved, True))
metrics_df = pd.DataFrame(rows)
st.subheader("Balance metrics")
st.dataframe(metrics_df, hide_index=True, width="stretch")
if any(metrics[s].cross_rack_share is not None for s in STRATEGIES):
    st.caption("Cross-rack share: partitions read by a consumer whose client.rack holds none of the partition's replicas.")

columns = st.columns(len(STRATEGIES))
for col, s in zip(columns, STRATEGIES, strict=True):
    with col:
        st.subheader(STRATEGY_LABELS[s])
        r = results[s].steps[step]
        if not r.converged:
            st.error(f"{STRATEGY_LABELS[s]} did not converge: the group kept rebalancing ({r.rounds} rounds).")
        st.plotly_chart(grid_figure(key, s, step, scenario_json), key=f"assign.grid.{s}", width="stretch")
        st.plotly_chart(bars_figure(key, s, step, scenario_json), key=f"assign.bars.{s}", width="stretch")
        idle = metrics[s].idle_members
        if idle:
            st.caption(f"{len(idle)} idle consumer(s)")
        with st.expander("Why it lands here"):
            st.write(WHY[s])
        for c in callouts_for(current_preset(), s):
            if c.step == step:
                st.warning(f"The article ({c.article}) says: {c.says}\n\nKafka does: {c.kafka}\n\n{c.why}")

st.subheader("New consumer protocol (KIP-848, group.protocol=consumer): server-side assignors")
mapping = ", ".join(f"{s} → {equivalent_server_assignor(s)}" for s in STRATEGIES)
st.caption("The group coordinator computes the assignment with group.remote.assignor (broker default: uniform). "
           "These assignors ignore client.rack and the client's partition.assignment.strategy. "
           f"Client strategy → server assignor when migrating: {mapping}.")
server_columns = st.columns(len(STRATEGIES))
for col, a in zip(server_columns, SERVER_ASSIGNORS, strict=False):
    with col:
        st.subheader(SERVER_LABELS[a])
        if a in server_errors:
            st.error(f"{SERVER_LABELS[a]}: {server_errors[a]}")
            continue
        st.plotly_chart(server_grid_figure(key, a, step, scenario_json), key=f"assign.grid.server.{a}", width="stretch")
        st.plotly_chart(server_bars_figure(key, a, step, scenario_json), key=f"assign.bars.server.{a}", width="stretch")
        idle = server_metrics[a].idle_members
        if idle:
            st.caption(f"{len(idle)} idle consumer(s)")

st.subheader("Downloads")
records = [
    {"strategy": s, "member": member, "topic": tp.topic, "partition": tp.partition}
    for s in STRATEGIES for member, tps in results[s].steps[step].assignment.items() for tp in tps
] + [
    {"strategy": SERVER_LABELS[a], "member": member, "topic": tp.rpartition("-")[0], "partition": int(tp.rpartition("-")[2])}
    for a, res in server_results.items() for member, tps in res.steps[step].assignment.items() for tp in tps
]
csv = io.StringIO()
pd.DataFrame(records, columns=["strategy", "member", "topic", "partition"]).to_csv(csv, index=False)
as_json = {s: {member: [str(tp) for tp in tps] for member, tps in results[s].steps[step].assignment.items()} for s in STRATEGIES}
as_json.update({SERVER_LABELS[a]: res.steps[step].assignment for a, res in server_results.items()})
c1, c2 = st.columns(2)
c1.download_button("Assignments (CSV)", csv.getvalue(), "assignments.csv", "text/csv", key="assign.download_csv")
c2.download_button("Assignments (JSON)", json.dumps(as_json, ensure_ascii=False, indent=2), "assignments.json",
                   "application/json", key="assign.download_json")
chosen = st.selectbox("Consumer config for", STRATEGIES, format_func=lambda s: STRATEGY_LABELS[s], key="assign.config_strategy")
st.code(config_line(chosen), language="properties")
st.download_button("consumer.properties line", config_line(chosen) + "\n", "consumer.properties", "text/plain",
                   key="assign.download_config")
st.caption(f"Assignor class: {ASSIGNOR_CLASSES[chosen]}")
