"""Sizing workshop: how many partitions a topic needs, and what that many partitions cost."""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from engine import EngineError, sizing
from engine.charts import cost_grid, formula_comparison
from ui.frame.layout import page_setup
from ui.frame.lazy import lazy_section, lazy_tabs
from ui.frame.tables import table
from ui.inputs.numbers import decimal_input, kept_value, whole_number_input
from ui.load.cached import sizing_curves
from ui.load.perf_test import measured
from ui.load.streams_sizing import streams_sizing
from ui.share.capacity import share_or_consumer_group
from ui.text.i18n import _, tr

page_setup(_("Sizing"), "📐", _("Partitions = ceil(max(T/p, T/c)) from measured per-partition throughput, "
                                 "and every cost of that count: memory, files, failover, latency, limits."))


def constant_overrides() -> dict[str, float]:
    """The constants edited away from their values; their fields are drawn only while the expander is open, a
    closed one keeps each field's last accepted value (``kept_value``)."""
    out, box = {}, st.expander(_("Constants (editable; hover for source and era)"), key="sizing.constants",
                               on_change="rerun")
    for key, c in sizing.CONSTANTS.items():
        field = f"sizing.const.{key}"
        if box.open:
            value = decimal_input(tr(f"{c.label} ({c.unit})"), 0.0, 1e12, float(c.value), field, container=box,
                                  help=_("{source}. Era: {era}.").format(source=tr(c.source), era=tr(c.era)))
        else:
            value = kept_value(field, c.value)
        if value != c.value:
            out[key] = float(value)
    return out


def inputs_section() -> tuple[sizing.SizingInputs, int | None]:
    st.subheader(_("Inputs"))
    target = decimal_input(_("Target throughput T (MB/s)"), 0.0, sizing.MAX_THROUGHPUT, 200.0, "sizing.target_mb_s")
    headroom = decimal_input(_("Growth headroom (%)"), 0.0, 10_000.0, 0.0, "sizing.headroom_pct")
    producer = measured(_("Producer p (MB/s per partition)"), "producer", 25.0)
    consumer = measured(_("Consumer c (MB/s per partition)"), "consumer", 10.0)
    brokers = whole_number_input(_("Brokers"), 1, sizing.MAX_BROKERS, 3, "sizing.brokers")
    rf = whole_number_input(_("Replication factor"), 1, sizing.MAX_BROKERS, 3, "sizing.rf")
    eras: list[sizing.Era] = ["kraft", "zookeeper"]
    era = st.radio(_("Cluster"), eras, horizontal=True, key="sizing.era", persist_state="page",
                   format_func={"kraft": "KRaft (3.3+)", "zookeeper": "ZooKeeper"}.get)
    batch = whole_number_input(_("batch.size (bytes)"), 1, 2**31 - 1, 16_384, "sizing.batch_size")
    buffer_mib = whole_number_input(_("buffer.memory (MiB)"), 1, 1_000_000, 32, "sizing.buffer_mib")
    segments = whole_number_input(_("Segments per partition"), 1, 1_000_000, 5, "sizing.segments",
                                  help=_("retention size / segment.bytes, roughly."))
    existing = whole_number_input(_("Other partitions already in the cluster"), 0, sizing.MAX_PARTITIONS, 0,
                                  "sizing.existing")
    round_up = st.checkbox(_("Round up to a multiple of the brokers"), False, key="sizing.round", persist_state="page")
    chosen = whole_number_input(_("Override the chosen count (0 = recommended)"), 0, sizing.MAX_PARTITIONS, 0,
                                "sizing.chosen")
    inputs = sizing.SizingInputs(float(target), float(producer), float(consumer), float(headroom),
                                 int(brokers), int(rf), int(batch), int(buffer_mib) * 2**20, int(segments),
                                 int(existing), era, bool(round_up), constant_overrides())
    return inputs, int(chosen) or None


