"""``python -m bench cost [--quick] [--write] [--scale]``: measure every computation, fit the cost model.

Each case runs in a process forked from this one after every engine module is imported, so a case pays
neither for imports nor for another case's garbage.  In the child the input is built first (not measured),
then the computation runs once:

- seconds: ``time.perf_counter`` around the computation (under 0.5 s: the best of three runs);
- peak bytes: the child's resident set high-water mark (``VmHWM`` of ``/proc/self/status``, reset just
  before the computation by writing ``5`` to ``/proc/self/clear_refs``) minus its resident set at that
  moment (``VmRSS``): what the computation added to the process at its peak, as the server would see it.
  Freed memory is handed back first (``gc.collect``, glibc's ``malloc_trim``): memory freed by the parent's
  warm-ups or by building the input, still resident, would otherwise be reused unseen.

Per computation, ``engine.cost`` names the shape features that drive it (``engine/cost/shape.py`` for
scenarios); the constants are a non-negative least-squares fit of seconds (and of bytes) on those features,
each case weighted by 1 / its measurement (the fit minimises relative error).  Every family has cases used
for the fit and held-out cases (other shapes, most of them larger) that are not: the table prints each
model's worst relative error on the held-out cases.  Relative errors of seconds are taken against
``max(measured, 0.05 s)`` and of bytes against ``max(measured, 16 MiB)``: below those the measurement is
timer and allocator noise, not the model.  The Assignments/Rebalance comparison has no constants of its
own (``engine.cost`` sums its assignors' estimates): it appears as held-out rows.

Share groups have three models (``share_cases``): ``share-assign`` (the assignor and its JSON answer) on groups
of every size, chained steps whose partitions change (members keep what nobody subscribes to any more) and
many differing subscriptions (members changing them too); a share partition's delivery (the case read and run:
scale cases, long logs, ticks); and ``share-deliver``'s answer (its worst case, one state run per record after
every event; ticks).  The Spark load pipeline (``load``) runs in subprocesses (``bench/cost_load.py``).

``--write`` writes the fitted constants to ``engine/cost/constants.py`` with the run's date and machine;
with ``--only PREFIX`` (models whose name starts with PREFIX, e.g. ``share`` or ``load``) every other model
keeps its constants exactly and the run line its run, naming the partial fit (``merge_run``).
``--scale`` (``--scale-only``: nothing else) also runs the Kafka-scale shapes of issue 22 through
``python -m engine assign`` (a subprocess: its wall seconds, and its maximum resident set from
``resource.getrusage(RUSAGE_CHILDREN)``), next to the estimate.
"""

from __future__ import annotations

import argparse
import ctypes
import datetime
import gc
import json
import os
import platform
import random
import re
import resource
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bench import cost_load
from bench.share_delivery import batches_case as share_batches_case
from bench.share_delivery import case_counts as share_case_counts
from bench.share_delivery import scale_case as share_scale_case
from bench.share_delivery import ticks_case as share_ticks_case
from bench.share_delivery import worst_answer_case
from engine import cost
from engine.cli import DOCUMENT_LIMITS
from engine.comparison import client_assignors, outcomes
from engine.consumer.group import replay, step_to_json
from engine.consumer.librdkafka.replay import replay_librdkafka
from engine.consumer.membership import RollingRestartConfig, compare_rolling_restarts
from engine.consumer.protocol import parse_strategy_lines, walkthrough
from engine.coordinator.offsets_partition import cli_coordinator
from engine.coordinator.share_assignment import share_assign
from engine.coordinator.target_assignment import server_assign
from engine.cost import assignment as cost_assignment
from engine.cost import computations, terms
from engine.cost.constants import MODELS as CURRENT
from engine.cost.constants import RUN as CURRENT_RUN
from engine.cost.model import evaluate
from engine.cost.share import ShareMember, ShareStep, given_counts, share_step_shapes
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
from engine.share.case import parse_case, window_cap
from engine.share.replay import replay as replay_share
from engine.share.replay import run as run_share
from engine.storage.partition_log import cli_log
from engine.tools.detect import parse_text
from engine.tools.to_scenario import to_scenario

MIB = 1 << 20
SECONDS_FLOOR = 0.05
BYTES_FLOOR = 16 * MIB
REPEAT_UNDER_SECONDS = 0.5
REPEATS_UNDER = 2
LIBC = ctypes.CDLL("libc.so.6")
CONSTANTS = Path(__file__).resolve().parent.parent / "engine" / "cost" / "constants.py"


