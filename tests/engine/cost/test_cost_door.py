"""One door for every caller: a computation never checks a ceiling itself (whoever calls it estimates and admits
the work with its own ceiling), and the assignors are costed from their own registries, an unknown one an error.
"""

from __future__ import annotations

import sys

import pytest

from engine import cost
from engine.consumer.librdkafka import STRATEGIES as LIBRDKAFKA_STRATEGIES
from engine.consumer.librdkafka.replay import COOPERATIVE as LIBRDKAFKA_COOPERATIVE
from engine.consumer.librdkafka.replay import replay_librdkafka
from engine.consumer.strategies import strategies
from engine.coordinator.assignors import SERVER_ASSIGNOR_NAMES, SHARE_ASSIGNOR_NAMES
from engine.cost import constants, terms
from engine.cost.share_consumers import estimate_share_capacity, estimate_share_consumers
from engine.errors import EngineError, LimitError
from engine.scenario import parse_scenario
from engine.share.capacity import CapacityInputs, compare
from engine.share.consumers import Workload, simulate

NOTHING = cost.Ceiling("nothing", 0.0, 0)


@pytest.fixture
def no_ceiling_anywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ceiling any loaded engine module holds lowered to nothing: a computation that checked one would
    refuse."""
    for name, module in list(sys.modules.items()):
        if name == "engine" or name.startswith("engine."):
            for ceiling in ("CLI_CEILING", "DASHBOARD_CEILING"):
                if hasattr(module, ceiling):
                    monkeypatch.setattr(module, ceiling, NOTHING)


def test_the_share_consumers_simulation_checks_no_ceiling(no_ceiling_anywhere: None) -> None:
    """The Sizing tab's and the Share Delivery page's runs: estimated by their callers, never refused inside."""
    workload = Workload(records=2_000, consumers=20, max_records=50, processing_ms=10, failure="crash")
    estimate = estimate_share_consumers(workload)
    with pytest.raises(LimitError):
        cost.admit(estimate, NOTHING)
    run = simulate(workload)
    assert run.final_start == 2_000
    inputs = CapacityInputs(target_rps=2_000, processing_ms=50, share_partitions=3, max_records=500)
    assert estimate_share_capacity(inputs).seconds > 2 * 0.9 * estimate_share_consumers(
        Workload(records=1, consumers=1)).seconds
    assert compare(inputs).share.measured_rps > 0


def test_the_partition_log_and_the_librdkafka_replay_check_no_ceiling(no_ceiling_anywhere: None) -> None:
    from engine.storage.partition_log import simulate as simulate_log

    _, answer = simulate_log({"workload": {"batches": 2_000, "records_per_batch": 10},
                              "actions": [{"retention_at_ms": 10**9}]})
    assert answer["log_end_offset"] == 20_000
    topics = {f"t{i}": 200 for i in range(5)}
    scenario = parse_scenario({"topics": topics, "members": [{"id": f"c{i}", "topics": list(topics)}
                                                             for i in range(50)]})
    assert cost.estimate_assignment(scenario, "cooperative-sticky", "librdkafka").seconds > 0.0
    steps = replay_librdkafka(scenario, "cooperative-sticky")
    assert sum(len(tps) for tps in steps[0].assignment.values()) == 1_000


def test_the_timing_wheel_case_is_read_without_a_ceiling(no_ceiling_anywhere: None) -> None:
    from engine.server.timer.cases import parse_case

    config, tasks = parse_case({"tick_ms": 1, "wheel_size": 2, "tasks": [{"id": "a", "delay_ms": 2**40}]})
    assert len(tasks) == 1 and config.wheel_size == 2


@pytest.mark.parametrize(("estimate", "message"), [
    (lambda s: cost.estimate_assignment(s, "nope"), "strategy: the cost model has no java strategy 'nope'"),
    (lambda s: cost.estimate_assignment(s, "sticky", "librdkafka"),
     "strategy: the cost model has no librdkafka strategy 'sticky'"),
    (lambda s: cost.estimate_assignment(s, "range", "kcat"), "client: the cost model has no client 'kcat'"),
    (lambda s: cost.estimate_assign_command(s, "nope"), "no java strategy 'nope'"),
    (lambda s: cost.estimate_server_assignment(s, "sticky"), "assignor: the cost model has no KIP-848 assignor"),
    (lambda s: cost.estimate_share_assignment([], "uniform"), "no share-group assignor 'uniform'"),
    (lambda s: cost.estimate_rolling_restart(s, ["range", "nope"]), "no java strategy 'nope'"),
])
def test_an_unknown_strategy_or_assignor_is_an_error_naming_it(estimate: object, message: str) -> None:
    scenario = parse_scenario({"topics": {"t0": 4}, "members": [{"id": "a", "topics": ["t0"]}]})
    with pytest.raises(EngineError, match=message):
        estimate(scenario)  # type: ignore[operator]


def test_every_registered_strategy_and_assignor_has_a_cost_model() -> None:
    """The registries own the names; the cost model's terms are keyed by them, in their order, with measured
    constants, and its cooperative strategies are the registries' cooperative ones."""
    java = [s.name for s in strategies()]
    assert list(terms.CLIENT_STRATEGIES["java"]) == java
    assert list(terms.CLIENT_STRATEGIES["librdkafka"]) == list(LIBRDKAFKA_STRATEGIES)
    assert list(terms.SERVER_ASSIGNORS) == list(SERVER_ASSIGNOR_NAMES)
    assert list(terms.SHARE_ASSIGNORS) == list(SHARE_ASSIGNOR_NAMES)
    models = [terms.assignment_model(n) for n in java]
    models += [terms.assignment_model(n, "librdkafka") for n in LIBRDKAFKA_STRATEGIES]
    models += [terms.server_model(n) for n in SERVER_ASSIGNOR_NAMES]
    models += [terms.share_model(n) for n in SHARE_ASSIGNOR_NAMES]
    for model in models:
        assert model in terms.TERMS and constants.MODELS[model]["seconds"], model
    assert terms.COOPERATIVE == {("java", s.name) for s in strategies() if s.cooperative} | {
        ("librdkafka", n) for n in LIBRDKAFKA_COOPERATIVE}
