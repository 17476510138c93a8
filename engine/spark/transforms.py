"""The pipeline's steps: typed ``DataFrame -> DataFrame`` functions, no IO inside (Kedro style).

One scan: the input is read once, into one aggregation; every figure comes from that aggregate::

    records ──normalize──> key, value_size, ts, size_ok, ts_ok
            ──record_groups──> one row per (key, window) for keyed records, per (ts, value_size)
                               for null-key records: messages, bytes, validity counts, first/last ts
            ──with_partitions──> + p12, p24 ...   (Kafka's murmur2, an Arrow UDF: the key column only)
      keyed ──keyed_windows──> per (count, partition, window)  ─┐
    null keys ──null_key_windows──> per (count, partition, window) ─┴─ partition_windows
            ──partition_load──> per (count, partition): totals and peak rates
      keyed ──key_load──> per key (its partitions already known) ──hot_keys──> top keys per partition
    windows + assignment rows ──consumer_load──> per (strategy, consumers, count, member)

Keyed records go where ``engine.producer.arrow.partitions_for_arrow`` says (the Java producer's
``toPositive(murmur2(keyBytes)) % n``), computed once per (key, window) group, not per record.
Null-key records follow ``engine.spark.null_keys`` (a stated number of producers, independent of
Spark's split) unless ``null_keys == "drop"``.

Worked example (asserted in tests/spark/test_spark_transforms.py): with 12 partitions the keys
``"21"`` and ``""`` land on partitions 0 and 9 (``murmur2(b"") = 275646681``, ``% 12 = 9``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import pyarrow as pa
from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F
from pyspark.sql import types as T

from engine.spark.config import ColumnSpec

INTEGER_TYPES = ("tinyint", "smallint", "int", "bigint")
UNIT_MS = {"ms": 1, "s": 1_000}
# epoch milliseconds Spark can hold as a timestamp: years 0001..9999
MIN_EPOCH_MS, MAX_EPOCH_MS = -62_135_596_800_000, 253_402_300_799_999
WINDOW_SCHEMA = T.StructType([
    T.StructField("num_partitions", T.IntegerType(), False),
    T.StructField("partition", T.IntegerType(), False),
    T.StructField("window", T.LongType(), True),
    T.StructField("messages", T.LongType(), False),
    T.StructField("bytes", T.LongType(), False),
])
ARROW_WINDOW_SCHEMA = pa.schema([
    ("num_partitions", pa.int32(), False), ("partition", pa.int32(), False), ("window", pa.int64()),
    ("messages", pa.int64(), False), ("bytes", pa.int64(), False),
])


def partition_column(num_partitions: int) -> str:
    return f"p{num_partitions}"


# ---------------------------------------------------------------- normalize


def normalize(df: DataFrame, columns: ColumnSpec, topic: str | None = None) -> DataFrame:
    """``key``, ``value_size`` (long, 0 when unknown), ``ts`` (timestamp or null) and validity flags.

    ``size_ok`` / ``ts_ok`` are false where a value was given but is not usable (text that is not an
    integer >= 0, an unparseable timestamp); the job counts them and refuses the input.
    """
    if topic is not None and columns.topic is not None:
        df = df.where(F.col(columns.topic) == F.lit(topic))
    size, size_ok = _value_size(df, columns)
    ts, ts_ok = _timestamp(df, columns.timestamp, UNIT_MS[columns.timestamp_unit])
    return df.select(
        F.col(columns.key).alias("key"),
        size.alias("value_size"),
        ts.alias("ts"),
        size_ok.alias("size_ok"),
        ts_ok.alias("ts_ok"),
    )


def _value_size(df: DataFrame, columns: ColumnSpec) -> tuple[Column, Column]:
    if columns.value is not None:
        return F.coalesce(F.octet_length(F.col(columns.value)).cast("long"), F.lit(0)), F.lit(True)
    if columns.value_size is None:
        return F.lit(0).cast("long"), F.lit(True)
    raw = F.col(columns.value_size)
    parsed = raw.try_cast("long") if dict(df.dtypes)[columns.value_size] == "string" else raw.cast("long")
    ok = raw.isNull() | (parsed.isNotNull() & (parsed >= 0))
    return F.coalesce(F.when(parsed >= 0, parsed), F.lit(0)), ok


def _epoch(value: Column, factor: int) -> Column:
    """Epoch ``value`` x ``factor`` milliseconds as a timestamp; null outside years 1..9999."""
    millis = value * F.lit(factor)
    inside = (value >= F.lit(MIN_EPOCH_MS // factor)) & (value <= F.lit(MAX_EPOCH_MS // factor))
    return F.when(inside, F.timestamp_millis(F.when(inside, millis)))


def _timestamp(df: DataFrame, name: str | None, factor: int) -> tuple[Column, Column]:
    """Timestamps; integers (and all-digit text) are epoch ms, or epoch s with ``timestamp_unit="s"``."""
    if name is None:
        return F.lit(None).cast("timestamp"), F.lit(True)
    raw = F.col(name)
    kind = dict(df.dtypes)[name]
    if kind in INTEGER_TYPES:
        parsed = _epoch(raw.cast("long"), factor)
    elif kind == "string":
        digits = F.trim(raw).rlike(r"^-?[0-9]{1,18}$")
        parsed = F.when(digits, _epoch(F.trim(raw).try_cast("long"), factor)).otherwise(
            F.coalesce(raw.try_cast("timestamp"), F.try_to_timestamp(raw)))
    else:
        parsed = raw.cast("timestamp")
    return parsed, raw.isNull() | parsed.isNotNull()


def first_bad(df: DataFrame, columns: ColumnSpec, topic: str | None, role: str) -> DataFrame:
    """The first record whose value size (``role="size"``) or timestamp is unusable: its text (error path)."""
    if topic is not None and columns.topic is not None:
        df = df.where(F.col(columns.topic) == F.lit(topic))
    if role == "size":
        name, ok = columns.value_size or columns.value, _value_size(df, columns)[1]
    else:
        name, ok = columns.timestamp, _timestamp(df, columns.timestamp, UNIT_MS[columns.timestamp_unit])[1]
    return df.where(~ok).select(F.col(str(name)).cast("string").alias("value")).limit(1)


# ---------------------------------------------------------------- the one scan


def record_groups(records: DataFrame, window_s: int) -> DataFrame:
    """The single aggregation over the input that every figure is derived from.

    Keyed records: one row per (key, window).  Null-key records: one row per (window, ts,
    value_size) — ``null_ts``/``null_size`` are set only for them — so the null-key producers can
    replay them in send order.  Columns: key, window, null_ts, null_size, messages, bytes,
    bad_sizes, bad_timestamps, first_ts, last_ts.
    """
    window = (F.floor(F.unix_micros("ts") / F.lit(window_s * 1_000_000)) * F.lit(window_s)).cast("long")
    null_key = F.col("key").isNull()
    return (
        records.select(
            "key", window.alias("window"),
            F.when(null_key, F.unix_micros("ts")).alias("null_ts"),
            F.when(null_key, F.col("value_size")).alias("null_size"),
            "value_size", "ts", "size_ok", "ts_ok",
        )
        .groupBy("key", "window", "null_ts", "null_size")
        .agg(
            F.count(F.lit(1)).alias("messages"),
            F.sum("value_size").alias("bytes"),
            F.sum(F.when(~F.col("size_ok"), 1).otherwise(0)).alias("bad_sizes"),
            F.sum(F.when(~F.col("ts_ok"), 1).otherwise(0)).alias("bad_timestamps"),
            F.min("ts").alias("first_ts"),
            F.max("ts").alias("last_ts"),
        )
    )


def input_totals(groups: DataFrame) -> DataFrame:
    """One row: ``rows``, ``null_keys``, ``bad_sizes``, ``bad_timestamps``, ``first_ts``, ``last_ts``."""
    return groups.agg(
        F.coalesce(F.sum("messages"), F.lit(0)).alias("rows"),
        F.coalesce(F.sum(F.when(F.col("key").isNull(), F.col("messages"))), F.lit(0)).alias("null_keys"),
        F.coalesce(F.sum("bad_sizes"), F.lit(0)).alias("bad_sizes"),
        F.coalesce(F.sum("bad_timestamps"), F.lit(0)).alias("bad_timestamps"),
        F.min("first_ts").alias("first_ts"),
        F.max("last_ts").alias("last_ts"),
    )


# ---------------------------------------------------------------- key -> partition


def with_partitions(df: DataFrame, counts: Sequence[int]) -> DataFrame:
    """Add ``p<n>`` (int; -1 for a null key) for every partition count: Kafka's partition of the key.

    An Arrow UDF over the key column alone: only the keys cross to Python and only the partition
    numbers come back.
    """
    from pyspark.sql.functions import arrow_udf

    names = [partition_column(n) for n in counts]
    schema = T.StructType([T.StructField(name, T.IntegerType(), False) for name in names])
    chosen = tuple(counts)

    def place(keys: pa.Array) -> pa.Array:
        return _partitions_of(chosen, keys)

    # pyspark's stubs type only the deprecated ``functionType=`` forms; the type hints of ``place``
    # select the scalar Arrow UDF at runtime (no deprecation warning on stderr)
    make_udf: Callable[..., Any] = arrow_udf
    placed = make_udf(place, schema)("key")
    parts = [F.col(f"_placed.{name}").alias(name) for name in names]
    return df.withColumn("_placed", placed).select(*df.columns, *parts)


def _partitions_of(counts: tuple[int, ...], keys: pa.Array) -> pa.Array:
    """Runs in the Python worker: one ``partitions_for_arrow`` call per batch and count."""
    from engine.producer.arrow import partitions_for_arrow

    columns = [pa.array(partitions_for_arrow(keys, n), pa.int32()) for n in counts]
    return pa.StructArray.from_arrays(columns, names=[partition_column(n) for n in counts])


def _long_form(df: DataFrame, counts: Sequence[int], keep: Sequence[str]) -> DataFrame:
    """One row per row and partition count: ``keep`` + ``num_partitions``, ``partition``."""
    pairs = F.explode(F.array(*[
        F.struct(F.lit(n).alias("num_partitions"), F.col(partition_column(n)).alias("partition"))
        for n in counts
    ]))
    return df.select(*keep, pairs.alias("placed")).select(*keep, "placed.num_partitions", "placed.partition")


# ---------------------------------------------------------------- per-partition load


def keyed_windows(placed: DataFrame, counts: Sequence[int]) -> DataFrame:
    """Per (count, partition, window): messages and bytes of keyed records (``placed``: keyed groups)."""
    return (
        _long_form(placed, counts, ("window", "messages", "bytes"))
        .groupBy("num_partitions", "partition", "window")
        .agg(F.sum("messages").alias("messages"), F.sum("bytes").alias("bytes"))
    )


def null_key_windows(
    groups: DataFrame, counts: Sequence[int], mode: str, producers: int, seed: int
) -> DataFrame:
    """Per (count, partition, window): null-key records placed by ``producers`` modelled producers."""
    runs = groups.where(F.col("key").isNull()).select(
        "window", "null_ts", "null_size", "messages",
        F.pmod(F.xxhash64("null_ts", "null_size"), F.lit(producers)).cast("int").alias("producer"),
    )
    ordered = runs.repartition(max(1, min(producers, 8)), "producer").sortWithinPartitions(
        "producer", "null_ts", "null_size")
    replay = functools.partial(_place_null_runs, tuple(counts), mode, seed)
    return (
        ordered.mapInArrow(replay, WINDOW_SCHEMA)
        .groupBy("num_partitions", "partition", "window")
        .agg(F.sum("messages").alias("messages"), F.sum("bytes").alias("bytes"))
    )


def _place_null_runs(
    counts: tuple[int, ...], mode: str, seed: int, batches: Iterator[pa.RecordBatch]
) -> Iterator[pa.RecordBatch]:
    """Runs in the Python worker: each producer's runs, in order, through its ``NullKeyProducer``s."""
    from engine.spark.null_keys import NullKeyProducer

    producers: dict[tuple[int, int], NullKeyProducer] = {}
    for batch in batches:
        owner = batch.column("producer").to_numpy(zero_copy_only=False)
        messages = batch.column("messages").to_numpy(zero_copy_only=False)
        sizes = batch.column("null_size").to_numpy(zero_copy_only=False).astype(np.int64)
        windows = batch.column("window")
        bounds = np.flatnonzero(np.diff(owner)) + 1
        for lo, hi in zip(np.concatenate([[0], bounds]), np.concatenate([bounds, [batch.num_rows]])):
            producer = int(owner[lo])
            for n in counts:
                model = producers.setdefault((producer, n), NullKeyProducer(mode, n, seed, producer))
                seg = model.place(messages[lo:hi], sizes[lo:hi])
                rows = seg.run + lo
                columns = [pa.array(np.full(rows.size, n, dtype=np.int32)), pa.array(seg.partition),
                           windows.take(pa.array(rows)), pa.array(seg.records),
                           pa.array(seg.records * sizes[rows])]
                yield pa.RecordBatch.from_arrays(columns, schema=ARROW_WINDOW_SCHEMA)


