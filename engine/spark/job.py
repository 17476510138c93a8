"""The load job: read -> transforms -> collect -> write ``summary.json`` + Parquet atomically.

Also the thin ``spark-submit`` entry: ``spark-submit engine/spark/job.py --input ... --partitions 12
--output DIR`` takes the same arguments as ``python -m engine load``.

Output directory (replaced as a whole; a failed run leaves the previous one, or nothing)::

    summary.json        the contract of ../shared/spec/README.md section 8 (keyed records only)
    report.json         run settings, totals, peaks, per-consumer maxima, skipped strategies
    partitions.parquet  per (num_partitions, partition): all records placed there incl. null keys
    hot_keys.parquet    top keys per (num_partitions, partition)
    consumers.parquet   per (strategy, consumers, num_partitions, member)   [with --consumers]
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if __name__ == "__main__" and __package__ in (None, ""):  # spark-submit engine/spark/job.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.scenario import STRATEGIES
from engine.spark.io import ColumnSpec, LoadInputError, atomic_directory, short, write_json

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from pyspark.sql import SparkSession

PARTITION_FIELDS = ("messages", "bytes", "keyed_messages", "keyed_bytes", "null_key_messages",
                    "peak_messages_per_s", "peak_bytes_per_s")
INPUT_ERROR_MARKERS = ("FAILED_READ_FILE", "MALFORMED", "Malformed", "CANNOT_READ", "footer", "not a Parquet",
                       "CORRUPT", "PARSE_SYNTAX", "NumberFormat", "UNRESOLVED_COLUMN")

StageCallback = Callable[[str], None]


@dataclass(frozen=True)
class LoadConfig:
    """Everything one run needs (the CLI flags, validated by ``engine.spark.cli``)."""

    input: str
    partitions: tuple[int, ...]
    fmt: str = "parquet"
    columns: ColumnSpec = field(default_factory=ColumnSpec)
    topic: str | None = None  # keep only this topic's records (needs columns.topic)
    window_s: int = 60
    null_keys: str = "sticky"
    hot_keys: int = 10
    consumers: tuple[int, ...] = ()
    strategies: tuple[str, ...] = STRATEGIES
    seed: int = 0

    @property
    def topic_name(self) -> str:
        return self.topic or "topic"


@dataclass
class LoadResult:
    summary: dict[str, Any]
    report: dict[str, Any]
    partitions: pd.DataFrame
    hot_keys: pd.DataFrame
    consumers: pd.DataFrame


def compute(
    spark: SparkSession, config: LoadConfig, on_stage: StageCallback | None = None
) -> LoadResult:
    """Run the pipeline and collect its (small) results to the driver."""
    from engine.spark import io
    from engine.spark import transforms as tf

    stage = on_stage or (lambda _name: None)
    stage("reading the input")
    raw = io.read_records(spark, config.input, config.fmt, config.columns)
    records = tf.normalize(raw, config.columns, config.topic)
    sizes = config.columns.value_size is not None or config.columns.value is not None
    slim = tf.with_window(records, config.window_s, sizes)
    hashed = tf.with_partitions(slim, config.partitions, config.null_keys, config.seed)
    stage("hashing keys and counting per partition and window")
    windows = tf.partition_windows(hashed, config.partitions).persist()
    try:
        totals = _spark_call(config, lambda: tf.input_totals(records).collect()[0].asDict())
        _check_totals(config, totals)
        load = _spark_call(config, lambda: tf.partition_load(windows, config.window_s).toPandas())
        stage("finding hot keys")
        hot = _spark_call(config, lambda: tf.hot_keys(tf.key_load(records), config.partitions,
                                                       config.hot_keys).toPandas())
        stage("joining with the group's assignments")
        consumers, skipped = _consumers(spark, config, windows)
    finally:
        windows.unpersist()
    return _result(config, totals, load, hot, consumers, skipped)


def _spark_call(config: LoadConfig, action: Callable[[], Any]) -> Any:
    """Run a Spark action; a failure caused by the input's contents becomes ``LoadInputError``."""
    try:
        return action()
    except LoadInputError:
        raise
    except Exception as exc:
        text = str(exc)
        if any(marker in text for marker in INPUT_ERROR_MARKERS):
            raise LoadInputError(f"input {config.input!r}: unreadable {config.fmt} record ({short(exc)})") from None
        raise


def _check_totals(config: LoadConfig, totals: dict[str, Any]) -> None:
    cols = config.columns
    if not totals["rows"]:
        where = f" for topic {config.topic!r}" if config.topic else ""
        raise LoadInputError(f"input {config.input!r}: no records{where}")
    if totals["bad_sizes"]:
        name = cols.value_size or cols.value
        raise LoadInputError(f"value size column {name!r}: {totals['bad_sizes']} values are not integers >= 0")
    if totals["bad_timestamps"]:
        raise LoadInputError(f"timestamp column {cols.timestamp!r}: {totals['bad_timestamps']} values do not parse")


def _consumers(spark: SparkSession, config: LoadConfig, windows: Any) -> tuple[pd.DataFrame, dict[str, str]]:
    import pandas as pd

    from engine.spark import transforms as tf
    from engine.spark.report import consumer_assignments

    if not config.consumers:
        return pd.DataFrame(), {}
    rows, skipped = consumer_assignments(config.topic_name, config.partitions, config.consumers, config.strategies)
    if not rows:
        return pd.DataFrame(), skipped
    assignments = spark.createDataFrame(rows, tf.ASSIGNMENT_SCHEMA)
    return tf.consumer_load(windows, assignments, config.window_s).toPandas(), skipped