@dataclass(frozen=True)
class Case:
    """One measurement: ``prepare`` builds the input and returns the computation to time."""

    model: str  # the engine.cost model it fits, or a derived row ("comparison.java", "rolling_restart")
    label: str
    prepare: Callable[[], tuple[Callable[[], object], dict[str, float], cost.Estimate | None]]
    held_out: bool = False


@dataclass
class Measured:
    model: str
    label: str
    held_out: bool
    seconds: float
    peak_bytes: int
    features: dict[str, float] = field(default_factory=dict)
    estimate: cost.Estimate | None = None


# --------------------------------------------------------------------------------------- shapes


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
    def prepare() -> tuple[Callable[[], object], dict[str, float], cost.Estimate | None]:
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
ASSIGN_FULL_EXTRA = [(100, 500, 500, 0.5, 2), (100, 2000, 2000, 1.0, 2)]  # held out in a full run: issue 22's shapes
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
    for strategy in cost_assignment.JAVA_STRATEGIES:
        def run(s: Scenario, strategy: str = strategy) -> object:
            return replay(s, strategy)

        def est(s: Scenario, strategy: str = strategy) -> tuple[dict[str, float], cost.Estimate]:
            return cost_assignment.assignment_features(s, strategy, "java")[1], cost.estimate_assignment(s, strategy)

        for shape, held in [*((x, False) for x in ASSIGN_FIT), *((x, True) for x in ASSIGN_HELD + extra)]:
            cases.append(_scenario_case(f"assign.java.{strategy}", shape, held, run, est))
    for strategy in cost_assignment.LIBRDKAFKA_STRATEGIES:
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
    for assignor in cost_assignment.SERVER_ASSIGNORS:
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
            def prepare() -> tuple[Callable[[], object], dict[str, float], cost.Estimate | None]:
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
    def prepare() -> tuple[Callable[[], object], dict[str, float], cost.Estimate | None]:
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


# (partitions, members, topics, differing subscriptions, steps, first step's members given what they hold)
SHARE_ASSIGN_FIT = [(1_000, 50, 10, False, 1, False), (10_000, 50, 10, False, 1, False),
                    (50_000, 200, 20, False, 1, False), (10_000, 2_000, 100, False, 1, False),
                    (10_000, 2_000, 100, True, 1, False), (20_000, 500, 200, True, 1, False),
                    (5_000, 5_000, 10, False, 1, False), (10_000, 200, 10, False, 4, False),
                    (20_000, 1_000, 50, True, 3, False), (20_000, 500, 20, False, 1, True),
                    (100_000, 500, 50, False, 1, False), (10_000, 2_000, 500, True, 1, False),
                    (50_000, 1_000, 100, False, 2, False), (200, 5_000, 2, False, 3, False),
                    (1_000, 3_000, 10, True, 3, False)]
SHARE_ASSIGN_HELD = [(100_000, 1_000, 100, True, 2, False), (200_000, 2_000, 100, False, 2, False),
                     (10_000, 2_000, 1_000, True, 1, False), (50_000, 500, 50, False, 5, True),
                     (50, 10_000, 1, False, 2, False)]
# chained steps whose partitions change (members, steps, topics a step, partitions a topic, how the topics change)
SHARE_CHAIN_FIT = [(300, 60, 1, 10, "grow"), (300, 60, 5, 5, "grow-differing"), (200, 100, 2, 20, "grow-differing"),
                   (1_000, 20, 3, 50, "grow"), (300, 40, 1, 10, "move"), (500, 30, 3, 20, "move"),
                   (300, 50, 1, 10, "move-churn"), (2_000, 15, 1, 100, "move")]
SHARE_CHAIN_HELD = [(300, 60, 5, 5, "grow"), (200, 100, 1, 10, "move"), (100, 120, 2, 5, "move"),
                    (500, 40, 2, 20, "move-churn")]
# many differing subscriptions (members, topics, partitions a topic, topics a member, steps, resubscribe each step)
SHARE_DIFFERING_FIT = [(1_000, 5_000, 10, 100, 1, False), (3_000, 2_000, 50, 200, 1, False),
                       (200, 1_000, 100, 50, 1, False), (5_000, 10_000, 5, 100, 1, False),
                       (500, 10_000, 20, 1_000, 1, False), (200, 5_000, 1, 300, 2, True),
                       (100, 5_000, 1, 600, 2, True)]
SHARE_DIFFERING_HELD = [(2_000, 10_000, 10, 300, 1, False), (1_000, 10_000, 10, 500, 2, False),
                        (150, 10_000, 1, 700, 2, True)]
