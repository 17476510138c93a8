"""The whole job in-process (shared session): formats agree with engine.producer, output is atomic
and reproducible, bad inputs give one clear line."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from engine.producer.murmur2 import partition_for_key
from engine.spark import job, transforms
from engine.spark.config import ColumnSpec, LoadConfig, LoadInputError
from engine.spark.io import precheck
from engine.spark.sample import SampleSpec, write_sample

pytestmark = pytest.mark.spark
COUNTS = (3, 12)
SPEC = SampleSpec(rows=1_500, seed=21)


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("samples")
    return {fmt: write_sample(root / f"s.{fmt}", SPEC, fmt) for fmt in ("parquet", "csv", "json")}


def expected_summary(path: Path) -> dict[str, Any]:
    table = pq.read_table(path).to_pydict()
    out: dict[str, Any] = {"rows": len(table["key"]), "null_keys": table["key"].count(None), "partitions": {}}
    for n in COUNTS:
        msgs: Counter[int] = Counter()
        size: Counter[int] = Counter()
        for key, value_size in zip(table["key"], table["value_size"]):
            if key is not None:
                msgs[partition_for_key(key, n)] += 1
                size[partition_for_key(key, n)] += value_size
        out["partitions"][str(n)] = [{"partition": p, "messages": msgs[p], "bytes": size[p]} for p in range(n)]
    return out


def config(path: Path, fmt: str, **overrides: Any) -> LoadConfig:
    columns = ColumnSpec(key="key", value_size="value_size", timestamp="timestamp")
    return LoadConfig(input=str(path), partitions=COUNTS, fmt=fmt, columns=columns, **overrides)


def digest(directory: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(directory.iterdir())}


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_text_formats_match_kafka_partitioner(spark: Any, samples: dict[str, Path], fmt: str) -> None:
    result = job.compute(spark, config(samples[fmt], fmt))
    assert result.summary == expected_summary(samples["parquet"])


def test_parquet_run_writes_atomically_and_reproducibly(
    spark: Any, samples: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "load"
    cfg = config(samples["parquet"], "parquet", consumers=(2, 5), strategies=("range", "roundrobin"))
    result = job.run(spark, cfg, str(out))
    assert json.loads((out / "summary.json").read_text()) == expected_summary(samples["parquet"])
    first = digest(out)
    assert set(first) == {"summary.json", "report.json", "partitions.parquet", "hot_keys.parquet",
                          "consumers.parquet"}
    # per-consumer load adds up to the partitions' load, for every strategy and consumer count
    parts = result.partitions.groupby("num_partitions")["messages"].sum().to_dict()
    for (strategy, consumers, n), frame in result.consumers.groupby(["strategy", "consumers", "num_partitions"]):
        assert len(frame) == consumers and frame["messages"].sum() == parts[n], (strategy, consumers, n)
        assert frame["partitions"].sum() == n
    # a failure while writing leaves the previous output untouched and no temporary directory
    calls = {"n": 0}
    real_write = job.write_parquet

    def failing_write(path: Path, frame: Any) -> None:
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError("disk full (injected)")
        real_write(path, frame)

    monkeypatch.setattr(job, "write_parquet", failing_write)
    with pytest.raises(OSError, match="injected"):
        job.run(spark, cfg, str(out))
    assert digest(out) == first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["load"]
    monkeypatch.setattr(job, "write_parquet", real_write)
    # the same inputs give byte-identical output
    job.run(spark, cfg, str(out))
    assert digest(out) == first


def test_failure_mid_run_leaves_nothing(
    spark: Any, samples: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: Any) -> Any:
        raise RuntimeError("executor lost (injected)")

    monkeypatch.setattr(transforms, "hot_keys", broken)
    with pytest.raises(RuntimeError, match="injected"):
        job.run(spark, config(samples["parquet"], "parquet"), str(tmp_path / "out"))
    assert list(tmp_path.iterdir()) == []


def test_wrong_types_are_named(spark: Any, tmp_path: Path) -> None:
    numeric = tmp_path / "numeric.json"
    numeric.write_text('{"key": 1, "size": 3}\n{"key": 2, "size": 4}\n')
    with pytest.raises(LoadInputError, match=r"^key column 'key': must be string or binary, got bigint$"):
        job.compute(spark, LoadConfig(input=str(numeric), partitions=(3,), fmt="json"))
    text_size = tmp_path / "sizes.csv"
    text_size.write_text("key,size\na,12\nb,twelve\n")
    cfg = LoadConfig(input=str(text_size), partitions=(3,), fmt="csv", columns=ColumnSpec(value_size="size"))
    with pytest.raises(LoadInputError, match=r"^value size column 'size': 1 values are not integers >= 0 "
                                             r"\(first: 'twelve', sizes.csv line 3\)$"):
        job.compute(spark, cfg)
    header_only = tmp_path / "header.csv"
    header_only.write_text("key,size\n")
    with pytest.raises(LoadInputError, match="no records"):
        job.compute(spark, LoadConfig(input=str(header_only), partitions=(3,), fmt="csv"))


def test_prechecks_before_spark(tmp_path: Path) -> None:
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(LoadInputError, match="empty file"):
        precheck(str(empty), "csv", ColumnSpec())
    corrupt = tmp_path / "bad.parquet"
    corrupt.write_bytes(b"PAR1 this is not parquet at all")
    with pytest.raises(LoadInputError, match="not a readable Parquet file"):
        precheck(str(corrupt), "parquet", ColumnSpec())
    csv = tmp_path / "k.csv"
    csv.write_text("id,size\n1,2\n")
    with pytest.raises(LoadInputError, match=r"^key column 'key': not in the input \(columns: id, size\)$"):
        precheck(str(csv), "csv", ColumnSpec())
