"""Sizing math (engine.sizing): worked examples, the seed article's mistake, costs, perf-test parsing."""

from __future__ import annotations

import random

import pytest

from engine.errors import EngineError, LimitError
from engine.sizing import (
    CONSTANTS,
    SizingInputs,
    controller_failover_s,
    cost_curves,
    curve_counts,
    leaders_per_broker,
    open_file_handles,
    parse_perf_output,
    partitions_needed,
    producer_memory_bytes,
    replication_latency_ms,
    seed_article_partitions,
    shortfall_mb_s,
    size,
    summary_text,
    unavailability_s,
)

PRODUCER_OUT = (
    "249982 records sent, 49976.4 records/sec (47.66 MB/sec), 380.1 ms avg latency, 640.0 ms max latency.\n"
    "500000 records sent, 49985.004499 records/sec (47.67 MB/sec), 373.25 ms avg latency, 632.00 ms max latency,"
    " 355 ms 50th, 590 ms 95th, 623 ms 99th, 630 ms 99.9th.\n"
)
CONSUMER_OUT = (
    "start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec,"
    " rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec\n"
) + """\
2024-10-25 10:00:00:000, 2024-10-25 10:00:08:000, 95.3674, 11.9209, 100000, 12500.0000, 3000, 5000, 19.0735, 20000.0000
"""
OLD_CONSUMER_OUT = """\
start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec
2016-01-01 10:00:00:000, 2016-01-01 10:00:05:000, 95.3674, 19.0735, 100000, 20000.0000
"""


def test_module_worked_example() -> None:
    assert partitions_needed(200, 25, 10) == 20
    assert seed_article_partitions(200, 25, 10) == 8
    assert shortfall_mb_s(200, 25, 10, 8) == 120.0
    assert shortfall_mb_s(200, 25, 10, 20) == 0.0


def test_headroom_and_rounding() -> None:
    assert partitions_needed(100, 10, 10) == 10  # exact division, no float overshoot
    assert partitions_needed(100, 10, 10, headroom_pct=50) == 15
    assert partitions_needed(100, 30, 40) == 4  # 3.33 -> 4
    assert size(SizingInputs(target_mb_s=200, producer_mb_s=25, consumer_mb_s=10, brokers=6,
                             replication_factor=3, round_to_brokers=True)).recommended == 24


def test_seed_formula_under_sizes_whenever_p_differs_from_c(seeded_rng: random.Random) -> None:
    for _ in range(200):
        t, p, c = (seeded_rng.uniform(1, 1000) for _ in range(3))
        right, wrong = partitions_needed(t, p, c), seed_article_partitions(t, p, c)
        assert wrong <= right
        assert right * min(p, c) >= t * (1 - 1e-9)  # the rule always meets the target
    assert seed_article_partitions(100, 10, 10) == partitions_needed(100, 10, 10)


def test_seed_article_000_cost_numbers() -> None:
    # "10000 partitions ... batch.size 16KB ... about 157MB"
    assert producer_memory_bytes(10_000, 16_384) == 163_840_000  # = 156.25 MiB
    # "10000 partitions, 10 brokers ... 1000 partitions per broker"
    assert leaders_per_broker(10_000, 10) == 1000
    zk = SizingInputs(brokers=10, replication_factor=3, era="zookeeper")
    assert unavailability_s(10_000, zk) == pytest.approx(5.0)  # 1000 leaders x 5 ms (Jun Rao 2015)
    assert controller_failover_s(10_000, zk) == pytest.approx(20.0)  # 10,000 x 2 ms
    assert controller_failover_s(10_000, SizingInputs(brokers=10)) == pytest.approx(1.0)  # KRaft election timeout


def test_files_and_replication_latency() -> None:
    inputs = SizingInputs(brokers=3, replication_factor=3, segments_per_partition=5)
    assert open_file_handles(20, inputs) == 20 * 5 * 3  # every broker holds every partition
    # 3000 partitions, 3 brokers: 1000 leaders per broker, each follower fetches 1000*(2/2) = 1000 -> 20 ms
    assert replication_latency_ms(3000, inputs) == pytest.approx(20.0)
    assert replication_latency_ms(3000, SizingInputs(brokers=1, replication_factor=1)) == 0.0


def test_constraints_flag_what_is_over() -> None:
    result = size(SizingInputs(era="zookeeper"), chosen=5000)
    over = {c.name for c in result.constraints if not c.ok}
    assert "partition replicas per broker" in over and "producer memory for one batch per partition" in over
    assert "partitions per cluster" not in over
    assert all(c.ok for c in size(SizingInputs()).constraints)
    assert "OVER" in summary_text(result) and "8" in summary_text(result)


def test_constants_are_editable_and_sourced() -> None:
    assert all(c.source and c.era for c in CONSTANTS.values())
    edited = SizingInputs(brokers=10, era="zookeeper", constants={"election_ms_zk": 10.0})
    assert unavailability_s(10_000, edited) == pytest.approx(10.0)
    with pytest.raises(EngineError, match="unknown constant"):
        SizingInputs(constants={"nope": 1.0}).validate()


def test_cost_curves_align_with_counts() -> None:
    counts = curve_counts(20)
    assert 20 in counts and counts[0] == 1 and counts[-1] >= 80
    curves = cost_curves(SizingInputs(), counts)
    assert all(len(v) == len(counts) for v in curves.values())
    assert curves["max useful consumers in one group"] == [float(n) for n in counts]


@pytest.mark.parametrize(("kw", "field"), [
    (dict(target_mb_s=0), "target_mb_s"), (dict(producer_mb_s=-5), "producer_mb_s"),
    (dict(consumer_mb_s="fast"), "consumer_mb_s"), (dict(consumer_mb_s=float("nan")), "consumer_mb_s"),
    (dict(brokers=0), "brokers"), (dict(replication_factor=4), "replication_factor"),
    (dict(headroom_pct=-1), "headroom_pct"), (dict(era="etcd"), "era"),
])
def test_bad_inputs_name_the_field(kw: dict, field: str) -> None:
    with pytest.raises(EngineError, match=field):
        size(SizingInputs(**kw))


def test_enormous_counts_are_refused() -> None:
    with pytest.raises(LimitError, match="partitions"):
        partitions_needed(1e7, 0.0001, 0.0001)


def test_parse_producer_summary_uses_the_final_line() -> None:
    got = parse_perf_output(PRODUCER_OUT)
    assert (got.tool, got.mb_per_sec, got.records) == ("producer", 47.67, 500000)
    assert got.extra["avg_latency_ms"] == 373.25


def test_parse_consumer_prefers_fetch_rate() -> None:
    got = parse_perf_output(CONSUMER_OUT)
    assert (got.tool, got.mb_per_sec, got.records_per_sec, got.records) == ("consumer", 19.0735, 20000.0, 100000)
    assert parse_perf_output(OLD_CONSUMER_OUT).mb_per_sec == 19.0735


@pytest.mark.parametrize("text", ["", "hello world", "start.time, end.time, MB.sec\n1, 2, x"])
def test_unparseable_perf_output(text: str) -> None:
    with pytest.raises(EngineError, match="perf output"):
        parse_perf_output(text)


def test_perf_output_size_limit() -> None:
    with pytest.raises(LimitError):
        parse_perf_output("x" * 1_000_001)
