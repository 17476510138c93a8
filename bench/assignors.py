"""``python -m bench assignors``: time each client assignor on the issue's four groups.

Kafka's own figures (median ms, Kafka 4.0 on this 2-core machine, from the issue) are the baseline;
the table prints this engine's median, Kafka's figure and the ratio (engine / Kafka).
Each run times only ``assign()`` of the leader, as Kafka's figure does; subscriptions are built
beforehand exactly as the group replay builds them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from engine.consumer.assignors import range as range_assignor
from engine.consumer.assignors import roundrobin as roundrobin_assignor
from engine.consumer.assignors.common import Cluster, Subscription
from engine.consumer.assignors.cooperative import CooperativeStickyAssignor
from engine.consumer.assignors.sticky import StickyAssignor
from engine.consumer.group import GroupReplay, _subscription, cluster_of
from engine.gcpause import gc_paused
from engine.java.strings import string_hashmap_order
from engine.scenario import GroupState, Member

KAFKA_MS: dict[tuple[str, str], float] = {
    ("1", "range"): 2.3, ("1", "roundrobin"): 1.0, ("1", "sticky"): 3.0, ("1", "cooperative-sticky"): 3.4,
    ("2", "range"): 455, ("2", "roundrobin"): 629, ("2", "sticky"): 73, ("2", "cooperative-sticky"): 73,
    ("3", "range"): 525, ("3", "roundrobin"): 685, ("3", "sticky"): 2686, ("3", "cooperative-sticky"): 1656,
    ("4", "sticky"): 59_000, ("4", "cooperative-sticky"): 61_000,
}
TARGET = {"2": "within 3x", "3": "within 3x", "4": "< 6 s"}


def uniform_group(topics: int, partitions: int, members: int) -> GroupState:
    names = tuple(f"topic{t}" for t in range(topics))
    return GroupState(dict.fromkeys(names, partitions), tuple(Member(f"consumer-{m}", names) for m in range(members)))


def half_group(topics: int, partitions: int, members: int, seed: int = 4) -> GroupState:
    rng = random.Random(seed)
    names = [f"topic{t}" for t in range(topics)]
    chosen = (tuple(sorted(rng.sample(names, topics // 2))) for _ in range(members))
    return GroupState(dict.fromkeys(names, partitions), tuple(Member(f"consumer-{m}", t) for m, t in enumerate(chosen)))


def prepared(strategy: str, state: GroupState, leave: bool) -> Callable[[], object]:
    """A zero-argument call of the leader's assign() on this group (after one member left)."""
    replay = GroupReplay(strategy)
    if leave:
        replay.step(state)
        state = GroupState(state.topics, state.members[1:])
        replay._join(state)
        replay.generation += 1
    cluster = cluster_of(state)
    order = string_hashmap_order(m.id for m in state.members)
    members = {m.id: m for m in state.members}
    if not leave:
        replay._join(state)
    subscriptions: dict[str, Subscription] = {m: _subscription(replay.members[m]) for m in order}
    del members
    return lambda: run(strategy, cluster, subscriptions)


def run(strategy: str, cluster: Cluster, subscriptions: dict[str, Subscription]) -> object:
    with gc_paused():  # as the replay runs it
        return _run(strategy, cluster, subscriptions)


def _run(strategy: str, cluster: Cluster, subscriptions: dict[str, Subscription]) -> object:
    if strategy == "range":
        return range_assignor.assign(cluster, subscriptions)
    if strategy == "roundrobin":
        return roundrobin_assignor.assign(cluster, subscriptions)
    assignor = StickyAssignor() if strategy == "sticky" else CooperativeStickyAssignor()
    return assignor.assign(cluster, subscriptions)


def median_ms(call: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = call()
        times.append((time.perf_counter() - start) * 1000)
        del result  # freeing the answer is not part of computing it (nor of Kafka's figure)
    return statistics.median(times)


SCENARIOS = {
    "1": ("1 topic x 10,000 partitions, 100 members", lambda: uniform_group(1, 10_000, 100), False),
    "2": ("500 topics x 2,000 = 1,000,000 partitions, 2,000 members", lambda: uniform_group(500, 2_000, 2_000), False),
    "3": ("the same after one member leaves", lambda: uniform_group(500, 2_000, 2_000), True),
    "4": ("100 topics x 500, 500 members, random half each", lambda: half_group(100, 500, 500), False),
}


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench assignors")
    parser.add_argument("--only", default="1,2,3,4", help="scenarios to run, e.g. 1,2")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"{'scenario':<9}{'strategy':<20}{'engine ms':>12}{'Kafka ms':>11}{'ratio':>8}  target")
    for key in args.only.split(","):
        title, build, leave = SCENARIOS[key]
        print(f"-- ({key}) {title}")
        state = build()
        for strategy in ("range", "roundrobin", "sticky", "cooperative-sticky"):
            kafka = KAFKA_MS.get((key, strategy))
            if kafka is None:
                continue
            call = prepared(strategy, state, leave)
            ms = median_ms(call, 1 if key in ("2", "3", "4") else args.repeat)
            print(f"({key})      {strategy:<20}{ms:>12.1f}{kafka:>11,.1f}{ms / kafka:>8.2f}  {TARGET.get(key, '')}")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
