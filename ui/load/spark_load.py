"""The Load page's Streamlit glue: widgets -> ``LoadConfig``, the run's estimate through the page's door
(``ui.frame.door.admit``: over the dashboard's ceiling, one line and nothing starts), Spark started with visible
progress, results.

Settings are validated by ``engine.spark.config`` (the same parsers as ``python -m engine load``).
Spark starts once per dashboard process in a background thread (``engine.spark.session.SessionStarter``), so
the first run shows "starting Spark (first run only)" with the seconds elapsed instead of a frozen page.

Example (the startup bar's text and fill after 15 s of an expected 60 s first start, the first of 6 steps)::

    >>> startup_progress(15.0)
    (0.041666666666666664, 'starting Spark (first run only) · 15 s')
"""

from __future__ import annotations

import hashlib
import io
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from engine.common.config_def import LONG_MAX
from engine.consumer.strategies import STRATEGY_NAMES
from engine.cost import Estimate, estimate_load
from engine.errors import EngineError
from engine.spark.config import NULL_KEY_MODES, ColumnSpec, LoadConfig, build_config
from ui.frame.door import admit, refusal
from ui.inputs.numbers import decimal_input
from ui.load.cached import spark_starter
from ui.text.i18n import DEFAULT_LANGUAGE, _, current_language, tr

DATA_DIR = Path(__file__).resolve().parents[2] / ".data"
MAX_UPLOAD_MB = 200
SAMPLE_SIZES = (10_000, 100_000, 1_000_000)
WINDOWS = ("1s", "10s", "60s", "5m")
UPLOAD_TYPES = ("csv", "parquet", "json", "jsonl")
FIRST_START_S = 60.0  # a first Spark start measured on a 2-core machine (62 s)
RESULT_KEY, TARGET_KEY, STARTED_KEY = "load.result", "load.target", "load.spark_started_s"
STARTING = "starting Spark (first run only)"


# ---------------------------------------------------------------- inputs


@dataclass(frozen=True)
class Source:
    path: Path | None
    error: str | None
    sample_rows: int = 0  # the bundled sample of that many rows (generated when the job runs)


def choose_source() -> Source:
    """The bundled sample (generated on first use) or an upload saved under ``.data/uploads``."""
    kinds = {"Bundled sample": _("Bundled sample"), "Upload a file": _("Upload a file")}  # values stay English
    kind = st.radio(_("Data"), list(kinds), horizontal=True, key="load.source", format_func=kinds.__getitem__,
                    help=_("The sample is generated on first use into .data/ (Zipf-skewed keys, a daily rate "
                           "curve, log-normal value sizes, 1% null keys)."))
    if kind == "Bundled sample":
        rows = st.select_slider(_("Sample rows"), options=SAMPLE_SIZES, value=SAMPLE_SIZES[0],
                                key="load.sample_rows", format_func=lambda n: f"{n:,}")
        return Source(None, None, int(rows))
    upload = st.file_uploader(_("Topic export: CSV (with header), Parquet or JSON lines, up to {mb} MB").format(
        mb=MAX_UPLOAD_MB), type=list(UPLOAD_TYPES), key="load.upload")
    if upload is None:
        return Source(None, None)
    return upload_source(upload.getvalue(), upload.name)


def upload_source(data: bytes, name: str) -> Source:
    """An uploaded file saved under ``.data/uploads`` (named by its content's hash and its known suffix), or
    the one-line reason it is refused: size, emptiness, a name that is not ``*.csv``/``*.parquet``/``*.json``/
    ``*.jsonl`` (a NUL byte or a 300-character suffix in the name included)."""
    if len(data) > MAX_UPLOAD_MB * 2**20:
        return Source(None, _("upload: larger than the {limit} MB limit ({size} MB)").format(
            limit=MAX_UPLOAD_MB, size=f"{len(data) / 2**20:,.0f}"))
    if not data:
        return Source(None, _("upload: the file is empty"))
    suffix = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if suffix not in UPLOAD_TYPES or "\x00" in name:
        shown = repr(name if len(name) <= 60 else name[:40] + "…" + name[-10:])
        return Source(None, _("upload: the file name {name} does not end in {types}").format(
            name=shown, types=", ".join(f".{t}" for t in UPLOAD_TYPES)))
    return Source(_saved_upload(data, suffix), None)