def partition_windows(keyed: DataFrame, nulls: DataFrame | None) -> DataFrame:
    """Per (count, partition, window): messages and bytes (all records placed there) and keyed-only."""
    keyed = keyed.select("*", F.col("messages").alias("keyed_messages"), F.col("bytes").alias("keyed_bytes"))
    parts = [keyed]
    if nulls is not None:
        parts.append(nulls.select("*", F.lit(0).cast("long").alias("keyed_messages"),
                                  F.lit(0).cast("long").alias("keyed_bytes")))
    merged = functools.reduce(DataFrame.unionByName, parts)
    return merged.groupBy("num_partitions", "partition", "window").agg(
        *[F.sum(c).alias(c) for c in ("messages", "bytes", "keyed_messages", "keyed_bytes")])


def _peaks(window_s: int) -> list[Column]:
    timed = F.col("window").isNotNull()
    return [
        (F.max(F.when(timed, F.col("messages"))) / F.lit(window_s)).alias("peak_messages_per_s"),
        (F.max(F.when(timed, F.col("bytes"))) / F.lit(window_s)).alias("peak_bytes_per_s"),
    ]


def partition_load(windows: DataFrame, window_s: int) -> DataFrame:
    """Per (count, partition): messages, bytes (all records placed there), keyed-only totals, peaks."""
    return (
        windows.where(F.col("partition") >= 0)
        .groupBy("num_partitions", "partition")
        .agg(
            F.sum("messages").alias("messages"),
            F.sum("bytes").alias("bytes"),
            F.sum("keyed_messages").alias("keyed_messages"),
            F.sum("keyed_bytes").alias("keyed_bytes"),
            *_peaks(window_s),
        )
    )