def summary(result: sizing.SizingResult) -> str:
    """``sizing.summary_text`` in the session's language, line by line (the failing checks' names too)."""
    lines = sizing.summary_text(result).split("\n")
    bad = [c for c in result.constraints if not c.ok]
    last = [_("{n} check(s) fail: {names}.").format(n=len(bad), names=", ".join(tr(c.name) for c in bad))] if bad \
        else [tr(lines[-1])]
    return "\n".join([tr(line) for line in lines[:-1]] + last)


def results_section(result: sizing.SizingResult) -> None:
    inputs = result.inputs
    m1, m2, m3 = st.columns(3)
    m1.metric(_("Recommended partitions"), f"{result.recommended:,}",
              help=_("max(T·g/p, T·g/c) = max({producer}, {consumer})").format(
                  producer=f"{result.producer_bound:.2f}", consumer=f"{result.consumer_bound:.2f}"))
    gap = result.seed_formula - result.recommended
    m2.metric(_("The article's Tt / max(Tp, Tc)"), f"{result.seed_formula:,}", delta=f"{gap:,}" if gap else None,
              help=_("The common mistake: divides by the faster side, so under-sizes when p != c"))
    m3.metric(_("Chosen"), f"{result.chosen:,}")
    st.markdown(_("**Correct:** `max(Tt/Tp, Tt/Tc)` — the slower side decides. **《如何确定Kafka的分区数、"
                  "key和consumer线程数》 (wrong):** `Tt / max(Tp, Tc)` divides by the *faster* side, so whenever "
                  "`Tp != Tc` the slower side "
                  "cannot keep up."))
    grown = inputs.target_mb_s * (1 + inputs.headroom_pct / 100)
    formulas = formula_comparison(result.recommended, result.seed_formula, grown, inputs.producer_mb_s,
                                  inputs.consumer_mb_s)
    bars = formulas.data[0]  # the category labels and bar texts are not among the texts the chart hook translates
    bars.update(x=[tr(x) for x in bars.x], text=[tr(t) for t in bars.text])
    st.plotly_chart(formulas, key="sizing.formula_chart")
    words = ("check", "unit", "verdict", "note")  # the engine's words, shown in the session's language
    rows = [{**row, **{k: tr(row[k]) for k in words}} for row in sizing.constraint_rows(result)]
    table(rows, key="sizing.constraints")
    counts = tuple(sizing.curve_counts(result.chosen))
    cost = sizing_curves(inputs, counts)
    units, limits = {c.name: c.unit for c in result.constraints}, {c.name: c.limit for c in result.constraints}
    lazy_section(_("Each cost against the partition count (chart)"), "sizing.costs",  # nine panels, when asked for;
                 lambda: st.plotly_chart(cost_grid(counts, cost, units, limits, result.chosen, result.recommended),
                                         key="sizing.cost_chart"))  # the table above holds the chosen count's
    st.markdown(_("**Summary for your notes**"))
    st.code(summary(result), language=None)
    d1, d2 = st.columns(2)
    d1.download_button(_("Download inputs and results (JSON)"), json.dumps(result.to_dict(), indent=2),
                       "sizing.json", "application/json", key="sizing.download_json")
    csv = pd.DataFrame({"partitions": counts, **cost}).to_csv(index=False)
    d2.download_button(_("Download cost curves (CSV)"), csv, "sizing_costs.csv", "text/csv",
                       key="sizing.download_csv")


def partitions_tab() -> None:
    left, right = st.columns([1, 2], gap="large")
    with left:
        inputs, chosen = inputs_section()
    with right:
        try:
            results_section(sizing.size(inputs, chosen))
        except EngineError as exc:
            for problem in inputs.problems() or [str(exc)]:
                st.error(tr(problem))


views = {_("Partitions for a topic"): partitions_tab, _("Consumer group or share group?"): share_or_consumer_group,
         _("Kafka Streams"): streams_sizing}
streams_linked = any(field.startswith("sizing.streams.") for field in st.query_params)  # a lesson's link
lazy_tabs(views, "sizing.view", opened=_("Kafka Streams") if streams_linked else None)  # only the open tab runs
