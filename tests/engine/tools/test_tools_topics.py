"""kafka-topics.sh --describe: 3.x and 4.x lines (Elr, LastKnownElr, Leader: none), tabs lost on copy."""

from __future__ import annotations

import doctest

import pytest

from engine.tools import topics
from engine.tools.detect import parse_text
from engine.tools.records import PasteError
from helpers import TESTS

FIXTURES = TESTS / "fixtures" / "kafka_tools"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def test_worked_example() -> None:
    assert doctest.testmod(topics).failed == 0


def test_3x_counts_replicas_and_a_reassignment_in_progress() -> None:
    data = parse_text(fixture("topics_3x.txt"))
    assert {t: i.partition_count for t, i in data.topics.items()} == {
        "orders": 6,
        "payments": 3,
        "refunds": 1,
    }
    orders = data.topics["orders"]
    assert orders.replication_factor == 3
    assert orders.partitions[0].replicas == (1, 2, 3) and orders.partitions[5].replicas == (6, 1, 2)
    assert orders.partitions[1].isr == (2, 3) and orders.partitions[1].leader == 2
    assert data.topics["refunds"].partitions[0].replicas == (1, 2)
    reasons = {u.text.split(" (")[0]: u for u in data.unused}
    assert (
        reasons["Adding Replicas"].line == 5
        and reasons["Removing Replicas"].text == "Removing Replicas (1 line)"
    )
    assert reasons["Configs"].text == "Configs (2 lines)"  # refunds has no overrides: nothing unused there


def test_4x_elr_and_a_partition_without_leader() -> None:
    data = parse_text(fixture("topics_4x.txt"))
    orders = data.topics["orders"]
    assert orders.partitions[5].leader is None and orders.partitions[5].isr == ()
    assert orders.partitions[5].replicas == (6, 1, 2)
    reasons = {u.text.split(" (")[0]: u for u in data.unused}
    assert reasons["Elr"].text == "Elr (2 lines)"  # '4' on orders-1 and payments-1; N/A means not reported
    assert "LastKnownElr" not in reasons  # only empty or N/A: nothing was lost


def test_tabs_turned_into_spaces_read_the_same() -> None:
    spaced = parse_text(fixture("topics_spaces.txt")).topics["orders"]
    tabbed = parse_text(fixture("topics_spaces.txt").replace("    ", "\t")).topics["orders"]
    assert spaced.partition_count == tabbed.partition_count == 6
    assert spaced.partitions == tabbed.partitions
    assert spaced.partitions[3].replicas == (4, 5, 6)


def test_confluent_fields_and_unknown_fields_are_listed() -> None:
    line = "\tTopic: t\tPartition: 0\tLeader: 1\tReplicas: 1,2\tIsr: 1,2\tOffline: \tObservers: 3\tFancy: x"
    data = parse_text("Topic: t\tPartitionCount: 1\tReplicationFactor: 2\tConfigs: \n" + line)
    assert data.topics["t"].partitions[0].replicas == (1, 2)
    texts = [u.text for u in data.unused]
    assert "Observers (1 line)" in texts and "Fancy (1 line)" in texts
    assert not any(t.startswith("Offline") for t in texts)  # empty: nothing was lost


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "Topic: t\tPartitionCount: x\tReplicationFactor: 1\tConfigs: ",
            r"^line 1: PartitionCount must be a whole",
        ),
        (
            "Topic: t\tPartitionCount: 1\tReplicationFactor: 1\tConfigs: \n"
            "\tTopic: t\tPartition: 1\tLeader: 1\tReplicas: 1\tIsr: 1",
            r"^line 2: partition 1 of 't' is beyond its PartitionCount 1",
        ),
        (
            "\tTopic: t\tPartition: 0\tLeader: 1\tReplicas: 1,a\tIsr: 1",
            r"^line 1: Replicas must be broker ids",
        ),
        (
            "\tTopic: bad name\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1",
            r"^line 1: topic name 'bad name' is not",
        ),
        (
            "\tTopic: t\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\n\tTopic: t\tPartition: 0\tLeader: 1\t"
            "Replicas: 1\tIsr: 1",
            r"^line 2: partition t-0 is described twice",
        ),
    ],
)
def test_bad_lines_name_their_line(text: str, message: str) -> None:
    with pytest.raises(PasteError, match=message):
        parse_text(text)


@pytest.mark.parametrize("count", ["²", "٣", "9" * 5000])
def test_digits_int_refuses_are_a_line_error_not_a_traceback(count: str) -> None:
    line = f"Topic: orders\tTopicId: x\tPartitionCount: {count}\tReplicationFactor: 3\tConfigs:\n"
    with pytest.raises(PasteError, match="line 1: PartitionCount must be a whole number"):
        parse_text(line)
