"""Auto-detection: one paste may hold several tools' outputs; each line goes to the parser it belongs to.

A line is recognised by its shape: a ``kafka-consumer-groups.sh`` or ``kafka-streams-groups.sh`` header
starts a table that runs to the next blank line; ``Topic: ... PartitionCount:`` / ``Topic: ... Partition:`` lines are
``kafka-topics.sh --describe``; a line starting with ``{`` starts a JSON document (``kafka-log-dirs.sh``
or a reassignment plan, told apart by their keys); ``broker,rack`` lines give racks.  The tools' own
preamble and heading lines are known too.  Any other line is listed as unused with its number; a paste
in which nothing is recognised is an error naming its first line.

Worked example (asserted in tests/engine/tools/test_tools_detect.py)::

    >>> data = parse_text("1,az1\\n2,az2\\nhello")
    >>> data.brokers, [str(u) for u in data.unused]
    ({1: 'az1', 2: 'az2'}, ["line 3: 'hello' (not recognised as the output of a Kafka tool)"])
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from engine.errors import LimitError
from engine.tools import consumer_groups, log_dirs, racks, reassignment, streams_groups, topics
from engine.tools.records import MAX_TEXT_BYTES, Imported, PasteError, Unused, line_error

SOURCES = {
    "offsets": "kafka-consumer-groups.sh --describe (offsets)",
    "members": "kafka-consumer-groups.sh --describe --members",
    "state": "kafka-consumer-groups.sh --describe --state",
    "message": "kafka-consumer-groups.sh messages",
    "share_members": "kafka-share-groups.sh --describe --members",
    "streams_members": "kafka-streams-groups.sh --describe --members",
    "streams_offsets": "kafka-streams-groups.sh --describe --offsets",
    "streams_message": "kafka-streams-groups.sh messages",
    "topics": "kafka-topics.sh --describe",
    "log_dirs": "kafka-log-dirs.sh --describe",
    "plan": "kafka-reassign-partitions.sh plan",
    "racks": "broker,rack lines",
}
KNOWN_LINES = (*log_dirs.PREAMBLE, *reassignment.OTHER_LINES)
EXPECTED = (
    "kafka-consumer-groups.sh --describe [--members [--verbose] | --state], kafka-streams-groups.sh --describe "
    "[--members] [--verbose], kafka-topics.sh --describe, "
    "kafka-log-dirs.sh --describe, a kafka-reassign-partitions.sh plan, or broker,rack lines"
)


@dataclass
class _Scan:
    text: str
    lines: list[str]
    starts: list[int]
    data: Imported = field(default_factory=Imported)
    seen: dict[str, list[int]] = field(default_factory=dict)  # kind -> [first line, last line, lines]
    heading: str | None = None
    group_hint: str = ""

    def mark(self, kind: str, first: int, last: int) -> None:
        entry = self.seen.setdefault(kind, [first, last, 0])
        entry[1] = max(entry[1], last)
        entry[2] += last - first + 1


def _line_starts(text: str, lines: list[str]) -> list[int]:
    starts, at = [], 0
    for line in lines:
        at = text.index(line, at) if line else at
        starts.append(at)
        at += len(line)
    return starts


def parse_text(text: str, data: Imported | None = None, origin: str = "") -> Imported:
    """Everything recognised in ``text``, added to ``data`` when given (raises ``PasteError`` with a line
    number on malformed input); ``origin`` names the file in messages when several are read."""
    if len(text) > MAX_TEXT_BYTES:
        raise LimitError(f"{origin or 'paste'}: larger than the {MAX_TEXT_BYTES // 2**20} MiB limit")
    lines = text.splitlines()
    scan = _Scan(text, lines, _line_starts(text, lines), data if data is not None else Imported())
    first_unused = len(scan.data.unused)
    try:
        reader = topics.TopicsReader(scan.data)
        i = 0
        while i < len(lines):
            i = _step(scan, reader, i)
        reader.finish()
        _finish(scan, first_unused, origin)
    except PasteError as exc:
        raise PasteError(f"{origin}: {exc}" if origin else str(exc)) from None
    return scan.data


def _step(scan: _Scan, reader: topics.TopicsReader, i: int) -> int:
    line, number = scan.lines[i], i + 1
    stripped = line.strip()
    if not stripped:
        return i + 1
    if stripped.startswith("{"):
        return _json(scan, i)
    kind = consumer_groups.table_kind(line)
    if kind is not None:
        return _table(scan, i, kind)
    kind = streams_groups.table_kind(line)
    if kind is not None:
        return _table(scan, i, kind)
    if streams_groups.is_message(line):
        streams_groups.read_message(scan.data, number, line)
        scan.mark("streams_message", number, number)
    elif consumer_groups.is_message(line):
        scan.group_hint = consumer_groups.read_message(scan.data, number, line)
        scan.mark("message", number, number)
    elif topics.is_topic_line(line):
        reader.read(number, line)
        scan.mark("topics", number, number)
    elif racks.is_rack_line(line):
        racks.read_rack_line(scan.data, number, line)
        scan.mark("racks", number, number)
    elif stripped in (reassignment.CURRENT_HEADING, reassignment.PROPOSED_HEADING):
        scan.heading = stripped
    elif not stripped.startswith(KNOWN_LINES):
        if stripped.startswith("#"):
            reason = "a comment"
        elif ".sh " in stripped or stripped.startswith("$"):
            reason = "a command line, not its output"
        else:
            reason = "not recognised as the output of a Kafka tool"
        scan.data.unused.append(Unused(number, line, reason))
    return i + 1


def _ends_table(line: str) -> bool:
    """A line that cannot be a row of a consumer- or streams-groups table (rows run to the first such line)."""
    stripped = line.strip()
    return (
        not stripped
        or stripped.startswith(("$", "#", "{", *KNOWN_LINES))
        or consumer_groups.table_kind(line) is not None
        or consumer_groups.is_message(line)
        or streams_groups.table_kind(line) is not None
        or streams_groups.is_message(line)
        or topics.is_topic_line(line)
    )


def _table(scan: _Scan, i: int, kind: str) -> int:
    j = i + 1
    while j < len(scan.lines) and not _ends_table(scan.lines[j]):
        j += 1
    rows = [(k + 1, scan.lines[k]) for k in range(i + 1, j)]
    if kind.startswith("streams_"):
        streams_groups.parse_table(scan.data, (i + 1, scan.lines[i]), rows)
    else:
        consumer_groups.parse_table(scan.data, (i + 1, scan.lines[i]), rows, scan.group_hint)
        if kind == "members" and _share_rows(scan.data, i + 2, j):
            kind = "share_members"  # kafka-share-groups.sh prints the same header as kafka-consumer-groups.sh
    scan.mark(kind, i + 1, j)
    return j


def _share_rows(data: Imported, first: int, last: int) -> bool:
    """Whether the members table on lines ``first``..``last`` described a share group (its rows' format)."""
    return any(group.protocol == "share" and any(first <= (m.line or 0) <= last for m in group.members.values())
               for group in data.groups.values())


def _json(scan: _Scan, i: int) -> int:
    start = scan.starts[i] + scan.lines[i].index("{")
    try:
        document, end = json.JSONDecoder().raw_decode(scan.text, start)
    except json.JSONDecodeError as exc:
        raise line_error(exc.lineno, f"not valid JSON ({exc.msg}, column {exc.colno})") from None
    except RecursionError:
        raise line_error(i + 1, "JSON nested too deeply") from None
    last = scan.text.count("\n", start, end) + i
    _document(scan, i + 1, document)
    k = last + 1
    rest = scan.lines[last][end - scan.starts[last] :].strip() if last < len(scan.lines) else ""
    if rest:
        scan.data.unused.append(Unused(last + 1, rest, "text after the JSON document"))
    return k


def _document(scan: _Scan, number: int, document: Any) -> None:
    if log_dirs.is_log_dirs(document):
        log_dirs.read_log_dirs(scan.data, number, document)
        scan.mark("log_dirs", number, number)
    elif reassignment.is_plan(document):
        reassignment.read_plan(scan.data, number, document, scan.heading)
        scan.mark("plan", number, number)
    elif (
        isinstance(document, dict) and "members" in document and ("topics" in document or "steps" in document)
    ):
        scan.data.unused.append(
            Unused(number, "{...}", "this is a scenario file: load it under 'Save, load, share'")
        )
    else:
        scan.data.unused.append(
            Unused(
                number,
                json.dumps(document)[:80],
                "a JSON document that is neither kafka-log-dirs.sh output nor a reassignment plan",
            )
        )
    scan.heading = None


def _finish(scan: _Scan, first_unused: int, origin: str) -> None:
    data = scan.data
    mine = sorted(data.unused[first_unused:], key=lambda u: u.line or 0)
    data.unused[first_unused:] = [replace(u, origin=origin) for u in mine] if origin else mine
    for kind, (start, last, count) in scan.seen.items():
        where = f"lines {start}-{last}" if last > start else f"line {start}"
        prefix = f"{origin}: " if origin else ""
        data.sources.append(f"{prefix}{SOURCES[kind]}: {where} ({count:,} line{'s' if count > 1 else ''})")
    if not scan.seen:
        first = mine[0].line if mine else None
        raise line_error(first or 1, f"nothing recognised; paste the output of {EXPECTED}")
