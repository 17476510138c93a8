"""The load job: one scan -> transforms -> collect -> write ``summary.json`` + Parquet atomically.

The input is read once: ``transforms.record_groups`` aggregates it into (key, window) groups (and
null-key runs), ``transforms.with_partitions`` places every group's key once, and that result is
cached; every figure below is derived from it.

Output directory (replaced as a whole; a failed run leaves the previous one, or nothing)::

    summary.json        the contract of ../shared/spec/README.md section 8 (keyed records only)
    report.json         run settings, totals, peaks, per-consumer maxima, skipped strategies
    partitions.parquet  per (num_partitions, partition): all records placed there incl. null keys
    hot_keys.parquet    top keys per (num_partitions, partition)
    consumers.parquet   per (strategy, consumers, num_partitions, member)   [with --consumers]

The same input gives byte-identical files at any parallelism, on any cluster (null keys follow
``engine.spark.null_keys``, a model independent of Spark's split).  ``spark-submit`` runs it through
``engine/spark/submit.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.spark.config import LoadConfig, LoadInputError
from engine.spark.io import atomic_directory, input_error, write_json

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from pyspark.sql import DataFrame, SparkSession

PARTITION_FIELDS = ("messages", "bytes", "keyed_messages", "keyed_bytes", "null_key_messages",
                    "peak_messages_per_s", "peak_bytes_per_s")
INPUT_ERROR_MARKERS = ("FAILED_READ_FILE", "MALFORMED", "Malformed", "CANNOT_READ", "footer", "not a Parquet",
                       "CORRUPT", "PARSE_SYNTAX", "NumberFormat", "UNRESOLVED_COLUMN")
STEPS = ("starting Spark", "reading and hashing the input (one scan)", "counting per partition and window",
         "finding hot keys", "joining with the group's assignments", "writing the output")

StageCallback = Callable[[str], None]


@dataclass
class LoadResult:
    summary: dict[str, Any]
    report: dict[str, Any]
    partitions: pd.DataFrame
    hot_keys: pd.DataFrame
    consumers: pd.DataFrame


def compute(spark: SparkSession, config: LoadConfig, on_stage: StageCallback | None = None) -> LoadResult:
    """Run the pipeline and collect its (small) results to the driver."""
    from engine.spark import io
    from engine.spark import transforms as tf

    stage = on_stage or (lambda _name: None)
    stage(STEPS[1])
    raw = io.read_records(spark, config.input, config.fmt, config.columns)
    groups = tf.record_groups(tf.normalize(raw, config.columns, config.topic), config.window_s)
    placed = tf.with_partitions(groups, config.partitions).persist()
    windows: DataFrame | None = None
    try:
        totals = _spark_call(config, lambda: tf.input_totals(placed).collect()[0].asDict())
        _check_totals(config, totals, raw)
        stage(STEPS[2])
        windows = _windows(placed, config).persist()
        load = _spark_call(config, lambda: _to_pandas(tf.partition_load(windows, config.window_s)))
        peak = tf.topic_peak(windows, config.partitions[0], config.window_s)
        totals["topic_peak_messages_per_s"] = float(_spark_call(config, lambda: peak.collect()[0][0]))
        stage(STEPS[3])
        keyed = placed.where(placed["key"].isNotNull())
        per_key = tf.key_load(keyed, config.partitions)
        hot = _spark_call(config, lambda: _to_pandas(tf.hot_keys(per_key, config.partitions, config.hot_keys)))
        stage(STEPS[4])
        consumers, skipped = _consumers(spark, config, windows)
    finally:
        placed.unpersist()
        if windows is not None:
            windows.unpersist()
    return _result(config, totals, load, hot, consumers, skipped)


def _windows(placed: DataFrame, config: LoadConfig) -> DataFrame:
    from engine.spark import transforms as tf

    keyed = tf.keyed_windows(placed.where(placed["key"].isNotNull()), config.partitions)
    nulls = None
    if config.null_keys != "drop":
        nulls = tf.null_key_windows(placed, config.partitions, config.null_keys, config.producers,
                                    config.seed)
    return tf.partition_windows(keyed, nulls)


def _to_pandas(frame: DataFrame) -> pd.DataFrame:
    """``toPandas`` without ``attrs``: Spark Connect stores its plan metrics there (``PlanMetrics``
    objects), which pyarrow cannot put into a Parquet file's metadata; the results carry data only."""
    import pandas as pd

    result = pd.DataFrame(frame.toPandas())  # pyspark types it as "PandasDataFrameLike"
    result.attrs.clear()
    return result


def _spark_call(config: LoadConfig, action: Callable[[], Any]) -> Any:
    """Run a Spark action; a failure caused by the input's contents becomes ``LoadInputError``."""
    try:
        return action()
    except LoadInputError:
        raise
    except Exception as exc:
        if any(marker in str(exc) for marker in INPUT_ERROR_MARKERS):
            raise input_error(config.input, config.fmt, exc) from None
        raise


def _check_totals(config: LoadConfig, totals: dict[str, Any], raw: DataFrame) -> None:
    cols = config.columns
    if not totals["rows"]:
        where = f" for topic {config.topic!r}" if config.topic else ""
        raise LoadInputError(f"input {config.input!r}: no records{where}")
    if totals["bad_sizes"]:
        name = cols.value_size or cols.value
        raise LoadInputError(f"value size column {name!r}: {totals['bad_sizes']:,} values are not "
                             f"integers >= 0{_first_bad(config, raw, 'size')}")
    if totals["bad_timestamps"]:
        first = _first_bad(config, raw, "timestamp")
        bad = totals["bad_timestamps"]
        raise LoadInputError(f"timestamp column {cols.timestamp!r}: {bad:,} values do not parse as epoch "
                             f"{cols.timestamp_unit} or ISO-8601{first}")