def topic_peak(windows: DataFrame, num_partitions: int, window_s: int) -> DataFrame:
    """One row, ``peak_messages_per_s``: the busiest window of the whole topic (all its partitions).

    Every partition count places the same records, so one count (``num_partitions``) is enough.
    """
    timed = windows.where((F.col("num_partitions") == num_partitions) & (F.col("partition") >= 0)
                          & F.col("window").isNotNull())
    per_window = timed.groupBy("window").agg(F.sum("messages").alias("messages"))
    return per_window.agg(F.coalesce(F.max("messages") / F.lit(window_s), F.lit(0.0)).alias("peak_messages_per_s"))


# ---------------------------------------------------------------- hot keys


def key_load(placed: DataFrame, counts: Sequence[int]) -> DataFrame:
    """Per non-null key: its partitions (already computed), messages and bytes."""
    parts = [partition_column(n) for n in counts]
    totals = [F.sum("messages").alias("messages"), F.sum("bytes").alias("bytes")]
    return placed.groupBy("key", *parts).agg(*totals)


def hot_keys(keys: DataFrame, counts: Sequence[int], top: int) -> DataFrame:
    """The ``top`` keys of every (count, partition) by messages (ties: bytes, then key bytes).

    ``keys``: ``key_load`` output.  Columns: num_partitions, partition, rank (1 = hottest), key_text
    (the key as text; binary keys that are not UTF-8 show as ``0x<hex>``), key_hex, messages, bytes.
    """
    from pyspark.sql import Window

    ranked = _long_form(keys, counts, ("key", "messages", "bytes"))
    key_bytes = F.col("key").cast("binary")
    order = Window.partitionBy("num_partitions", "partition").orderBy(
        F.desc("messages"), F.desc("bytes"), key_bytes.asc()
    )
    return (
        ranked.withColumn("rank", F.row_number().over(order))
        .where(F.col("rank") <= top)
        .select(
            "num_partitions", "partition", "rank",
            _key_text(keys.schema["key"].dataType).alias("key_text"),
            F.lower(F.hex(key_bytes)).alias("key_hex"),
            "messages", "bytes",
        )
    )


