"""Load: a topic export (or the bundled sample) through the Spark pipeline -> per-partition and
per-consumer load, hot keys, and the partition/consumer count that keeps consumers under a target."""

from __future__ import annotations

import hashlib
import io
import time
from pathlib import Path

import pandas as pd
import streamlit as st

from engine.consumer.strategies import STRATEGY_NAMES
from engine.errors import EngineError
from ui.layout import page_setup

DATA_DIR = Path(__file__).resolve().parent.parent / ".data"
MAX_UPLOAD_MB = 200
SAMPLE_SIZES = (10_000, 100_000, 1_000_000)
WINDOWS = ("1s", "10s", "60s", "5m")
UPLOAD_TYPES = ("csv", "parquet", "json", "jsonl")

page_setup("Load", "📈", "Real key samples -> the load each partition and each consumer would carry, computed on "
           "Spark (local mode here; the same job runs on a cluster with `python -m engine load --master ...`).")

st.markdown(
    "Keys are placed with Kafka's murmur2 partitioner exactly as the Java producer does "
    "(`toPositive(murmur2(keyBytes)) % n`), vectorised inside Spark with `mapInArrow`. Null keys follow the "
    "producer partitioner you choose. Consumers get partitions from this lab's exact replay of each assignor."
)


# ---------------------------------------------------------------- inputs


def _sample_path(rows: int) -> Path:
    from engine.spark.sample import ensure_sample

    return ensure_sample(DATA_DIR, rows)


def _saved_upload(data: bytes, name: str) -> Path:
    suffix = Path(name).suffix.lower()
    path = DATA_DIR / "uploads" / f"{hashlib.sha256(data).hexdigest()[:16]}{suffix}"
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(path.name + ".tmp")
        temp.write_bytes(data)
        temp.replace(path)
    return path


source = st.radio("Data", ["Bundled sample", "Upload a file"], horizontal=True, key="load.source",
                  help="The sample is generated on first use into .data/ (Zipf-skewed keys, a daily rate curve, "
                       "log-normal value sizes, 1% null keys).")
input_path: Path | None = None
input_error: str | None = None
if source == "Bundled sample":
    rows = st.select_slider("Sample rows", options=SAMPLE_SIZES, value=SAMPLE_SIZES[0], key="load.sample_rows",
                            format_func=lambda n: f"{n:,}")
    key_default, size_default, ts_default = "key", "value_size", "timestamp"
else:
    upload = st.file_uploader(f"Topic export: CSV (with header), Parquet or JSON lines — up to {MAX_UPLOAD_MB} MB",
                              type=list(UPLOAD_TYPES), key="load.upload")
    key_default, size_default, ts_default = "key", "", ""
    if upload is not None:
        data = upload.getvalue()
        if len(data) > MAX_UPLOAD_MB * 2**20:
            input_error = f"upload: larger than the {MAX_UPLOAD_MB} MB limit ({len(data) / 2**20:,.0f} MB)"
        elif not data:
            input_error = "upload: the file is empty"
        else:
            input_path = _saved_upload(data, upload.name)
    if input_error:
        st.error(input_error)

c1, c2, c3 = st.columns(3)
key_column = c1.text_input("Key column", key_default, key="load.key_column", max_chars=200)
size_column = c2.text_input("Value-size column (optional)", size_default, key="load.size_column", max_chars=200)
ts_column = c3.text_input("Timestamp column (optional)", ts_default, key="load.ts_column", max_chars=200,
                          help="timestamp, epoch milliseconds, or ISO-8601 text; needed for peak rates")

c1, c2, c3 = st.columns(3)
partitions_text = c1.text_input("Partition counts", "6,12,24", key="load.partitions",
                                help="1..8 counts, each 1..100,000, comma-separated")
consumers_text = c2.text_input("Consumer counts", "2,3,4,6", key="load.consumers",
                               help="1..8 counts, each 1..1,000, comma-separated; members C0.. subscribe to the topic")
window = c3.selectbox("Peak window", WINDOWS, index=2, key="load.window",
                      help="peaks are the busiest window's count divided by its length")
c1, c2, c3 = st.columns(3)
strategies = c1.multiselect("Strategies", STRATEGY_NAMES, default=list(STRATEGY_NAMES), key="load.strategies")
null_keys = c2.selectbox(
    "Null-key records", ("sticky", "round-robin", "drop"), key="load.null_keys",
    help="sticky: Kafka 3.3+ built-in partitioner (switch after batch.size = 16 KB); round-robin: pre-2.4 "
         "DefaultPartitioner; drop: leave them out of the per-partition load",
)
target = c3.number_input("Target: max peak messages/s per consumer", min_value=0.001, value=1.0, step=0.5,
                         key="load.target", format="%.3f")


def _config() -> object:
    from engine.spark.cli import int_list, parse_window, strategy_list
    from engine.spark.io import ColumnSpec, detect_format, precheck
    from engine.spark.job import LoadConfig

    if not key_column.strip():
        raise EngineError("key column: must not be empty")
    if not strategies:
        raise EngineError("strategies: choose at least one")
    path = _sample_path(rows) if source == "Bundled sample" else input_path
    if path is None:
        raise EngineError("upload: choose a file first")
    columns = ColumnSpec(key_column.strip(), size_column.strip() or None, None, ts_column.strip() or None)
    fmt = detect_format(str(path), None)
    precheck(str(path), fmt, columns)
    return LoadConfig(
        input=str(path), partitions=int_list(partitions_text, "partition counts", 1, 100_000), fmt=fmt,
        columns=columns, window_s=parse_window(window), null_keys=null_keys,
        consumers=int_list(consumers_text, "consumer counts", 1, 1_000),
        strategies=strategy_list(",".join(strategies)), topic=None,
    )


