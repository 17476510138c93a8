"""``python -m bench server_assign``: time the KIP-848 server assignors and replica placement.

Each row times one ``server_assign`` call of two steps (a new group, then one member leaves) and
reports the median of ``--repeat`` runs; the Java HashMap/HashSet order model is included.  There is
no Kafka baseline in the issue for these; Kafka's own JMH ``ServerSideAssignorBenchmark`` reports
single-digit to tens of ms at 10k partitions, so the column to watch is ms per 10k partitions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.coordinator.target_assignment import server_assign
from engine.server.replicas import Broker, assign_replicas_to_brokers

SIZES = ((1_000, 50, 10), (10_000, 200, 50), (100_000, 1_000, 100))  # partitions, members, topics


def _case(assignor: str, partitions: int, members: int, topics: int, heterogeneous: bool) -> dict:
    per_topic = max(1, partitions // topics)
    names = [f"topic-{t}" for t in range(topics)]
    rng = random.Random(7)
    subs = [names if not heterogeneous or m % 4 else rng.sample(names, max(1, topics // 2)) for m in range(members)]
    first = [{"id": f"consumer-{m}-{m * 7919 % 10007}", "topics": subs[m]} for m in range(members)]
    topic_map = dict.fromkeys(names, per_topic)
    return {"assignor": assignor, "steps": [{"topics": topic_map, "members": first},
                                            {"topics": topic_map, "members": first[1:]}]}


def _time(fn, repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - start) * 1000)
    return statistics.median(runs)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench server_assign")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-partitions", type=int, default=100_000)
    args = parser.parse_args(argv)
    print(f"{'assignor':<24}{'partitions':>11}{'members':>9}{'2 steps ms':>12}{'ms / 10k partitions':>21}")
    for partitions, members, topics in SIZES:
        if partitions > args.max_partitions:
            continue
        for assignor, hetero in (("uniform", False), ("uniform", True), ("range", False), ("range", True)):
            case = _case(assignor, partitions, members, topics, hetero)
            ms = _time(lambda: server_assign(case), args.repeat)
            label = f"{assignor} {'heterogeneous' if hetero else 'homogeneous'}"
            print(f"{label:<24}{partitions:>11,}{members:>9,}{ms:>12.1f}{ms / (2 * partitions / 10_000):>21.1f}")
    brokers = [Broker(i, f"r{i % 3}") for i in range(30)]
    ms = _time(lambda: assign_replicas_to_brokers(brokers, 10_000, 3, 0), args.repeat)
    print(f"{'replicas rack-aware':<24}{10_000:>11,}{'30 brk':>9}{ms:>12.1f}{ms:>21.1f}")
