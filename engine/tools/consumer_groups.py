"""``kafka-consumer-groups.sh --describe``: the offsets, members and state views, Kafka 2.x to 4.x.

Formats, from ConsumerGroupCommand (core/.../admin/ConsumerGroupCommand.scala up to 3.7, then
tools/.../consumer/group/ConsumerGroupCommand.java):

* offsets (the default): ``GROUP TOPIC PARTITION [LEADER-EPOCH] CURRENT-OFFSET LOG-END-OFFSET LAG
  CONSUMER-ID HOST CLIENT-ID`` (``LEADER-EPOCH`` with ``--verbose`` in 4.x); ``-`` where a value is
  missing (no committed offset, no owner).
* ``--members [--verbose]``: ``GROUP CONSUMER-ID [GROUP-INSTANCE-ID] HOST CLIENT-ID #PARTITIONS``
  (``GROUP-INSTANCE-ID`` only when a member is static), then in 2.x/3.x ``ASSIGNMENT`` as
  ``t0(0,1), t1(2)`` (3.8 and 3.9 drop the topic names: ``(0,1), (2)``), in 4.x ``CURRENT-EPOCH
  CURRENT-ASSIGNMENT TARGET-EPOCH TARGET-ASSIGNMENT [UPGRADED]`` with ``t0:0,1;t1:2``.
* ``--state [--verbose]``: ``GROUP COORDINATOR (ID) ASSIGNMENT-STRATEGY STATE [GROUP-EPOCH
  TARGET-ASSIGNMENT-EPOCH] #MEMBERS``.
* the tool's messages: ``Consumer group 'G' has no active members.``, ``Warning: Consumer group 'G'
  is rebalancing.``, ``Error: Consumer group 'G' does not exist.``

``kafka-share-groups.sh --describe --members [--verbose]`` (share groups, KIP-932; tools/.../consumer/
group/ShareGroupCommand.java, Kafka 4.1+) prints ``GROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS
[MEMBER-EPOCH] ASSIGNMENT`` with ``t0:0,1;t1:2``: the same members table, marked as a share group
(``protocol == "share"``) by its ``MEMBER-EPOCH`` column, or by an ``ASSIGNMENT`` column in the 4.x
``t0:0,1`` form (the consumer-group tool's ``ASSIGNMENT`` column, 2.x/3.x, wrote ``t0(0,1)``).  Its
messages say ``Share group 'G' ...``.

Worked example (asserted in tests/engine/tools/test_tools_consumer_groups.py)::

    >>> parse_assignment("t0:0,1;t1:2", 1)
    [('t0', 0), ('t0', 1), ('t1', 2)]
    >>> parse_assignment("orders(0,1), payments(2)", 1)
    [('orders', 0), ('orders', 1), ('payments', 2)]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from engine.tools.columns import Column, Layout, columns_of
from engine.tools.records import GroupInfo, Imported, Unused, line_error, shorten

OFFSET_COLUMNS = (
    "TOPIC",
    "PARTITION",
    "CURRENT-OFFSET",
    "LOG-END-OFFSET",
    "LAG",
    "CONSUMER-ID",
    "HOST",
    "CLIENT-ID",
)
NUMBER_COLUMNS = (
    "PARTITION",
    "LEADER-EPOCH",
    "CURRENT-OFFSET",
    "LOG-END-OFFSET",
    "LAG",
    "#PARTITIONS",
    "CURRENT-EPOCH",
    "TARGET-EPOCH",
)
TOPIC_NAME = r"[A-Za-z0-9._-]+"
_MESSAGE = re.compile(
    r"^\s*(?:(?P<error>Error: )|(?P<warning>Warning: ))?(?:The )?(?P<kind>[Cc]onsumer|[Ss]hare) group '(?P<group>.*)' "
    r"(?P<what>has no active members|is rebalancing|does not exist)\.\s*$"
)
_STATE_ROW = re.compile(
    r"^\s*(?P<group>\S+)\s+(?P<host>\S+):(?P<port>\d+)\s+\((?P<id>-?\d+)\)\s+(?:(?P<strategy>\S+)\s+)??"
    r"(?P<state>Stable|Empty|Dead|PreparingRebalance|CompletingRebalance|Assigning|Reconciling|Unknown)"
    r"(?:\s+(?P<epoch>-|\d+)\s+(?P<target_epoch>-|\d+))?\s+(?P<members>\d+)\s*$"
)
_INTEGER = re.compile(r"-?\d{1,19}", re.ASCII)
_NUMBER = re.compile(r"-|-?\d{1,19}", re.ASCII)
_OLD_ASSIGNMENT = re.compile(rf"({TOPIC_NAME})?\(([0-9,]*)\)")
UNUSED_COLUMNS = {
    "CURRENT-OFFSET": "committed offsets are not part of a scenario (the lag becomes partition weights)",
    "LOG-END-OFFSET": "log-end offsets are not part of a scenario",
    "LEADER-EPOCH": "leader epochs of committed offsets are not part of a scenario",
    "CURRENT-EPOCH": "member epochs are not part of a scenario",
    "TARGET-EPOCH": "target epochs are not part of a scenario",
    "TARGET-ASSIGNMENT": "step 0 is the current assignment; a different target is reported as a note",
    "UPGRADED": "the classic-to-consumer migration flag is not part of a scenario",
    "MEMBER-EPOCH": "share-group member epochs are not part of a scenario",
}
_MESSAGE_STATE = {"has no active members": "Empty", "is rebalancing": "Rebalancing", "does not exist": "Dead"}


def table_kind(line: str) -> str | None:
    """``offsets``, ``members`` or ``state`` when ``line`` is one of the tool's header lines."""
    if "CONSUMER-ID" not in line and "COORDINATOR" not in line:
        return None  # fast path: every data row
    names = set(line.split())
    if {"CONSUMER-ID", "#PARTITIONS", "HOST", "CLIENT-ID"} <= names:
        return "members"
    if set(OFFSET_COLUMNS) <= names:
        return "offsets"
    if {"GROUP", "COORDINATOR", "(ID)", "ASSIGNMENT-STRATEGY", "STATE", "#MEMBERS"} <= names:
        return "state"
    return None


