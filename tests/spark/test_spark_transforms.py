"""The transforms on one local SparkSession: parity with engine.producer, load, hot keys, consumers."""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

from engine.producer.murmur2 import partition_for_key
from engine.spark import transforms as tf
from engine.spark.io import ColumnSpec

COUNTS = (1, 2, 7, 12, 50, 1000)


def _random_key(rng: random.Random) -> str:
    alphabet = "abcXYZ019-_ üéß中文🙂\u0000"
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))


# ---------------------------------------------------------------- no Spark needed


def test_null_key_round_robin_cycles_from_a_random_start() -> None:
    producer = tf.NullKeyProducer("round-robin", 4, seed=0, task=0)
    parts = np.array([-1, 3, -1, -1], dtype=np.int32)
    producer.place(parts, None)
    assert [int(p) for p in parts[[0, 2, 3]]] == [(producer.start + i) % 4 for i in range(3)]
    assert parts[1] == 3
    more = np.array([-1], dtype=np.int32)
    producer.place(more, None)
    assert more[0] == (producer.start + 3) % 4


def test_null_key_sticky_switches_after_batch_size_bytes() -> None:
    producer = tf.NullKeyProducer("sticky", 1000, seed=1, task=0)
    first = producer.current
    size = 992  # + 8 bytes overhead = 1,000 bytes a record -> a switch every 17 records (16,384 B)
    parts = np.full(40, -1, dtype=np.int32)
    producer.place(parts, pa.array([size] * 40))
    assert list(parts[:17]) == [first] * 17
    assert len(set(parts[17:34].tolist())) == 1 and len(set(parts[34:].tolist())) == 1
    assert parts[17] != first or parts[34] != first  # 1000 partitions: a repeat of both is ~1e-6
    assert producer.produced == 6 * 1000  # 40 records: 17 + 17 + 6 (the count resets at a switch)


def test_null_key_drop_leaves_minus_one() -> None:
    parts = np.array([-1, 5], dtype=np.int32)
    tf.NullKeyProducer("drop", 8, 0, 0).place(parts, None)
    assert parts.tolist() == [-1, 5]


# ---------------------------------------------------------------- Spark

pytestmark_spark = pytest.mark.spark


@pytest.mark.spark
def test_partition_parity_with_engine_10000_keys(spark: Any, seeded_rng: random.Random) -> None:
    keys = ["", "21", "ü", "中文", "🙂"] + [_random_key(seeded_rng) for _ in range(9_995)]
    rows = [(k,) for k in keys] + [(None,)]
    df = spark.createDataFrame(rows, "key string")
    out = tf.with_partitions(df, COUNTS, null_keys="drop").toPandas()
    assert list(out["key"][:-1]) == keys
    for n in COUNTS:
        expected = [partition_for_key(k, n) for k in keys] + [-1]
        assert out[tf.partition_column(n)].tolist() == expected, n


@pytest.mark.spark
def test_binary_keys_hash_their_bytes(spark: Any, seeded_rng: random.Random) -> None:
    keys = [b"", b"\xff\xfe", "ü".encode()] + [seeded_rng.randbytes(seeded_rng.randrange(0, 20)) for _ in range(500)]
    df = spark.createDataFrame([(bytearray(k),) for k in keys], "key binary")
    out = tf.with_partitions(df, (12, 7), null_keys="drop").toPandas()
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
    hashed = tf.with_partitions(tf.with_window(_records(spark), 10), (n,), null_keys="drop")
    windows = tf.partition_windows(hashed, (n,))
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
    totals = tf.input_totals(_records(spark)).collect()[0]
    assert (totals.rows, totals.null_keys, totals.bad_sizes, totals.bad_timestamps) == (7, 1, 0, 0)


@pytest.mark.spark
def test_normalize_flags_bad_sizes_and_timestamps(spark: Any) -> None:
    raw = spark.createDataFrame([("a", "12", "1700000000000"), ("b", "x", "yesterday"), ("c", "-3", None)],
                                "k string, size string, t string")
    rows = tf.normalize(raw, ColumnSpec(key="k", value_size="size", timestamp="t")).collect()
    assert [(r.value_size, r.size_ok) for r in rows] == [(12, True), (0, False), (0, False)]
    assert [r.ts_ok for r in rows] == [False, False, True]  # epoch ms as *text* is not a timestamp
    epoch = spark.createDataFrame([("a", 1_700_000_000_000)], "k string, t long")
    ts = tf.normalize(epoch, ColumnSpec(key="k", timestamp="t")).collect()[0].ts
    assert ts.replace(tzinfo=None) == dt.datetime(2023, 11, 14, 22, 13, 20)


@pytest.mark.spark
def test_hot_keys_rank_by_messages_then_bytes_then_key(spark: Any) -> None:
    keys = spark.createDataFrame([("x", 5, 10), ("y", 5, 20), ("z", 9, 1), ("w", 5, 20)],
                                 "key string, messages long, bytes long")
    top = tf.hot_keys(keys, (1,), top=3).orderBy("rank").collect()
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
