"""The four client assignors side by side for the current scenario."""

from __future__ import annotations

import io
import json

import pandas as pd
import streamlit as st

from engine.events import step_labels
from engine.explain import ASSIGNOR_CLASSES, STRATEGY_LABELS, WHY, callouts_for, config_line
from engine.scenario import STRATEGIES
from ui.cached import bars_figure, grid_figure, metrics_cached, replay_cached, scenario_key
from ui.layout import page_setup
from ui.sidebar import render_sidebar
from ui.state import current_preset, current_scenario, current_scenario_json, init_state

page_setup("Assignments", "🧮", "Range, round-robin, sticky and cooperative-sticky on the same group, side by side.")
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


def _fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


rows = []
for s in STRATEGIES:
    m, r = metrics[s], results[s].steps[step]
    rows.append({
        "strategy": s,
        "min partitions": m.min_partitions,
        "max partitions": m.max_partitions,
        "spread": m.spread,
        "idle consumers": len(m.idle_members),
        "max load / mean": _fmt(m.max_load_over_mean),
        "cross-rack share": "-" if m.cross_rack_share is None else f"{m.cross_rack_share:.0%}",
        "moved (this step)": r.moved,
        "converged": r.converged,
    })
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

st.subheader("Downloads")
records = [
    {"strategy": s, "member": member, "topic": tp.topic, "partition": tp.partition}
    for s in STRATEGIES for member, tps in results[s].steps[step].assignment.items() for tp in tps
]
csv = io.StringIO()
pd.DataFrame(records, columns=["strategy", "member", "topic", "partition"]).to_csv(csv, index=False)
as_json = {s: {member: [str(tp) for tp in tps] for member, tps in results[s].steps[step].assignment.items()} for s in STRATEGIES}
c1, c2 = st.columns(2)
c1.download_button("Assignments (CSV)", csv.getvalue(), "assignments.csv", "text/csv", key="assign.download_csv")
c2.download_button("Assignments (JSON)", json.dumps(as_json, ensure_ascii=False, indent=2), "assignments.json",
                   "application/json", key="assign.download_json")
chosen = st.selectbox("Consumer config for", STRATEGIES, format_func=lambda s: STRATEGY_LABELS[s], key="assign.config_strategy")
st.code(config_line(chosen), language="properties")
st.download_button("consumer.properties line", config_line(chosen) + "\n", "consumer.properties", "text/plain",
                   key="assign.download_config")
st.caption(f"Assignor class: {ASSIGNOR_CLASSES[chosen]}")
