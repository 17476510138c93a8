"""Sizing's own re-validation (``SizingInputs.problems``), the constraint table and the perf-paste check."""

from __future__ import annotations

import pytest

from engine.sizing import SizingError, SizingInputs, constraint_rows, measured_throughput, size

PRODUCER_OUT = ("500000 records sent, 49985.0 records/sec (47.67 MB/sec), 373.25 ms avg latency, "
                "632.00 ms max latency, 355 ms 50th, 590 ms 95th, 623 ms 99th, 630 ms 99.9th.")


def test_problems_docstring_example_lists_every_refusal() -> None:
    assert SizingInputs(producer_mb_s=0, replication_factor=5).problems() == [
        "producer_mb_s: must be greater than 0, got 0", "replication_factor: must be between 1 and 3, got 5"]
    assert SizingInputs().problems() == []
    assert SizingInputs(era="cloud", constants={"nope": 1.0}).problems() == [
        "era: expected 'kraft' or 'zookeeper', got 'cloud'", "constants: unknown constant 'nope'"]


def test_validate_raises_the_first_problem() -> None:
    with pytest.raises(SizingError, match="^target_mb_s: must be greater than 0"):
        SizingInputs(target_mb_s=0, consumer_mb_s=0).validate()
    with pytest.raises(SizingError, match="target_mb_s"):
        size(SizingInputs(target_mb_s=-1))


def test_constraint_rows_worked_example() -> None:
    rows = constraint_rows(size(SizingInputs()))
    assert len(rows) == len(size(SizingInputs()).constraints)
    assert set(rows[0]) == {"check", "value", "unit", "limit", "verdict", "note"}
    assert {r["verdict"] for r in rows} <= {"meets", "misses"}


def test_measured_throughput_checks_the_tool() -> None:
    assert measured_throughput(PRODUCER_OUT, "producer").mb_per_sec == 47.67
    with pytest.raises(SizingError, match="consumer perf output: this looks like "
                                          "kafka-producer-perf-test.sh output"):
        measured_throughput(PRODUCER_OUT, "consumer")
