"""The shape features of a scenario that drive an assignment's cost, counted once per step and summed.

Per step: ``partitions``, ``members``, ``subscriptions`` (member-topic pairs); ``general``: partitions x
members when the members' subscriptions differ (the sticky family's general path weighs every partition
against every member); ``pm``: partitions x members (librdkafka's cooperative-sticky port always does);
``pairs``: member-partition pairs a subscription allows (what that port's balancing walks for each partition);
``scan``: round-robin's walk past members not subscribed to a partition's topic (partitions of a topic x
members / its subscribers); ``racked``: partitions x members with a ``client.rack`` when replicas have racks.
``general_peak``, ``pm_peak`` and ``pairs_peak`` are the largest step's (what is held at once, not summed).
A cooperative strategy runs a follow-up JoinGroup round when partitions are revoked: a step after the
first (or the first of an imported group) counts ``rounds`` times.

>>> from engine.scenario import parse_scenario
>>> s = parse_scenario({"topics": {"a": 6, "b": 4}, "members": [{"id": "m1", "topics": ["a", "b"]},
...                                                             {"id": "m2", "topics": ["a"]}]})
>>> f = scenario_features(s)
>>> f["partitions"], f["subscriptions"], f["general"], f["scan"], f["pairs"]
(10.0, 3.0, 20.0, 14.0, 16.0)
"""

from __future__ import annotations

import itertools
import weakref
from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # attributes only: the estimates of other commands never import the scenario model
    from engine.scenario import GroupState, Scenario

FEATURES = ("steps", "partitions", "members", "subscriptions", "general", "pm", "pairs", "scan", "racked")


def step_features(state: GroupState, rounds: int = 1) -> dict[str, float]:
    """One step's features, ``rounds`` times (each JoinGroup round does the work again).  Counted once per
    step object while it lives (a page estimates one scenario for each of its assignors)."""
    key = id(state)
    known = _KNOWN.get(key)
    if known is None or known[0]() is not state:

        def forget(_: object) -> None:
            _KNOWN.pop(key, None)

        known = _KNOWN[key] = (weakref.ref(state, forget), _count(state))
    return {k: v * rounds for k, v in known[1].items()}


_KNOWN: dict[int, tuple[weakref.ref[GroupState], dict[str, float]]] = {}  # id -> (the step, its features)


def _count(state: GroupState) -> dict[str, float]:
    p, m = state.total_partitions, len(state.members)
    subscribers = Counter(itertools.chain.from_iterable(set(member.topics) for member in state.members))
    differ = len({frozenset(member.topics) for member in state.members}) > 1
    racked = p * sum(1 for member in state.members if member.rack) if state.partition_racks else 0
    scan = sum(state.topics.get(t, 0) * m / n for t, n in subscribers.items())
    values = {"steps": 1, "partitions": p, "members": m, "subscriptions": sum(subscribers.values()),
              "general": p * m if differ else 0, "pm": p * m, "scan": scan, "racked": racked,
              "pairs": sum(state.topics.get(t, 0) * n for t, n in subscribers.items())}
    return {k: float(v) for k, v in values.items()}


def scenario_features(scenario: Scenario, cooperative_rounds: int = 1) -> dict[str, float]:
    """``step_features`` summed over the steps (follow-up rounds counted), plus the largest step's peaks."""
    total = dict.fromkeys(FEATURES, 0.0)
    general_peak = pm_peak = pairs_peak = 0.0
    for i, state in enumerate(scenario.steps):
        owned = i > 0 or bool(scenario.current_assignment)
        once = step_features(state)
        for k, v in once.items():
            total[k] += v * (cooperative_rounds if owned else 1)
        general_peak, pm_peak = max(general_peak, once["general"]), max(pm_peak, once["pm"])
        pairs_peak = max(pairs_peak, once["pairs"])
    total["general_peak"], total["pm_peak"], total["pairs_peak"] = general_peak, pm_peak, pairs_peak
    return total


def largest_step(scenario: Scenario) -> GroupState:
    return max(scenario.steps, key=lambda s: (s.total_partitions * max(len(s.members), 1), s.total_partitions))


def subscriptions_differ(state: GroupState) -> bool:
    return len({frozenset(member.topics) for member in state.members}) > 1


def describe(scenario: Scenario, what: str) -> str:
    """One line naming the largest step: ``"50,000 partitions x 500 members (sticky, differing
    subscriptions), 2 steps"``."""
    state = largest_step(scenario)
    detail = what + (", differing subscriptions" if subscriptions_differ(state) else "")
    steps = len(scenario.steps)
    return (f"{state.total_partitions:,} partitions x {len(state.members):,} members ({detail}), "
            f"{steps:,} step{'s' if steps != 1 else ''}")
