"""``python -m bench share_assign``: time share groups' SimpleAssignor (``python -m engine share-assign``).

Each row times one ``share_assign`` call of two steps (a group, then one member leaves, its holdings chained)
and reports the median of ``--repeat`` runs beside the cost model's estimate made before any work
(``engine.cost.estimate_share_assignment``, fitted by ``python -m bench cost --only share``): the column to
watch is measured / estimated.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.coordinator.share_assignment import parse_share_case, share_assign, step_shapes
from engine.cost import CLI_CEILING, estimate_share_assignment

SIZES = ((1_000, 50, 10), (10_000, 200, 50), (50_000, 500, 100), (200_000, 2_000, 100))  # partitions, members, topics


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
    parser.add_argument("--max-partitions", type=int, default=200_000)
    args = parser.parse_args(argv)
    print(f"the command line's ceiling: {CLI_CEILING.seconds:.0f} s")
    print(f"{'subscriptions':<16}{'partitions':>11}{'members':>9}{'2 steps ms':>12}{'estimate ms':>13}{'ratio':>7}")
    for partitions, members, topics in SIZES:
        if partitions > args.max_partitions:
            continue
        for hetero in (False, True):
            case = _case(partitions, members, topics, hetero)
            estimate = estimate_share_assignment(step_shapes(parse_share_case(case)[1])).seconds * 1000
            ms = _time(case, args.repeat)
            label = "heterogeneous" if hetero else "homogeneous"
            print(f"{label:<16}{partitions:>11,}{members:>9,}{ms:>12.1f}{estimate:>13.1f}{ms / estimate:>7.2f}")
