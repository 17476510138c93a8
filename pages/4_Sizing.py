"""Sizing workshop: how many partitions a topic needs, and what that many partitions cost."""

from __future__ import annotations

import json
from typing import Literal

import pandas as pd
import streamlit as st

from engine import EngineError, sizing
from engine.charts import cost_grid, formula_comparison
from ui.cached import sizing_curves
from ui.layout import page_setup
from ui.numbers import decimal_input, whole_number_input

page_setup("Sizing", "📐", "Partitions = ceil(max(T/p, T/c)) from measured per-partition throughput, "
           "and every cost of that count: memory, files, failover, latency, limits.")


def use_paste(tool: Literal["producer", "consumer"]) -> None:
    """on_change of a perf-test paste: its throughput goes INTO the field above (one value, visible)."""
    ss = st.session_state
    ss.pop(f"sizing.{tool}_paste_error", None)
    paste = ss.get(f"sizing.{tool}_perf", "")
    if not paste.strip():
        return
    try:
        parsed = sizing.measured_throughput(paste, tool)
    except EngineError as exc:
        ss[f"sizing.{tool}_paste_error"] = str(exc)
        return
    ss[f"sizing.{tool}_mb_s"] = f"{parsed.mb_per_sec:g}"
    ss[f"sizing.{tool}_pasted"] = parsed


def measured(label: str, tool: Literal["producer", "consumer"], default: float) -> float:
    """A per-partition throughput: the field is the one source of truth; a pasted perf-test run fills it."""
    value = decimal_input(f"{label} (MB/s per partition)", 0.0, sizing.MAX_THROUGHPUT, default,
                          f"sizing.{tool}_mb_s", help="Measure on a topic with ONE partition. Must be > 0.")
    st.text_area(f"…or paste kafka-{tool}-perf-test.sh output", "", height=80, key=f"sizing.{tool}_perf",
                 max_chars=sizing.MAX_PERF_TEXT, on_change=use_paste, args=(tool,),
                 help=f"The summary line(s), at most {sizing.MAX_PERF_TEXT:,} characters; the throughput it "
                      "reports replaces the field above.")
    pasted = st.session_state.get(f"sizing.{tool}_pasted")
    if st.session_state.get(f"sizing.{tool}_paste_error"):
        st.error(f"{st.session_state[f'sizing.{tool}_paste_error']} (the field above is unchanged)")
    elif pasted is not None and pasted.mb_per_sec == value:
        st.success(f"Parsed {pasted.mb_per_sec:g} MB/s ({pasted.records_per_sec:,.0f} records/s): now in the "
                   "field above.")
    elif pasted is not None:
        st.caption(f"The field was edited after the paste ({pasted.mb_per_sec:g} MB/s): the field is used.")
    return value


def constant_overrides() -> dict[str, float]:
    out = {}
    with st.expander("Constants (editable; hover for source and era)"):
        for key, c in sizing.CONSTANTS.items():
            value = decimal_input(f"{c.label} ({c.unit})", 0.0, 1e12, float(c.value), f"sizing.const.{key}",
                                  help=f"{c.source}. Era: {c.era}.")
            if value != c.value:
                out[key] = float(value)
    return out


