"""The transforms on one local SparkSession: parity with engine.producer, load, hot keys, consumers."""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from typing import Any

import pytest

from engine.producer.murmur2 import partition_for_key
from engine.spark import transforms as tf
from engine.spark.io import ColumnSpec

COUNTS = (1, 2, 7, 12, 50, 1000)


def _random_key(rng: random.Random) -> str:
    alphabet = "abcXYZ019-_ üéß中文🙂\u0000"
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))


# ---------------------------------------------------------------- Spark

@pytest.mark.spark
def test_partition_parity_with_engine_10000_keys(spark: Any, seeded_rng: random.Random) -> None:
    keys = ["", "21", "ü", "中文", "🙂"] + [_random_key(seeded_rng) for _ in range(9_995)]
    rows = [(k,) for k in keys] + [(None,)]
    df = spark.createDataFrame(rows, "key string")
    out = tf.with_partitions(df, COUNTS).toPandas()
    assert list(out["key"][:-1]) == keys
    for n in COUNTS:
        expected = [partition_for_key(k, n) for k in keys] + [-1]
        assert out[tf.partition_column(n)].tolist() == expected, n


@pytest.mark.spark
def test_binary_keys_hash_their_bytes(spark: Any, seeded_rng: random.Random) -> None:
    keys = [b"", b"\xff\xfe", "ü".encode()] + [seeded_rng.randbytes(seeded_rng.randrange(0, 20)) for _ in range(500)]
    df = spark.createDataFrame([(bytearray(k),) for k in keys], "key binary")
    out = tf.with_partitions(df, (12, 7)).toPandas()
    assert out["p12"].tolist() == [partition_for_key(k, 12) for k in keys]
    assert out["p7"].tolist() == [partition_for_key(k, 7) for k in keys]


@pytest.mark.spark
def test_worked_example_from_the_docstring(spark: Any) -> None:
    df = spark.createDataFrame([("21",), ("",)], "key string")
    assert [r.p12 for r in tf.with_partitions(df, (12,)).collect()] == [0, 9]


def _records(spark: Any) -> Any:
    """key, value_size (text, as CSV gives it), ts (text): three keys, one null, one bad size."""
    base = dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)
    rows = [
        ("a", "100", (base + dt.timedelta(seconds=1)).isoformat()),
        ("a", "100", (base + dt.timedelta(seconds=2)).isoformat()),
        ("a", "100", (base + dt.timedelta(seconds=3)).isoformat()),
        ("b", "10", (base + dt.timedelta(seconds=15)).isoformat()),
        ("c", "1", (base + dt.timedelta(seconds=25)).isoformat()),
        ("c", None, None),
        (None, "50", (base + dt.timedelta(seconds=26)).isoformat()),
    ]
    raw = spark.createDataFrame(rows, "k string, size string, t string")
    return tf.normalize(raw, ColumnSpec(key="k", value_size="size", timestamp="t"))


@pytest.mark.spark
def test_partition_load_totals_and_peaks(spark: Any) -> None:
    n = 2
    placed = tf.with_partitions(tf.record_groups(_records(spark), 10), (n,))
    windows = tf.partition_windows(tf.keyed_windows(placed.where("key is not null"), (n,)), None)
    load = {r.partition: r.asDict() for r in tf.partition_load(windows, 10).collect()}
    expected_msgs: Counter[int] = Counter()
    expected_bytes: Counter[int] = Counter()
    for key, size in [("a", 100), ("a", 100), ("a", 100), ("b", 10), ("c", 1), ("c", 0)]:
        expected_msgs[partition_for_key(key, n)] += 1
        expected_bytes[partition_for_key(key, n)] += size
    assert {p: r["keyed_messages"] for p, r in load.items()} == dict(expected_msgs)
    assert {p: r["bytes"] for p, r in load.items()} == dict(expected_bytes)
    pa_ = partition_for_key("a", n)
    assert load[pa_]["peak_messages_per_s"] == pytest.approx(3 / 10)  # a's three records share a window
    totals = tf.input_totals(placed).collect()[0]
    assert (totals.rows, totals.null_keys, totals.bad_sizes, totals.bad_timestamps) == (7, 1, 0, 0)
    # one row per (key, window) for keyed records, per (ts, size) for null-key ones
    assert placed.count() == 5 and placed.where("key is null").collect()[0].null_size == 50


