"""The live import against librdkafka's mock cluster: the real Kafka protocol over loopback TCP.

Against the mock (real requests and responses): Metadata (topics, partition counts, replicas, ISR),
DescribeCluster (broker racks), OffsetFetch and ListOffsets (committed offsets and lag), a classic
group formed by real confluent-kafka consumers, error answers injected into the protocol, a closed
port, and the ``python -m engine import`` command end to end.  The mock has no DescribeGroups or
ListGroups: the group's description is recorded from what its members see (``Consumer.memberid()``,
``assignment()``) into confluent-kafka's own ``ConsumerGroupDescription``; the command's answer to
the missing API is tested as the one-line error users of such brokers get.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time

import pytest

from helpers import REPO

confluent_kafka = pytest.importorskip("confluent_kafka")

from confluent_kafka import (  # noqa: E402
    ConsumerGroupState,
    ConsumerGroupType,
    KafkaError,
    KafkaException,
    Node,
    Producer,
    TopicPartition,
)
from confluent_kafka.admin import ConsumerGroupDescription, MemberAssignment, MemberDescription  # noqa: E402

from engine.admin import live, metadata  # noqa: E402
from engine.admin.client import admin_client  # noqa: E402
from engine.admin.connection import ClusterError, Connection  # noqa: E402
from engine.admin.groups import describe_group, group_from_description  # noqa: E402
from engine.admin.live import import_live, read_group_lag  # noqa: E402
from engine.admin.metadata import read_racks, read_topics  # noqa: E402
from engine.scenario import loads_scenario  # noqa: E402
from engine.tools.records import Imported  # noqa: E402
from engine.tools.to_scenario import to_scenario  # noqa: E402
from support.import_mock import (  # noqa: E402
    API_OFFSET_FETCH,
    GROUP_AUTHORIZATION_FAILED,
    ImportMockCluster,
    form_group,
)

RACKS = {1: "az1", 2: "az2", 3: "az3"}


@pytest.fixture
def cluster():
    with ImportMockCluster(brokers=3, racks=RACKS, initial_rebalance_delay_ms=1000) as mc:
        mc.create_topic("orders", partitions=6, rf=3)
        mc.create_topic("payments", partitions=3, rf=2)
        mc.set_controller(1)
        yield mc


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine", "import", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


def test_metadata_and_racks_import(cluster) -> None:
    data = import_live(Connection.parse(cluster.bootstrap, 10), None)
    assert {t: i.partition_count for t, i in data.topics.items()} == {"orders": 6, "payments": 3}
    for topic, rf in (("orders", 3), ("payments", 2)):
        for p, info in data.topics[topic].partitions.items():
            assert sorted(info.replicas) == sorted(cluster.replica_brokers(p, rf))
            assert info.leader in info.replicas and set(info.isr) == set(info.replicas)
    assert data.brokers == RACKS
    result = to_scenario(data)
    racks = result.scenario.first.partition_racks
    assert {tuple(sorted(r)) for r in racks["orders"]} == {("az1", "az2", "az3")}
    expected = [sorted(RACKS[b] for b in cluster.replica_brokers(p, 2)) for p in range(3)]
    assert [sorted(r) for r in racks["payments"]] == expected


MOVED_ON = (KafkaError.ILLEGAL_GENERATION, KafkaError.REBALANCE_IN_PROGRESS, KafkaError.UNKNOWN_MEMBER_ID)


def commit_owned(consumers: list, offset: int, timeout_s: float = 20.0) -> None:
    """Every member commits ``offset`` on the partitions it owns.  A commit the coordinator refuses because the
    group moved to a new generation meanwhile (a late rebalance round) is not the test's subject: the members poll
    until they rejoin, then all of them commit again (ownership may have moved)."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            for consumer in consumers:
                owned = consumer.assignment()
                consumer.commit(offsets=[TopicPartition(tp.topic, tp.partition, offset) for tp in owned],
                                asynchronous=False)
            return
        except KafkaException as exc:
            if exc.args[0].code() not in MOVED_ON or time.monotonic() > deadline:
                raise
            for _ in range(10):
                for consumer in consumers:
                    consumer.poll(0.05)


