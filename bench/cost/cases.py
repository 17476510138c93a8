"""The measured cases of ``python -m bench cost`` but the share groups' (``bench.cost.share_groups``), the streams
groups' (``bench.cost.streams``) and Spark's (``bench.cost_load``): scenarios under every registered assignor (the
strategy registries name what is measured), ``assign``'s JSON in and out, the pages' derived rows, and every
computation estimated from counts.

A ``Case`` builds its input (not measured) and returns the computation to time, the features its model reads and,
for a held-out row, the estimate to compare with (``if_fitted``: none before a model's first fit).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import cost
from engine.cli import DOCUMENT_LIMITS
from engine.comparison import client_assignors, outcomes
from engine.consumer.group import replay, step_to_json
from engine.consumer.librdkafka import STRATEGIES as LIBRDKAFKA_STRATEGIES
from engine.consumer.librdkafka.replay import replay_librdkafka
from engine.consumer.membership import RollingRestartConfig, compare_rolling_restarts
from engine.consumer.protocol import parse_strategy_lines, walkthrough
from engine.consumer.strategies import strategy_names
from engine.coordinator.assignors import SERVER_ASSIGNOR_NAMES
from engine.coordinator.offsets_partition import cli_coordinator
from engine.coordinator.target_assignment import server_assign
from engine.cost import assignment as cost_assignment
from engine.cost import computations
from engine.cost.constants import MODELS as CURRENT
from engine.inputs import decode_json, encode_json
from engine.producer import keysample
from engine.producer.cli import cli_hash
from engine.producer.idempotence import cli_produce
from engine.producer.partitioners import client_partitions
from engine.producer.remap import remap_curve
from engine.scenario import Scenario, parse_scenario
from engine.server.replicas import cli_replicas
from engine.server.timer.cases import cli_wheel
from engine.server.timer.cost import COST_MAX_DELAY_MS, measure_costs
from engine.server.timer.model import WheelConfig
from engine.storage.partition_log import cli_log
from engine.tools.detect import parse_text
from engine.tools.to_scenario import to_scenario

Prepared = tuple[Callable[[], object], dict[str, float], cost.Estimate | None]


@dataclass(frozen=True)
class Case:
    """One measurement: ``prepare`` builds the input and returns the computation to time."""

    model: str  # the engine.cost model it fits, or a derived row ("comparison.java", "rolling_restart")
    label: str
    prepare: Callable[[], Prepared]
    held_out: bool = False


def if_fitted(model: str, estimate: Callable[[], cost.Estimate]) -> cost.Estimate | None:
    """The estimate with the current constants; None for a model not fitted yet (its first run)."""
    return estimate() if model in CURRENT else None


def scenario_doc(topics: int, per_topic: int, members: int, fraction: float = 1.0, steps: int = 1,
                 racks: bool = False, seed: int = 22) -> dict[str, Any]:
    """``topics`` x ``per_topic`` partitions, ``members`` each on a random ``fraction`` of the topics; each
    further step drops the first member.  ``racks``: three racks, members on them, two replicas each."""
    rng = random.Random(seed)
    names = [f"topic{t}" for t in range(topics)]
    take = max(1, round(topics * fraction))
    rows = [{"id": f"consumer{i}", "topics": names if take == topics else sorted(rng.sample(names, take)),
             **({"rack": f"az{i % 3}"} if racks else {})} for i in range(members)]
    topic_map = dict.fromkeys(names, per_topic)
    doc: dict[str, Any] = {"steps": [{"topics": topic_map, "members": rows[i:]} for i in range(steps)]}
    if racks:
        racks_of = [[f"az{p % 3}", f"az{(p + 1) % 3}"] for p in range(per_topic)]
        doc["partition_racks"] = dict.fromkeys(names, racks_of)
        for step in doc["steps"]:
            step["partition_racks"] = doc["partition_racks"]
    return doc


def _scenario_case(model: str, shape: tuple, held_out: bool, run: Callable[[Scenario], object],
                   estimate: Callable[[Scenario], tuple[dict[str, float], cost.Estimate]]) -> Case:
    def prepare() -> Prepared:
        scenario = parse_scenario(scenario_doc(*shape))
        features, est = estimate(scenario)
        return (lambda: run(scenario)), features, est

    topics, per_topic, members, fraction, steps, *rest = shape
    label = (f"{topics}x{per_topic} p, {members} m" + (f", {fraction:.0%} subs" if fraction < 1 else "")
             + f", {steps} st" + (", racks" if rest and rest[0] else ""))
    return Case(model, label, prepare, held_out)


# (topics, partitions per topic, members, fraction of topics per member, steps[, racks])
ASSIGN_FIT = [(10, 100, 10, 1.0, 1), (10, 1000, 50, 1.0, 2), (50, 200, 100, 1.0, 1), (20, 500, 200, 1.0, 3),
              (10, 100, 10, 0.5, 2), (20, 250, 50, 0.5, 1), (40, 250, 200, 0.5, 2), (10, 2000, 100, 0.3, 1),
              (100, 100, 400, 0.5, 1), (5, 4000, 20, 1.0, 1),
              (50, 1000, 500, 1.0, 2), (60, 500, 400, 0.5, 2)]  # the largest two: Kafka-scale groups are measured
ASSIGN_HELD = [(30, 300, 60, 0.5, 2), (25, 1000, 150, 1.0, 2), (50, 400, 300, 0.5, 2), (100, 300, 20, 1.0, 1)]
ASSIGN_FULL_EXTRA = [(100, 500, 500, 0.5, 2), (100, 2000, 2000, 1.0, 2)]  # held out in a full run: Kafka-scale groups
LIBRDKAFKA_STICKY_FIT = [(10, 100, 10, 1.0, 1), (10, 200, 50, 1.0, 2), (20, 100, 100, 0.5, 1),
                         (5, 400, 200, 1.0, 1), (20, 50, 300, 0.5, 2), (10, 1000, 20, 1.0, 1),
                         (10, 1000, 300, 1.0, 1), (20, 500, 400, 0.5, 1)]  # millions of partitions x members
LIBRDKAFKA_STICKY_HELD = [(20, 100, 150, 1.0, 2), (10, 300, 100, 0.5, 1), (30, 100, 200, 1.0, 1),
                          (10, 2000, 400, 1.0, 1)]
RACK_FIT = [(10, 200, 30, 1.0, 1, True), (20, 500, 100, 1.0, 1, True), (10, 1000, 200, 1.0, 2, True)]
RACK_HELD = [(20, 400, 150, 1.0, 2, True)]
SERVER_FIT = [(10, 100, 10, 1.0, 1), (10, 1000, 50, 1.0, 2), (50, 200, 100, 1.0, 1), (20, 500, 200, 0.5, 2),
              (10, 2000, 100, 0.3, 1), (100, 100, 400, 0.5, 1), (5, 4000, 20, 1.0, 1), (50, 1000, 500, 1.0, 2)]
SERVER_HELD = [(30, 300, 60, 0.5, 2), (25, 1000, 150, 1.0, 2)]


def assignment_cases(quick: bool) -> list[Case]:
    cases: list[Case] = []
    extra = [] if quick else ASSIGN_FULL_EXTRA
    for strategy in strategy_names():
        def run(s: Scenario, strategy: str = strategy) -> object:
            return replay(s, strategy)

        def est(s: Scenario, strategy: str = strategy) -> tuple[dict[str, float], cost.Estimate]:
            return cost_assignment.assignment_features(s, strategy, "java")[1], cost.estimate_assignment(s, strategy)

        for shape, held in [*((x, False) for x in ASSIGN_FIT), *((x, True) for x in ASSIGN_HELD + extra)]:
            cases.append(_scenario_case(f"assign.java.{strategy}", shape, held, run, est))
    for strategy in LIBRDKAFKA_STRATEGIES:
        def run_l(s: Scenario, strategy: str = strategy) -> object:
            return replay_librdkafka(s, strategy)

        def est_l(s: Scenario, strategy: str = strategy) -> tuple[dict[str, float], cost.Estimate]:
            return (cost_assignment.assignment_features(s, strategy, "librdkafka")[1],
                    cost.estimate_assignment(s, strategy, "librdkafka"))

        sticky = strategy == "cooperative-sticky"
        fit = LIBRDKAFKA_STICKY_FIT if sticky else ASSIGN_FIT + (RACK_FIT if strategy == "range" else [])
        held = LIBRDKAFKA_STICKY_HELD if sticky else ASSIGN_HELD + (RACK_HELD if strategy == "range" else [])
        for shape, h in [*((x, False) for x in fit), *((x, True) for x in held)]:
            cases.append(_scenario_case(f"assign.librdkafka.{strategy}", shape, h, run_l, est_l))
    for assignor in SERVER_ASSIGNOR_NAMES:
        def run_s(s: Scenario, assignor: str = assignor) -> object:
            return server_assign(s, assignor)

        def est_s(s: Scenario, assignor: str = assignor) -> tuple[dict[str, float], cost.Estimate]:
            return cost_assignment.server_features(s), cost.estimate_server_assignment(s, assignor)

        for shape, h in [*((x, False) for x in SERVER_FIT), *((x, True) for x in SERVER_HELD)]:
            cases.append(_scenario_case(f"server.{assignor}", shape, h, run_s, est_s))
    return cases


IO_FIT = [(50, 1000, 200, 1.0, 2), (100, 1000, 1000, 1.0, 1)]  # large answers: their bytes are measurable
IO_HELD = [(100, 2000, 2000, 1.0, 2)]


def cli_io_cases() -> list[Case]:
    """``assign``'s JSON around the replay: decoding and validating the document, writing the answer."""
    cases = []
    for strategy in ("range", "cooperative-sticky"):
        def prepare_for(shape: tuple, strategy: str = strategy) -> Callable[[], tuple[Callable[[], object],
                                                                                      dict[str, float],
                                                                                      cost.Estimate | None]]:
            def prepare() -> Prepared:
                doc = {**scenario_doc(*shape), "strategy": strategy}
                raw = json.dumps(doc).encode()
                scenario = parse_scenario(doc)
                steps = replay(scenario, strategy).steps

                def run() -> object:
                    parse_scenario(decode_json(raw, "input", DOCUMENT_LIMITS))
                    return encode_json({"steps": [step_to_json(s, strategy) for s in steps]})

                return run, cost_assignment.cli_io_features(scenario, strategy), cost_assignment.estimate_cli_io(
                    scenario, strategy)
            return prepare

        shapes = [*((x, False) for x in ASSIGN_FIT[:6] + IO_FIT), *((x, True) for x in ASSIGN_HELD[:2] + IO_HELD)]
        for shape, held in shapes:
            cases.append(Case("cli_io", f"{strategy}: " + _scenario_case("", shape, held, replay, None).label,
                              prepare_for(shape), held))
    return cases