# share delivery, the case read and run: scale cases (events, max.record.locks), log batches (batches, fetches),
# ticks (events); the CLI answer (every step's state written): its worst case (records, ticks) and ticks (events)
SHARE_DELIVERY_FIT = [(500, 500), (2_000, 200), (5_000, 2_000), (2_000, 10_000), (10_000, 1_000), (20_000, 1_000),
                      (40_000, 2_000)]
SHARE_DELIVERY_HELD = [(20_000, 2_000), (8_000, 8_000), (60_000, 4_000)]
SHARE_BATCHES_FIT = [(100_000, 10), (400_000, 50), (1_000_000, 10)]
SHARE_BATCHES_HELD = [(2_000_000, 20)]
SHARE_TICKS_FIT = [(100_000,), (400_000,)]
SHARE_TICKS_HELD = [(1_000_000,)]
SHARE_ANSWER_FIT = [(4_000, 60), (5_000, 40), (19_000, 24), (1_000, 200), (10_000, 10), (100_000, 10),
                    (50_000, 40), (150_000, 30)]  # the largest: its peak per cell is the largest answers'
SHARE_ANSWER_HELD = [(30_000, 30), (8_000, 100), (200_000, 40)]
SHARE_ANSWER_TICKS_FIT = [(300_000,), (1_000_000,)]
SHARE_ANSWER_TICKS_HELD = [(2_000_000,)]