def inputs_section() -> tuple[sizing.SizingInputs, int | None]:
    st.subheader("Inputs")
    target = decimal_input("Target throughput T (MB/s)", 0.0, sizing.MAX_THROUGHPUT, 200.0, "sizing.target_mb_s")
    headroom = decimal_input("Growth headroom (%)", 0.0, 10_000.0, 0.0, "sizing.headroom_pct")
    producer, consumer = measured("Producer p", "producer", 25.0), measured("Consumer c", "consumer", 10.0)
    brokers = whole_number_input("Brokers", 1, sizing.MAX_BROKERS, 3, "sizing.brokers")
    rf = whole_number_input("Replication factor", 1, sizing.MAX_BROKERS, 3, "sizing.rf")
    era = st.radio("Cluster", ["kraft", "zookeeper"], horizontal=True, key="sizing.era",
                   format_func={"kraft": "KRaft (3.3+)", "zookeeper": "ZooKeeper"}.get)
    batch = whole_number_input("batch.size (bytes)", 1, 2**31 - 1, 16_384, "sizing.batch_size")
    buffer_mib = whole_number_input("buffer.memory (MiB)", 1, 1_000_000, 32, "sizing.buffer_mib")
    segments = whole_number_input("Segments per partition", 1, 1_000_000, 5, "sizing.segments",
                                  help="retention size / segment.bytes, roughly.")
    existing = whole_number_input("Other partitions already in the cluster", 0, sizing.MAX_PARTITIONS, 0,
                                  "sizing.existing")
    round_up = st.checkbox("Round up to a multiple of the brokers", False, key="sizing.round")
    chosen = whole_number_input("Override the chosen count (0 = recommended)", 0, sizing.MAX_PARTITIONS, 0,
                                "sizing.chosen")
    inputs = sizing.SizingInputs(float(target), float(producer), float(consumer), float(headroom),
                                 int(brokers), int(rf), int(batch), int(buffer_mib) * 2**20, int(segments),
                                 int(existing), era, bool(round_up), constant_overrides())
    return inputs, int(chosen) or None


def results_section(result: sizing.SizingResult) -> None:
    inputs = result.inputs
    m1, m2, m3 = st.columns(3)
    m1.metric("Recommended partitions", f"{result.recommended:,}",
              help=f"max(T·g/p, T·g/c) = max({result.producer_bound:.2f}, {result.consumer_bound:.2f})")
    gap = result.seed_formula - result.recommended
    m2.metric("Seed article Tt / max(Tp, Tc)", f"{result.seed_formula:,}", delta=f"{gap:,}" if gap else None,
              help="The common mistake: divides by the faster side, so under-sizes when p != c")
    m3.metric("Chosen", f"{result.chosen:,}")
    st.markdown("**Correct:** `max(Tt/Tp, Tt/Tc)` — the slower side decides. **Seed article 000:** "
                "`Tt / max(Tp, Tc)` divides by the *faster* side, so whenever `Tp != Tc` the slower side "
                "cannot keep up.")
    grown = inputs.target_mb_s * (1 + inputs.headroom_pct / 100)
    st.plotly_chart(formula_comparison(result.recommended, result.seed_formula, grown, inputs.producer_mb_s,
                                       inputs.consumer_mb_s), key="sizing.formula_chart")
    st.dataframe(pd.DataFrame(sizing.constraint_rows(result)), hide_index=True, key="sizing.constraints")
    counts = tuple(sizing.curve_counts(result.chosen))
    cost = sizing_curves(inputs, counts)
    units = {c.name: c.unit for c in result.constraints}
    limits = {c.name: c.limit for c in result.constraints}
    st.plotly_chart(cost_grid(counts, cost, units, limits, result.chosen, result.recommended),
                    key="sizing.cost_chart")
    st.markdown("**Summary for your notes**")
    st.code(sizing.summary_text(result), language=None)
    d1, d2 = st.columns(2)
    d1.download_button("Download inputs and results (JSON)", json.dumps(result.to_dict(), indent=2),
                       "sizing.json", "application/json", key="sizing.download_json")
    curves = pd.DataFrame({"partitions": counts, **cost}).to_csv(index=False)
    d2.download_button("Download cost curves (CSV)", curves, "sizing_costs.csv", "text/csv",
                       key="sizing.download_csv")


left, right = st.columns([1, 2], gap="large")
with left:
    inputs, chosen = inputs_section()
with right:
    try:
        results_section(sizing.size(inputs, chosen))
    except EngineError as exc:
        for problem in inputs.problems() or [str(exc)]:
            st.error(problem)