def _sorted(frame: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    if frame.empty:
        return frame.reset_index(drop=True)
    return frame.sort_values(by, kind="mergesort").reset_index(drop=True)


def _result(
    config: LoadConfig,
    totals: dict[str, Any],
    load: pd.DataFrame,
    hot: pd.DataFrame,
    consumers: pd.DataFrame,
    skipped: dict[str, str],
) -> LoadResult:
    import pandas as pd

    from engine.spark.report import complete_partitions, max_consumer_load, summary_document

    load = load.assign(null_key_messages=load["messages"] - load["keyed_messages"]) if not load.empty else load
    per_count = complete_partitions(load.to_dict("records"), config.partitions, PARTITION_FIELDS)
    partitions = pd.DataFrame(
        [{"num_partitions": n, **row} for n, rows in per_count.items() for row in rows]
    )
    consumers = _sorted(consumers, ["strategy", "consumers", "num_partitions", "member"])
    if not consumers.empty:
        order = {s: i for i, s in enumerate(config.strategies)}
        consumers = consumers.sort_values(
            ["strategy", "consumers", "num_partitions", "member"],
            key=lambda col: col.map(order) if col.name == "strategy" else col, kind="mergesort",
        ).reset_index(drop=True)
    hot = _sorted(hot, ["num_partitions", "partition", "rank"])
    summary = summary_document(totals["rows"], totals["null_keys"], per_count)
    timed = totals["first_ts"] is not None
    report = {
        "config": _config_json(config),
        "rows": int(totals["rows"]),
        "null_keys": int(totals["null_keys"]),
        "time_range": [str(totals["first_ts"]), str(totals["last_ts"])] if timed else None,
        "peaks": timed,
        "max_consumer_peak_messages_per_s": [
            {"strategy": k[0], "consumers": k[1], "num_partitions": k[2], "value": v}
            for k, v in max_consumer_load(consumers.to_dict("records")).items()
        ] if timed and not consumers.empty else [],
        "skipped_strategies": skipped,
    }
    return LoadResult(summary, report, partitions, hot, consumers)


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
        (on_stage or (lambda _n: None))("writing the output")
        write(result, output)
    return result


@dataclass(frozen=True)
class Progress:
    """What a background run is doing: the pipeline step and Spark's task counts for its jobs."""

    step: str
    step_index: int
    steps: int
    tasks_done: int
    tasks_total: int
    active_stages: tuple[str, ...]
    minimum: float = 0.0  # the last fraction shown: new stages must not move the bar backwards

    @property
    def fraction(self) -> float:
        stage_share = self.tasks_done / self.tasks_total if self.tasks_total else 0.0
        return max(self.minimum, min(1.0, (self.step_index + min(stage_share, 0.99)) / self.steps))

    def text(self) -> str:
        tasks = f" · Spark tasks {self.tasks_done}/{self.tasks_total}" if self.tasks_total else ""
        stages = f" · {', '.join(self.active_stages)}" if self.active_stages else ""
        return f"{self.step}{tasks}{stages}"


STEPS = ("starting Spark", "reading the input", "hashing keys and counting per partition and window",
         "finding hot keys", "joining with the group's assignments", "writing the output")


class BackgroundRun:
    """``compute`` (and optionally ``write``) in a thread; ``progress()`` polls Spark's statusTracker.

    Under Spark Connect there is no statusTracker; progress then shows the pipeline step only.
    """

    def __init__(self, spark: SparkSession, config: LoadConfig, output: str | None = None) -> None:
        import threading
        import uuid

        self.spark, self.config, self.output = spark, config, output
        self.group = f"kpl-load-{uuid.uuid4().hex[:8]}"
        self.step = STEPS[1]
        self._shown = 0.0
        self.result: LoadResult | None = None
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._work, name=self.group, daemon=True)

    def start(self) -> BackgroundRun:
        self._thread.start()
        return self

    @property
    def done(self) -> bool:
        return not self._thread.is_alive()

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    def _on_stage(self, name: str) -> None:
        self.step = name

    def _work(self) -> None:
        from engine.spark.session import spark_context_or_none

        try:
            context = spark_context_or_none(self.spark)
            if context is not None:
                context.setJobGroup(self.group, "Kafka Partition Lab load", interruptOnCancel=True)  # type: ignore[attr-defined]
            self.result = run(self.spark, self.config, self.output, self._on_stage)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            self.error = exc

    def cancel(self) -> None:
        from engine.spark.session import spark_context_or_none

        context = spark_context_or_none(self.spark)
        if context is not None:
            context.cancelJobGroup(self.group)  # type: ignore[attr-defined]

    def progress(self) -> Progress:
        from engine.spark.session import spark_context_or_none

        done = total = 0
        active: list[str] = []
        context = spark_context_or_none(self.spark)
        if context is not None:
            tracker = context.statusTracker()  # type: ignore[attr-defined]
            for job_id in tracker.getJobIdsForGroup(self.group):
                info = tracker.getJobInfo(job_id)
                for stage_id in info.stageIds if info else ():
                    stage = tracker.getStageInfo(stage_id)
                    if stage is None:
                        continue
                    done += stage.numCompletedTasks
                    total += stage.numTasks
                    if stage.numActiveTasks:
                        active.append(f"stage {stage_id}: {stage.numCompletedTasks}/{stage.numTasks} tasks")
        index = STEPS.index(self.step) if self.step in STEPS else 1
        progress = Progress(self.step, index, len(STEPS), done, total, tuple(active[:3]), self._shown)
        self._shown = progress.fraction
        return progress


if __name__ == "__main__":
    from engine.spark.cli import main

    sys.exit(main(sys.argv[1:]))
