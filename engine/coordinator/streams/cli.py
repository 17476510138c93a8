"""``python -m engine streams-assign``: one case (or, through ``engine.cli``, a batch) in, Kafka's answer out.

The case is read and refused at the boundary (``case.parse_case``), its work estimated by the cost model and
refused over the command line's ceiling (``engine.cost.admit`` with ``CLI_CEILING``) before the assignor
starts (``engine.cost.streams``), then assigned.
The answer is ``{"assignment": {member: {"active", "standby", "warmup"}}}``, or, where Kafka's assignor throws
(members none, tasks some), ``{"error": "TaskAssignorException: ..."}``:

    >>> cli_streams_assign({"subtopologies": [{"id": "0", "partitions": 1, "stateful": False}], "members": []})
    {'error': 'TaskAssignorException: No process available to assign active task 0_0.'}
    >>> cli_streams_assign({"subtopologies": [], "members": [{"member_id": "m", "process_id": "p"}]})
    {'assignment': {'m': {'active': {}, 'standby': {}, 'warmup': {}}}}
"""

from __future__ import annotations

from typing import Any

from engine.coordinator.streams.case import parse_case
from engine.coordinator.streams.sticky_task_assignor import TaskAssignorError, assign
from engine.cost import CLI_CEILING, admit
from engine.cost.streams import estimate_streams_assignment


def cli_streams_assign(payload: Any) -> dict[str, Any]:
    """The ``streams-assign`` handler: refusals raise ``EngineError`` (exit 2, or ``{"error"}`` in a batch)."""
    case = parse_case(payload)
    admit(estimate_streams_assignment(case.shape()), CLI_CEILING, "streams-assign")
    try:
        return assign(case.spec, case.topology).to_json()
    except TaskAssignorError as exc:
        return {"error": str(exc)}
