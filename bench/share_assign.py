"""``python -m bench share_assign``: time share groups' SimpleAssignor (``python -m engine share-assign``).

Each row times one ``share_assign`` call of two steps (a group, then one member leaves, its holdings chained)
and reports the median of ``--repeat`` runs, with the work units the budget counts (partitions + subscriptions
+ held partitions, ``engine.coordinator.share_assignment.MAX_SHARE_ASSIGN_WORK``); the column to watch is ms
per 10k units, which sets how far the budget may go while a request stays within seconds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.coordinator.share_assignment import MAX_SHARE_ASSIGN_WORK, share_assign, share_assign_work
from engine.coordinator.target_assignment import _parse_steps

SIZES = ((1_000, 50, 10), (10_000, 200, 50), (50_000, 500, 100))  # partitions, members, topics (within the budget)


def _case(partitions: int, members: int, topics: int, heterogeneous: bool) -> dict:
    names = [f"topic-{t}" for t in range(topics)]
    rng = random.Random(7)
    subs = [names if not heterogeneous or m % 4 else rng.sample(names, max(1, topics // 2)) for m in range(members)]
    first = [{"id": f"share-consumer-{m}-{m * 7919 % 10007}", "topics": subs[m]} for m in range(members)]
    topic_map = dict.fromkeys(names, max(1, partitions // topics))
    return {"steps": [{"topics": topic_map, "members": first}, {"topics": topic_map, "members": first[1:]}]}


def _time(case: dict, repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        share_assign(case)
        runs.append((time.perf_counter() - start) * 1000)
    return statistics.median(runs)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench share_assign")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-partitions", type=int, default=50_000)
    args = parser.parse_args(argv)
    print(f"budget: {MAX_SHARE_ASSIGN_WORK:,} units")
    print(f"{'subscriptions':<16}{'partitions':>11}{'members':>9}{'units':>10}{'2 steps ms':>12}{'ms / 10k units':>16}")
    for partitions, members, topics in SIZES:
        if partitions > args.max_partitions:
            continue
        for hetero in (False, True):
            case = _case(partitions, members, topics, hetero)
            units = share_assign_work(_parse_steps(case))
            ms = _time(case, args.repeat)
            label = "heterogeneous" if hetero else "homogeneous"
            print(f"{label:<16}{partitions:>11,}{members:>9,}{units:>10,}{ms:>12.1f}{ms / (units / 10_000):>16.1f}")
