"""Total-work budgets: what one request may cost, counted from its input and checked before the work starts.

Size limits (``engine.inputs``, each command's own) bound what a request *is*; these bound what it *asks
for*, so that anything allowed finishes in seconds and a small document cannot ask for minutes
(2,000,000 partitions x 200 steps is a 360 KB document).  Each budget counts the unit that the command's
running time grows with, measured on the 2-core development machine (README, "Limits"):

- ``assign``: partitions + subscriptions (member-topic pairs) summed over the steps, times the strategy's
  cost weight (range, roundrobin 1; sticky 2; cooperative-sticky, which runs follow-up rounds, 4)
  <= 2,000,000; plus, for sticky and cooperative-sticky when members' subscriptions differ (Kafka's
  general assignment path, which scans the members once per partition), partitions x members summed over
  the steps <= 20,000,000.
- ``hash``: keys x partition counts <= 1,000,000 (one answer cell each).
- ``coordinator``: the group ids' characters (UTF-16 units) summed <= 4,000,000.
- ``wheel``: tasks x timing-wheel levels <= 100,000; the levels are those the largest delay needs
  (``wheel_size`` 2 with a delay of 2^40 ms needs 41).
- ``replicas``: replicas x (1 + the brokers the rack-aware scan may skip) <= 10,000,000; rack-unaware
  placement costs one unit per replica.  The skipped brokers are those beyond the smallest rack's share
  (``brokers - racks x smallest rack``): with uneven racks Kafka's placement walks past them to find a
  rack the partition lacks.
- ``server-assign`` keeps its own budget beside its parser: partitions summed over steps <= 1,000,000.
- ``share-assign`` likewise (``engine.coordinator.share_assignment``): partitions + subscriptions + held
  partitions summed over steps <= 200,000.

Worked example (asserted in ``tests/test_hostile_budgets.py``): a range case of 2 steps, each with one
topic of 1,000 partitions and 10 members subscribed to it, costs ``2 x (1,000 + 10) = 2,020`` units;
``wheel_levels(1, 2, 2**40) == 41`` and ``wheel_levels(1, 20, 25) == 2``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final

from engine.errors import LimitError

if TYPE_CHECKING:  # attributes only: importing the scenario model (pydantic) is for assign alone
    from engine.scenario import GroupState, Scenario

MAX_ASSIGN_WORK: Final = 2_000_000
MAX_GENERAL_STICKY_WORK: Final = 20_000_000
STRATEGY_WEIGHTS: Final = {"range": 1, "roundrobin": 1, "sticky": 2, "cooperative-sticky": 4}
DEFAULT_STRATEGY_WEIGHT: Final = 4  # a strategy not measured yet counts as the most expensive one
GENERAL_PATH_STRATEGIES: Final = frozenset({"sticky", "cooperative-sticky"})
MAX_HASH_CELLS: Final = 1_000_000
MAX_GROUP_ID_UNITS: Final = 4_000_000
MAX_WHEEL_TASK_LEVELS: Final = 100_000
MAX_REPLICA_WORK: Final = 10_000_000


def check_budget(what: str, work: int, budget: int, counted: str) -> None:
    """Refuse ``work`` over ``budget`` with one line naming the request, the count and how it was counted."""
    if work > budget:
        raise LimitError(f"{what}: asks for {work:,} units of work, the budget is {budget:,} ({counted})")


# ----------------------------------------------------------------------------------------- assign


def step_work(state: GroupState) -> int:
    """Partitions plus subscriptions (member-topic pairs) of one group state."""
    return state.total_partitions + sum(len(m.topics) for m in state.members)


def assign_work(scenario: Scenario, strategy: str) -> int:
    """``assign``'s work units: ``step_work`` summed over the steps, times the strategy's weight."""
    weight = STRATEGY_WEIGHTS.get(strategy, DEFAULT_STRATEGY_WEIGHT)
    return weight * sum(step_work(s) for s in scenario.steps)


def general_path_work(scenario: Scenario, strategy: str) -> int:
    """Partitions x members summed over the steps whose subscriptions differ (0 unless sticky-family)."""
    if strategy not in GENERAL_PATH_STRATEGIES and strategy in STRATEGY_WEIGHTS:
        return 0
    return sum(s.total_partitions * len(s.members) for s in scenario.steps if _subscriptions_differ(s))


def _subscriptions_differ(state: GroupState) -> bool:
    return len({frozenset(m.topics) for m in state.members}) > 1


def check_assign(scenario: Scenario, strategy: str) -> None:
    """Both ``assign`` budgets; a ``LimitError`` line when either is exceeded."""
    weight = STRATEGY_WEIGHTS.get(strategy, DEFAULT_STRATEGY_WEIGHT)
    check_budget("assign", assign_work(scenario, strategy), MAX_ASSIGN_WORK,
                 f"partitions + subscriptions summed over steps, x{weight} for {strategy}")
    check_budget("assign", general_path_work(scenario, strategy), MAX_GENERAL_STICKY_WORK,
                 f"{strategy} with differing subscriptions: partitions x members summed over steps")


# ----------------------------------------------------------------------------- hash, coordinator


def check_hash(keys: int, partition_counts: int) -> None:
    check_budget("hash", keys * partition_counts, MAX_HASH_CELLS, "keys x partition counts")


def utf16_length(text: str) -> int:
    """``String.length()`` in Java: UTF-16 code units (a character beyond U+FFFF counts 2)."""
    return len(text) if text.isascii() else len(text.encode("utf-16-le", "surrogatepass")) // 2


def check_coordinator(group_ids: Iterable[str]) -> None:
    check_budget("coordinator", sum(utf16_length(g) for g in group_ids), MAX_GROUP_ID_UNITS,
                 "characters of the group ids summed")


# -------------------------------------------------------------------------------------- wheel


def wheel_levels(tick_ms: int, wheel_size: int, max_delay_ms: int) -> int:
    """Wheels Kafka's ``TimingWheel`` may create for a delay: level ``k`` ticks every ``tick x size^k`` ms
    and spans ``tick x size^(k+1)``; its current time lags the clock by less than one of its ticks, so a
    delay ``d`` surely fits level ``k`` once ``d + tick_k - 1 < span_k`` (an upper bound, exceeding the
    levels a run creates by at most one).
    """
    levels, tick, span = 1, tick_ms, tick_ms * wheel_size
    while max_delay_ms + tick - 1 >= span:
        tick, span = span, span * wheel_size
        levels += 1
    return levels


def check_wheel(tick_ms: int, wheel_size: int, delays: Sequence[int]) -> None:
    levels = wheel_levels(tick_ms, wheel_size, max(delays, default=0))
    check_budget("wheel", len(delays) * levels, MAX_WHEEL_TASK_LEVELS,
                 f"tasks x wheel levels; {levels} levels for the largest delay")


# ----------------------------------------------------------------------------------- replicas


def replica_scan(racks: Sequence[str | None]) -> int:
    """Brokers the rack-aware placement may walk past per replica: those beyond the smallest rack's share."""
    if not racks or any(r is None for r in racks):
        return 0
    sizes = Counter(racks).values()
    return len(racks) - len(sizes) * min(sizes)


def check_replicas(racks: Sequence[str | None], partitions: int, replication_factor: int) -> None:
    """``racks`` in broker order (None = no rack); rack-unaware placement is one unit per replica."""
    replicas = max(partitions, 0) * max(replication_factor, 0)
    check_budget("replicas", replicas * (1 + replica_scan(racks)), MAX_REPLICA_WORK,
                 "replicas x (1 + brokers beyond the smallest rack's share)")
