"""The load job on real clusters gives the local answer, byte for byte.

One 20,000-row CSV export (epoch-millisecond timestamps, 1% null keys) runs at local[2] (in this
process), local[1], on a standalone master + worker (``--master`` and ``spark-submit``; executors
running from a packed virtualenv without numba, with KPL_NO_NUMBA=1) and through a Spark Connect
server; every output file must be identical.  Null-key records are modelled with 2 producers, so
that part of the output is covered.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pacsv
import pytest
from clusters import Cluster, free_port

from engine.producer.murmur2 import partition_for_key
from engine.spark import job
from engine.spark.config import ColumnSpec, build_config
from engine.spark.sample import SampleSpec, generate_batches
from helpers import REPO

pytestmark = pytest.mark.spark
SPEC = SampleSpec(rows=20_000, seed=5)
ARGS = ["--value-size-column", "value_size", "--timestamp-column", "timestamp", "--partitions", "12,24",
        "--consumers", "2,3", "--strategies", "range,roundrobin", "--producers", "2", "--window", "10m"]


@contextlib.contextmanager
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder every xdist worker of this run shares (the parent of the workers' own temp folders), held
    under an exclusive lock: the sample and its reference output are made once per run, by whichever unit
    gets there first; the others wait, then read them."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "spark-reference"
    folder.mkdir(exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield folder
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def export(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The sample as CSV with epoch-ms timestamps, as a file:// URI (shared storage for the cluster)."""
    with shared(tmp_path_factory) as folder:
        path = folder / "orders.csv"
        if not path.exists():
            batch = next(generate_batches(SPEC))
            table = pa.Table.from_batches([batch]).set_column(3, "timestamp", batch.column(3).cast(pa.int64()))
            pacsv.write_csv(table, folder / "orders.partial.csv")
            (folder / "orders.partial.csv").rename(path)
    return path.as_uri()


