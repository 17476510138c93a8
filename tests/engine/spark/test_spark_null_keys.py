"""The null-key producer model (engine.spark.null_keys): numpy only, no Spark."""

from __future__ import annotations

import random
import time
from collections import Counter

import numpy as np
import pytest

from engine.spark.null_keys import BATCH_SIZE_BYTES, NullKeyProducer, Segments


def per_run(segments: Segments) -> Counter[tuple[int, int]]:
    """(run, partition) -> records."""
    out: Counter[tuple[int, int]] = Counter()
    for run, part, records in zip(segments.run.tolist(), segments.partition.tolist(), segments.records.tolist()):
        out[(run, part)] += records
    return out


def test_docstring_example() -> None:
    producer = NullKeyProducer("round-robin", 4, seed=0, producer=0)
    s = producer.counter
    segments = producer.place(np.array([6, 1]), np.array([100, 100]))
    per_partition = np.bincount(segments.partition, weights=segments.records, minlength=4)
    assert [int(per_partition[(s + i) % 4]) for i in range(4)] == [2, 2, 2, 1]


def test_sticky_switches_after_batch_size_bytes() -> None:
    producer = NullKeyProducer("sticky", 1000, seed=1, producer=0)
    first = producer.current
    # 992 + 8 bytes overhead = 1,000 bytes a record -> a switch every 17 records (16,384 B)
    segments = producer.place(np.array([40]), np.array([992]))
    assert segments.records.tolist() == [17, 17, 6]
    assert segments.partition[0] == first
    assert segments.partition[1] != first or segments.partition[2] != first  # ~1e-6 to repeat twice
    assert producer.produced == 6 * 1000  # the count resets at a switch


@pytest.mark.parametrize("mode", ["sticky", "round-robin"])
def test_runs_place_exactly_like_single_records(mode: str, seeded_rng: random.Random) -> None:
    """A run of c identical records is placed as c records one after another would be."""
    n = seeded_rng.choice([1, 3, 12, 50])
    counts = np.array([seeded_rng.choice([1, 1, 2, 7, 60, 400]) for _ in range(200)])
    sizes = np.array([seeded_rng.choice([0, 10, 600, 5_000, 20_000]) for _ in range(200)])
    runs = NullKeyProducer(mode, n, seed=3, producer=2).place(counts, sizes)
    records = NullKeyProducer(mode, n, seed=3, producer=2).place(np.ones(counts.sum(), dtype=np.int64),
                                                                np.repeat(sizes, counts))
    owner = np.repeat(np.arange(counts.size), counts)
    expanded: Counter[tuple[int, int]] = Counter()
    for (record, part), c in per_run(records).items():
        expanded[(int(owner[record]), part)] += c
    assert per_run(runs) == expanded
    assert int(runs.records.sum()) == int(counts.sum())


@pytest.mark.parametrize("mode", ["sticky", "round-robin"])
def test_calls_continue_where_the_last_one_stopped(mode: str) -> None:
    counts, sizes = np.array([5, 30, 1, 900, 2]), np.array([3_000, 100, 0, 40, 16_384])
    whole = per_run(NullKeyProducer(mode, 7, seed=9, producer=0).place(counts, sizes))
    producer = NullKeyProducer(mode, 7, seed=9, producer=0)
    first, second = producer.place(counts[:2], sizes[:2]), producer.place(counts[2:], sizes[2:])
    split = per_run(first) + Counter({(run + 2, part): c for (run, part), c in per_run(second).items()})
    assert whole == split


def test_producers_and_seeds_differ_but_repeat() -> None:
    counts, sizes = np.array([5_000]), np.array([500])
    a = NullKeyProducer("sticky", 24, seed=1, producer=0).place(counts, sizes)
    again = NullKeyProducer("sticky", 24, seed=1, producer=0).place(counts, sizes)
    other = NullKeyProducer("sticky", 24, seed=1, producer=1).place(counts, sizes)
    assert per_run(a) == per_run(again) and per_run(a) != per_run(other)


def test_a_huge_run_costs_one_draw_per_switch() -> None:
    started = time.process_time()  # CPU time: the claim is about work, and a busy machine must not fail it
    segments = NullKeyProducer("sticky", 12, seed=0, producer=0).place(np.array([10**8]), np.array([0]))
    assert int(segments.records.sum()) == 10**8
    assert len(segments.records) == -(-10**8 // (BATCH_SIZE_BYTES // 8))  # 2,048 records of 8 B a batch
    rr = NullKeyProducer("round-robin", 12, seed=0, producer=0).place(np.array([10**8]), np.array([0]))
    assert sorted(rr.records.tolist()) == [8_333_333] * 8 + [8_333_334] * 4
    assert time.process_time() - started < 5


def test_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="null keys: mode must be one of sticky, round-robin"):
        NullKeyProducer("drop", 3, 0, 0)
