"""Where null-key records go: a stated number of producers, each with its own partitioner (no Spark here).

A record without a key has no partition of its own: the producer's partitioner picks one.  The
load pipeline models ``producers`` producers (default 1), each sending its share of the null-key
records in send order:

* ``"sticky"`` — Kafka >= 3.3's built-in partitioner (KIP-794), simplified: stay on a partition
  until ``batch.size`` (16,384) bytes of records went there (the record that crosses the limit
  included), then move to a partition chosen uniformly at random;
* ``"round-robin"`` — the pre-2.4 ``DefaultPartitioner``: a counter from a random start,
  ``toPositive(counter++) % n``.

Determinism: the model never depends on how Spark splits the input.  Null-key records are
aggregated into *runs* of identical records (same timestamp, same value size), a run goes to
producer ``pmod(xxhash64(ts, value_size), producers)``, and each producer sends its runs in
(timestamp, value size) order — records that tie in that order are identical, so their order
cannot change a figure.  Without a timestamp column the order is by value size alone.  Every
producer's random choices come from ``numpy.random.default_rng([seed, producer, n])``.

Runs are placed without expanding them into records, so a run of 10^8 records costs one draw per
partition switch, not one per record.

Worked example (asserted in tests/engine/spark/test_spark_null_keys.py): one producer, round-robin over 4
partitions, a run of 6 records of 100 bytes then a run of 1: seven consecutive partitions from
the producer's random start ``s``, i.e. ``s % 4`` and ``(s + 1) % 4`` get 2 records each::

    >>> producer = NullKeyProducer("round-robin", 4, seed=0, producer=0)
    >>> s = producer.counter
    >>> segments = producer.place(np.array([6, 1]), np.array([100, 100]))
    >>> per_partition = np.bincount(segments.partition, weights=segments.records, minlength=4)
    >>> [int(per_partition[(s + i) % 4]) for i in range(4)]
    [2, 2, 2, 1]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

BATCH_SIZE_BYTES = 16_384  # producer batch.size default
RECORD_OVERHEAD_BYTES = 8  # approximate DefaultRecord framing of a key-less record without headers
MODES = ("sticky", "round-robin")


@dataclass(frozen=True)
class Segments:
    """Placed records: ``records[i]`` records of run ``run[i]`` went to partition ``partition[i]``."""

    run: np.ndarray
    partition: np.ndarray
    records: np.ndarray


def _segments(run: np.ndarray, partition: np.ndarray, records: np.ndarray) -> Segments:
    keep = records > 0
    return Segments(run[keep].astype(np.int64), partition[keep].astype(np.int32),
                    records[keep].astype(np.int64))


class NullKeyProducer:
    """One producer's partitioner for null-key records, fed runs of identical records in send order."""

    def __init__(self, mode: str, num_partitions: int, seed: int, producer: int) -> None:
        if mode not in MODES:
            raise ValueError(f"null keys: mode must be one of {', '.join(MODES)}, got {mode!r}")
        self.mode = mode
        self.n = num_partitions
        self.rng = np.random.default_rng([seed, producer, num_partitions])
        self.counter = int(self.rng.integers(0, 2**31))  # round-robin counter (toPositive already)
        self.current = int(self.rng.integers(0, num_partitions))  # sticky partition
        self.produced = 0  # bytes sent to the sticky partition since the last switch

    def place(self, counts: np.ndarray, sizes: np.ndarray) -> Segments:
        """Place runs (``counts[i]`` records of ``sizes[i]`` value bytes), continuing from earlier calls."""
        counts = np.asarray(counts, dtype=np.int64)
        sizes = np.asarray(sizes, dtype=np.int64)
        if counts.size == 0:
            empty = np.empty(0, dtype=np.int64)
            return Segments(empty, empty.astype(np.int32), empty)
        if self.mode == "round-robin":
            return self._round_robin(counts)
        return self._sticky(counts, sizes + RECORD_OVERHEAD_BYTES)

    def _round_robin(self, counts: np.ndarray) -> Segments:
        """Short runs: one segment per record; runs of >= n records: one segment per partition."""
        starts = self.counter + np.concatenate([[0], np.cumsum(counts)[:-1]])
        self.counter += int(counts.sum())
        short = counts < self.n
        per_record_run = np.repeat(np.flatnonzero(short), counts[short])
        first = np.repeat(starts[short], counts[short])
        run_starts = np.cumsum(counts[short]) - counts[short]
        offsets = np.arange(per_record_run.size) - np.repeat(run_starts, counts[short])
        parts = [(per_record_run, (first + offsets) % self.n, np.ones(per_record_run.size, dtype=np.int64))]
        every = np.arange(self.n, dtype=np.int64)
        for index in np.flatnonzero(~short):
            c, s = int(counts[index]), int(starts[index])
            share = c // self.n + (((every - s) % self.n) < c % self.n)
            parts.append((np.full(self.n, index), every, share))
        return _segments(*(np.concatenate([p[i] for p in parts]) for i in range(3)))

    def _sticky(self, counts: np.ndarray, record_bytes: np.ndarray) -> Segments:
        """Chunks of records between switches, cut at run boundaries (no per-record arrays)."""
        end_records = np.cumsum(counts)
        end_bytes = np.cumsum(counts * record_bytes)
        chunk_starts, chunk_parts = [0], [self.current]
        done_bytes = 0  # bytes of this call's records already placed before the current chunk
        while True:
            target = done_bytes + BATCH_SIZE_BYTES - self.produced
            run = int(np.searchsorted(end_bytes, target, side="left"))
            if run == counts.size:  # the rest stays on the current partition
                self.produced += int(end_bytes[-1]) - done_bytes
                break
            before_bytes = int(end_bytes[run - 1]) if run else 0
            before_records = int(end_records[run - 1]) if run else 0
            taken = -(-(target - before_bytes) // int(record_bytes[run]))  # ceil: crossing record included
            last = before_records + taken  # records placed through the switching record
            done_bytes = before_bytes + taken * int(record_bytes[run])
            self.current = int(self.rng.integers(0, self.n))
            self.produced = 0
            if last >= int(end_records[-1]):
                break
            chunk_starts.append(last)
            chunk_parts.append(self.current)
        return self._cut(end_records, np.array(chunk_starts, dtype=np.int64), np.array(chunk_parts))

    @staticmethod
    def _cut(end_records: np.ndarray, chunk_starts: np.ndarray, chunk_parts: np.ndarray) -> Segments:
        run_starts = np.concatenate([[0], end_records[:-1]])
        cuts = np.unique(np.concatenate([run_starts, chunk_starts]))
        lengths = np.diff(np.concatenate([cuts, end_records[-1:]]))
        run = np.searchsorted(end_records, cuts, side="right")
        chunk = np.searchsorted(chunk_starts, cuts, side="right") - 1
        return _segments(run, chunk_parts[chunk], lengths)
