"""The Keys page's tables (engine/producer/summary.py)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from engine.producer.keysample import partition_histogram
from engine.producer.null_keys import ProducerConfig, simulate_all
from engine.producer.partitioners import client_partitions
from engine.producer.summary import hottest_rows, null_key_rows, skew_rows


def test_docstring_example() -> None:
    assert hottest_rows(pa.array(["21", "foobar", "21"]), 50, top=1) == [
        {"key": "21", "records": 2, "Java partition": "40"}]
    assert hottest_rows(pa.array([None, None, "a"], pa.string()), 7, top=1)[0]["Java partition"] == "sticky"


def test_skew_rows_count_the_records_the_hash_leaves_unplaced() -> None:
    keys = pa.array(["a", "b", None, "c", None], pa.string())
    placed = {"java": client_partitions(keys, 4, "java")}
    counts = {"java": partition_histogram(placed["java"], 4)}
    [row] = skew_rows(placed, counts)
    assert row["partitioner"] == "java" and row["records left to sticky/random"] == 2
    assert int(np.sum(counts["java"])) == 3


def test_null_key_rows_one_per_strategy() -> None:
    runs = simulate_all(ProducerConfig(duration_ms=500))
    rows = null_key_rows(runs)
    assert len(rows) == len(runs) and all(r["broker 0 (slow) share"].endswith("%") for r in rows)