def _saved_upload(data: bytes, suffix: str) -> Path:
    path = DATA_DIR / "uploads" / f"{hashlib.sha256(data).hexdigest()[:16]}.{suffix}"
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(path.name + ".tmp")
        temp.write_bytes(data)
        temp.replace(path)
    return path


def settings(source: Source) -> dict[str, Any]:
    """The run's settings as typed (validated later by ``build``)."""
    sample = bool(source.sample_rows)
    c1, c2, c3 = st.columns(3)
    key = c1.text_input(_("Key column"), "key", key="load.key_column", max_chars=200)
    size = c2.text_input(_("Value-size column (optional)"), "value_size" if sample else "", key="load.size_column",
                         max_chars=200)
    ts = c3.text_input(_("Timestamp column (optional)"), "timestamp" if sample else "", key="load.ts_column",
                       max_chars=200,
                       help=_("timestamp, epoch milliseconds, or ISO-8601 text; needed for peak rates"))
    c1, c2, c3 = st.columns(3)
    partitions = c1.text_input(_("Partition counts"), "6,12,24", key="load.partitions",
                               help=_("1..8 counts, each 1..100,000, comma-separated"))
    consumers = c2.text_input(_("Consumer counts"), "2,3,4,6", key="load.consumers",
                              help=_("1..8 counts, each 1..1,000; members C0.. subscribe to the topic"))
    window = c3.selectbox(_("Peak window"), WINDOWS, index=2, key="load.window",
                          help=_("peaks are the busiest window's count divided by its length"))
    c1, c2 = st.columns(2)
    strategies = c1.multiselect(_("Strategies"), STRATEGY_NAMES, default=list(STRATEGY_NAMES), key="load.strategies")
    modes = {mode: tr(mode) for mode in NULL_KEY_MODES}  # the values stay as they are
    null_keys = c2.selectbox(_("Null-key records"), NULL_KEY_MODES, key="load.null_keys", format_func=modes.__getitem__,
                             help=_("sticky: Kafka 3.3+ built-in partitioner (switch after batch.size = 16 KB); "
                                    "round-robin: pre-2.4 DefaultPartitioner; drop: leave them out"))
    return {"key": key, "size": size, "ts": ts, "partitions": partitions, "consumers": consumers,
            "window": window, "strategies": strategies, "null_keys": null_keys}


def build(source: Source, chosen: dict[str, Any]) -> LoadConfig:
    """``LoadConfig`` from the page's settings (``engine.spark.config``'s parsers), input checked on disk."""
    from engine.spark.io import precheck

    if not chosen["strategies"]:
        raise EngineError(_("strategies: choose at least one"))
    if source.sample_rows:
        from engine.spark.sample import ensure_sample

        source = Source(ensure_sample(DATA_DIR, source.sample_rows), None)
    if source.path is None:
        raise EngineError(source.error or _("upload: choose a file first"))
    columns = ColumnSpec(chosen["key"].strip(), chosen["size"].strip() or None, None, chosen["ts"].strip() or None)
    config = build_config(str(source.path), chosen["partitions"], columns=columns, window=chosen["window"],
                          null_keys=chosen["null_keys"], consumers=chosen["consumers"],
                          strategies=",".join(chosen["strategies"]))
    precheck(config.input, config.fmt, config.columns)
    return config


# ---------------------------------------------------------------- Spark, with progress


def startup_progress(elapsed: float) -> tuple[float, str]:
    """(bar fill, text) while Spark starts: the first of the run's steps fills over ``FIRST_START_S``."""
    from engine.spark.job import STEPS

    share = min(elapsed / FIRST_START_S, 0.95) / len(STEPS)
    return share, f"{STARTING} · {elapsed:.0f} s"


def spark_session(bar: Any) -> Any:
    """The shared SparkSession; while it starts, ``bar`` shows the step and the seconds elapsed."""
    starter = spark_starter()
    waited = not starter.done
    while not starter.done:
        fill, text = startup_progress(time.monotonic() - starter.began)
        bar.progress(fill, text=tr(text))
        time.sleep(0.25)
    if starter.error is not None:
        spark_starter.clear()  # the next run tries again
        raise starter.error
    if waited:
        st.session_state[STARTED_KEY] = starter.seconds
    return starter.session


