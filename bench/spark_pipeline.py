"""Key -> partition inside Spark: this pipeline's mapInArrow stage vs Spark's native ``hash()``.

Both read the same generated Parquet column (10 M rows by default) and write to Spark's ``noop``
sink, in the same run; rows/s is rows / best wall time of ``--repeat`` runs after a warm-up.
The native ``hash()`` (Murmur3, in the JVM) is the speed limit: the target is to stay within
1.5x of it.  Then the same on ``local[1]`` to show how time scales with cores.

    .venv/bin/python -m bench spark_pipeline             # 10 M rows, local[2] then local[1]
    .venv/bin/python bench/spark_pipeline.py --rows 1e6  # quicker
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DATA_DIR = Path(__file__).resolve().parents[1] / ".data"
NUM_PARTITIONS = 12
TARGET_RATIO = 1.5


def _timed(action: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def _identity(batches: Any) -> Any:
    yield from batches


def _measure(master: str, path: Path, rows: int, repeat: int) -> dict[str, float]:
    from pyspark.sql import functions as F

    from engine.spark import transforms as tf
    from engine.spark.session import SessionOptions, get_session, stop_session

    stop_session()
    spark = get_session(SessionOptions(master=master))
    keys = spark.read.parquet(str(path)).select("key")

    def ours() -> None:
        tf.with_partitions(keys, (NUM_PARTITIONS,), null_keys="drop").write.format("noop").mode("overwrite").save()

    def floor() -> None:  # mapInArrow that returns its input: the JVM <-> Python transfer alone
        keys.mapInArrow(_identity, keys.schema).write.format("noop").mode("overwrite").save()

    def native() -> None:
        placed = F.pmod(F.hash("key"), F.lit(NUM_PARTITIONS))
        keys.select("key", placed.alias("p")).write.format("noop").mode("overwrite").save()

    tf.with_partitions(keys.limit(200_000), (NUM_PARTITIONS,), "drop").write.format("noop").mode("overwrite").save()
    native()  # warm-up: Python workers started, JIT compiled, file cached
    out = {"ours_s": _timed(ours, repeat), "floor_s": _timed(floor, repeat), "native_s": _timed(native, repeat)}
    out["ours_rows_s"] = rows / out["ours_s"]
    out["native_rows_s"] = rows / out["native_s"]
    return out


def _full(master: str, path: Path, rows: int) -> None:
    from engine.spark import job
    from engine.spark.io import ColumnSpec
    from engine.spark.session import SessionOptions, get_session, stop_session

    stop_session()
    spark = get_session(SessionOptions(master=master))
    config = job.LoadConfig(input=str(path), partitions=(12, 24), fmt="parquet",
                            columns=ColumnSpec(value_size="value_size", timestamp="timestamp"), consumers=(3, 4, 6))
    seconds = _timed(lambda: job.compute(spark, config), 1)
    print(f"\nwhole job on {master}: {seconds:.1f} s, {rows / seconds:,.0f} rows/s (cold Python workers included)")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench spark_pipeline")
    parser.add_argument("--rows", type=float, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--masters", default="local[2],local[1]")
    parser.add_argument("--full", action="store_true", help="also time the whole job (12,24 partitions; "
                                                            "3,4,6 consumers x 4 strategies) on the first master")
    args = parser.parse_args(argv)
    rows = int(args.rows)
    from engine.spark.sample import SampleSpec, write_sample

    path = DATA_DIR / f"bench-{rows}.parquet"
    if not path.is_file():
        print(f"generating {rows:,} rows into {path} ...", flush=True)
        write_sample(path, SampleSpec(rows=rows, seed=7))
    results = {m: _measure(m, path, rows, args.repeat) for m in args.masters.split(",")}
    print(f"\nkey -> partition ({NUM_PARTITIONS} partitions), {rows:,} rows, best of {args.repeat}")
    print(f"{'master':<10} {'stage':<32} {'seconds':>8} {'rows/s':>14} {'vs native':>10}")
    for master, r in results.items():
        print(f"{master:<10} {'mapInArrow + partitions_for_arrow':<32} {r['ours_s']:>8.2f} "
              f"{r['ours_rows_s']:>14,.0f} {r['ours_s'] / r['native_s']:>9.2f}x")
        print(f"{master:<10} {'mapInArrow identity (transfer)':<32} {r['floor_s']:>8.2f} "
              f"{rows / r['floor_s']:>14,.0f} {r['floor_s'] / r['native_s']:>9.2f}x")
        print(f"{master:<10} {'Spark native pmod(hash(key), n)':<32} {r['native_s']:>8.2f} "
              f"{r['native_rows_s']:>14,.0f} {'1.00x':>10}")
    masters = list(results)
    if len(masters) == 2:
        a, b = results[masters[1]], results[masters[0]]
        print(f"\nscaling {masters[1]} -> {masters[0]}: ours {a['ours_s'] / b['ours_s']:.2f}x faster, "
              f"native {a['native_s'] / b['native_s']:.2f}x faster")
    if args.full:
        _full(masters[0], path, rows)
    ratio = results[masters[0]]["ours_s"] / results[masters[0]]["native_s"]
    verdict = "meets" if ratio <= TARGET_RATIO else "misses"
    print(f"target: within {TARGET_RATIO}x of native on {masters[0]} -> {ratio:.2f}x ({verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
