"""``python -m engine share-deliver``: one case (or a batch) through ``SharePartition``, as section 10 of
``../shared/spec/README.md`` says.  The case is parsed, its in-flight window bounded (``MAX_IN_FLIGHT``) and its
work admitted under the command line's ceiling (``engine.cost.estimate_share_deliver_command``) before anything
runs; the answer carries the settings and the group config used (defaults filled in) and the Kafka release followed.

>>> answer = cli_share_deliver({"group_config": {"share.auto.offset.reset": "earliest"}, "log": [[0, 1]],
...                             "events": [{"t": 0, "op": "fetch", "member": "A", "max_records": 1}]})
>>> answer["steps"][0]["result"], answer["settings"]["group.share.partition.max.record.locks"]
({'fetch_offset': 0, 'acquired': [{'first': 0, 'last': 1, 'delivery_count': 1}]}, 2000)
>>> cli_share_deliver({"log": [[0, 1]], "events": [{"t": 0, "op": "fetch", "member": "A", "max_records": 1}]}
...                   )["group_config"]
{'share.auto.offset.reset': 'latest'}
"""

from __future__ import annotations

from typing import Any, Final

from engine.cost import CLI_CEILING, admit, estimate_share_deliver_command
from engine.errors import LimitError
from engine.share.case import ShareCase, parse_case, window_cap
from engine.share.replay import replay
from engine.share.settings import AUTO_OFFSET_RESET

MAX_IN_FLIGHT: Final = 200_000


def bounded_window(case: ShareCase) -> int:
    """``window_cap``, refused (``LimitError``) past ``MAX_IN_FLIGHT`` records: a semantic limit beside the
    estimate, as ``replay.run`` stops a run whose window outgrows the cap."""
    cap = window_cap(case)
    if cap > MAX_IN_FLIGHT:
        raise LimitError(f"share-deliver: the in-flight window may hold {cap:,} records, at most {MAX_IN_FLIGHT:,} "
                         "(4 x (max.record.locks + largest max_records + largest log batch), at most the log's span)")
    return cap


def cli_share_deliver(payload: Any) -> dict[str, Any]:
    """One case's answer: ``steps`` (one per event), the ``settings`` and ``group_config`` used (the command line
    adds the ``follows`` line)."""
    case = parse_case(payload)
    admit(estimate_share_deliver_command(len(case.events), bounded_window(case), len(case.all_batches)),
          CLI_CEILING, "share-deliver")
    return {"steps": replay(case), "settings": case.settings.as_json(),
            "group_config": {AUTO_OFFSET_RESET: case.auto_offset_reset}}
