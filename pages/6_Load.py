"""Load: a topic export (or the bundled sample) through the Spark pipeline -> per-partition and
per-consumer load, hot keys, and the partition/consumer count that keeps consumers under a target."""

from __future__ import annotations

import streamlit as st

from engine.charts import load as charts
from ui.frame.layout import page_setup
from ui.load import spark_load
from ui.text.i18n import _, tr

page_setup(_("Load"), "📈", _("Real key samples -> the load each partition and each consumer would carry, computed "
                               "on Spark (local mode here; the same job runs on a cluster with "
                               "`python -m engine load --master ...`)."))
st.markdown(_(
    "Keys are placed with Kafka's murmur2 partitioner exactly as the Java producer does "
    "(`toPositive(murmur2(keyBytes)) % n`), vectorised inside Spark with an Arrow UDF. Null keys follow the "
    "producer partitioner you choose. Consumers get partitions from this lab's exact replay of each assignor."
))

source = spark_load.choose_source()
if source.error:
    st.error(tr(source.error))
chosen = spark_load.settings(source)
spark_load.run_button(source, chosen)

stored = st.session_state.get(spark_load.RESULT_KEY)
if stored is None:
    st.info(_("Choose the data and counts, then run the job. The first run starts Spark (about a minute on a "
              "2-core machine, with progress shown); later runs reuse it."))
    st.stop()
config, result = stored
report, parts, hot, consumers = result.report, result.partitions, result.hot_keys, result.consumers


def overview() -> int:
    st.divider()
    m1, m2, m3, m4 = st.columns(4)
    m1.metric(_("Records"), f"{report['rows']:,}")
    m2.metric(_("Null keys"), f"{report['null_keys']:,}")
    m3.metric(_("Partition counts"), ", ".join(map(str, config.partitions)))
    m4.metric(_("Time range"), "—" if not report["time_range"] else f"{report['time_range'][0][:16]} →")
    n = st.selectbox(_("Partition count to show"), config.partitions, key="load.view_partitions",
                     index=min(1, len(config.partitions) - 1))
    labels = {m: tr(label) for m, label in charts.METRIC_LABELS.items()}  # AppTest calls format_func outside
    metric = st.radio(_("Metric"), list(charts.METRIC_LABELS), horizontal=True, key="load.metric",
                      format_func=labels.__getitem__)
    st.plotly_chart(spark_load.in_language(charts.partition_load_bars(parts, n, metric)), key="load.partition_chart")
    left, right = st.columns(2)
    left.subheader(_("Hottest partitions"))
    left.dataframe(spark_load.hottest_partitions(parts, hot, n), hide_index=True, key="load.hottest_table")
    right.subheader(_("Hottest keys"))
    if hot.empty:
        right.caption(_("No keyed records."))
    else:
        right.plotly_chart(spark_load.in_language(charts.hot_keys_bars(hot, n)), key="load.hot_keys_chart")
    return int(n)


def per_consumer(n: int) -> None:
    st.subheader(_("Per-consumer load, strategies side by side"))
    for strategy, reason in report.get("skipped_strategies", {}).items():
        st.warning(f"{strategy}: {tr(reason)}")
    if consumers.empty:
        st.caption(_("No per-consumer load (no strategies ran)."))
        return
    metric = "peak_messages_per_s" if report["peaks"] else "messages"
    target = spark_load.target_input(config, report) if report["peaks"] else None
    c_view = st.selectbox(_("Consumers"), config.consumers, key="load.view_consumers")
    st.plotly_chart(spark_load.in_language(charts.consumer_load_bars(consumers, n, c_view, metric, target)),
                    key="load.consumer_chart")
    st.dataframe(spark_load.busiest_table(consumers, metric), key="load.max_table")
    if target is None:
        st.caption(_("No timestamp column: loads are totals, and no peak-based recommendation is made."))
        return
    st.plotly_chart(spark_load.in_language(charts.max_consumer_bars(consumers, metric, target)), key="load.max_chart")
    spark_load.recommendation(consumers, parts, target, metric)


per_consumer(overview())
st.subheader(_("Download"))
spark_load.downloads(parts, hot, consumers)
