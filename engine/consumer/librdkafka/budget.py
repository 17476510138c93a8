"""The librdkafka replay's own guard, checked before it starts (docs/command-line.md, "Limits").

The port follows librdkafka's loops, so two paths cost partitions x members per step: cooperative-sticky
(the general sticky algorithm: every partition weighed against every consumer) and range's rack-aware
passes (each partition offered to each consumer that has a ``client.rack``).  ``engine.cost`` estimates
both (``assign.librdkafka.*``).  Whoever calls the replay (the CLI, a page, a lesson), it never starts
beyond ``engine.cost.CLI_CEILING``, the largest ceiling; each door checks its own ceiling first.

>>> from engine.scenario import parse_scenario
>>> names = [f"t{i}" for i in range(100)]
>>> members = [{"id": f"c{i}", "topics": names} for i in range(2_000)]
>>> big = parse_scenario({"topics": dict.fromkeys(names, 2_000), "members": members})
>>> check_librdkafka_work(big, "range")
>>> check_librdkafka_work(big, "cooperative-sticky")
Traceback (most recent call last):
...
engine.errors.LimitError: assign (librdkafka cooperative-sticky): estimated ... s and ... MiB, over the command \
line's ceiling of 120 s and 4,096 MiB (200,000 partitions x 2,000 members (librdkafka cooperative-sticky), 1 step)
"""

from __future__ import annotations

from engine.budgets import check_estimate
from engine.cost import estimate_assignment
from engine.scenario import Scenario


def check_librdkafka_work(scenario: Scenario, strategy: str) -> None:
    """Raise ``LimitError`` (one line) when the replay is estimated over the CLI ceiling."""
    check_estimate(f"assign (librdkafka {strategy})", estimate_assignment(scenario, strategy, "librdkafka"))
