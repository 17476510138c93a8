"""One cost model and one door for every computation an input can start: the caller estimates the work (wall
seconds on the 2-core reference machine, peak extra bytes) from its shape with the computation's ``estimate_*``,
then passes it through ``admit`` with its own ceiling, before any work.  A computation itself never checks a
ceiling: who calls it decides how much it may ask for.

The constants behind every estimate are fitted by ``python -m bench cost`` (``engine/cost/constants.py``
names the run); ``admit`` raises one ``LimitError`` line naming the estimate, the ceiling and what
drives it.  The command line's handlers admit ``CLI_CEILING`` (about two minutes, a few GiB), each naming its
command; a dashboard page runs work under ``INLINE_SECONDS`` on its script thread and anything up to
``DASHBOARD_CEILING`` in a worker process.

Worked example (asserted by tests/test_worked_examples.py):

>>> from engine.scenario import parse_scenario
>>> members = [{"id": f"c{i}", "topics": ["t0"]} for i in range(10)]
>>> small = parse_scenario({"topics": {"t0": 1_000}, "members": members})
>>> estimate_assignment(small, "sticky").seconds < INLINE_SECONDS
True
>>> admit(estimate_assign_command(small, "sticky"), CLI_CEILING, "assign")
>>> admit(Estimate(500.0, 2 * GIB, "2,000,000 partitions x 20,000 members (sticky)"), DASHBOARD_CEILING)
Traceback (most recent call last):
...
engine.errors.LimitError: estimated 500 s and 2,048 MiB, over the dashboard's ceiling of 60 s and 2,048 MiB \
(2,000,000 partitions x 20,000 members (sticky))
"""

from __future__ import annotations

from typing import Final

from engine.cost.assignment import (
    estimate_assign_command,
    estimate_assignment,
    estimate_comparison,
    estimate_protocol_timeline,
    estimate_rolling_restart,
    estimate_server_assign_command,
    estimate_server_assignment,
    estimate_share_scenario,
)
from engine.cost.computations import (
    estimate_coordinator,
    estimate_hash,
    estimate_import,
    estimate_load,
    estimate_partition_log,
    estimate_placements,
    estimate_produce,
    estimate_protocol_walkthrough,
    estimate_remap,
    estimate_replicas,
    estimate_share_assignment,
    estimate_share_deliver_answer,
    estimate_share_deliver_command,
    estimate_share_delivery,
    estimate_striped,
    estimate_wheel,
    estimate_wheel_costs,
)
from engine.cost.model import GIB, MIB, Ceiling, Estimate, admit

CLI_CEILING: Final = Ceiling("command line", 120.0, 4 * GIB)
DASHBOARD_CEILING: Final = Ceiling("dashboard", 60.0, 2 * GIB)
INLINE_SECONDS: Final = 1.0

__all__ = [
    "CLI_CEILING", "DASHBOARD_CEILING", "GIB", "INLINE_SECONDS", "MIB", "Ceiling", "Estimate", "admit",
    "estimate_assign_command", "estimate_assignment", "estimate_comparison", "estimate_coordinator", "estimate_hash",
    "estimate_import", "estimate_load", "estimate_partition_log", "estimate_placements", "estimate_produce",
    "estimate_protocol_timeline", "estimate_protocol_walkthrough", "estimate_remap", "estimate_replicas",
    "estimate_rolling_restart", "estimate_server_assign_command", "estimate_server_assignment",
    "estimate_share_assignment", "estimate_share_deliver_answer", "estimate_share_deliver_command",
    "estimate_share_delivery", "estimate_share_scenario", "estimate_striped", "estimate_wheel", "estimate_wheel_costs",
]