@st.cache_resource(show_spinner=False)
def _spark() -> object:
    from engine.spark.session import SessionOptions, get_session

    return get_session(SessionOptions())


def _run(config: object) -> None:
    from engine.spark.job import STEPS, BackgroundRun

    bar = st.progress(0.0, text=STEPS[0])
    spark = _spark()
    run = BackgroundRun(spark, config).start()  # type: ignore[arg-type]
    while not run.done:
        progress = run.progress()
        bar.progress(progress.fraction, text=progress.text())
        time.sleep(0.25)
    run.join()
    bar.empty()
    if run.error is not None:
        raise run.error
    st.session_state["load.result"] = (config, run.result)


if st.button("Run the Spark job", type="primary", key="load.run", disabled=bool(input_error)):
    try:
        _run(_config())
    except EngineError as exc:
        st.error(str(exc))
    except Exception as exc:  # noqa: BLE001 - a Spark failure shown inline, not as a traceback
        from engine.spark.io import short

        st.error(f"Spark job failed: {short(exc)}")

# ---------------------------------------------------------------- results

stored = st.session_state.get("load.result")
if stored is None:
    st.info("Choose the data and counts, then run the job. The first run starts Spark (about 10–30 s).")
    st.stop()

from engine.charts import load as charts
from engine.spark.report import max_consumer_load, recommend

config, result = stored
report = result.report
st.divider()
m1, m2, m3, m4 = st.columns(4)
m1.metric("Records", f"{report['rows']:,}")
m2.metric("Null keys", f"{report['null_keys']:,}")
m3.metric("Partition counts", ", ".join(map(str, config.partitions)))
m4.metric("Time range", "—" if not report["time_range"] else f"{report['time_range'][0][:16]} →")

n_view = st.selectbox("Partition count to show", config.partitions, key="load.view_partitions",
                      index=min(1, len(config.partitions) - 1))
metric = st.radio("Metric", ["messages", "bytes", "peak_messages_per_s", "peak_bytes_per_s"], horizontal=True,
                  key="load.metric", format_func=lambda m: charts.METRIC_LABELS[m])
parts = result.partitions
st.plotly_chart(charts.partition_load_bars(parts, n_view, metric), key="load.partition_chart")

view = parts[parts["num_partitions"] == n_view].copy()
total_messages = max(int(view["messages"].sum()), 1)
view["share_%"] = (100 * view["messages"] / total_messages).round(2)
hot = result.hot_keys
left, right = st.columns(2)
with left:
    st.subheader("Hottest partitions")
    top_key = hot[(hot["num_partitions"] == n_view) & (hot["rank"] == 1)].set_index("partition")["key_text"]
    hottest = view.sort_values("messages", ascending=False).head(5)
    hottest = hottest.assign(top_key=hottest["partition"].map(top_key).fillna(""))
    st.dataframe(hottest[["partition", "messages", "share_%", "bytes", "peak_messages_per_s", "top_key"]],
                 hide_index=True, key="load.hottest_table")
with right:
    st.subheader("Hottest keys")
    if hot.empty:
        st.caption("No keyed records.")
    else:
        st.plotly_chart(charts.hot_keys_bars(hot, n_view), key="load.hot_keys_chart")

st.subheader("Per-consumer load, strategies side by side")
consumers = result.consumers
for strategy, reason in report.get("skipped_strategies", {}).items():
    st.warning(f"{strategy}: {reason}")
if consumers.empty:
    st.caption("No per-consumer load (no strategies ran).")
else:
    c_view = st.selectbox("Consumers", config.consumers, key="load.view_consumers")
    c_metric = "peak_messages_per_s" if report["peaks"] else "messages"
    st.plotly_chart(charts.consumer_load_bars(consumers, n_view, c_view, c_metric,
                                              target if report["peaks"] else None), key="load.consumer_chart")
    worst = max_consumer_load(consumers.to_dict("records"), c_metric)
    table = pd.DataFrame([{"strategy": k[0], "consumers": k[1], "partitions": k[2], "busiest consumer": v}
                          for k, v in worst.items()])
    st.dataframe(table.pivot_table(index=["partitions", "consumers"], columns="strategy",
                                   values="busiest consumer").round(3), key="load.max_table")
    if report["peaks"]:
        st.plotly_chart(charts.max_consumer_lines(consumers, c_metric, target), key="load.max_chart")
        best = recommend(consumers.to_dict("records"), float(target), c_metric)
        if best is not None and best.meets_target:
            st.success("Recommendation: " + best.sentence("peak messages/s"))
        elif best is not None:
            floor = float(parts[parts["num_partitions"] == best.num_partitions]["peak_messages_per_s"].max())
            st.warning("Recommendation: " + best.sentence("peak messages/s") +
                       f". The hottest partition alone peaks at {floor:,.2f} messages/s: more consumers cannot "
                       "split one partition; more partitions or a different key can.")
    else:
        st.caption("No timestamp column: loads are totals, and no peak-based recommendation is made.")

st.subheader("Download")


def _parquet_bytes(frame: pd.DataFrame) -> bytes:
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    return buffer.getvalue()


d1, d2, d3, d4 = st.columns(4)
d1.download_button("Partitions (CSV)", parts.to_csv(index=False), "partitions.csv", "text/csv",
                   key="load.download_partitions_csv")
d2.download_button("Partitions (Parquet)", _parquet_bytes(parts), "partitions.parquet",
                   "application/octet-stream", key="load.download_partitions_parquet")
d3.download_button("Hot keys (CSV)", hot.to_csv(index=False), "hot_keys.csv", "text/csv",
                   key="load.download_hot_keys")
d4.download_button("Consumers (CSV)", consumers.to_csv(index=False), "consumers.csv", "text/csv",
                   key="load.download_consumers", disabled=consumers.empty)
