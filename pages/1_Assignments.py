"""The four client assignors and the two KIP-848 server assignors side by side for the current scenario."""

from __future__ import annotations

import io
import json

import pandas as pd
import streamlit as st

from engine import (
    ASSIGNORS,
    CLIENT,
    SERVER,
    WHY,
    Assignor,
    assignment_to_json,
    balance_row,
    callouts_for,
    records,
    step_labels,
    strategies,
    strategy_of,
)
from ui.cached import bars_figure, grid_figure, metrics_of, outcomes_or_error
from ui.layout import page_setup
from ui.sidebar import render_sidebar
from ui.state import ScenarioRef, current_preset, current_ref, current_scenario

page_setup("Assignments", "🧮", "Range, round-robin, sticky and cooperative-sticky on the same group, side "
           "by side, and the new consumer protocol's server-side uniform and range assignors.")
render_sidebar()


def choose_step() -> int:
    scenario = current_scenario()
    if len(scenario.steps) == 1:
        return 0
    labels = step_labels(scenario)
    return st.selectbox("Rebalance step", range(len(scenario.steps)), key="assign.step",
                        format_func=lambda i: f"step {i}: {labels[i]}",
                        help="Step 0 is the first rebalance; later steps follow the scenario's changes.")


def metrics_section(ref: ScenarioRef, step: int, results: dict[Assignor, list | str]) -> None:
    rows = [balance_row(a, metrics_of(ref, a, step), r[step])
            for a, r in results.items() if not isinstance(r, str)]
    st.subheader("Balance metrics")
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    if any(metrics_of(ref, a, step).cross_rack_share is not None for a in CLIENT.values()
           if not isinstance(results[a], str)):
        st.caption("Cross-rack share: partitions read by a consumer whose client.rack holds none of the "
                   "partition's replicas.")


def assignor_column(ref: ScenarioRef, step: int, assignor: Assignor, result: list | str) -> None:
    st.subheader(assignor.title)
    if isinstance(result, str):
        st.error(f"{assignor.label}: {result}")
        return
    if not result[step].converged:
        st.error(f"{assignor.title} did not converge: the group kept rebalancing "
                 f"({result[step].rounds} rounds).")
    suffix = assignor.name if assignor.group_protocol == "classic" else f"server.{assignor.name}"
    st.plotly_chart(grid_figure(ref, assignor, step), key=f"assign.grid.{suffix}", width="stretch")
    st.plotly_chart(bars_figure(ref, assignor, step), key=f"assign.bars.{suffix}", width="stretch")
    idle = metrics_of(ref, assignor, step).idle_members
    if idle:
        st.caption(f"{len(idle)} idle consumer(s)")
    if assignor.group_protocol == "classic":
        with st.expander("Why it lands here"):
            st.write(WHY[assignor.name])
        for c in callouts_for(current_preset(), assignor.name):
            if c.step == step:
                st.warning(f"The article ({c.article}) says: {c.says}\n\nKafka does: {c.kafka}\n\n{c.why}")


def columns_section(ref: ScenarioRef, step: int, results: dict[Assignor, list | str]) -> None:
    for col, a in zip(st.columns(len(CLIENT)), CLIENT.values(), strict=True):
        with col:
            assignor_column(ref, step, a, results[a])
    st.subheader("New consumer protocol (KIP-848, group.protocol=consumer): server-side assignors")
    mapping = ", ".join(f"{s.name} → {s.server_assignor}" for s in strategies())
    st.caption("The group coordinator computes the assignment with group.remote.assignor (broker default: "
               "uniform). These assignors ignore client.rack and the client's partition.assignment.strategy. "
               f"Client strategy → server assignor when migrating: {mapping}.")
    for col, a in zip(st.columns(len(CLIENT)), SERVER.values(), strict=False):
        with col:
            assignor_column(ref, step, a, results[a])


def downloads_section(step: int, results: dict[Assignor, list | str]) -> None:
    st.subheader("Downloads")
    done = {a: r[step].assignment for a, r in results.items() if not isinstance(r, str)}
    rows = [row for a, assignment in done.items() for row in records(assignment, strategy=a.label)]
    csv = io.StringIO()
    pd.DataFrame(rows, columns=["strategy", "member", "topic", "partition"]).to_csv(csv, index=False)
    as_json = {a.label: assignment_to_json(assignment) for a, assignment in done.items()}
    c1, c2 = st.columns(2)
    c1.download_button("Assignments (CSV)", csv.getvalue(), "assignments.csv", "text/csv",
                       key="assign.download_csv")
    c2.download_button("Assignments (JSON)", json.dumps(as_json, ensure_ascii=False, indent=2),
                       "assignments.json", "application/json", key="assign.download_json")


def config_section() -> None:
    names = [s.name for s in strategies()]
    chosen = strategy_of(st.selectbox("Consumer config for", names, key="assign.config_strategy",
                                      format_func=lambda s: strategy_of(s).label))
    st.code(chosen.config_line(), language="properties")
    st.download_button("consumer.properties line", chosen.config_line() + "\n", "consumer.properties",
                       "text/plain", key="assign.download_config")
    st.caption(f"Assignor class: {chosen.kafka_class}")


ref, step = current_ref(), choose_step()
with st.spinner("Computing the client and server-side (KIP-848) assignments..."):
    results = {a: outcomes_or_error(ref, a) for a in ASSIGNORS}
metrics_section(ref, step, results)
columns_section(ref, step, results)
downloads_section(step, results)
config_section()
