"""The pipeline's steps: typed ``DataFrame -> DataFrame`` functions, no IO inside (Kedro style).

::

    records ──normalize──> key, value_size, ts ──with_window──> key, value_size, window
            ──with_partitions──> + p12, p24 ...      (Kafka's murmur2 via mapInArrow, per Arrow batch)
            ──partition_windows──> per (count, partition, window): messages, bytes, keyed ...
            ──partition_load──> per (count, partition): totals and peak rates
    records ──key_load──> per key ──hot_keys──> top keys of every partition
    windows + assignment rows ──consumer_load──> per (strategy, consumers, count, member)

Keyed records go where ``engine.producer.arrow.partitions_for_arrow`` says (the Java producer's
``toPositive(murmur2(keyBytes)) % n``).  Null keys follow ``null_keys``:

* ``"sticky"`` — Kafka >= 3.3's built-in partitioner (KIP-794), simplified: each Spark task is
  one producer that stays on a partition until ``batch.size`` (16,384) bytes of records went
  there, then moves to a partition chosen uniformly at random (seeded, so reruns agree);
* ``"round-robin"`` — the pre-2.4 ``DefaultPartitioner``: a per-producer counter from a random
  start, ``toPositive(counter++) % n``;
* ``"drop"`` — null keys are left out of the per-partition load (``partition == -1``).

Worked example (asserted in tests/spark/test_transforms.py): with 12 partitions the keys
``"21"`` and ``""`` land on partitions 0 and 9 (``murmur2(b"") = 275646681``, ``% 12 = 9``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence

import numpy as np
import pyarrow as pa
from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F
from pyspark.sql import types as T

from engine.spark.io import ColumnSpec

NULL_KEY_PARTITIONERS = ("sticky", "round-robin", "drop")
BATCH_SIZE_BYTES = 16_384  # producer batch.size default
RECORD_OVERHEAD_BYTES = 8  # approximate DefaultRecord framing of a key-less record without headers


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
    ts, ts_ok = _timestamp(df, columns.timestamp)
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


def _timestamp(df: DataFrame, name: str | None) -> tuple[Column, Column]:
    if name is None:
        return F.lit(None).cast("timestamp"), F.lit(True)
    raw = F.col(name)
    kind = dict(df.dtypes)[name]
    if kind in ("tinyint", "smallint", "int", "bigint"):
        parsed = F.timestamp_millis(raw.cast("long"))
    elif kind == "string":
        parsed = F.coalesce(raw.try_cast("timestamp"), F.try_to_timestamp(raw))
    else:
        parsed = raw.cast("timestamp")
    return parsed, raw.isNull() | parsed.isNotNull()


# ---------------------------------------------------------------- key -> partition


def with_partitions(
    df: DataFrame, counts: Sequence[int], null_keys: str = "sticky", seed: int = 0
) -> DataFrame:
    """Add ``p<n>`` (int) for every partition count: Kafka's partition of each record's key."""
    if null_keys not in NULL_KEY_PARTITIONERS:
        raise ValueError(f"null_keys: must be one of {NULL_KEY_PARTITIONERS}, got {null_keys!r}")
    fields = list(df.schema.fields) + [T.StructField(partition_column(n), T.IntegerType(), False) for n in counts]
    has_size = "value_size" in df.columns
    run = functools.partial(_partition_batches, tuple(counts), null_keys, seed, has_size)
    return df.mapInArrow(run, T.StructType(fields))


def _partition_batches(
    counts: tuple[int, ...], null_keys: str, seed: int, has_size: bool, batches: Iterator[pa.RecordBatch]
) -> Iterator[pa.RecordBatch]:
    """Runs in the Python worker: one ``partitions_for_arrow`` call per batch and count."""
    from pyspark import TaskContext

    from engine.producer.arrow import partitions_for_arrow

    context = TaskContext.get()
    task = context.partitionId() if context is not None else 0
    producers = {n: NullKeyProducer(null_keys, n, seed, task) for n in counts}
    for batch in batches:
        keys = batch.column(batch.schema.get_field_index("key"))
        sizes = batch.column(batch.schema.get_field_index("value_size")) if has_size else None
        extra = []
        for n in counts:
            parts = partitions_for_arrow(keys, n)
            producers[n].place(parts, sizes)
            extra.append(pa.array(parts, pa.int32()))
        names = batch.schema.names + [partition_column(n) for n in counts]
        yield pa.RecordBatch.from_arrays(list(batch.columns) + extra, names=names)


class NullKeyProducer:
    """Where one producer (one Spark task) sends its null-key records, in record order.

    >>> producer = NullKeyProducer("round-robin", 4, seed=0, task=0)
    >>> parts = np.array([-1, 3, -1, -1], dtype=np.int32)
    >>> producer.place(parts, None)
    >>> [int(p) for p in parts[[0, 2, 3]]] == [(producer.start + i) % 4 for i in range(3)]
    True
    """

    def __init__(self, mode: str, num_partitions: int, seed: int, task: int) -> None:
        self.mode = mode
        self.n = num_partitions
        self.rng = np.random.default_rng([seed, task, num_partitions])
        self.start = int(self.rng.integers(0, 2**31))  # round-robin counter (toPositive already)
        self.counter = self.start
        self.current = int(self.rng.integers(0, num_partitions))  # sticky partition
        self.produced = 0  # bytes sent to the sticky partition so far

    def place(self, parts: np.ndarray, sizes: pa.Array | None) -> None:
        """Fill the ``-1`` entries of ``parts`` (null keys) in place, unless mode is ``drop``."""
        nulls = np.flatnonzero(parts < 0)
        if nulls.size == 0 or self.mode == "drop":
            return
        if self.mode == "round-robin":
            parts[nulls] = (self.counter + np.arange(nulls.size, dtype=np.int64)) % self.n
            self.counter += int(nulls.size)
            return
        record = np.full(nulls.size, RECORD_OVERHEAD_BYTES, dtype=np.int64)
        if sizes is not None:
            record += np.asarray(sizes.to_numpy(zero_copy_only=False), dtype=np.int64)[nulls]
        parts[nulls] = self._sticky(np.cumsum(record))

    def _sticky(self, csum: np.ndarray) -> np.ndarray:
        """KIP-794: stay until ``batch.size`` bytes went to the partition, then switch (count resets)."""
        out = np.empty(csum.size, dtype=np.int32)
        pos = 0
        while pos < csum.size:
            base = int(csum[pos - 1]) if pos else 0
            last = int(np.searchsorted(csum, base + BATCH_SIZE_BYTES - self.produced, side="left"))
            end = min(last + 1, csum.size)
            out[pos:end] = self.current
            self.produced += int(csum[end - 1]) - base
            pos = end
            if self.produced >= BATCH_SIZE_BYTES:
                self.current = int(self.rng.integers(0, self.n))
                self.produced = 0
        return out


# ---------------------------------------------------------------- per-partition load


def _long_form(df: DataFrame, counts: Sequence[int], keep: Sequence[str]) -> DataFrame:
    """One row per record and partition count: ``keep`` + ``num_partitions``, ``partition``."""
    pairs = F.explode(F.array(*[
        F.struct(F.lit(n).alias("num_partitions"), F.col(partition_column(n)).alias("partition")) for n in counts
    ]))
    return df.select(*keep, pairs.alias("placed")).select(*keep, "placed.num_partitions", "placed.partition")


def with_window(df: DataFrame, window_s: int, sizes: bool = True) -> DataFrame:
    """Only what key placement and windowed counts need: ``key``, ``value_size`` (unless ``sizes`` is
    False), ``window`` (start in epoch seconds, null without a timestamp) — fewer columns cross
    the JVM <-> Python boundary in ``with_partitions``, which is where its time goes."""
    window = (F.floor(F.unix_micros("ts") / F.lit(window_s * 1_000_000)) * F.lit(window_s)).cast("long")
    return df.select("key", *(["value_size"] if sizes else []), window.alias("window"))


def partition_windows(df: DataFrame, counts: Sequence[int]) -> DataFrame:
    """Per (count, partition, window): messages and bytes, all records and keyed ones.

    Input: ``with_partitions(with_window(...))``.  ``window`` is null for records without a
    timestamp.  Rows with ``partition == -1`` (dropped null keys) are kept so totals stay
    complete; per-partition views filter them.
    """
    if "value_size" not in df.columns:
        df = df.withColumn("value_size", F.lit(0).cast("long"))
    keyed = F.col("key").isNotNull()
    return (
        _long_form(df, counts, ("key", "value_size", "window"))
        .groupBy("num_partitions", "partition", "window")
        .agg(
            F.count(F.lit(1)).alias("messages"),
            F.sum("value_size").alias("bytes"),
            F.sum(F.when(keyed, 1).otherwise(0)).alias("keyed_messages"),
            F.sum(F.when(keyed, F.col("value_size")).otherwise(0)).alias("keyed_bytes"),
        )
    )


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


def input_totals(df: DataFrame) -> DataFrame:
    """One row: ``rows``, ``null_keys``, ``bad_sizes``, ``bad_timestamps``, ``first_ts``, ``last_ts``."""
    return df.agg(
        F.count(F.lit(1)).alias("rows"),
        F.sum(F.when(F.col("key").isNull(), 1).otherwise(0)).alias("null_keys"),
        F.sum(F.when(~F.col("size_ok"), 1).otherwise(0)).alias("bad_sizes"),
        F.sum(F.when(~F.col("ts_ok"), 1).otherwise(0)).alias("bad_timestamps"),
        F.min("ts").alias("first_ts"),
        F.max("ts").alias("last_ts"),
    )


# ---------------------------------------------------------------- hot keys


def key_load(df: DataFrame) -> DataFrame:
    """Per non-null key: messages and bytes."""
    return (
        df.where(F.col("key").isNotNull())
        .groupBy("key")
        .agg(F.count(F.lit(1)).alias("messages"), F.sum("value_size").alias("bytes"))
    )


def hot_keys(keys: DataFrame, counts: Sequence[int], top: int) -> DataFrame:
    """The ``top`` keys of every (count, partition) by messages (ties: bytes, then key bytes).

    Columns: num_partitions, partition, rank (1 = hottest), key_text (the key as text; binary keys
    that are not UTF-8 show as ``0x<hex>``), key_hex, messages, bytes.
    """
    from pyspark.sql import Window

    ranked = _long_form(with_partitions(keys, counts, "drop"), counts, ("key", "messages", "bytes"))
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
