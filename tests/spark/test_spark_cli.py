"""``python -m engine load`` end to end on a local Spark: the contract of ../shared/spec/README.md section 8
(its refusals, which need no Spark, are in tests/engine/spark/test_load_cli.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.producer.murmur2 import partition_for_key
from engine.spark.sample import SampleSpec, generate_batches, write_sample
from helpers import run_load


@pytest.mark.spark
def test_end_to_end_summary_matches_kafka(tmp_path: Path) -> None:
    spec = SampleSpec(rows=800, seed=9)
    sample = write_sample(tmp_path / "s.csv", spec, "csv")
    out = tmp_path / "out"
    proc = run_load("--input", str(sample), "--value-size-column", "value_size", "--partitions", "5,12",
                    "--output", str(out), "--master", "local[2]")
    assert (proc.returncode, proc.stderr) == (0, "")
    assert json.loads(proc.stdout)["rows"] == 800
    summary = json.loads((out / "summary.json").read_text())
    batch = next(generate_batches(spec)).to_pydict()
    assert summary["rows"] == 800 and summary["null_keys"] == batch["key"].count(None)
    for n in (5, 12):
        rows = summary["partitions"][str(n)]
        assert [r["partition"] for r in rows] == list(range(n))
        for p in range(n):
            keyed = [s for k, s in zip(batch["key"], batch["value_size"])
                     if k is not None and partition_for_key(k, n) == p]
            assert (rows[p]["messages"], rows[p]["bytes"]) == (len(keyed), sum(keyed))
