"""The null-key partitioner simulation (engine.producer.null_keys)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine.errors import EngineError, LimitError
from engine.producer.null_keys import ProducerConfig, _load_stats, leaders_for, simulate, simulate_all


def test_docstring_worked_example() -> None:
    runs = simulate_all(ProducerConfig())
    rr, sticky, uniform = runs["round_robin"], runs["sticky"], runs["uniform_sticky"]
    assert rr.records_per_partition.sum() == 12_000
    assert np.allclose(rr.broker_share(), 1 / 3, atol=1e-4)
    assert 0.70 < sticky.broker_share()[2] < 0.85  # KIP-480 piles onto the slow broker
    assert uniform.broker_share()[2] < 0.40  # KIP-794 fixes it


def test_round_robin_is_even_and_makes_small_batches() -> None:
    run = simulate(ProducerConfig(linger_ms=5, messages_per_sec=2000), "round_robin")
    per = run.records_per_partition
    assert per.max() - per.min() <= 1
    sticky = simulate(ProducerConfig(linger_ms=5, messages_per_sec=2000), "sticky")
    assert sticky.mean_batch_bytes() > 3 * run.mean_batch_bytes()  # why KIP-480 exists


def test_equal_brokers_give_no_systematic_skew(seeded_rng: random.Random) -> None:
    cfg = ProducerConfig(broker_latency_ms=(5.0, 5.0, 5.0), seed=seeded_rng.randrange(1000))
    for name, run in simulate_all(cfg).items():
        assert np.all(np.abs(run.broker_share() - 1 / 3) < 0.1), name


def test_simulation_is_deterministic_for_a_seed() -> None:
    a = simulate(ProducerConfig(seed=9), "uniform_sticky")
    b = simulate(ProducerConfig(seed=9), "uniform_sticky")
    assert (a.records == b.records).all() and a.switches == b.switches


def test_uniform_sticky_switches_after_batch_size_bytes() -> None:
    def switches(rate: int) -> int:
        cfg = ProducerConfig(partitions=4, brokers=1, broker_latency_ms=(1.0,), messages_per_sec=rate,
                             batch_size=10_000, message_bytes=1000, duration_ms=1000)
        return simulate(cfg, "uniform_sticky").switches

    # 5 records per ms, drained every ms: 10,000 bytes reached exactly at a drain -> switch per 10 records
    assert switches(5000) == pytest.approx(5000 / 10, abs=2)
    # 4 per ms: at 10 records the open batch holds 2 (not full), the switch waits for the drain -> 12
    assert switches(4000) == pytest.approx(4000 / 12, abs=2)


def test_load_stats_is_kafkas_cumulative_frequency_table() -> None:
    # BuiltInPartitioner comment: queue sizes 0 3 1 -> inverted 4 1 3 -> running sum 4 5 8
    assert _load_stats([0, 3, 1]).tolist() == [4, 5, 8]
    assert _load_stats([2, 2, 2]) is None


def test_leaders_round_robin_over_brokers() -> None:
    assert leaders_for(5, 2).tolist() == [0, 1, 0, 1, 0]


@pytest.mark.parametrize("kw", [dict(partitions=0), dict(brokers=0), dict(batch_size=-1),
                                dict(broker_latency_ms=(1.0, 1.0, -5.0)), dict(linger_ms="5")])
def test_bad_config_is_rejected_with_the_field(kw: dict) -> None:
    with pytest.raises(EngineError, match=next(iter(kw))):
        ProducerConfig(**kw).validate()


def test_limits() -> None:
    with pytest.raises(LimitError, match="records"):
        ProducerConfig(messages_per_sec=1_000_000, duration_ms=20_000).validate()
    with pytest.raises(EngineError, match="strategy"):
        simulate(ProducerConfig(), "random")