def derived_cases() -> list[Case]:
    """Rows without constants of their own: the pages' comparison and rolling restarts (held out)."""
    def run_cmp(s: Scenario) -> object:
        return [outcomes(s, a) for a in client_assignors("java")]

    def est_cmp(s: Scenario) -> tuple[dict[str, float], cost.Estimate]:
        return {}, cost.estimate_comparison(s)

    config = RollingRestartConfig(30_000, 45_000, 10_000)
    strategies = ("range", "cooperative-sticky")

    def run_restart(s: Scenario) -> object:
        return compare_rolling_restarts(s.first, config, strategies)

    def est_restart(s: Scenario) -> tuple[dict[str, float], cost.Estimate]:
        return (cost_assignment.rolling_restart_features(s, strategies),
                cost.estimate_rolling_restart(s, strategies))

    restarts = [((10, 100, 10, 1.0, 1), False), ((10, 300, 20, 1.0, 1), False), ((5, 1000, 15, 1.0, 1), False),
                ((20, 50, 40, 1.0, 1), False), ((10, 100, 20, 1.0, 1), True), ((10, 300, 30, 1.0, 1), True)]
    return [*(_scenario_case("comparison.java", shape, True, run_cmp, est_cmp)
              for shape in [(20, 250, 50, 0.5, 2), (25, 1000, 150, 1.0, 2)]),
            *(_scenario_case("rolling_restart", shape, held, run_restart, est_restart) for shape, held in restarts)]