def is_message(line: str) -> bool:
    return ("onsumer group '" in line or "hare group '" in line) and _MESSAGE.match(line) is not None


def read_message(data: Imported, number: int, line: str) -> str:
    """Record what a tool message says about a group; returns the group id."""
    m = _MESSAGE.match(line)
    assert m is not None
    group = data.group(m.group("group"))
    group.line = group.line or number
    group.state = group.state or _MESSAGE_STATE[m.group("what")]
    if m.group("kind").lower() == "share":
        group.protocol = "share"
    if m.group("what") == "is rebalancing":
        data.notes.append(
            f"line {number}: group {group.group_id!r} was rebalancing when this was printed; "
            "its assignment may be incomplete"
        )
    elif m.group("what") == "does not exist":
        data.unused.append(Unused(number, line, "the tool reports that this group does not exist"))
    return group.group_id


def parse_assignment(text: str, number: int) -> list[tuple[str, int]] | None:
    """Partitions of an assignment cell (4.x ``t0:0,1;t1:2``, 3.x ``t0(0,1), t1(2)``, ``-`` for none);
    None for 3.8/3.9's ``(0,1), (2)``, which has no topic names."""
    text = text.strip()
    if text in ("", "-"):
        return []
    if ":" in text:
        return _parse_new(text, number)
    out: list[tuple[str, int]] = []
    end = 0
    for m in _OLD_ASSIGNMENT.finditer(text):
        if text[end : m.start()].strip(", "):
            raise line_error(
                number,
                f"cannot read the assignment {shorten(text)!r} near {text[end : m.start()].strip(', ')!r}",
            )
        end = m.end()
        if m.group(1) is None:
            return None
        out.extend((m.group(1), _int(p, number, "partition")) for p in m.group(2).split(",") if p)
    if text[end:].strip(", ") or end == 0:
        raise line_error(
            number, f"cannot read the assignment {shorten(text)!r}; expected t0(0,1), t1(2) or t0:0,1;t1:2"
        )
    return out


def _parse_new(text: str, number: int) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for part in text.split(";"):
        topic, sep, partitions = part.strip().rpartition(":")
        if not sep or not re.fullmatch(TOPIC_NAME, topic):
            raise line_error(
                number, f"cannot read the assignment {shorten(text)!r} at {part!r}; expected t0:0,1;t1:2"
            )
        out.extend((topic, _int(p, number, "partition")) for p in partitions.split(",") if p.strip())
    return out


def _int(text: str, number: int, what: str) -> int:
    text = text.strip()
    if not _INTEGER.fullmatch(text):
        raise line_error(number, f"{what} must be a whole number, got {shorten(text, 40)!r}")
    return int(text)


def _plausible(columns: Sequence[Column]) -> Callable[[list[str]], bool]:
    """A reading is plausible when its number columns hold numbers (or ``-``)."""
    at = [i for i, c in enumerate(columns) if c.name in NUMBER_COLUMNS]
    match = _NUMBER.fullmatch
    return lambda values: all(match(values[i]) for i in at)


def _number(text: str) -> int | None:
    """A number column's value, already checked by ``_plausible``: None for ``-``."""
    return None if text == "-" else int(text)


