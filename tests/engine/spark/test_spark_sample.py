"""The sample generator: shape, determinism, chunking (numpy/pyarrow only, no Spark)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from engine.errors import LimitError
from engine.spark import sample
from engine.spark.sample import SampleSpec, generate_batches, write_sample


def test_docstring_example() -> None:
    batch = next(generate_batches(SampleSpec(rows=5, seed=1)))
    assert (batch.num_rows, batch.schema.names) == (5, ["topic", "key", "value_size", "timestamp"])


def test_same_seed_same_rows_other_seed_other_rows() -> None:
    a = next(generate_batches(SampleSpec(rows=3_000, seed=3)))
    b = next(generate_batches(SampleSpec(rows=3_000, seed=3)))
    c = next(generate_batches(SampleSpec(rows=3_000, seed=4)))
    assert a.equals(b)
    assert not a.equals(c)


def test_shape_zipf_nulls_sizes_and_time_order() -> None:
    batch = next(generate_batches(SampleSpec(rows=50_000, seed=11)))
    keys = batch.column("key").to_pylist()
    nulls = sum(k is None for k in keys)
    assert 250 <= nulls <= 750  # 1% of 50,000, loosely
    counts = sorted(np.unique([k for k in keys if k is not None], return_counts=True)[1], reverse=True)
    assert counts[0] > 20 * np.median(counts)  # one hot key, a long tail
    assert any(not k.isascii() for k in keys if k is not None)
    sizes = batch.column("value_size").to_numpy()
    assert sizes.min() >= 1 and 400 < np.median(sizes) < 900
    stamps = batch.column("timestamp").cast("int64").to_numpy()
    assert np.all(np.diff(stamps) >= 0)
    hours = (stamps - sample.START_MS) // 3_600_000
    per_hour = np.bincount(hours, minlength=24)
    assert per_hour[18] > 3 * per_hour[6]  # busy evening, quiet morning


def test_chunks_stream_in_time_order(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sample, "CHUNK_ROWS", 1_000)
    path = write_sample(tmp_path / "s.parquet", SampleSpec(rows=4_500, seed=2))
    meta = pq.ParquetFile(path).metadata
    assert meta.num_rows == 4_500 and meta.num_row_groups == 5
    stamps = pq.read_table(path).column("timestamp").cast("int64").to_numpy()
    assert np.all(np.diff(stamps) >= 0)


def test_text_formats_hold_the_same_records(tmp_path: Path) -> None:
    spec = SampleSpec(rows=300, seed=5)
    write_sample(tmp_path / "s.csv", spec, "csv")
    write_sample(tmp_path / "s.json", spec, "json")
    expected = next(generate_batches(spec)).column("key").to_pylist()
    lines = (tmp_path / "s.json").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["key"] for line in lines] == expected
    import pandas as pd

    csv_keys = pd.read_csv(tmp_path / "s.csv", dtype={"key": "string"})["key"]
    assert [None if pd.isna(k) else k for k in csv_keys] == expected
    assert not list(tmp_path.glob(".*tmp*"))


def test_limits() -> None:
    with pytest.raises(LimitError, match="rows: must be 1..100,000,000, got 0"):
        next(generate_batches(SampleSpec(rows=0)))
    with pytest.raises(LimitError, match="use parquet"):
        write_sample("/tmp/never.csv", SampleSpec(rows=sample.TEXT_FORMAT_MAX_ROWS + 1), "csv")


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert sample.main(["--rows", "1e3", "--output", str(tmp_path / "x.parquet")]) == 0
    assert pq.read_metadata(tmp_path / "x.parquet").num_rows == 1_000
    assert sample.main(["--rows", "0", "--output", str(tmp_path / "y.parquet")]) == 2
    assert capsys.readouterr().err.strip() == "error: rows: must be 1..100,000,000, got 0"
