"""One ``share-deliver`` case read at the boundary: settings, the log and time-ordered events.

Everything is checked before any work (``../shared/spec/README.md`` section 10): settings inside Kafka's
ranges, the optional ``group_config`` (``share.auto.offset.reset``, Kafka's default ``latest``), log and
produced batches increasing with ``first <= last``, events in time order with a known ``op``,
``max_records >= 1``, ack batches in order, not overlapping, with known types and a ``types`` list of the
right length.  The first problem is one ``InputError`` line naming the field and the value.

>>> case = parse_case({"log": [[0, 4]], "events": [{"t": 0, "op": "fetch", "member": "A", "max_records": 3}]})
>>> case.events[0], case.settings.max_record_locks, case.auto_offset_reset
(Fetch(t=0, member='A', max_records=3), 2000, 'latest')
>>> parse_case({"group_config": {"share.auto.offset.reset": "earliest"}, "events": []}).auto_offset_reset
'earliest'
>>> parse_case({"log": [[5, 4]], "events": []})
Traceback (most recent call last):
...
engine.errors.InputError: log[0]: [5, 4] has last < first
>>> window_cap(case)
5
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.errors import InputError
from engine.share.record_state import ACK_TARGETS
from engine.share.settings import (
    AUTO_OFFSET_RESET_DEFAULT,
    ResetStrategy,
    ShareSettings,
    parse_group_config,
    parse_settings,
)
from engine.share.share_partition import AckBatch

MAX_OFFSET: Final = 2**63 - 1  # a Java long
MAX_MEMBER_CHARS: Final = 1_000


@dataclass(frozen=True)
class Fetch:
    t: int
    member: str
    max_records: int


@dataclass(frozen=True)
class Ack:
    t: int
    member: str
    batches: tuple[AckBatch, ...]


@dataclass(frozen=True)
class Leave:
    t: int
    member: str


@dataclass(frozen=True)
class Crash:
    t: int
    member: str


@dataclass(frozen=True)
class Produce:
    t: int
    first: int
    last: int


@dataclass(frozen=True)
class Tick:
    t: int


Event = Fetch | Ack | Leave | Crash | Produce | Tick
OPS: Final = ("fetch", "ack", "leave", "crash", "produce", "tick")


@dataclass(frozen=True)
class ShareCase:
    """A parsed case: broker settings, the log, the events and the group's ``share.auto.offset.reset``."""

    settings: ShareSettings
    log: tuple[tuple[int, int], ...]
    events: tuple[Event, ...]
    auto_offset_reset: ResetStrategy = AUTO_OFFSET_RESET_DEFAULT

    @property
    def all_batches(self) -> list[tuple[int, int]]:
        """The log's batches and every produced one, in offset order."""
        return list(self.log) + [(e.first, e.last) for e in self.events if isinstance(e, Produce)]


def whole(value: Any, field: str, low: int = 0, high: int = MAX_OFFSET) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{field}: {value!r} is not a whole number")
    if not low <= value <= high:
        raise InputError(f"{field}: {value} is outside {low}..{high}")
    return value


def _pair(value: Any, field: str, after: int) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise InputError(f"{field}: expected [first, last], got {value!r}"[:200])
    first, last = whole(value[0], f"{field}[0]"), whole(value[1], f"{field}[1]")
    if last < first:
        raise InputError(f"{field}: [{first}, {last}] has last < first")
    if first < after:
        raise InputError(f"{field}: [{first}, {last}] does not start at or after the log end {after}")
    return first, last


def _member(raw: dict[str, Any], field: str) -> str:
    member = raw.get("member")
    if not isinstance(member, str) or not member or len(member) > MAX_MEMBER_CHARS:
        raise InputError(f"{field}.member: {member!r} is not a member name (1-{MAX_MEMBER_CHARS} characters)"[:240])
    return member


def _ack_batch(raw: Any, field: str, after: int) -> AckBatch:
    if not isinstance(raw, dict):
        raise InputError(f"{field}: expected an object, got {type(raw).__name__}")
    first, last = whole(raw.get("first"), f"{field}.first"), whole(raw.get("last"), f"{field}.last")
    if last < first:
        raise InputError(f"{field}: first {first} > last {last}")
    if first <= after:
        raise InputError(f"{field}: first {first} is not after the previous batch's last {after} "
                         "(ack batches must be in order and not overlap)")
    if "types" in raw:
        types = raw["types"]
        if not isinstance(types, list) or len(types) != last - first + 1:
            n = len(types) if isinstance(types, list) else types
            raise InputError(f"{field}.types: {n!r} entries, expected last - first + 1 = {last - first + 1}"[:240])
        if not all(isinstance(kind, str) for kind in types) or not set(types) <= ACK_TARGETS.keys():
            for i, kind in enumerate(types):
                _ack_type(kind, f"{field}.types[{i}]")
        return AckBatch(first, last, types=tuple(types))
    return AckBatch(first, last, type=_ack_type(raw.get("type"), f"{field}.type"))