def parse_table(
    data: Imported, header: tuple[int, str], rows: Sequence[tuple[int, str]], group_hint: str
) -> None:
    """One table of the tool (a header and its rows); ``group_hint`` names the group when there is
    no GROUP column (Kafka before 2.2 printed none)."""
    kind = table_kind(header[1])
    if kind == "state":
        for number, line in rows:
            _state_row(data, number, line)
        return
    columns = columns_of(header[1])
    reader = _offsets_row if kind == "offsets" else _members_row
    layout = Layout(
        columns,
        kind == "members" and columns[-1].name == "ASSIGNMENT",
        "GROUP-INSTANCE-ID",
        _plausible(columns),
    )
    names = layout.names
    for number, line in rows:
        values = layout.split(line)
        if values is None:
            raise line_error(
                number, f"expected {len(names)} columns ({' '.join(names)}), got {shorten(line, 60)!r}"
            )
        row = dict(zip(names, values))
        group = data.group(row.get("GROUP", group_hint))
        group.line = group.line or number
        reader(data, group, number, row)
    unused = [c.name for c in columns if c.name in UNUSED_COLUMNS]
    if unused and rows:
        data.unused.append(Unused(header[0], " ".join(unused), "; ".join(UNUSED_COLUMNS[c] for c in unused)))


def _offsets_row(data: Imported, group: GroupInfo, number: int, row: dict[str, str]) -> None:
    consumer = row["CONSUMER-ID"]
    if consumer != "-":
        member = group.member(consumer)
        member.host, member.client_id = row["HOST"], row["CLIENT-ID"]
        member.line = member.line or number
    if row["TOPIC"] == "-":
        return  # a member without partitions (older tools print one such row)
    partition = _number(row["PARTITION"])
    if partition is None:
        raise line_error(number, f"PARTITION is '-' for topic {row['TOPIC']!r}")
    tp = (row["TOPIC"], partition)
    if tp in group.offsets or tp in group.lag or tp in group.owners:
        raise line_error(number, f"partition {tp[0]}-{tp[1]} of group {group.group_id!r} is listed twice")
    offset, lag = _number(row["CURRENT-OFFSET"]), _number(row["LAG"])
    if offset is not None:
        group.offsets[tp] = offset
    if lag is not None:
        group.lag[tp] = lag
    if consumer != "-":
        group.owners[tp] = consumer


def _members_row(data: Imported, group: GroupInfo, number: int, row: dict[str, str]) -> None:
    member = group.member(row["CONSUMER-ID"])
    member.line = member.line or number
    member.host, member.client_id = row["HOST"], row["CLIENT-ID"]
    member.instance_id = row.get("GROUP-INSTANCE-ID") or member.instance_id
    member.partition_count = _number(row["#PARTITIONS"])
    if member.partition_count is None:
        raise line_error(number, "#PARTITIONS must be a whole number, got '-'")
    cell = row.get("ASSIGNMENT", row.get("CURRENT-ASSIGNMENT"))
    if "MEMBER-EPOCH" in row or ("ASSIGNMENT" in row and ":" in row["ASSIGNMENT"]):
        group.protocol = "share"  # kafka-share-groups.sh: only it writes t0:0,1 under ASSIGNMENT
    if cell is not None:
        member.assignment = parse_assignment(cell, number)
        if member.assignment is None:
            data.unused.append(
                Unused(
                    number,
                    cell,
                    "Kafka 3.8/3.9 print the assignment without topic names; "
                    "paste the default --describe view too to recover it",
                )
            )
        elif len(member.assignment) != member.partition_count:
            raise line_error(
                number,
                f"#PARTITIONS is {member.partition_count} but the assignment lists {len(member.assignment)}",
            )
    if "TARGET-ASSIGNMENT" in row:
        epoch = row.get("CURRENT-EPOCH", "-")
        group.protocol = "consumer" if epoch != "-" else (group.protocol or "classic")
        classic = epoch == "-" and row["TARGET-ASSIGNMENT"].strip() == "-"
        # a classic member has no target assignment at all (the tool prints "-"), not an empty one
        member.target_assignment = None if classic else parse_assignment(row["TARGET-ASSIGNMENT"], number)


def _state_row(data: Imported, number: int, line: str) -> None:
    m = _STATE_ROW.match(line)
    if m is None:
        raise line_error(
            number,
            f"cannot read the --state row {shorten(line, 60)!r}; expected GROUP "
            "COORDINATOR (ID) ASSIGNMENT-STRATEGY STATE #MEMBERS",
        )
    group = data.group(m.group("group"))
    group.line = group.line or number
    group.state = m.group("state")
    strategy = m.group("strategy")
    group.assignor = strategy if strategy and strategy != "-" else group.assignor
    if m.group("epoch") not in (None, "-"):
        group.protocol = "consumer"
    data.unused.append(
        Unused(
            number,
            f"coordinator {m.group('host')}:{m.group('port')} ({m.group('id')})",
            "the group coordinator is not part of a scenario",
        )
    )
