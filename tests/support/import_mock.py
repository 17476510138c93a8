"""What the import tests need from librdkafka's mock cluster beyond ``support.mock_cluster``.

``ImportMockCluster`` adds error injection (``rd_kafka_mock_push_request_errors_array``: the next
requests of one API key are answered with the given error codes, over the real protocol), and
``form_group`` forms a classic consumer group of real confluent-kafka consumers on the mock and
returns what each member sees.  (Candidates to merge into ``support.mock_cluster``.)
"""

from __future__ import annotations

import ctypes
import time
from dataclasses import dataclass
from typing import Any

from support.mock_cluster import MockCluster, load_librdkafka

API_OFFSET_FETCH = 9  # Kafka's ApiKeys.OFFSET_FETCH
GROUP_AUTHORIZATION_FAILED = 30  # Kafka's Errors.GROUP_AUTHORIZATION_FAILED


class ImportMockCluster(MockCluster):
    def push_request_errors(self, api_key: int, *errors: int) -> None:
        """Answer the next ``len(errors)`` requests of ``api_key`` with these error codes."""
        fn = load_librdkafka().rd_kafka_mock_push_request_errors_array
        fn.restype = None
        fn.argtypes = [ctypes.c_void_p, ctypes.c_int16, ctypes.c_size_t, ctypes.POINTER(ctypes.c_int)]
        fn(self._handle(), api_key, len(errors), (ctypes.c_int * len(errors))(*errors))


@dataclass
class Seen:
    """One member as it sees itself: its member id, client id and assignment."""

    member_id: str
    client_id: str
    assignment: list[tuple[str, int]]


def form_group(
    cluster: MockCluster, group: str, topics: list[str], members: int, strategy: str, timeout_s: float = 30.0
) -> tuple[list[Any], list[Seen]]:
    """Real consumers join ``group`` and poll until every partition of ``topics`` is assigned (and stays)."""
    from confluent_kafka import Consumer

    total = sum(cluster.topics[t] for t in topics)
    consumers = [
        Consumer(
            {
                "bootstrap.servers": cluster.bootstrap,
                "group.id": group,
                "client.id": f"app-{i}",
                "partition.assignment.strategy": strategy,
                "session.timeout.ms": 6000,
                "heartbeat.interval.ms": 300,
                "enable.auto.commit": False,
                "auto.offset.reset": "earliest",
                "log_level": 0,
            }
        )
        for i in range(members)
    ]
    for consumer in consumers:
        consumer.subscribe(topics)
    deadline, steady = time.monotonic() + timeout_s, 0
    while time.monotonic() < deadline and steady < 5:
        for consumer in consumers:
            consumer.poll(0.05)
        counts = [len(c.assignment()) for c in consumers]
        steady = steady + 1 if sum(counts) == total and all(c.memberid() for c in consumers) else 0
    if steady < 5:
        for consumer in consumers:
            consumer.close()
        raise AssertionError(f"group {group!r} did not settle in {timeout_s} s")
    seen = [
        Seen(c.memberid(), f"app-{i}", sorted((tp.topic, tp.partition) for tp in c.assignment()))
        for i, c in enumerate(consumers)
    ]
    return consumers, seen