def _ack_type(kind: Any, field: str) -> str:
    """An acknowledgement type: one of ``ACK_TARGETS``' names (a string), or one ``InputError`` line.

    >>> _ack_type("ACCEPT", "type")
    'ACCEPT'
    >>> _ack_type(["ACCEPT"], "batches[0].type")
    Traceback (most recent call last):
    ...
    engine.errors.InputError: batches[0].type: a JSON array is not an acknowledge type (ACCEPT, RELEASE, REJECT, GAP)
    """
    if not isinstance(kind, str) or kind not in ACK_TARGETS:
        raise InputError(f"{field}: {_shown(kind)} is not an acknowledge type ({', '.join(ACK_TARGETS)})"[:240])
    return kind


def _shown(value: Any) -> str:
    """A JSON value as a refusal names it: a scalar as written (at most 100 characters), an array or an object
    by its kind (never its whole text).

    >>> _shown("RENEW"), _shown(None), _shown({"a": 1}), _shown([1, 2])
    ("'RENEW'", 'None', 'a JSON object', 'a JSON array')
    """
    if isinstance(value, list):
        return "a JSON array"
    if isinstance(value, dict):
        return "a JSON object"
    return repr(value[:100] if isinstance(value, str) else value)


def _event(raw: Any, field: str, previous_t: int, log_end: int) -> Event:
    if not isinstance(raw, dict):
        raise InputError(f"{field}: expected an object, got {type(raw).__name__}")
    op = raw.get("op")
    if op not in OPS:
        raise InputError(f"{field}.op: {op!r} is not one of {', '.join(OPS)}"[:240])
    t = whole(raw.get("t"), f"{field}.t")
    if t < previous_t:
        raise InputError(f"{field}.t: {t} is before the previous event's {previous_t} (events must be in time order)")
    if op == "fetch":
        return Fetch(t, _member(raw, field), whole(raw.get("max_records"), f"{field}.max_records", 1))
    if op == "ack":
        batches = raw.get("batches")
        if not isinstance(batches, list) or not batches:
            raise InputError(f"{field}.batches: expected a non-empty list, got {batches!r}"[:240])
        parsed: list[AckBatch] = []
        for i, b in enumerate(batches):
            parsed.append(_ack_batch(b, f"{field}.batches[{i}]", parsed[-1].last if parsed else -1))
        return Ack(t, _member(raw, field), tuple(parsed))
    if op == "leave":
        return Leave(t, _member(raw, field))
    if op == "crash":
        return Crash(t, _member(raw, field))
    if op == "produce":
        first, last = _pair(raw.get("batch"), f"{field}.batch", log_end)
        return Produce(t, first, last)
    return Tick(t)


def parse_case(raw: Any, field: str = "case") -> ShareCase:
    """A case as the CLI gets it (``note`` and ``name`` ignored), or one ``InputError`` line."""
    if not isinstance(raw, dict):
        raise InputError(f"{field}: expected an object with settings, log and events, got {type(raw).__name__}")
    settings = parse_settings(raw.get("settings"))
    reset = parse_group_config(raw.get("group_config"))
    log_raw, events_raw = raw.get("log", []), raw.get("events")
    if not isinstance(log_raw, list):
        raise InputError(f"log: expected a list of [first, last] batches, got {type(log_raw).__name__}")
    if not isinstance(events_raw, list):
        raise InputError(f"events: expected a list, got {type(events_raw).__name__}")
    log: list[tuple[int, int]] = []
    for i, item in enumerate(log_raw):
        log.append(_pair(item, f"log[{i}]", log[-1][1] + 1 if log else 0))
    end, previous_t = (log[-1][1] + 1 if log else 0), 0
    events: list[Event] = []
    for i, item in enumerate(events_raw):
        event = _event(item, f"events[{i}]", previous_t, end)
        if isinstance(event, Produce):
            end = event.last + 1
        events.append(event)
        previous_t = event.t
    return ShareCase(settings, tuple(log), tuple(events), reset)


WINDOW_SLACK: Final = 4


def window_cap(case: ShareCase) -> int:
    """Most records the in-flight window may hold in a run: the lock limit (checked before a fetch is tried)
    plus the largest fetch budget plus one log batch (a budget is rounded up to a whole batch), with room
    for ``WINDOW_SLACK`` times that (a fetch is tried whenever a record is AVAILABLE, and may then take new
    records too), never more than the log's span.  ``replay.run`` stops a run that outgrows it."""
    largest_fetch = max((e.max_records for e in case.events if isinstance(e, Fetch)), default=0)
    return window_bound(case.settings.max_record_locks, largest_fetch, case.all_batches)


def window_bound(max_record_locks: int, largest_fetch: int, batches: Sequence[tuple[int, int]]) -> int:
    """``window_cap`` from its three counts: the lock limit, the largest fetch and the log batches in offset order.

    >>> window_bound(2_000, 500, [(0, 9), (10, 19)]), window_bound(10, 5, [(0, 4), (1_000, 1_004)])
    (20, 80)
    """
    if not batches:
        return 0
    span = batches[-1][1] - batches[0][0] + 1
    largest_batch = max(last - first + 1 for first, last in batches)
    return min(span, WINDOW_SLACK * (max_record_locks + largest_fetch + largest_batch))