def _first_bad(config: LoadConfig, raw: DataFrame, role: str) -> str:
    """`` (first: '<value>', <file> line <n>)`` — the error path only: one more small query."""
    from engine.spark import transforms as tf
    from engine.spark.diagnose import value_line
    from engine.spark.io import scheme

    row = tf.first_bad(raw, config.columns, config.topic, role).collect()
    if not row:
        return ""
    value = row[0]["value"]
    shown = repr(value) if value is None or len(value) <= 40 else f"{value[:40]!r}... ({len(value):,} chars)"
    column = config.columns.value_size if role == "size" else config.columns.timestamp
    local = config.fmt != "parquet" and scheme(config.input) in (None, "file") and bool(column)
    where = value_line(config.input, config.fmt, str(column), value) if local and value is not None else None
    return f" (first: {shown}{', ' + where if where else ''})"


def _consumers(spark: SparkSession, config: LoadConfig, windows: Any) -> tuple[pd.DataFrame, dict[str, str]]:
    import pandas as pd

    from engine.spark import transforms as tf
    from engine.spark.report import consumer_assignments

    if not config.consumers:
        return pd.DataFrame(), {}
    rows, skipped = consumer_assignments(config.topic_name, config.partitions, config.consumers,
                                         config.strategies)
    if not rows:
        return pd.DataFrame(), skipped
    assignments = spark.createDataFrame(rows, tf.ASSIGNMENT_SCHEMA)
    return _to_pandas(tf.consumer_load(windows, assignments, config.window_s)), skipped


def _sorted(frame: pd.DataFrame, by: list[str], order: dict[str, int] | None = None) -> pd.DataFrame:
    if frame.empty:
        return frame.reset_index(drop=True)
    rank = (lambda col: col.map(order) if col.name == "strategy" else col) if order else None
    return frame.sort_values(by, key=rank, kind="mergesort").reset_index(drop=True)


def _result(
    config: LoadConfig,
    totals: dict[str, Any],
    load: pd.DataFrame,
    hot: pd.DataFrame,
    consumers: pd.DataFrame,
    skipped: dict[str, str],
) -> LoadResult:
    import pandas as pd

    from engine.spark.report import complete_partitions, summary_document

    if not load.empty:
        load = load.assign(null_key_messages=load["messages"] - load["keyed_messages"])
    per_count = complete_partitions(load.to_dict("records"), config.partitions, PARTITION_FIELDS)
    partitions = pd.DataFrame([{"num_partitions": n, **row} for n, rows in per_count.items() for row in rows])
    order = {s: i for i, s in enumerate(config.strategies)}
    consumers = _sorted(consumers, ["strategy", "consumers", "num_partitions", "member"], order)
    hot = _sorted(hot, ["num_partitions", "partition", "rank"])
    summary = summary_document(totals["rows"], totals["null_keys"], per_count)
    return LoadResult(summary, _report(config, totals, consumers, skipped), partitions, hot, consumers)


def _report(config: LoadConfig, totals: dict[str, Any], consumers: pd.DataFrame,
            skipped: dict[str, str]) -> dict[str, Any]:
    from engine.spark.report import max_consumer_load

    timed = totals["first_ts"] is not None
    return {
        "config": _config_json(config),
        "rows": int(totals["rows"]),
        "null_keys": int(totals["null_keys"]),
        "null_key_model": {"mode": config.null_keys, "producers": config.producers, "seed": config.seed},
        "time_range": [str(totals["first_ts"]), str(totals["last_ts"])] if timed else None,
        "peaks": timed,
        "topic_peak_messages_per_s": totals["topic_peak_messages_per_s"] if timed else None,
        "max_consumer_peak_messages_per_s": [
            {"strategy": k[0], "consumers": k[1], "num_partitions": k[2], "value": v}
            for k, v in max_consumer_load(consumers.to_dict("records")).items()
        ] if timed and not consumers.empty else [],
        "skipped_strategies": skipped,
    }


def _config_json(config: LoadConfig) -> dict[str, Any]:
    out = asdict(config)
    out["columns"] = asdict(config.columns)
    out["partitions"] = list(config.partitions)
    out["consumers"] = list(config.consumers)
    out["strategies"] = list(config.strategies)
    return out


def write(result: LoadResult, output: str) -> Path:
    """Write everything to a temporary sibling directory, then rename it over ``output``."""
    with atomic_directory(output) as temp:
        write_json(temp / "summary.json", result.summary)
        write_json(temp / "report.json", result.report)
        write_parquet(temp / "partitions.parquet", result.partitions)
        write_parquet(temp / "hot_keys.parquet", result.hot_keys)
        if not result.consumers.empty:
            write_parquet(temp / "consumers.parquet", result.consumers)
    return Path(output)


def write_parquet(path: Path, frame: pd.DataFrame) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), path)


def run(
    spark: SparkSession,
    config: LoadConfig,
    output: str | None,
    on_stage: StageCallback | None = None,
) -> LoadResult:
    """``compute`` then (if ``output``) ``write``; the output directory is checked before any work."""
    from engine.spark.io import check_output

    if output is not None:
        check_output(output)
    result = compute(spark, config, on_stage)
    if output is not None:
        (on_stage or (lambda _n: None))(STEPS[5])
        write(result, output)
    return result
