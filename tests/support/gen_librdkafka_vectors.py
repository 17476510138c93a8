"""Generate ``tests/vectors/librdkafka_assign.json`` from real librdkafka consumers on the mock cluster.

    .venv/bin/python tests/support/gen_librdkafka_vectors.py --count 240 --seed 20250101 --parallel 10

Each case is a random group (``librdkafka_cases.random_spec``: range, roundrobin and
cooperative-sticky in turn) formed and stepped by real consumers, each group in its own process
and on its own mock cluster (``librdkafka_oracle.run_groups``).  Groups that hit a mock-cluster
race are rerun; groups whose consumers time out are reported and left out; groups where
librdkafka itself crashed are kept (``"crashed"``) when the crashing step's members are known.
The file is ``{"header": {...}, "cases": [...]}`` like ``../shared/vectors/assign.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parent.parent)]

from support.librdkafka_cases import STRATEGIES, random_spec, record_to_case  # noqa: E402
from support.librdkafka_oracle import GroupRecord, run_groups  # noqa: E402
from support.mock_cluster import librdkafka_version  # noqa: E402

DEFAULT_OUT = HERE.parent / "vectors" / "librdkafka_assign.json"


def generate(count: int, seed: int, parallel: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    rng = random.Random(seed)
    specs = [random_spec(rng, STRATEGIES[i % len(STRATEGIES)], f"lk{seed}-{i}") for i in range(count)]
    started = time.monotonic()
    records = run_groups(specs, parallel=parallel)
    cases: list[dict[str, Any]] = []
    failures: list[str] = []
    crashes: list[str] = []
    retries = 0
    for spec, record in zip(specs, records):
        if not isinstance(record, GroupRecord):
            failures.append(f"{spec.group_id}: {record!r}"[:300])
            continue
        retries += len(record.retries)
        if record.crashed:
            crashes.append(f"{spec.group_id} ({spec.strategy}): {record.crashed} in step {len(record.steps)}")
        try:
            cases.append(record_to_case(record, spec.group_id))
        except ValueError as exc:
            failures.append(str(exc))
    import confluent_kafka

    header: dict[str, Any] = {
        "file": "librdkafka_assign.json",
        "client": "librdkafka",
        "librdkafka_version": librdkafka_version(),
        "confluent_kafka_version": confluent_kafka.version()[0],
        "source": "real librdkafka consumers (confluent_kafka.Consumer, group.protocol=classic) on "
                  "librdkafka's in-process mock cluster; tests/support/gen_librdkafka_vectors.py",
        "seed": seed,
        "rng": "python random.Random(seed), tests/support/librdkafka_cases.random_spec",
        "members": "each step's members are in JoinGroup order (the mock's first-join order) under the REAL "
                   "member ids the mock broker generated; rack null = no client.rack",
        "assignment": "what each consumer held after the step settled (Consumer.assignment(), sorted); "
                      "compare as sets",
        "assignor_rounds": "per rebalance round, the leader's raw assignor output as its debug log printed "
                           "it (rd_kafka_assignor_run): member and partition order are librdkafka's",
        "generation": "rebalance rounds so far, counted from 1 as a Kafka broker does (mock ids are +1)",
        "converged": "false: librdkafka was still rebalancing after `rounds` rounds; the case stops there",
        "crashed": "the consumers' process died in that step (signal name)",
        "retries": retries,
        "failures": failures,
        "crashes": crashes,
        "seconds": round(time.monotonic() - started, 1),
    }
    return cases, header


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=240)
    parser.add_argument("--seed", type=int, default=20250101)
    parser.add_argument("--parallel", type=int, default=10)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    cases, header = generate(args.count, args.seed, args.parallel)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"header": header, "cases": cases}, ensure_ascii=False, separators=(",", ":"))
    args.out.write_text(text + "\n", encoding="utf-8")
    print(f"{len(cases)} cases, {sum(len(c['expected']) for c in cases)} steps -> {args.out} "
          f"({header['seconds']} s, {header['retries']} reruns, {len(header['failures'])} failures, "
          f"{len(header['crashes'])} crashes)")
    for line in [*header["failures"], *header["crashes"]]:
        print(" ", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
