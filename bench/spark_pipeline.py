"""The load job against the same job on Spark's native hash (two ratios, and rows/s).

1. **Whole job**: ``engine.spark.job.compute`` (12 and 24 partitions, 3/4/6 consumers x every
   strategy, 60 s windows, sticky null keys) on a generated Parquet sample, against the *same* job
   with the key -> partition step swapped for Spark's native ``pmod(hash(key), n)`` (Murmur3 in the
   JVM, no Python).  Target: within 2x.
2. **Key -> partition stage**: ``transforms.with_partitions`` (Kafka's murmur2 in an Arrow UDF) over
   the key column into Spark's ``noop`` sink, against ``pmod(hash(key), n)`` the same way.  Target:
   within 2.5x.

Same session, same file, one warm-up each; each figure is the best of ``--repeat`` runs::

    .venv/bin/python -m bench spark_pipeline                  # 10 M rows, local[2]
    .venv/bin/python -m bench spark_pipeline --rows 2e6 --repeat 1
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DATA_DIR = Path(__file__).resolve().parents[1] / ".data"
COUNTS = (12, 24)
JOB_TARGET, STAGE_TARGET = 2.0, 2.5


def _timed(action: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def native_partitions(df: Any, counts: Sequence[int]) -> Any:
    """``with_partitions`` with Spark's own hash: ``p<n> = pmod(hash(key), n)`` (-1 for a null key)."""
    from pyspark.sql import functions as F

    from engine.spark.transforms import partition_column

    parts = [F.when(F.col("key").isNull(), F.lit(-1)).otherwise(F.pmod(F.hash("key"), F.lit(n))).cast("int")
             .alias(partition_column(n)) for n in counts]
    return df.select(*df.columns, *parts)


@contextlib.contextmanager
def native_hash() -> Iterator[None]:
    """The job's key -> partition step replaced by ``native_partitions`` (everything else unchanged)."""
    from engine.spark import transforms

    saved = transforms.with_partitions
    transforms.with_partitions = native_partitions
    try:
        yield
    finally:
        transforms.with_partitions = saved


def measure(master: str, path: Path, repeat: int) -> dict[str, float]:
    from engine.spark import job
    from engine.spark import transforms as tf
    from engine.spark.config import ColumnSpec, build_config
    from engine.spark.session import SessionOptions, get_session

    spark = get_session(SessionOptions(master=master))
    config = build_config(str(path), ",".join(map(str, COUNTS)), consumers="3,4,6",
                          columns=ColumnSpec(value_size="value_size", timestamp="timestamp"))
    keys = spark.read.parquet(str(path)).select("key")

    def sink(frame: Any) -> None:
        frame.write.format("noop").mode("overwrite").save()

    def whole() -> None:
        job.compute(spark, config)

    def whole_native() -> None:
        with native_hash():
            job.compute(spark, config)

    sink(tf.with_partitions(keys, COUNTS))  # warm-up: Python workers, numba's compiled kernel, file cache
    sink(native_partitions(keys, COUNTS))
    return {
        "stage_s": _timed(lambda: sink(tf.with_partitions(keys, COUNTS)), repeat),
        "stage_native_s": _timed(lambda: sink(native_partitions(keys, COUNTS)), repeat),
        "job_s": _timed(whole, repeat),
        "job_native_s": _timed(whole_native, repeat),
    }


def table(rows: int, master: str, r: dict[str, float]) -> str:
    lines = [f"{rows:,} rows, {master}, partition counts {COUNTS}, best of the runs",
             f"{'':<34} {'murmur2 s':>10} {'native s':>9} {'ratio':>7} {'target':>7} {'rows/s (ours)':>14}"]
    for label, ours, native, target in (("whole job (compute)", r["job_s"], r["job_native_s"], JOB_TARGET),
                                        ("key -> partition stage", r["stage_s"], r["stage_native_s"], STAGE_TARGET)):
        ratio = ours / native
        verdict = "ok" if ratio <= target else "MISS"
        lines.append(f"{label:<34} {ours:>10.2f} {native:>9.2f} {ratio:>6.2f}x {target:>5.1f}x "
                     f"{rows / ours:>14,.0f}  {verdict}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench spark_pipeline")
    parser.add_argument("--rows", type=float, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--master", default="local[2]")
    args = parser.parse_args(argv)
    rows = int(args.rows)
    from engine.spark.sample import SampleSpec, write_sample

    path = DATA_DIR / f"bench-{rows}.parquet"
    if not path.is_file():
        print(f"generating {rows:,} rows into {path} ...", flush=True)
        write_sample(path, SampleSpec(rows=rows, seed=7))
    print(table(rows, args.master, measure(args.master, path, args.repeat)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
