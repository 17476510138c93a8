"""Sizing workshop: how many partitions a topic needs, and what that many partitions cost."""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from engine import sizing
from engine.charts import sizing as charts
from engine.errors import EngineError
from ui.layout import page_setup

page_setup("Sizing", "📐", "Partitions = ceil(max(T/p, T/c)) from measured per-partition throughput, "
           "and every cost of that count: memory, files, failover, latency, limits.")


@st.cache_data(show_spinner="Computing costs…", max_entries=32)
def curves(inputs: sizing.SizingInputs, counts: tuple[int, ...]) -> dict[str, list[float]]:
    return sizing.cost_curves(inputs, counts)


def measured(label: str, tool: str, default: float, key: str) -> float:
    """A per-partition throughput: typed, or parsed from a pasted perf-test run."""
    value = st.number_input(f"{label} (MB/s per partition)", min_value=0.0, max_value=sizing.MAX_THROUGHPUT,
                            value=default, step=1.0, key=f"sizing.{key}_mb_s",
                            help="Measure on a topic with ONE partition. Must be > 0.")
    if value <= 0:
        st.error(f"{key}_mb_s: must be greater than 0, got {value:g}")
    paste = st.text_area(f"…or paste kafka-{tool}-perf-test.sh output", "", height=80, key=f"sizing.{key}_perf",
                         help=f"The summary line(s); at most {sizing.MAX_PERF_TEXT:,} characters.")
    if paste.strip():
        try:
            parsed = sizing.parse_perf_output(paste)
        except EngineError as exc:
            st.error(str(exc))
            return value
        if parsed.tool != tool:
            st.error(f"{key} perf output: this looks like kafka-{parsed.tool}-perf-test.sh output")
            return value
        st.success(f"Parsed {parsed.mb_per_sec:g} MB/s ({parsed.records_per_sec:,.0f} records/s).")
        return parsed.mb_per_sec
    return value


def constant_overrides() -> dict[str, float]:
    out = {}
    with st.expander("Constants (editable; hover for source and era)"):
        for key, c in sizing.CONSTANTS.items():
            value = st.number_input(f"{c.label} ({c.unit})", min_value=0.0, value=float(c.value),
                                    key=f"sizing.const.{key}", help=f"{c.source}. Era: {c.era}.")
            if value != c.value:
                out[key] = float(value)
    return out


left, right = st.columns([1, 2], gap="large")
with left:
    st.subheader("Inputs")
    target = st.number_input("Target throughput T (MB/s)", min_value=0.0, max_value=sizing.MAX_THROUGHPUT,
                             value=200.0, step=10.0, key="sizing.target_mb_s")
    if target <= 0:
        st.error(f"target_mb_s: must be greater than 0, got {target:g}")
    headroom = st.number_input("Growth headroom (%)", min_value=0.0, max_value=10_000.0, value=0.0, step=10.0,
                               key="sizing.headroom_pct")
    producer_rate = measured("Producer p", "producer", 25.0, "producer")
    consumer_rate = measured("Consumer c", "consumer", 10.0, "consumer")
    brokers = st.number_input("Brokers", 1, sizing.MAX_BROKERS, 3, key="sizing.brokers")
    rf = st.number_input("Replication factor", 1, sizing.MAX_BROKERS, 3, key="sizing.rf")
    if rf > brokers:
        st.error(f"replication_factor: at most the number of brokers ({brokers}), got {rf}")
    era = st.radio("Cluster", ["kraft", "zookeeper"], horizontal=True, key="sizing.era",
                   format_func={"kraft": "KRaft (3.3+)", "zookeeper": "ZooKeeper"}.get)
    batch = st.number_input("batch.size (bytes)", 1, 2**31 - 1, 16_384, step=1024, key="sizing.batch_size")
    buffer_mib = st.number_input("buffer.memory (MiB)", 1, 1_000_000, 32, key="sizing.buffer_mib")
    segments = st.number_input("Segments per partition", 1, 1_000_000, 5, key="sizing.segments",
                               help="retention size / segment.bytes, roughly")
    existing = st.number_input("Other partitions already in the cluster", 0, sizing.MAX_PARTITIONS, 0,
                               key="sizing.existing")
    round_up = st.checkbox("Round up to a multiple of the brokers", False, key="sizing.round")
    chosen_in = st.number_input("Override the chosen count (0 = recommended)", 0, sizing.MAX_PARTITIONS, 0,
                                key="sizing.chosen")
    overrides = constant_overrides()

inputs = sizing.SizingInputs(float(target), float(producer_rate), float(consumer_rate), float(headroom),
                             int(brokers), int(rf), int(batch), int(buffer_mib) * 2**20, int(segments),
                             int(existing), era, bool(round_up), overrides)

with right:
    try:
        result = sizing.size(inputs, int(chosen_in) or None)
    except EngineError as exc:
        st.error(str(exc))
        st.stop()
    m1, m2, m3 = st.columns(3)
    m1.metric("Recommended partitions", f"{result.recommended:,}",
              help=f"max(T·g/p, T·g/c) = max({result.producer_bound:.2f}, {result.consumer_bound:.2f})")
    m2.metric("Seed article Tt / max(Tp, Tc)", f"{result.seed_formula:,}",
              delta=f"{result.seed_formula - result.recommended:,}" if result.seed_formula != result.recommended
              else None, help="The common mistake: divides by the faster side, so under-sizes when p != c")
    m3.metric("Chosen", f"{result.chosen:,}")
    st.markdown("**Correct:** `max(Tt/Tp, Tt/Tc)` — the slower side decides. **Seed article 000:** "
                "`Tt / max(Tp, Tc)` divides by the *faster* side, so whenever `Tp != Tc` the slower side "
                "cannot keep up.")
    grown = inputs.target_mb_s * (1 + inputs.headroom_pct / 100)
    st.plotly_chart(charts.formula_comparison(result.recommended, result.seed_formula, grown,
                                              inputs.producer_mb_s, inputs.consumer_mb_s), key="sizing.formula_chart")
    table = pd.DataFrame([{"check": c.name, "value": sizing.format_number(c.value), "unit": c.unit,
                           "limit": "" if c.limit is None else sizing.format_number(c.limit),
                           "ok": "✅" if c.ok else "❌", "note": c.note} for c in result.constraints])
    st.dataframe(table, hide_index=True, key="sizing.constraints")
    counts = tuple(sizing.curve_counts(result.chosen))
    cost = curves(inputs, counts)
    units = {c.name: c.unit for c in result.constraints}
    limits = {c.name: c.limit for c in result.constraints}
    st.plotly_chart(charts.cost_grid(counts, cost, units, limits, result.chosen, result.recommended),
                    key="sizing.cost_chart")
    summary = sizing.summary_text(result)
    st.markdown("**Summary for your notes**")
    st.code(summary, language=None)
    d1, d2 = st.columns(2)
    d1.download_button("Download inputs and results (JSON)", json.dumps(result.to_dict(), indent=2),
                       "sizing.json", "application/json", key="sizing.download_json")
    d2.download_button("Download cost curves (CSV)", pd.DataFrame({"partitions": counts, **cost}).to_csv(index=False),
                       "sizing_costs.csv", "text/csv", key="sizing.download_csv")