def progress_text(progress: Any) -> str:
    """``Progress.text()`` in the session's language: the step, Spark's task counts, the active stages."""
    text = tr(progress.step)
    if progress.tasks_total:
        text += " · " + _("Spark tasks {done}/{total}").format(done=progress.tasks_done, total=progress.tasks_total)
    if progress.active_stages:
        text += " · " + ", ".join(tr(stage) for stage in progress.active_stages)
    return text


def run(config: LoadConfig) -> None:
    """Run the job in the background with a progress bar; the result goes to the session state."""
    from engine.spark.progress import BackgroundRun

    bar = st.progress(0.0, text=tr(STARTING))
    job = BackgroundRun(spark_session(bar), config).start()
    while not job.done:
        progress = job.progress()
        bar.progress(progress.fraction, text=progress_text(progress))
        time.sleep(0.25)
    job.join()
    bar.empty()
    if job.error is not None:
        raise job.error
    st.session_state[RESULT_KEY] = (config, job.result)
    st.session_state.pop(TARGET_KEY, None)  # a new run: the target's default comes from its data


def load_estimate(config: LoadConfig) -> Estimate:
    """The run's estimate (``engine.cost.estimate_load``), from its input's size before Spark is asked for
    anything.  Spark's own start is not counted: it happens once per server, whatever the input, and its
    progress is shown."""
    from engine.spark.io import input_bytes

    return estimate_load(input_bytes(config.input), config.fmt, config.partitions, len(config.consumers),
                         len(config.strategies), start=False)


def run_button(source: Source, chosen: dict[str, Any]) -> None:
    if st.button(_("Run the Spark job"), type="primary", key="load.run", disabled=bool(source.error)):
        try:
            config = build(source, chosen)
            admit(load_estimate(config))  # the door: refused in one line before Spark starts
            run(config)
        except EngineError as exc:
            refusal(str(exc))
        except Exception as exc:  # noqa: BLE001 - a Spark failure shown inline, not as a traceback
            from engine.spark.io import short

            st.error(_("Spark job failed: {error}").format(error=tr(short(exc))))
    started = st.session_state.get(STARTED_KEY)
    if started is not None:
        st.caption(_("Spark started in {seconds} s (first run only; later runs reuse it).").format(
            seconds=f"{started:.0f}"))


# ---------------------------------------------------------------- results


def target_input(config: LoadConfig, report: dict[str, Any]) -> float:
    """The per-consumer target, defaulting to the topic's peak split over the smallest group."""
    from engine.spark.report import default_target

    default = default_target(report.get("topic_peak_messages_per_s"), config.consumers) or 1.0
    peak = report.get("topic_peak_messages_per_s") or 0.0
    values = {"default": f"{default:,.3f}", "peak": f"{peak:,.2f}", "consumers": min(config.consumers)}
    value = decimal_input(
        _("Target: the peak messages/s one consumer can sustain"), 0.001, float(LONG_MAX), default, TARGET_KEY,
        help=_("Default {default}: the topic's peak ({peak} messages/s in the busiest window) split evenly over the "
               "smallest group ({consumers} consumers). Set it to what one consumer of yours processes per "
               "second.").format(**values))
    st.caption(_("The target is what one consumer can process per second. The default ({default}) is the topic's "
                 "peak of {peak} messages/s split over {consumers} consumers: a perfectly balanced group of that "
                 "size just meets it, so the recommendation shows what skew costs.").format(**values))
    return value


def hottest_partitions(parts: pd.DataFrame, hot: pd.DataFrame, n: int) -> pd.DataFrame:
    view = parts[parts["num_partitions"] == n]
    view = view.assign(share_pct=(100 * view["messages"] / max(int(view["messages"].sum()), 1)).round(2))
    top_key = hot[(hot["num_partitions"] == n) & (hot["rank"] == 1)].set_index("partition")["key_text"]
    hottest = view.sort_values("messages", ascending=False).head(5)
    hottest = hottest.assign(top_key=hottest["partition"].map(top_key).fillna(""))
    return hottest[["partition", "messages", "share_pct", "bytes", "peak_messages_per_s", "top_key"]]