@pytest.fixture(scope="session")
def local_output(request: pytest.FixtureRequest, export: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reference: local[2] in the process of the first unit that needs it (the shared session, started
    only there); ``job.run`` writes its output folder atomically."""
    with shared(tmp_path_factory) as folder:
        out = folder / "local2"
        if not out.exists():
            columns = ColumnSpec(value_size="value_size", timestamp="timestamp")
            config = build_config(export, "12,24", columns=columns, consumers="2,3", strategies="range,roundrobin",
                                  producers=2, window="10m")
            job.run(request.getfixturevalue("spark"), config, str(out))
    return out


def run_load(*args: str, timeout: float = 600, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("SPARK_REMOTE", "PYSPARK_PYTHON", "KPL_NO_NUMBA")}
    return subprocess.run([sys.executable, "-m", "engine", "load", *args], cwd=REPO, env={**clean, **env},
                          capture_output=True, text=True, timeout=timeout)


def digest(directory: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(directory.iterdir())}


def check_ran(proc: subprocess.CompletedProcess[str], rows: int = SPEC.rows) -> None:
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr[-3000:]
    assert json.loads(proc.stdout)["rows"] == rows


class TestLocal:  # each class is a unit of work (tests/conftest.py): the clusters start on the worker running it
    def test_local_reference_is_kafkas_placement(self, local_output: Path) -> None:
        """Every partition's messages and bytes, for both counts, are what Kafka's partitioner gives the sample
        (the command line's runs below must give these bytes)."""
        batch = next(generate_batches(SPEC)).to_pydict()
        summary = json.loads((local_output / "summary.json").read_text())
        assert summary["rows"] == SPEC.rows and summary["null_keys"] == batch["key"].count(None) > 0
        keyed = [(k, s) for k, s in zip(batch["key"], batch["value_size"]) if k is not None]
        for n in (12, 24):
            rows = summary["partitions"][str(n)]
            assert [r["partition"] for r in rows] == list(range(n))
            for p in range(n):
                mine = [s for k, s in keyed if partition_for_key(k, n) == p]
                assert rows[p] == {"partition": p, "messages": len(mine), "bytes": sum(mine)}
        report = json.loads((local_output / "report.json").read_text())
        assert report["peaks"] and report["time_range"][0].startswith("2024-01-01 00:")  # epoch ms read as time

    def test_local_1_gives_the_same_bytes(self, local_output: Path, export: str, tmp_path: Path) -> None:
        check_ran(run_load("--input", export, *ARGS, "--output", str(tmp_path / "out"), "--master", "local[1]"))
        assert digest(tmp_path / "out") == digest(local_output)


@pytest.mark.minutes
class TestStandaloneCluster:
    def test_standalone_cluster_with_a_packed_env_and_no_numba(
            self, local_output: Path, export: str, standalone_cluster: Cluster, executor_env: Path, tmp_path: Path
    ) -> None:
        with zipfile.ZipFile(executor_env) as archive:
            names = archive.namelist()
        assert "bin/python" in names and any(n.startswith("lib/python3") and "/pyarrow/" in n for n in names)
        assert not any("site-packages/numba/" in n for n in names)
        proc = run_load("--input", export, *ARGS, "--output", str(tmp_path / "out"), "--master", standalone_cluster.url,
                        "--python-env", str(executor_env), "--conf", "spark.executorEnv.KPL_NO_NUMBA=1",
                        "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
                        "--conf", "spark.sql.shuffle.partitions=2")
        check_ran(proc)
        assert digest(tmp_path / "out") == digest(local_output)
        # the executors ran from the unpacked archive (and shipped engine zip), on the worker's disk
        apps = sorted(standalone_cluster.work_dir.glob("app-*/*/env/bin/python"))
        assert apps, list(standalone_cluster.work_dir.rglob("*"))[:20]
        assert any(standalone_cluster.work_dir.glob("app-*/*/kpl-engine-*.zip"))


    def test_spark_submit_on_the_standalone_cluster_gives_the_same_bytes(
            self, local_output: Path, export: str, standalone_cluster: Cluster, executor_env: Path, tmp_path: Path
    ) -> None:
        """README's spark-submit form: the environment by ``--archives``, the executors' Python inside it."""
        from clusters import spark_home

        command = [str(spark_home() / "bin" / "spark-submit"), "--master", standalone_cluster.url,
                   "--archives", f"{executor_env}#env", "--conf", "spark.pyspark.python=./env/bin/python",
                   "--conf", f"spark.pyspark.driver.python={sys.executable}",
                   "--conf", "spark.executorEnv.KPL_NO_NUMBA=1",
                   "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
                   "--conf", "spark.sql.shuffle.partitions=2",
                   str(REPO / "engine" / "spark" / "submit.py"),
                   "--input", export, *ARGS, "--output", str(tmp_path / "out")]
        env = {k: v for k, v in os.environ.items() if k not in ("SPARK_REMOTE", "KPL_NO_NUMBA")}
        proc = subprocess.run(command, cwd=REPO, env={**env, "SPARK_HOME": str(spark_home())}, capture_output=True,
                              text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert json.loads(proc.stdout.strip().splitlines()[-1])["rows"] == SPEC.rows
        assert digest(tmp_path / "out") == digest(local_output)


class TestConnect:
    def test_spark_connect_gives_the_same_bytes(
            self, local_output: Path, export: str, connect_server: str, tmp_path: Path
    ) -> None:
        check_ran(run_load("--input", export, *ARGS, "--output", str(tmp_path / "out"), SPARK_REMOTE=connect_server))
        assert digest(tmp_path / "out") == digest(local_output)


def test_a_local_path_is_refused_when_spark_runs_elsewhere(tmp_path: Path) -> None:
    (tmp_path / "in.csv").write_text("key\na\n")
    proc = run_load("--input", str(tmp_path / "in.csv"), "--partitions", "3", "--output", str(tmp_path / "o"),
                    "--master", "spark://127.0.0.1:1", timeout=120)
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1
    assert "a local path, but Spark runs elsewhere" in proc.stderr and "file:///" in proc.stderr


def test_remote_uris_are_not_checked_on_the_driver(tmp_path: Path) -> None:
    """s3a:// is passed to Spark as it is: the failure is Spark's (no S3 filesystem here), not a driver check."""
    proc = run_load("--input", "s3a://no-such-bucket/orders.parquet", "--partitions", "3", "--output",
                    str(tmp_path / "o"), "--master", "local[1]", timeout=120)
    assert "no such file or directory" not in proc.stderr
    assert proc.returncode in (1, 2) and len(proc.stderr.splitlines()) == 1
    assert "s3a" in proc.stderr.lower()


def test_connect_failure_names_no_log_file_it_never_wrote(tmp_path: Path) -> None:
    """Nothing listens on the port: exit 2 within seconds (pyspark alone would retry for ~10 minutes)."""
    (tmp_path / "in.csv").write_text("key\na\n")
    port = free_port()
    started = time.monotonic()
    proc = run_load("--input", (tmp_path / "in.csv").as_uri(), "--partitions", "3", "--output", str(tmp_path / "o"),
                    timeout=120, SPARK_REMOTE=f"sc://127.0.0.1:{port}")
    assert time.monotonic() - started < 60
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1, proc.stderr[-2000:]
    assert f"Spark Connect server 127.0.0.1:{port} (SPARK_REMOTE) does not answer" in proc.stderr
    assert "Spark log" not in proc.stderr and not (tmp_path / "o").exists()