def _key_text(kind: T.DataType) -> Column:
    if isinstance(kind, T.StringType):
        return F.col("key")
    decoded = F.try_validate_utf8(F.col("key").cast("string"))
    return F.coalesce(decoded, F.concat(F.lit("0x"), F.lower(F.hex("key"))))


# ---------------------------------------------------------------- per-consumer load

ASSIGNMENT_SCHEMA = T.StructType([
    T.StructField("strategy", T.StringType(), False),
    T.StructField("consumers", T.IntegerType(), False),
    T.StructField("num_partitions", T.IntegerType(), False),
    T.StructField("member", T.StringType(), False),
    T.StructField("partition", T.IntegerType(), False),  # -1: the member owns nothing
])


def consumer_load(windows: DataFrame, assignments: DataFrame, window_s: int) -> DataFrame:
    """Per (strategy, consumers, count, member): partitions owned, messages, bytes, peak rates.

    A consumer's peak is the busiest window of the sum over the partitions it owns.
    """
    keys = ["strategy", "consumers", "num_partitions", "member"]
    joined = assignments.join(
        windows.where(F.col("partition") >= 0), ["num_partitions", "partition"], "left"
    )
    per_window = joined.groupBy(*keys, "window").agg(
        F.coalesce(F.sum("messages"), F.lit(0)).alias("messages"),
        F.coalesce(F.sum("bytes"), F.lit(0)).alias("bytes"),
    )
    owned = assignments.groupBy(*keys).agg(
        F.sum(F.when(F.col("partition") >= 0, 1).otherwise(0)).cast("int").alias("partitions")
    )
    load = per_window.groupBy(*keys).agg(
        F.sum("messages").alias("messages"), F.sum("bytes").alias("bytes"), *_peaks(window_s)
    )
    return owned.join(load, keys)