def recommendation(consumers: pd.DataFrame, parts: pd.DataFrame, target: float, metric: str) -> None:
    from engine.spark.report import recommend, significant

    best = recommend(consumers.to_dict("records"), target, metric)
    if best is None:
        return
    values = {"partitions": best.num_partitions, "consumers": best.consumers, "strategy": " = ".join(best.ties),
              "load": significant(best.max_load), "target": significant(best.target)}  # Recommendation.sentence's
    if best.meets_target:
        st.success(_("Recommendation: {partitions} partitions with {consumers} consumers ({strategy}) keeps the "
                     "busiest consumer at {load} peak messages/s against a target of {target}").format(**values))
    else:
        floor = float(parts[parts["num_partitions"] == best.num_partitions]["peak_messages_per_s"].max())
        st.warning(_("Recommendation: {partitions} partitions with {consumers} consumers ({strategy}) cannot keep "
                     "(closest option) the busiest consumer at {load} peak messages/s against a target of "
                     "{target}. The hottest partition alone peaks at {floor} messages/s: more consumers cannot "
                     "split one partition; more partitions or a different key can.").format(
            floor=significant(floor), **values))
    if len(best.ties) > 1:
        st.caption(_("{n} strategies tie here ({names}): each keeps the busiest consumer at the same load, so "
                     "choose among them on what else they do (stickiness, cooperative rebalancing).").format(
            n=len(best.ties), names=", ".join(best.ties)))


def busiest_table(consumers: pd.DataFrame, metric: str) -> pd.DataFrame:
    from engine.spark.report import max_consumer_load

    worst = max_consumer_load(consumers.to_dict("records"), metric)
    table = pd.DataFrame([{"strategy": k[0], "consumers": k[1], "partitions": k[2], "busiest consumer": v}
                          for k, v in worst.items()])
    pivot = table.pivot_table(index=["partitions", "consumers"], columns="strategy",
                              values="busiest consumer").round(3)
    return pivot.rename_axis(index=[tr("partitions"), tr("consumers")])  # index headers: no hook renames them


def downloads(parts: pd.DataFrame, hot: pd.DataFrame, consumers: pd.DataFrame) -> None:
    buffer = io.BytesIO()
    parts.to_parquet(buffer, index=False)
    d1, d2, d3, d4 = st.columns(4)
    d1.download_button(_("Partitions (CSV)"), parts.to_csv(index=False), "partitions.csv", "text/csv",
                       key="load.download_partitions_csv")
    d2.download_button(_("Partitions (Parquet)"), buffer.getvalue(), "partitions.parquet", "application/octet-stream",
                       key="load.download_partitions_parquet")
    d3.download_button(_("Hot keys (CSV)"), hot.to_csv(index=False), "hot_keys.csv", "text/csv",
                       key="load.download_hot_keys")
    d4.download_button(_("Consumers (CSV)"), consumers.to_csv(index=False), "consumers.csv", "text/csv",
                       key="load.download_consumers", disabled=consumers.empty)


_PARTITIONS = re.compile(r"(%\{customdata\}|\d+) partitions")
_CONSUMERS = re.compile(r"(\d+) consumers")


def in_language(fig: Any) -> Any:
    """A load figure's hover templates and "3 consumers" category labels in the session's language (the chart
    hook translates titles, axes, legends and whole texts; these carry numbers inside)."""
    if current_language() == DEFAULT_LANGUAGE:
        return fig
    partitions = lambda m: _("{n} partitions").format(n=m.group(1))  # noqa: E731
    for trace in fig.data:
        if trace.hovertemplate:
            trace.hovertemplate = _PARTITIONS.sub(partitions, trace.hovertemplate)
        if trace.x is not None and len(trace.x) and all(isinstance(x, str) and _CONSUMERS.fullmatch(x)
                                                         for x in trace.x):
            trace.x = [_("{n} consumers").format(n=m.group(1)) for x in trace.x if (m := _CONSUMERS.fullmatch(x))]
    return fig