@pytest.mark.spark
def test_normalize_flags_bad_sizes_and_timestamps(spark: Any) -> None:
    raw = spark.createDataFrame([("a", "12", "1700000000000"), ("b", "x", "yesterday"), ("c", "-3", None),
                                 ("d", "9" * 30, "9" * 5000), ("e", "1", " 2024-01-01T00:00:00Z ")],
                                "k string, size string, t string")
    rows = tf.normalize(raw, ColumnSpec(key="k", value_size="size", timestamp="t")).collect()
    assert [(r.value_size, r.size_ok) for r in rows] == [(12, True), (0, False), (0, False), (0, False), (1, True)]
    assert [r.ts_ok for r in rows] == [True, False, True, False, True]  # epoch ms as text is a timestamp
    assert rows[0].ts.replace(tzinfo=None) == dt.datetime(2023, 11, 14, 22, 13, 20)
    epoch = spark.createDataFrame([("a", 1_700_000_000_000), ("b", 2**62)], "k string, t long")
    ts = tf.normalize(epoch, ColumnSpec(key="k", timestamp="t")).collect()
    assert ts[0].ts.replace(tzinfo=None) == dt.datetime(2023, 11, 14, 22, 13, 20)
    assert (ts[1].ts, ts[1].ts_ok) == (None, False)  # beyond year 9999: refused, not an overflow


@pytest.mark.spark
def test_epoch_seconds_with_the_unit_option(spark: Any) -> None:
    raw = spark.createDataFrame([("a", "1700000000", 1_700_000_000)], "k string, t string, n long")
    for column in ("t", "n"):
        row = tf.normalize(raw, ColumnSpec(key="k", timestamp=column, timestamp_unit="s")).collect()[0]
        assert row.ts.replace(tzinfo=None) == dt.datetime(2023, 11, 14, 22, 13, 20), column


@pytest.mark.spark
def test_hot_keys_rank_by_messages_then_bytes_then_key(spark: Any) -> None:
    keys = spark.createDataFrame([("x", 5, 10), ("y", 5, 20), ("z", 9, 1), ("w", 5, 20)],
                                 "key string, messages long, bytes long")
    top = tf.hot_keys(tf.with_partitions(keys, (1,)), (1,), top=3).orderBy("rank").collect()
    assert [(r.key_text, r.rank) for r in top] == [("z", 1), ("w", 2), ("y", 3)]
    assert top[0].key_hex == "7a"


@pytest.mark.spark
def test_consumer_load_sums_owned_partitions_per_window(spark: Any) -> None:
    windows = spark.createDataFrame(
        [(4, 0, 0, 5, 50), (4, 1, 0, 7, 70), (4, 2, 0, 1, 10), (4, 0, 10, 9, 90), (4, 3, 10, 2, 20)],
        "num_partitions int, partition int, window long, messages long, bytes long",
    )
    assignments = spark.createDataFrame(
        [("range", 3, 4, "C0", 0), ("range", 3, 4, "C0", 1), ("range", 3, 4, "C1", 2), ("range", 3, 4, "C1", 3),
         ("range", 3, 4, "C2", -1)],
        tf.ASSIGNMENT_SCHEMA,
    )
    got = {r.member: r.asDict() for r in tf.consumer_load(windows, assignments, 10).collect()}
    assert (got["C0"]["messages"], got["C0"]["partitions"], got["C0"]["peak_messages_per_s"]) == (21, 2, 1.2)
    assert (got["C1"]["messages"], got["C1"]["peak_messages_per_s"]) == (3, 0.2)
    assert (got["C2"]["messages"], got["C2"]["partitions"], got["C2"]["bytes"]) == (0, 0, 0)
