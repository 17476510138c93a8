"""The Spark load pipeline's cases for ``python -m bench cost`` (model ``load``, ``engine.cost.estimate_load``).

Spark cannot run in the forked children the other cases use (a JVM behind a fork), so each group of cases runs
in one subprocess (``python -m bench.cost_load CASES_JSON``) that does what ``python -m engine load`` does
(``engine.spark.cli.run`` without its estimate: the input checked, Spark started or joined, ``engine``
shipped, the job run and its output written), on local[2] and the bundled sample (``engine.spark.sample``,
generated once into ``.data/cost-load/``, before any timing):

- seconds: ``time.perf_counter`` around the run; the group's first case is *cold* (Spark's start and its first
  job's warm-up: Python workers, numba's kernel), the others reuse the session, as the Load page does;
- peak bytes: the resident set of the process and all its descendants (the JVM, Python workers), sampled
  every 0.1 s from ``/proc``, minus what it was just before the case.

Two groups: the fit's (one cold case) and the held-out one (one cold case, larger inputs), so the start term is
checked on a start it was not fitted on.  Each Spark run costs seconds to a minute on the 2-core machine: the
groups are kept small.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DATA_DIR = REPO / ".data" / "cost-load"
CONSUMERS = "2,3,4,6"  # the Load page's default consumer counts, every strategy (its default too)
# (rows of the bundled sample, format, partition counts); the first of each group runs cold
LOAD_FIT = [(20_000, "parquet", "12"), (20_000, "parquet", "12"), (200_000, "parquet", "12"),
            (200_000, "csv", "12"), (200_000, "parquet", "6,12,24"), (100_000, "json", "12"),
            (20_000, "parquet", "2000,5000"), (500_000, "parquet", "12")]
LOAD_HELD = [(100_000, "csv", "6,12,24"), (1_000_000, "parquet", "12,24"), (300_000, "csv", "12")]
PAGE = os.sysconf("SC_PAGE_SIZE")


def tree_rss(root: int) -> int:
    """Resident bytes of ``root`` and every process descended from it (``/proc/*/stat``, ``statm``)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
                parents[int(entry)] = int(fields[1])
            except (OSError, IndexError, ValueError):
                continue
    tree, grown = {root}, True
    while grown:
        found = {pid for pid, ppid in parents.items() if ppid in tree} - tree
        tree |= found
        grown = bool(found)
    total = 0
    for pid in tree:
        try:
            with open(f"/proc/{pid}/statm") as handle:
                total += int(handle.read().split()[1]) * PAGE
        except (OSError, IndexError, ValueError):
            continue
    return total


class PeakSampler:
    """The largest ``tree_rss`` of this process seen while the ``with`` block runs."""

    def __init__(self, every: float = 0.1) -> None:
        self.every, self.peak = every, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, tree_rss(os.getpid()))
            self._stop.wait(self.every)

    def __enter__(self) -> PeakSampler:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, tree_rss(os.getpid()))


def sample_path(rows: int, fmt: str) -> Path:
    from engine.spark.sample import SampleSpec, write_sample

    path = DATA_DIR / f"sample-{rows}.{fmt}"
    if not path.exists():
        write_sample(path, SampleSpec(rows=rows, seed=7), fmt)
    return path


def run_group(cases: list[tuple[int, str, str]]) -> None:
    """In the subprocess: each case as ``python -m engine load`` runs it, one JSON line each on stdout."""
    from engine.spark import job
    from engine.spark.config import ColumnSpec, build_config
    from engine.spark.io import precheck
    from engine.spark.session import SessionOptions, get_session, ship_engine

    paths = [sample_path(rows, fmt) for rows, fmt, _ in cases]  # generated before any timing
    options = SessionOptions(master="local[2]")
    with tempfile.TemporaryDirectory(prefix="cost-load-") as out:
        for i, ((rows, fmt, counts), path) in enumerate(zip(cases, paths)):
            config = build_config(str(path), counts, consumers=CONSUMERS,
                                  columns=ColumnSpec(value_size="value_size", timestamp="timestamp"))
            before = tree_rss(os.getpid())
            with PeakSampler() as sampler:
                start = time.perf_counter()
                precheck(config.input, config.fmt, config.columns)
                spark = get_session(options)
                ship_engine(spark)
                job.run(spark, config, str(Path(out) / f"out{i}"))
                seconds = time.perf_counter() - start
            print(json.dumps({"rows": rows, "fmt": fmt, "counts": counts, "bytes": path.stat().st_size,
                              "cold": i == 0, "seconds": seconds, "peak": max(sampler.peak - before, 0),
                              "consumers": len(config.consumers), "strategies": len(config.strategies)}), flush=True)


def measure_groups() -> list[tuple[bool, dict[str, Any]]]:
    """(held out, measurement) for both groups, each in its own subprocess."""
    env = {**os.environ, "PYSPARK_PYTHON": os.environ.get("PYSPARK_PYTHON", sys.executable)}
    env.pop("SPARK_REMOTE", None)
    found: list[tuple[bool, dict[str, Any]]] = []
    for held, cases in ((False, LOAD_FIT), (True, LOAD_HELD)):
        proc = subprocess.run([sys.executable, "-m", "bench.cost_load", json.dumps(cases)], cwd=REPO, env=env,
                              capture_output=True, text=True, timeout=3_600)
        if proc.returncode != 0:
            tail = proc.stderr.strip().splitlines()[-1:] or ["no output"]
            print(f"load: group not measured (exit {proc.returncode}: {tail[0][:200]})")
            continue
        found += [(held, json.loads(line)) for line in proc.stdout.splitlines() if line.startswith("{")]
    return found


if __name__ == "__main__":
    run_group([tuple(case) for case in json.loads(sys.argv[1])])  # type: ignore[misc]
