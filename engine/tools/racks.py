"""Broker racks as ``broker,rack`` lines: Kafka's tools print ``broker.rack`` in no single place.

One broker per line: ``1,use1-az1`` (also ``1 use1-az1``, ``1=use1-az1`` or ``1: use1-az1``); an
optional ``broker,rack`` header; ``#`` starts a comment.  A broker given two different racks is an
error naming both lines.  With the replica lists of ``kafka-topics.sh --describe`` (or a
reassignment plan, or a live cluster) the racks become each partition's replica racks.

Worked example (asserted in tests/engine/tools/test_tools_racks.py)::

    >>> data = Imported()
    >>> read_rack_line(data, 3, "2, use1-az2")
    >>> data.brokers
    {2: 'use1-az2'}
"""

from __future__ import annotations

import re

from engine.tools.records import Imported, line_error

_RACK_LINE = re.compile(
    r"^\s*(?P<broker>-?\d{1,10})\s*(?:[,;=:]\s*|\s+)(?P<rack>[^\s,;#]{1,249})\s*(?:#.*)?$"
)
_HEADER = re.compile(r"^\s*(broker(\.id)?|id)\s*[,;\s]\s*(broker\.)?rack\s*$", re.IGNORECASE)


def is_rack_line(line: str) -> bool:
    return _RACK_LINE.match(line) is not None or _HEADER.match(line) is not None


def read_rack_line(data: Imported, number: int, line: str, seen: dict[int, int] | None = None) -> None:
    """Record one ``broker,rack`` line; ``seen`` maps broker -> the line that gave its rack."""
    if _HEADER.match(line):
        return
    m = _RACK_LINE.match(line)
    if m is None:
        raise line_error(number, f"expected 'broker,rack', got {line.strip()!r}")
    broker, rack = int(m.group("broker")), m.group("rack")
    known = data.brokers.get(broker)
    if known is not None and known != rack:
        first = f" on line {seen[broker]}" if seen and broker in seen else ""
        raise line_error(number, f"broker {broker} is on rack {known!r}{first} and {rack!r} here")
    data.brokers[broker] = rack
    if seen is not None:
        seen.setdefault(broker, number)
