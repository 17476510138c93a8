"""``python -m engine share-deliver``: one case (or a batch) through ``SharePartition``, as section 10 of
``../shared/spec/README.md`` says.  The case is parsed and its work estimated before anything runs; the
answer carries the settings and the group config used (defaults filled in) and the Kafka release followed.

>>> answer = cli_share_deliver({"group_config": {"share.auto.offset.reset": "earliest"}, "log": [[0, 1]],
...                             "events": [{"t": 0, "op": "fetch", "member": "A", "max_records": 1}]})
>>> answer["steps"][0]["result"], answer["settings"]["group.share.partition.max.record.locks"]
({'fetch_offset': 0, 'acquired': [{'first': 0, 'last': 1, 'delivery_count': 1}]}, 2000)
>>> cli_share_deliver({"log": [[0, 1]], "events": [{"t": 0, "op": "fetch", "member": "A", "max_records": 1}]}
...                   )["group_config"]
{'share.auto.offset.reset': 'latest'}
"""

from __future__ import annotations

from typing import Any

from engine.budgets import check_share_delivery
from engine.share.case import parse_case, window_cap
from engine.share.replay import replay
from engine.share.settings import AUTO_OFFSET_RESET


def cli_share_deliver(payload: Any) -> dict[str, Any]:
    """One case's answer: ``steps`` (one per event), the ``settings`` and ``group_config`` used (the command line
    adds the ``follows`` line)."""
    case = parse_case(payload)
    check_share_delivery(len(case.events), window_cap(case), answer=True, batches=len(case.all_batches))
    return {"steps": replay(case), "settings": case.settings.as_json(),
            "group_config": {AUTO_OFFSET_RESET: case.auto_offset_reset}}
