"""kafka-log-dirs.sh --describe: sizes per partition, replica holders, future replicas, failed log dirs."""

from __future__ import annotations

import doctest
import json

import pytest

from engine.tools import log_dirs
from engine.tools.detect import parse_text
from engine.tools.records import PasteError
from helpers import TESTS

FIXTURES = TESTS / "fixtures" / "kafka_tools"


def test_worked_example() -> None:
    assert doctest.testmod(log_dirs).failed == 0


def test_sizes_are_the_largest_replica_and_holders_become_replicas() -> None:
    data = parse_text((FIXTURES / "log_dirs.txt").read_text())
    orders = data.topics["orders"]
    # partition p of orders is (p + 1) * 10 MiB + broker id on each of its three brokers: the largest wins
    assert orders.sizes[0] == 10 * 2**20 + 3 and orders.sizes[5] == 60 * 2**20 + 6
    assert orders.partitions[0].replicas == (1, 2, 3) and orders.partitions[5].replicas == (1, 2, 6)
    assert orders.partition_count is None  # kafka-log-dirs.sh does not say how many partitions exist
    texts = {u.text: u.reason for u in data.unused}
    assert "1 future replica(s)" in texts  # orders-2 being moved on broker 2: not counted as a size
    assert "KafkaStorageException" in texts["broker 6 /var/lib/kafka/data-failed"]


def test_replica_lists_from_kafka_topics_win_over_log_dirs_in_either_order() -> None:
    topics = "\tTopic: orders\tPartition: 0\tLeader: 3\tReplicas: 3,1,2\tIsr: 3,1,2\n"
    logs = (FIXTURES / "log_dirs.txt").read_text()
    for text in (topics + logs, logs + topics):
        assert parse_text(text).topics["orders"].partitions[0].replicas == (3, 1, 2)


@pytest.mark.parametrize(
    "document, message",
    [
        (
            {"version": 1, "brokers": [{"broker": "1", "logDirs": []}]},
            r"^line 3: brokers\[0\]\.broker: expected int",
        ),
        (
            {
                "version": 1,
                "brokers": [
                    {
                        "broker": 1,
                        "logDirs": [
                            {
                                "logDir": "/d",
                                "error": None,
                                "partitions": [
                                    {"partition": "nodash", "size": 1, "offsetLag": 0, "isFuture": False}
                                ],
                            }
                        ],
                    }
                ],
            },
            r"^line 3: brokers\[0\]\.logDirs\[0\]\.partitions\[0\]\.partition: expected '<topic>-<",
        ),
        (
            {
                "version": 1,
                "brokers": [
                    {
                        "broker": 1,
                        "logDirs": [
                            {
                                "logDir": "/d",
                                "error": None,
                                "partitions": [
                                    {"partition": "t-0", "size": True, "offsetLag": 0, "isFuture": False}
                                ],
                            }
                        ],
                    }
                ],
            },
            r"size: expected int",
        ),
    ],
)
def test_bad_documents_name_the_field(document, message) -> None:
    text = (
        "Querying brokers for log directories information\n"
        "Received log directory information from brokers 1\n"
    )
    with pytest.raises(PasteError, match=message):
        parse_text(text + json.dumps(document))
