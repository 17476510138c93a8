"""Auto-detection over mixed pastes; unused lines with numbers; bad pastes are one line."""

from __future__ import annotations

import doctest

import pytest

from engine.errors import LimitError
from engine.tools import detect, records
from engine.tools.detect import parse_text
from engine.tools.records import PasteError
from helpers import TESTS

FIXTURES = TESTS / "fixtures" / "kafka_tools"


def test_worked_examples() -> None:
    for module in (detect, records):
        assert doctest.testmod(module).failed == 0


def test_every_fixture_is_recognised() -> None:
    for path in sorted(FIXTURES.iterdir()):
        data = parse_text(path.read_text(encoding="utf-8"))
        assert data.sources, path.name
        assert data.topics or data.groups or data.brokers or data.streams, path.name


def test_a_session_transcript_is_split_by_format() -> None:
    data = parse_text((FIXTURES / "cluster_bundle.txt").read_text())
    assert [s.split(":")[0] for s in data.sources] == [
        "kafka-topics.sh --describe",
        "broker,rack lines",
        "kafka-consumer-groups.sh --describe --members",
        "kafka-consumer-groups.sh --describe (offsets)",
        "kafka-consumer-groups.sh --describe --state",
    ]
    assert data.sources[0] == "kafka-topics.sh --describe: lines 2-14 (13 lines)"
    commands = [u.line for u in data.unused if u.reason == "a command line, not its output"]
    assert commands == [1, 16, 26, 33, 46]
    assert [u.line for u in data.unused] == sorted(u.line or 0 for u in data.unused)
    group = data.groups["orders-service"]
    assert len(group.members) == 4 and group.assignor == "cooperative-sticky" and len(group.lag) == 10


def test_unrecognised_lines_are_listed_not_dropped() -> None:
    data = parse_text("1,az1\nsome note from the ticket\n\n2,az2\n")
    assert [(u.line, u.text) for u in data.unused] == [(2, "some note from the ticket")]


def test_nothing_recognised_is_an_error_on_the_first_line() -> None:
    with pytest.raises(PasteError, match=r"^line 2: nothing recognised; paste the output of kafka-consumer"):
        parse_text("\nhello\nworld")
    with pytest.raises(PasteError, match=r"^line 1: nothing recognised"):
        parse_text("   \n")


def test_bad_json_names_its_line() -> None:
    with pytest.raises(PasteError, match=r"^line 3: not valid JSON"):
        parse_text('1,az1\n{"version": 1,\n "brokers": [}\n')


def test_a_scenario_file_pasted_here_is_pointed_elsewhere() -> None:
    data = parse_text('1,az1\n{"topics": {"t": 1}, "members": []}\n')
    assert "Save, load, share" in data.unused[0].reason


def test_size_limit() -> None:
    with pytest.raises(LimitError, match="MiB limit"):
        parse_text("x" * (records.MAX_TEXT_BYTES + 1))


def test_windows_line_endings_and_indentation() -> None:
    text = (FIXTURES / "cg_members_verbose_3x.txt").read_text()
    indented = "\r\n".join("    " + line for line in text.splitlines())
    assert (
        parse_text(indented).groups["orders-service"].members.keys()
        == parse_text(text).groups["orders-service"].members.keys()
    )


def test_several_files_add_up_and_name_themselves() -> None:
    data = parse_text((FIXTURES / "topics_3x.txt").read_text(), origin="topics.txt")
    parse_text((FIXTURES / "racks.csv").read_text(), data, origin="racks.csv")
    assert data.brokers[6] == "euw1-az3" and data.topics["orders"].partition_count == 6
    assert "racks.csv line 2: '# eu-west-1, one broker pair per zone' (a comment)" in [
        str(u) for u in data.unused
    ]
    assert data.sources[-1] == "racks.csv: broker,rack lines: lines 1-8 (7 lines)"
    with pytest.raises(PasteError, match=r"^notes.txt: line 1: nothing recognised"):
        parse_text("just words", data, origin="notes.txt")