def _counts_case(model: str, label: str, held_out: bool, build: Callable[[], Any], run: Callable[[Any], object],
                 features: dict[str, float], estimate: cost.Estimate) -> Case:
    def prepare() -> Prepared:
        payload = build()
        return (lambda: run(payload)), features, estimate

    return Case(model, label, prepare, held_out)


def other_cases() -> list[Case]:
    cases: list[Case] = []
    for n, held in ((10, False), (100, False), (400, False), (1000, False), (250, True), (700, True)):
        lines = "\n".join(f"C{i}: cooperative-sticky, range" for i in range(n))
        cases.append(_counts_case("protocol_timeline", f"{n} members", held, lambda lines=lines: lines,
                                  lambda text: walkthrough("g", parse_strategy_lines(text)),
                                  *_f(computations.protocol_features(n), cost.estimate_protocol_walkthrough(n))))
    for brokers, racks, partitions, rf, held in ((10, 0, 10_000, 3, False), (30, 3, 50_000, 3, False),
                                                 (100, 0, 100_000, 3, False), (1_000, 7, 20_000, 2, False),
                                                 (2_000, 7, 5_000, 3, False), (50, 5, 100_000, 3, True),
                                                 (1_500, 7, 10_000, 2, True)):
        rack_list = [f"r{i % racks}" if racks else None for i in range(brokers)]
        if racks == 7:  # uneven racks: one small rack makes the scan walk past the others
            rack_list = [f"r{0 if i < 2 else 1 + i % 6}" for i in range(brokers)]
        doc = {"brokers": [{"id": i, "rack": r} for i, r in enumerate(rack_list)], "partitions": partitions,
               "replication_factor": rf}
        scan = computations.replica_scan(rack_list)
        cases.append(_counts_case("replicas", f"{brokers} brokers, {partitions:,} x {rf}, scan {scan}", held,
                                  lambda doc=doc: doc, cli_replicas,
                                  *_f(computations.replicas_features(partitions, rf, scan),
                                      cost.estimate_replicas(partitions, rf, scan))))
    for tasks, delay, held in ((1_000, 10**3, False), (10_000, 10**6, False), (12_000, 2**40, False),
                               (3_000, 2**40, False), (20_000, 10**4, False), (8_000, 10**9, True),
                               (15_000, 10**5, True)):
        doc = {"tick_ms": 1, "wheel_size": 2,
               "tasks": [{"id": f"t{i}", "delay_ms": 1 + (i * 7919) % delay} for i in range(tasks)]}
        levels = computations.wheel_levels(1, 2, delay)
        cases.append(_counts_case("wheel", f"{tasks:,} tasks, {levels} levels", held, lambda doc=doc: doc, cli_wheel,
                                  *_f(computations.wheel_features(tasks, levels), cost.estimate_wheel(tasks, levels))))
    for tasks, tick, size, order, held in ((1_000, 1, 20, "random", False), (10_000, 1, 20, "random", False),
                                           (30_000, 1, 2, "random", False), (20_000, 10, 512, "ascending", False),
                                           (5_000, 1, 2, "descending", False), (60_000, 1, 20, "random", True),
                                           (15_000, 1, 2, "ascending", True)):
        levels = computations.wheel_levels(tick, size, COST_MAX_DELAY_MS)
        cases.append(_counts_case("wheel_costs", f"{tasks:,} tasks, {levels} levels, {order}", held,
                                  lambda t=(tasks, tick, size, order): t,
                                  lambda t: measure_costs(t[0], config=WheelConfig(t[1], t[2], 0), order=t[3]),
                                  *_f(computations.wheel_costs_features(tasks, levels),
                                      cost.estimate_wheel_costs(tasks, levels))))
    for keys, counts, held in ((10_000, 5, False), (100_000, 20, False), (300_000, 50, False), (50_000, 200, False),
                               (1_000_000, 2, False), (200_000, 100, True), (600_000, 30, True)):
        spec = keysample.SampleSpec(count=keys)
        cases.append(_counts_case("placements", f"{keys:,} keys", held, lambda spec=spec: keysample.generate(spec),
                                  lambda k: client_partitions(k, 1_000, "java"),
                                  *_f({"keys": keys}, cost.estimate_placements(keys))))
        counts_list = tuple(range(1, 2 * counts, 2))
        cases.append(_counts_case("remap", f"{keys:,} keys x {counts} counts", held,
                                  lambda spec=spec: keysample.generate(spec),
                                  lambda k, c=counts_list: remap_curve(k, 12, c),
                                  *_f(computations.hash_features(keys, counts), cost.estimate_remap(keys, counts))))
    for keys, counts, held in ((1_000, 1, False), (10_000, 10, False), (50_000, 1, False), (2_000, 100, False),
                               (100_000, 5, False), (30_000, 20, True), (5_000, 60, True)):
        doc = {"keys_hex": [f"{i:08x}" for i in range(keys)], "partitions": list(range(1, counts + 1))}
        cases.append(_counts_case("hash", f"{keys:,} keys x {counts}", held, lambda doc=doc: doc, cli_hash,
                                  *_f(computations.hash_features(keys, counts), cost.estimate_hash(keys, counts))))
    for ids, length, held in ((1_000, 10, False), (50_000, 10, False), (2_000, 5_000, False),
                              (100_000, 40, False), (400, 10_000, False), (20_000, 100, True), (1_000, 2_000, True)):
        doc = {"group_ids": [f"g{i}".ljust(length, "x") for i in range(ids)]}
        units = ids * length
        cases.append(_counts_case("coordinator", f"{ids:,} ids x {length:,} chars", held, lambda doc=doc: doc,
                                  cli_coordinator,
                                  *_f(computations.coordinator_features(ids, units),
                                      cost.estimate_coordinator(ids, units))))
    for records, faults, held in ((10, 0, False), (200, 0, False), (2_000, 0, False), (500, 50, False),
                                  (2_000, 200, False), (1_000, 100, True), (1_500, 20, True)):
        doc = {"partitions": 4, "records": records, "faults": [{"request": 1 + 3 * i, "kind": "timeout_after_write"}
                                                                for i in range(faults)]}
        cases.append(_counts_case("produce", f"{records:,} records, {faults} faults", held, lambda doc=doc: doc,
                                  cli_produce, *_f(computations.produce_features(records, faults),
                                                   cost.estimate_produce(records, faults))))
    for batches, per_batch, actions, held in ((100, 10, 0, False), (2_000, 10, 0, False), (20_000, 10, 0, False),
                                              (1_000, 100, 2, False), (500, 400, 5, False), (10_000, 1, 3, False),
                                              (5_000, 20, 1, True), (2_000, 50, 4, True)):
        doc = {"config": {"segment.bytes": 1_048_576, "cleanup.policy": "compact"},
               "workload": {"batches": batches, "records_per_batch": per_batch, "keys": 500, "value_bytes": 50},
               "actions": [{"clean_at_ms": 10**12}] * actions}
        records = batches * per_batch
        cases.append(_counts_case("log", f"{batches:,} x {per_batch} records, {actions} cleanings", held,
                                  lambda doc=doc: doc, cli_log,
                                  *_f(computations.log_features(records, batches, actions),
                                      cost.estimate_partition_log(records, batches, actions))))
    for lines, held in ((100, False), (2_000, False), (20_000, False), (80_000, False), (10_000, True),
                        (40_000, True)):
        text = _tool_output(lines)
        size = len(text.encode())
        cases.append(_counts_case("import", f"{lines:,} lines ({size // 1024:,} KiB)", held, lambda text=text: text,
                                  lambda t: to_scenario(parse_text(t)),
                                  *_f(computations.import_features(size), cost.estimate_import(size))))
    return cases


def _f(features: dict[str, float], estimate: cost.Estimate) -> tuple[dict[str, float], cost.Estimate]:
    return features, estimate


def _tool_output(lines: int) -> str:
    """``kafka-consumer-groups.sh --describe`` output of ``lines`` partitions over 50 topics, 100 members."""
    header = ("GROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             "
              "CONSUMER-ID                                     HOST            CLIENT-ID")
    rows = [header]
    for i in range(lines):
        topic, partition, member = f"topic{i % 50}", i // 50, i % 100
        rows.append(f"orders-service  {topic:<15} {partition:<10} {1000 + i:<15} {1010 + i:<15} {10:<15} "
                    f"consumer-{member}-0000-1111-2222-333333333333 /10.0.0.{member % 250:<8} consumer-{member}")
    return "\n".join(rows) + "\n"
