"""``python -m engine load`` as a subprocess, the parts that need no Spark: bad input is exit 2 and one line
before any Spark starts (../shared/spec/README.md section 8), pyspark stays unimported, session modes, windows.
The end-to-end runs (local, standalone, Connect) are tests/spark/test_spark_cluster.py."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.spark.config import LoadInputError, parse_window
from engine.spark.session import SessionOptions, session_mode
from helpers import REPO, run_load


@pytest.mark.parametrize(
    ("setup", "args", "message"),
    [
        (None, ["--partitions", "12"], "error: the following arguments are required: --input, --output"),
        ("k,v\na,1\n", ["--partitions", "12"], "error: key column 'key': not in the input (columns: k, v)"),
        ("key\na\n", ["--partitions", "12,x"], "error: partitions: each must be an integer 1..100,000, got 'x'"),
        ("", ["--partitions", "12"], "empty file (no records)"),
        (b"PAR1garbage", ["--partitions", "12", "--format", "parquet"], "not a readable Parquet file"),
        ("key\na\n", ["--partitions", "3", "--window", "0s"], "error: window: must be 1s..7d"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path: Path, setup: str | bytes | None, args: list[str],
                                          message: str) -> None:
    path = tmp_path / "in.csv"
    if isinstance(setup, bytes):
        path.write_bytes(setup)
    elif setup is not None:
        path.write_text(setup)
    inputs = ["--input", str(path), "--output", str(tmp_path / "out")] if setup is not None else []
    proc = run_load(*inputs, *args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and message in lines[0], proc.stderr
    assert not (tmp_path / "out").exists()


def test_refuses_to_replace_a_foreign_directory(tmp_path: Path) -> None:
    (tmp_path / "in.csv").write_text("key\na\n")
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "thesis.tex").write_text("precious")
    proc = run_load("--input", str(tmp_path / "in.csv"), "--partitions", "3", "--output", str(tmp_path / "home"))
    assert proc.returncode == 2 and "not a previous load output" in proc.stderr
    assert (tmp_path / "home" / "thesis.tex").read_text() == "precious"


@pytest.mark.parametrize("name", ["huge.csv", "huge.parquet"])
def test_a_huge_input_is_refused_by_its_estimate_before_spark_starts(tmp_path: Path, name: str) -> None:
    """A sparse file of 500 GB (no disk used): the estimate from its size refuses it in one line, before its
    header is read or Spark is started (the child never imports pyspark: it exits within seconds)."""
    huge = tmp_path / name
    with open(huge, "wb") as handle:
        handle.truncate(500 * 10**9)
    started = time.monotonic()
    proc = run_load("--input", str(huge), "--partitions", "12", "--output", str(tmp_path / "out"))
    assert (proc.returncode, proc.stdout) == (2, "")
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: load: estimated "), proc.stderr
    assert "over the command line's ceiling" in lines[0] and "(500,000,000,000 bytes of " in lines[0]
    assert time.monotonic() - started < 60 and not (tmp_path / "out").exists()


def test_import_engine_never_imports_pyspark() -> None:
    code = "import sys, engine, engine.spark, engine.spark.sample, engine.spark.report; print('pyspark' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_session_modes() -> None:
    assert session_mode(SessionOptions(master="local[1]"), environ={}) == "local"
    assert session_mode(SessionOptions(), environ={"SPARK_REMOTE": "sc://spark:15002"}) == "remote"
    assert session_mode(SessionOptions(master="local[2]"), environ={"SPARK_REMOTE": "sc://x"}) == "local"
    assert session_mode(SessionOptions(master="spark://h:7077"), environ={}) == "cluster"
    assert session_mode(SessionOptions(), environ={"PYSPARK_GATEWAY_PORT": "4242"}) == "submit"


def test_window_parsing() -> None:
    assert [parse_window(t) for t in ("1", "60s", "5m", "1h")] == [1, 60, 300, 3600]
    with pytest.raises(LoadInputError, match="window: must be 1s..7d"):
        parse_window("8d")