def test_a_group_of_real_consumers_is_imported_as_its_members_see_it(cluster) -> None:
    producer = Producer({"bootstrap.servers": cluster.bootstrap, "log_level": 0})
    for i in range(10 * 6):
        producer.produce("orders", value=b"v", partition=i % 6)
    assert producer.flush(10) == 0
    for strategy in ("range", "cooperative-sticky"):
        group_id = f"orders-{strategy}"
        consumers, seen = form_group(cluster, group_id, ["orders"], 3, strategy)
        try:
            commit_owned(consumers, 4)  # each member commits offset 4 on what it owns: lag 10 - 4
            description = ConsumerGroupDescription(
                group_id,
                False,
                [
                    MemberDescription(
                        s.member_id,
                        s.client_id,
                        "/127.0.0.1",
                        MemberAssignment([TopicPartition(t, p) for t, p in s.assignment]),
                    )
                    for s in seen
                ],
                strategy,
                ConsumerGroupState.STABLE,
                Node(1, "127.0.0.1", 0),
                type=ConsumerGroupType.CLASSIC,
            )
            admin = admin_client(Connection.parse(cluster.bootstrap, 10))
            data = Imported()
            read_topics(admin, data)
            read_racks(admin, data)
            group = data.groups[group_id] = group_from_description(description)
            read_group_lag(admin, group, data)  # OffsetFetch and ListOffsets against the mock
            result = to_scenario(data, group_id)
        finally:
            for consumer in consumers:
                consumer.close()
        assert result.scenario.first.topics == {"orders": 6}
        assert [m.id for m in result.scenario.first.members] == [s.member_id for s in seen]
        assert {
            m: sorted((tp.topic, tp.partition) for tp in tps) for m, tps in result.current_assignment.items()
        } == {s.member_id: s.assignment for s in seen}
        assert group.lag == {("orders", p): 6 for p in range(6)}
        assert result.weights_source == "lag" and result.scenario.weights == {"orders": (6.0,) * 6}
        assert result.report()["group"]["assignor"] == strategy


def test_a_refused_offset_fetch_is_a_note_not_a_failure(cluster) -> None:
    cluster.push_request_errors(API_OFFSET_FETCH, GROUP_AUTHORIZATION_FAILED, GROUP_AUTHORIZATION_FAILED)
    admin = admin_client(Connection.parse(cluster.bootstrap, 10))
    data = Imported()
    read_topics(admin, data)
    group = data.group("orders-service")
    group.member("c-1").assignment = [("orders", 0)]
    read_group_lag(admin, group, data)
    assert data.notes == [
        "lag was not read: not authorised to read the committed offsets of group "
        "'orders-service' (GROUP_AUTHORIZATION_FAILED)"
    ]


def test_describing_a_group_on_a_broker_without_describe_groups(cluster) -> None:
    admin = admin_client(Connection.parse(cluster.bootstrap, 5))
    with pytest.raises(
        ClusterError,
        match=r"^the broker at 127\.0\.0\.1:\d+,.* does not support the request to "
        r"describe group 'g' \(_UNSUPPORTED_FEATURE\)$",
    ):
        describe_group(admin, "g")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_broker_is_one_line_within_the_timeout() -> None:
    port = free_port()
    start = time.monotonic()
    with pytest.raises(
        ClusterError, match=rf"^cannot reach broker at 127\.0\.0\.1:{port} \(.*Connection refused"
    ):
        import_live(Connection.parse(f"127.0.0.1:{port}", 1.5), "g")
    assert time.monotonic() - start < 10


def test_the_command_end_to_end(cluster, tmp_path) -> None:
    out = tmp_path / "scenario.json"
    done = run_cli("--bootstrap", cluster.bootstrap, "--timeout", "10", "--output", str(out))
    assert done.returncode == 0 and done.stderr == "" and done.stdout == ""
    document = json.loads(out.read_text())
    assert loads_scenario(out.read_text()).first.topics == {"orders": 6, "payments": 3}
    assert document["import"]["sources"][0].startswith(
        f"live cluster at {cluster.bootstrap}: metadata of 2 topic"
    )
    done = run_cli("--bootstrap", cluster.bootstrap, "--timeout", "5", "--group", "orders-service")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: the broker at ") and done.stderr.count("\n") == 1
    done = run_cli("--bootstrap", cluster.bootstrap, "--timeout", "5", "--list-groups")
    assert (
        done.returncode == 2 and "cannot list consumer groups" in done.stderr and done.stderr.count("\n") == 1
    )


def test_credentials_never_leave_the_process(cluster) -> None:
    secret = "pw-7f3a9c-never-printed"
    sasl = ("--security-protocol", "SASL_PLAINTEXT", "--sasl-mechanism", "PLAIN", "--sasl-username", "svc")
    for bootstrap, expected in (
        (f"127.0.0.1:{free_port()}", "error: cannot reach broker at 127.0.0.1:"),
        (cluster.bootstrap, "error: authentication failed at 127.0.0.1:"),
    ):
        done = run_cli("--bootstrap", bootstrap, "--timeout", "2", *sasl, env={"KAFKA_SASL_PASSWORD": secret})
        assert done.returncode == 2 and done.stderr.startswith(expected), done.stderr
        assert secret not in done.stdout + done.stderr and done.stderr.count("\n") == 1


def test_live_module_docstrings_name_real_checks() -> None:
    assert "mock cluster" in (live.__doc__ or "") and "mock cluster" in (metadata.__doc__ or "")
