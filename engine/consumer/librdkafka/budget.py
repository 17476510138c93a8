"""Work budgets of the librdkafka replay, checked before it starts (README, "Limits").

The port follows librdkafka's loops, so two paths cost partitions x members per step:
cooperative-sticky (the general sticky algorithm: every partition weighed against every consumer)
and range's rack-aware passes (each partition offered to each consumer that has a ``client.rack``).
Both are bounded here; everything else is linear and bounded by ``engine.budgets.check_assign``.

>>> from engine.scenario import parse_scenario
>>> members = [{"id": f"c{i}", "topics": ["t0"]} for i in range(300)]
>>> big = parse_scenario({"topics": {"t0": 10_000}, "members": members})
>>> check_librdkafka_work(big, "range")
>>> check_librdkafka_work(big, "cooperative-sticky")
Traceback (most recent call last):
...
engine.errors.LimitError: assign (librdkafka cooperative-sticky): asks for 3,000,000 units of work, \
the budget is 2,000,000 (partitions x members summed over steps)
"""

from __future__ import annotations

from engine.budgets import check_budget
from engine.scenario import Scenario

MAX_STICKY_WORK = 2_000_000  # about 6 s of cooperative-sticky on one core
MAX_RACK_AWARE_RANGE_WORK = 10_000_000  # about 6 s of range's rack-aware passes


def sticky_work(scenario: Scenario) -> int:
    return sum(state.total_partitions * len(state.members) for state in scenario.steps)


def rack_aware_range_work(scenario: Scenario) -> int:
    """Partitions x consumers with a ``client.rack``, summed over steps that have replica racks."""
    return sum(state.total_partitions * sum(1 for m in state.members if m.rack)
               for state in scenario.steps if state.partition_racks)


def check_librdkafka_work(scenario: Scenario, strategy: str) -> None:
    """Raise ``LimitError`` (one line) when the replay would exceed its budget."""
    what = f"assign (librdkafka {strategy})"
    if strategy == "cooperative-sticky":
        check_budget(what, sticky_work(scenario), MAX_STICKY_WORK, "partitions x members summed over steps")
    elif strategy == "range":
        check_budget(what, rack_aware_range_work(scenario), MAX_RACK_AWARE_RANGE_WORK,
                     "partitions x members with client.rack, summed over steps with replica racks")