def share_assign_doc(partitions: int, members: int, topics: int, differ: bool, steps: int,
                     given: bool = False) -> dict[str, Any]:
    """A share-assign case: ``members`` (a quarter on a random half of the topics when ``differ``); each
    further step drops the first member (its partitions chained); ``given``: the first step's members hold
    the partitions round-robin (``current_assignment``)."""
    names = [f"topic-{t}" for t in range(topics)]
    rng = random.Random(7)
    per_topic = max(1, partitions // topics)
    rows: list[dict[str, Any]] = [{"id": f"share-consumer-{m}-{m * 7919 % 10007}",
                                   "topics": names if not differ or m % 4 else rng.sample(names, max(1, topics // 2))}
                                  for m in range(members)]
    first = [dict(r) for r in rows]
    if given:
        every = [f"{t}-{p}" for t in names for p in range(per_topic)]
        for m, row in enumerate(first):
            row["current_assignment"] = every[m::members]
    topic_map = dict.fromkeys(names, per_topic)
    return {"steps": [{"topics": topic_map, "members": first if i == 0 else rows[i:]} for i in range(steps)]}


def share_chain_doc(members: int, steps: int, topics: int, per_topic: int, how: str) -> dict[str, Any]:
    """Chained steps whose partitions change, one member leaving and one joining at each (``-churn``: a third
    of them).  ``grow``: ``topics`` topics, each step more partitions (topic ``j`` grows by ``j + 1``), every
    member on all (``-differing``: each on two thirds of them, the heterogeneous path); ``move``: each step
    ``topics`` new topics (``per_topic`` + step % 5 partitions) beside the previous step's, the older ones
    deleted; every member on the new ones, every other member also on the previous ones.  A member keeps the
    partitions of topics no member subscribes to any more, so a ``move`` chain holds about members x steps²
    partitions in all."""
    rng = random.Random(5)
    ids = [f"member-{i}" for i in range(members)]
    joined = members
    out: list[dict[str, Any]] = []
    for k in range(steps):
        if how.startswith("grow"):
            names = [f"t{j}" for j in range(topics)]
            topic_map = {n: per_topic + k * (j + 1) for j, n in enumerate(names)}

            def subscribed(i: int, names: list[str] = names) -> list[str]:
                return names if how == "grow" else [n for j, n in enumerate(names) if (i + j) % 3] or names[:1]
        else:
            new, old = [f"s{k}-t{j}" for j in range(topics)], [f"s{k - 1}-t{j}" for j in range(topics)] if k else []
            topic_map = {n: per_topic + s % 5 for s, group in ((k, new), (k - 1, old)) for n in group}

            def subscribed(i: int, new: list[str] = new, old: list[str] = old) -> list[str]:
                return new + (old if i % 2 else [])
        for _ in range((members // 3 if how.endswith("churn") else 1) if k else 0):
            ids.pop(rng.randrange(len(ids)))
            ids.append(f"member-{joined}")
            joined += 1
        out.append({"topics": topic_map, "members": [{"id": m, "topics": subscribed(int(m.rsplit("-", 1)[1]))}
                                                     for m in ids]})
    return {"steps": out}


def _short_name(i: int) -> str:
    """``a``, ``b`` ... ``Z``, ``ba`` ...: the shortest topic names (a document holds the most subscriptions)."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    name = letters[i % 52]
    while i >= 52:
        i //= 52
        name = letters[i % 52] + name
    return name


def share_differing_doc(members: int, topics: int, per_topic: int, per_member: int, steps: int = 1,
                        resubscribe: bool = False) -> dict[str, Any]:
    """``members`` each on ``per_member`` random topics of ``topics`` (short names); each further step drops the
    first member, or (``resubscribe``) keeps every member on new random topics."""
    rng = random.Random(3)
    names = [_short_name(i) for i in range(topics)]
    topic_map = dict.fromkeys(names, per_topic)
    rows = [{"id": f"m{i}", "topics": rng.sample(names, per_member)} for i in range(members)]
    out = []
    for k in range(steps):
        if resubscribe and k:
            rows = [{"id": r["id"], "topics": rng.sample(names, per_member)} for r in rows]
        out.append({"topics": topic_map, "members": rows if resubscribe else rows[k:]})
    return {"steps": out}


def _if_fitted(model: str, estimate: Callable[[], cost.Estimate]) -> cost.Estimate | None:
    """The estimate with the current constants; None for a model not fitted yet (its first run)."""
    return estimate() if model in CURRENT else None


def _lazy(model: str, label: str, held_out: bool,
          prepare: Callable[[], tuple[Callable[[], object], dict[str, float], cost.Estimate | None]]) -> Case:
    return Case(model, label, prepare, held_out)


def _doc_shapes(doc: dict[str, Any]) -> list[computations.ShareStepShape]:
    """``step_shapes`` of a share-assign case read off its document (parsing it here would leave freed memory
    the measured run reuses, hiding its peak); ``test_bench_cost`` checks both agree."""
    def member(m: dict[str, Any]) -> ShareMember:
        given = m.get("current_assignment")
        return ShareMember(m["id"], tuple(m["topics"]),
                           None if given is None else given_counts((tp.rpartition("-")[0], 0) for tp in given))

    return share_step_shapes(ShareStep(s["topics"], [member(m) for m in s["members"]], s.get("subscription_type"))
                             for s in doc["steps"])


def _share_assign_case(label: str, held_out: bool, build: Callable[[], dict[str, Any]]) -> Case:
    def prepare() -> tuple[Callable[[], object], dict[str, float], cost.Estimate | None]:
        doc = build()
        shapes = _doc_shapes(doc)
        return ((lambda: encode_json({"steps": [x.to_json() for x in share_assign(doc).steps]})),
                computations.share_assignment_features(shapes),
                _if_fitted("share_assign", lambda: cost.estimate_share_assignment(shapes)))

    return _lazy("share_assign", label, held_out, prepare)


def _share_assign_cases() -> list[Case]:
    """The three families: groups of every size (``share_assign_doc``), chained steps whose partitions change
    (``share_chain_doc``) and many differing subscriptions (``share_differing_doc``)."""
    cases = []
    for shape in SHARE_ASSIGN_FIT + SHARE_ASSIGN_HELD:
        partitions, members, topics, differ, steps, given = shape
        label = (f"{partitions:,} p, {members:,} m, {topics} t" + (", differing" if differ else "")
                 + f", {steps} st" + (", held given" if given else ""))
        cases.append(_share_assign_case(label, shape in SHARE_ASSIGN_HELD, lambda s=shape: share_assign_doc(*s)))
    for chain in SHARE_CHAIN_FIT + SHARE_CHAIN_HELD:
        members, steps, topics, per_topic, how = chain
        label = f"chain {how}: {members:,} m, {steps} st, {topics} x {per_topic} p"
        cases.append(_share_assign_case(label, chain in SHARE_CHAIN_HELD, lambda c=chain: share_chain_doc(*c)))
    for differing in SHARE_DIFFERING_FIT + SHARE_DIFFERING_HELD:
        members, topics, per_topic, per_member, steps, again = differing
        label = (f"{members:,} m x {per_member:,} of {topics:,} t x {per_topic} p, {steps} st"
                 + (", resubscribed" if again else ""))
        cases.append(_share_assign_case(label, differing in SHARE_DIFFERING_HELD,
                                        lambda d=differing: share_differing_doc(*d)))
    return cases


def _share_delivery_case(label: str, held_out: bool, build: Callable[[], dict[str, Any]]) -> Case:
    """The case read from its (decoded) document and run; its counts read off the document (``case_counts``)."""
    def prepare() -> tuple[Callable[[], object], dict[str, float], cost.Estimate | None]:
        doc = build()
        events, cap, batches = share_case_counts(doc)
        return ((lambda: sum(1 for _ in run_share(parse_case(doc)))),
                computations.share_delivery_features(events, cap, batches),
                _if_fitted("share_delivery", lambda: cost.estimate_share_delivery(events, cap, batches)))

    return _lazy("share_delivery", label, held_out, prepare)


def _share_answer_case(label: str, held_out: bool, build: Callable[[], dict[str, Any]]) -> Case:
    def prepare() -> tuple[Callable[[], object], dict[str, float], cost.Estimate | None]:
        case = parse_case(build())
        events, cap = len(case.events), window_cap(case)
        return ((lambda: encode_json({"steps": replay_share(case)})), computations.share_answer_features(events, cap),
                _if_fitted("share_deliver_answer", lambda: cost.estimate_share_deliver_answer(events, cap)))

    return _lazy("share_deliver_answer", label, held_out, prepare)


def share_cases() -> list[Case]:
    """Share groups: ``share-assign`` (the assignor and its JSON answer), a share partition's delivery (the case
    read and run: scale cases, long logs, ticks) and ``share-deliver``'s answer (its worst case, one state run per
    record after every event, and steps with an empty window)."""
    delivery = [*(_share_delivery_case(f"{events:,} events at {locks:,} locks", (events, locks) in SHARE_DELIVERY_HELD,
                                       lambda e=events, x=locks: share_scale_case(e, locks=x))
                  for events, locks in SHARE_DELIVERY_FIT + SHARE_DELIVERY_HELD),
                *(_share_delivery_case(f"{batches:,} log batches, {fetches} fetches",
                                       (batches, fetches) in SHARE_BATCHES_HELD,
                                       lambda b=batches, f=fetches: share_batches_case(b, f))
                  for batches, fetches in SHARE_BATCHES_FIT + SHARE_BATCHES_HELD),
                *(_share_delivery_case(f"{events:,} ticks", (events,) in SHARE_TICKS_HELD,
                                       lambda e=events: share_ticks_case(e))
                  for events, in SHARE_TICKS_FIT + SHARE_TICKS_HELD)]
    answer = [*(_share_answer_case(f"{ticks + 2:,} events x {records:,} records, one run each",
                                   (records, ticks) in SHARE_ANSWER_HELD,
                                   lambda r=records, t=ticks: worst_answer_case(r, t))
                for records, ticks in SHARE_ANSWER_FIT + SHARE_ANSWER_HELD),
              *(_share_answer_case(f"{events:,} ticks, an empty window", (events,) in SHARE_ANSWER_TICKS_HELD,
                                   lambda e=events: share_ticks_case(e))
                for events, in SHARE_ANSWER_TICKS_FIT + SHARE_ANSWER_TICKS_HELD)]
    return [*_share_assign_cases(), *delivery, *answer]


def load_rows() -> list[Measured]:
    """The Spark load pipeline's cases (``bench.cost_load``: subprocesses, one cold start per group)."""
    rows = []
    for held, m in cost_load.measure_groups():
        counts = [int(c) for c in m["counts"].split(",")]
        assigned = sum(counts) * m["consumers"] * m["strategies"]
        features = computations.load_features(m["bytes"], m["fmt"], counts, assigned, m["cold"])
        label = f"{m['rows']:,} rows {m['fmt']} ({m['bytes'] // 1024:,} KiB), counts {m['counts']}" + (
            ", cold" if m["cold"] else "")
        rows.append(Measured("load", label, held, m["seconds"], m["peak"], features, None))
        print(f"[load] {label:<60} {m['seconds']:8.2f} s {m['peak'] / MIB:8.1f} MiB" + ("  (held out)" if held else ""),
              flush=True)
    return rows


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


# ----------------------------------------------------------------------------------- measurement


def _status(field_name: str) -> int:
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith(field_name + ":"):
                return int(line.split()[1]) * 1024
    return 0


def _child(case: Case) -> dict[str, Any]:
    run, features, estimate = case.prepare()
    gc.collect()
    LIBC.malloc_trim(0)  # freed memory (the parent's warm-ups, this input's building) back to the system: a run
    with open("/proc/self/clear_refs", "w") as handle:  # reusing it would not show in its resident set
        handle.write("5")  # reset VmHWM to the current resident set
    before = _status("VmRSS")
    start = time.perf_counter()
    run()
    seconds = time.perf_counter() - start
    peak = max(_status("VmHWM") - before, 0)
    for _ in range(REPEATS_UNDER if seconds < REPEAT_UNDER_SECONDS else 0):  # short runs: the best of three
        again = time.perf_counter()
        run()
        seconds = min(seconds, time.perf_counter() - again)
    return {"seconds": seconds, "peak": peak, "features": features,
            "estimate": None if estimate is None else [estimate.seconds, estimate.peak_bytes, estimate.drivers]}


def measure(case: Case) -> Measured | None:
    """Run ``case`` in a forked child; its figures come back through a pipe."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read)
        try:
            data = json.dumps(_child(case)).encode()
        except BaseException as exc:  # noqa: BLE001 - the parent reports it
            data = json.dumps({"error": f"{type(exc).__name__}: {exc}"}).encode()
        with os.fdopen(write, "wb") as out:
            out.write(data)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as handle:
        raw = handle.read()
    os.waitpid(pid, 0)
    result = json.loads(raw or b'{"error": "the child died"}')
    if "error" in result:
        print(f"{case.model} {case.label}: not measured ({result['error']})")
        return None
    est = result["estimate"]
    return Measured(case.model, case.label, case.held_out, result["seconds"], result["peak"], result["features"],
                    None if est is None else cost.Estimate(est[0], est[1], est[2]))


# ------------------------------------------------------------------------------------------- fit


def nnls(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Least squares with every coefficient >= 0: solve, drop the most negative term, solve again."""
    active = list(range(a.shape[1]))
    x = np.zeros(a.shape[1])
    while active:
        solution, *_ = np.linalg.lstsq(a[:, active], b, rcond=None)
        if (solution >= 0).all():
            x[active] = solution
            return x
        active.pop(int(np.argmin(solution)))
    return x


def fit(rows: list[Measured], names: list[str], target: str, floor: float) -> dict[str, float]:
    """Coefficients of ``names`` minimising the relative error of ``target`` (seconds or peak_bytes)."""
    x = np.array([[1.0 if n == "1" else r.features.get(n, 0.0) for n in names] for r in rows])
    y = np.array([float(getattr(r, target)) for r in rows])
    weight = 1.0 / np.maximum(y, floor)
    scale = np.maximum(x.max(axis=0), 1e-12)  # columns of comparable size for lstsq
    coefficients = nnls(x / scale * weight[:, None], y * weight) / scale
    return {n: float(c) for n, c in zip(names, coefficients) if c > 0}


def relative_error(predicted: float, measured: float, floor: float) -> float:
    return abs(predicted - measured) / max(measured, floor)


def report(measured: list[Measured], models: dict[str, dict[str, dict[str, float]]],
           cases: list[Case]) -> list[str]:
    lines = [f"{'model':<38}{'fit':>4}{'held':>5}{'worst s err':>12}{'worst MiB err':>14}  worst held-out case"]
    by_model: dict[str, list[Measured]] = {}
    for m in measured:
        by_model.setdefault(m.model, []).append(m)
    for model, rows in by_model.items():
        held = [r for r in rows if r.held_out]
        fitted = [r for r in rows if not r.held_out]
        if model in terms.TERMS:
            predict = [evaluate(models[model], r.features, "") for r in held]
        else:  # derived rows: engine.cost's estimate, with the constants just fitted
            predict = [_estimate_again(cases, r) for r in held]
        errors = [(relative_error(p.seconds, r.seconds, SECONDS_FLOOR),
                   relative_error(p.peak_bytes, r.peak_bytes, BYTES_FLOOR), r, p) for r, p in zip(held, predict)]
        worst = max(errors, key=lambda e: e[0], default=None)
        worst_b = max((e[1] for e in errors), default=0.0)
        where = "" if worst is None else (f"{worst[2].label}: {worst[2].seconds:.2f} s measured, "
                                          f"{worst[3].seconds:.2f} s estimated")
        lines.append(f"{model:<38}{len(fitted):>4}{len(held):>5}{(worst[0] if worst else 0):>11.0%}"
                     f"{worst_b:>13.0%}  {where}")
    return lines


def _estimate_again(cases: list[Case], row: Measured) -> cost.Estimate:
    """A derived row's estimate from ``engine.cost`` now (its constants updated in place by ``main``)."""
    case = next(c for c in cases if (c.model, c.label) == (row.model, row.label))
    return case.prepare()[2] or cost.Estimate(0.0, 0, "")


def fit_all(measured: list[Measured]) -> dict[str, dict[str, dict[str, float]]]:
    models: dict[str, dict[str, dict[str, float]]] = {}
    for model, (seconds_terms, bytes_terms) in terms.TERMS.items():
        rows = [m for m in measured if m.model == model and not m.held_out]
        if not rows:
            continue
        models[model] = {"seconds": fit(rows, seconds_terms, "seconds", SECONDS_FLOOR),
                         "bytes": fit(rows, bytes_terms, "peak_bytes", BYTES_FLOOR)}
    return models


def describe_run(argv: list[str]) -> str:
    """The command, the date and the machine of a measuring run."""
    load = os.getloadavg()
    machine = f"{platform.machine()}, {os.cpu_count()} cores, load average {load[0]:.1f}"
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    command = " ".join(["python -m bench cost", *(a for a in argv if a in ("--quick", "--scale"))])
    return f"{command}, {now}, {machine}, Python {platform.python_version()}"


def merge_run(previous: str, only: str, now: datetime.datetime) -> str:
    """The RUN line after an ``--only`` fit: the previous run kept, ``"<only>* <time>"`` added to (or replaced
    in) the parenthesis after its date (the date too when it is another day).

    >>> merge_run("python -m bench cost --quick, 2026-11-25 06:38 UTC (cli_io 07:11), x86_64", "share",
    ...           datetime.datetime(2026, 11, 25, 10, 5))
    'python -m bench cost --quick, 2026-11-25 06:38 UTC (cli_io 07:11, share* 10:05), x86_64'
    >>> merge_run("python -m bench cost, 2026-11-25 06:38 UTC, x86_64", "load", datetime.datetime(2026, 11, 26, 9, 0))
    'python -m bench cost, 2026-11-25 06:38 UTC (load* 2026-11-26 09:00), x86_64'
    """
    found = re.search(r"(\d{4}-\d\d-\d\d) \d\d:\d\d UTC(?: \(([^)]*)\))?", previous)
    if found is None:
        raise ValueError(f"the RUN line names no date: {previous!r}")
    when = now.strftime("%H:%M") if now.strftime("%Y-%m-%d") == found.group(1) else now.strftime("%Y-%m-%d %H:%M")
    entries = [e for e in (found.group(2) or "").split(", ") if e and not e.startswith(f"{only}* ")]
    head = found.group(0).split(" (")[0]
    return previous[:found.start()] + f"{head} ({', '.join([*entries, f'{only}* {when}'])})" + previous[found.end():]


def _terms_line(kind: str, coefficients: dict[str, float], width: int = 120) -> str:
    """``    'seconds': {...},`` on as many lines as the line length needs (items never split)."""
    head = f"        {kind!r}: {{"
    lines, line = [], head
    for i, (name, value) in enumerate(coefficients.items()):
        item = f"{name!r}: {value!r}" + ("," if i < len(coefficients) - 1 else "},")
        if line not in (head, " " * len(head)) and len(line) + 1 + len(item) > width:
            lines.append(line.rstrip())
            line = " " * len(head)
        line += ("" if line in (head, " " * len(head)) else " ") + item
    if not coefficients:
        line += "},"
    return "\n".join([*lines, line]) + "\n"


def write_constants(models: dict[str, dict[str, dict[str, float]]], run: str, path: Path = CONSTANTS) -> None:
    """Every model's constants (rounded to 4 significant digits, which leaves those read from the file as they
    are) and the RUN line."""
    rounded = {k: {kind: {n: float(f"{c:.4g}") for n, c in terms.items()} for kind, terms in v.items()}
               for k, v in models.items()}
    body = "".join(f"    {name!r}: {{\n" + "".join(_terms_line(kind, terms_) for kind, terms_ in model.items())
                   + "    },\n" for name, model in sorted(rounded.items()))
    run_lines = "\n".join(f"    {run[i:i + 100]!r}" for i in range(0, len(run), 100))
    text = (
        '"""Fitted constants of the cost model: generated by ``python -m bench cost --write``; do not edit by hand.\n\n'
        f"{textwrap.fill(f'Run: {run}.', width=116)}\n"
        "Per computation: ``seconds`` and ``bytes`` per unit of each shape feature (``\"1\"``: the constant term),\n"
        "a non-negative least-squares fit on measured cases (bench/cost.py); ``--only PREFIX`` refits the models\n"
        "whose name starts with PREFIX and keeps every other one (the run line names it: ``PREFIX* time``).\n"
        '"""\n\nfrom __future__ import annotations\n\n'
        f"RUN = (\n{run_lines}\n)\n\n"
        f"MODELS: dict[str, dict[str, dict[str, float]]] = {{\n{body}}}\n"
    )
    path.write_text(text)
    print(f"wrote {path}")


# ------------------------------------------------------------------------------------------ scale


SCALE_SHAPES = [  # issue 22's Kafka-scale shapes: (label, document, strategies)
    ("100 x 500 p, 500 m on half the topics", (100, 500, 500, 0.5, 2), ("sticky", "cooperative-sticky")),
    ("100 x 2,000 p, 2,000 m on all topics", (100, 2000, 2000, 1.0, 2),
     ("range", "roundrobin", "sticky", "cooperative-sticky")),
]


def scale(rows: list[str]) -> None:
    """Each shape through ``python -m engine assign`` (two steps: the group, then one member leaves)."""
    rows.append(f"{'shape':<40}{'strategy':<20}{'seconds':>8}{'max RSS MiB':>12}{'estimate':>10}{'est MiB':>9}")
    print(rows[-1], flush=True)
    for label, shape, strategies in SCALE_SHAPES:
        doc = scenario_doc(*shape)
        scenario = parse_scenario(doc)
        for strategy in strategies:
            payload = json.dumps({**doc, "strategy": strategy}).encode()
            est = cost.estimate_assignment(scenario, strategy)
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "engine", "assign"], input=payload, capture_output=True)
            seconds = time.perf_counter() - start
            rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            status = "" if done.returncode == 0 else f"  exit {done.returncode}: {done.stderr.decode()[:120]}"
            rss_text = f"{rss / 1024:>12,.0f}" if rss > before else f"{'<=' + format(before / 1024, ',.0f'):>12}"
            rows.append(f"{label:<40}{strategy:<20}{seconds:>8.1f}{rss_text}{est.seconds:>10.1f}{est.mib:>9,}"
                        + status)
            print(rows[-1], flush=True)


def run_cases(cases: list[Case]) -> list[Measured]:
    warm_up(cases)
    measured = []
    start = time.perf_counter()
    for i, case in enumerate(cases, 1):
        m = measure(case)
        if m is None:
            continue
        measured.append(m)
        print(f"[{i}/{len(cases)}] {case.model:<36} {case.label:<42} {m.seconds:8.3f} s {m.peak_bytes / MIB:8.1f} MiB"
              + ("  (held out)" if case.held_out else ""), flush=True)
    print(f"measured {len(measured)} cases in {time.perf_counter() - start:.0f} s "
          "(peak = VmHWM - VmRSS of a forked child)")
    return measured


def load(path: str) -> tuple[str, list[Measured]]:
    """The run and measurements saved by ``--save`` (refit without measuring again)."""
    saved = json.loads(Path(path).read_text())
    run, rows = (saved["run"], saved["rows"]) if isinstance(saved, dict) else (FIRST_RUN, saved)
    return run, [Measured(**{**r, "estimate": None if r["estimate"] is None else cost.Estimate(**r["estimate"])})
                 for r in rows]


FIRST_RUN = "python -m bench cost --quick, 2026-11-25 06:38 UTC, x86_64, 2 cores, load average 4 to 7, Python 3.11.7"


def warm_up(cases: list[Case]) -> None:
    """Run each model's first case once here, before any fork: lazy imports and numba's compilation are
    paid once, as in a running server, not by every measured child."""
    seen: set[str] = set()
    for case in cases:
        if case.model not in seen:
            seen.add(case.model)
            run, _, _ = case.prepare()
            run()


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench cost")
    parser.add_argument("--quick", action="store_true", help="no full-size held-out shapes")
    parser.add_argument("--write", action="store_true", help="write engine/cost/constants.py")
    parser.add_argument("--scale", action="store_true", help="also the Kafka-scale shapes through the CLI")
    parser.add_argument("--scale-only", action="store_true", help="only the Kafka-scale shapes, no fit")
    parser.add_argument("--only", default="", help="models whose name starts with this")
    parser.add_argument("--save", metavar="JSON", help="keep the measurements in this file")
    parser.add_argument("--load", metavar="JSON", help="fit measurements saved by --save instead of measuring")
    args = parser.parse_args(argv)
    if args.scale_only:
        scale([])
        return
    cases = [c for c in assignment_cases(args.quick) + cli_io_cases() + derived_cases() + other_cases()
             + share_cases() if c.model.startswith(args.only)]
    if args.load:
        run, measured = load(args.load)
    else:
        run, measured = describe_run(argv), run_cases(cases)
        if "load".startswith(args.only):
            measured += load_rows()
    if args.only:  # the other models keep their constants, and the run line its run
        run = merge_run(CURRENT_RUN, args.only, datetime.datetime.now(datetime.timezone.utc))
    if args.save:
        Path(args.save).write_text(json.dumps({"run": run, "rows": [asdict(m) for m in measured]}, indent=1))
    models = fit_all(measured)
    for name, model in models.items():
        print(f"{name}: seconds {model['seconds']}; bytes {model['bytes']}")
    CURRENT.update(models)  # engine.cost now estimates with the new fit (the derived rows below)
    for line in report(measured, CURRENT, cases):
        print(line)
    if args.write:
        write_constants({k: v for k, v in CURRENT.items() if k in terms.TERMS}, run)
    if args.scale:
        rows: list[str] = []
        scale(rows)


RUN_ALL_ARGS = ["--quick"]
