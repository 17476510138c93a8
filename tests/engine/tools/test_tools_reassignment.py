"""kafka-reassign-partitions.sh plans: Kafka's exact JSON written and read, --generate output."""

from __future__ import annotations

import doctest
import json

import pytest

from engine.server.reassignment import reassignment_json
from engine.tools import reassignment
from engine.tools.detect import parse_text
from engine.tools.reassignment import format_reassignment_json, parse_plan
from engine.tools.records import PasteError
from helpers import TESTS

FIXTURES = TESTS / "fixtures" / "kafka_tools"


def test_worked_example() -> None:
    assert doctest.testmod(reassignment).failed == 0


def test_format_is_kafkas_own() -> None:
    # ReassignPartitionsUnitTest.testCurrentPartitionReplicaAssignmentToString (apache/kafka, tools)
    expected = (
        '{"version":1,"partitions":'
        '[{"topic":"bar","partition":0,"replicas":[7,8],"log_dirs":["any","any"]},'
        '{"topic":"foo","partition":1,"replicas":[4,5,6],"log_dirs":["any","any","any"]}]}'
    )
    assert format_reassignment_json({("foo", 1): [4, 5, 6], ("bar", 0): [7, 8]}) == expected
    # topics sort by Java's String.compareTo (UTF-16 code units), not by Python's code points
    plan = json.loads(format_reassignment_json({("\U0001f600", 0): [1], ("\uff5e", 0): [2]}))
    assert [p["topic"] for p in plan["partitions"]] == ["\U0001f600", "\uff5e"]


def test_round_trips_and_reads_the_replicas_page_plans() -> None:
    plan = {("orders", 0): (1, 2), ("orders", 1): (2, 3)}
    assert parse_plan(json.loads(format_reassignment_json(plan)), 1) == plan
    written = reassignment_json("orders", {1: [2, 3], 0: [1, 2]})  # engine/server's writer (no log_dirs)
    assert parse_plan(written, 1) == plan


def test_generate_output_takes_current_and_lists_the_proposal() -> None:
    data = parse_text((FIXTURES / "reassign_generate.txt").read_text())
    assert data.topics["orders"].partitions[0].replicas == (1, 2, 3)
    assert data.topics["orders"].partitions[5].replicas == (6, 1, 2)  # current, not the proposal's (1, 2, 3)
    assert [(u.line, u.text) for u in data.unused] == [(5, "proposed reassignment of 6 partition(s)")]


def test_a_pretty_printed_plan_file() -> None:
    data = parse_text((FIXTURES / "reassign_plan.json").read_text())
    assert data.topics["payments"].partitions[2].replicas == (6, 4, 5)


@pytest.mark.parametrize(
    "document, message",
    [
        (
            {"version": 2, "partitions": [{"topic": "t", "partition": 0, "replicas": [1]}]},
            "Not supported version",
        ),
        (
            {"partitions": [{"topic": "t", "partition": 0, "replicas": [1, 2], "log_dirs": ["any"]}]},
            r"Size of replicas list \[1, 2\] is different from size of log dirs list \['any'\] for",
        ),
        (
            {
                "partitions": [
                    {"topic": "t", "partition": 0, "replicas": [1]},
                    {"topic": "t", "partition": 0, "replicas": [2]},
                ]
            },
            "Partition reassignment contains duplicate topic partitions",
        ),
        (
            {"partitions": [{"topic": "t", "partition": 0, "replicas": [1, 1]}]},
            "Partition replica lists may not contain duplicate entries",
        ),
        ({"partitions": [{"topic": "t", "partition": -1, "replicas": [1]}]}, r"partitions\[0\]\.partition"),
        ({"partitions": [{"topic": "t", "partition": 0, "replicas": ["1"]}]}, r"partitions\[0\]\.replicas"),
    ],
)
def test_bad_plans_carry_kafkas_messages(document, message) -> None:
    with pytest.raises(PasteError, match=r"^line 2: .*" + message):
        parse_text("\n" + json.dumps(document))
