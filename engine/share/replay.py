"""A case driven through ``SharePartition``, one step per event, in the vectors' shape.

Before each event at ``t`` the locks with ``expiry < t`` fire (reported in that step's ``expired``); then
the event acts: ``fetch`` acquires, ``ack`` acknowledges, ``leave`` releases the member's records, ``produce``
appends to the log, ``crash`` and ``tick`` only let time pass.

>>> from engine.share.case import parse_case
>>> case = parse_case({"group_config": {"share.auto.offset.reset": "earliest"}, "log": [[0, 4], [5, 9]],
...     "events": [{"t": 0, "op": "fetch", "member": "A", "max_records": 3},
...                {"t": 5, "op": "ack", "member": "A", "batches": [{"first": 0, "last": 1, "type": "ACCEPT"}]}]})
>>> steps = replay(case)
>>> steps[0]["result"]
{'fetch_offset': 0, 'acquired': [{'first': 0, 'last': 4, 'delivery_count': 1}]}
>>> steps[1]["state"]["start_offset"], steps[1]["state"]["in_flight"][0]["offsets"][1]["state"]
(2, 'ACQUIRED')
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from engine.errors import LimitError
from engine.share.acquisition_lock import AcquisitionLock
from engine.share.case import Ack, Event, Fetch, Leave, Produce, ShareCase, window_cap
from engine.share.log import ShareLog
from engine.share.share_partition import FetchResult, SharePartition


@dataclass(frozen=True)
class Step:
    """What one event did: its result (a ``FetchResult``, an ack/leave error or None) and the locks fired."""

    event: Event
    result: FetchResult | str | None
    expired: list[AcquisitionLock]

    def result_json(self) -> dict[str, Any]:
        if isinstance(self.result, FetchResult):
            return {"fetch_offset": self.result.fetch_offset,
                    "acquired": [{"first": f, "last": la, "delivery_count": d} for f, la, d in self.result.acquired]}
        if isinstance(self.event, (Ack, Leave)):
            return {"error": self.result}
        return {}


def apply(partition: SharePartition, event: Event) -> Step:
    """Fire the locks due before ``event.t``, then apply the event."""
    expired = partition.expire(event.t)
    result: FetchResult | str | None = None
    if isinstance(event, Fetch):
        result = partition.fetch(event.member, event.max_records, event.t)
    elif isinstance(event, Ack):
        result = partition.acknowledge(event.member, event.batches)
    elif isinstance(event, Leave):
        partition.release_acquired_records(event.member)
    elif isinstance(event, Produce):
        partition.log.append(event.first, event.last)
    return Step(event, result, expired)


def run(case: ShareCase, observe: Callable[[Step, SharePartition], None] | None = None) -> Iterator[Step]:
    """Each event's ``Step``; ``observe(step, partition)`` sees the partition right after it.  A window that
    outgrows ``window_cap`` (what the work estimate allowed) stops the run with the limit stated."""
    partition = SharePartition(case.settings, ShareLog(case.log), case.auto_offset_reset)
    cap = window_cap(case)
    for i, event in enumerate(case.events):
        step = apply(partition, event)
        check_window(partition, cap, f"events[{i}]")
        if observe is not None:
            observe(step, partition)
        yield step


def check_window(partition: SharePartition, cap: int, where: str) -> None:
    width = partition.in_flight_records()
    if width > cap:
        raise LimitError(f"share-deliver: {where}: the in-flight window holds {width:,} records, past the "
                         f"{cap:,} the work estimate allowed (4 x (max.record.locks + largest fetch + largest "
                         "log batch))")


def replay(case: ShareCase) -> list[dict[str, Any]]:
    """The vectors' steps: ``result``, ``expired`` and the partition's ``state`` after every event."""
    steps: list[dict[str, Any]] = []

    def record(step: Step, partition: SharePartition) -> None:
        steps.append({"result": step.result_json(), "expired": [lock.as_json() for lock in step.expired],
                      "state": partition.state_json()})

    for _ in run(case, record):
        pass
    return steps
