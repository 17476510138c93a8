"""The live path without a cluster: settings, error lines, and confluent-kafka's describe results.

The mock cluster lacks DescribeGroups and ListGroups, so the conversion of their results is tested on
``ConsumerGroupDescription`` / ``MemberDescription`` / ``ConsumerGroupListing`` objects built with
confluent-kafka's own constructors, recorded as a real 2.16 client returns them (tests/engine/admin/test_import_live.py
covers what the mock does implement).
"""

from __future__ import annotations

import concurrent.futures
import doctest

import pytest

confluent_kafka = pytest.importorskip("confluent_kafka")

from confluent_kafka import (  # noqa: E402
    ConsumerGroupState,
    ConsumerGroupType,
    KafkaError,
    KafkaException,
    Node,
    TopicPartition,
)
from confluent_kafka.admin import (  # noqa: E402
    ConsumerGroupDescription,
    ConsumerGroupListing,
    ListConsumerGroupsResult,
    MemberAssignment,
    MemberDescription,
)

from engine.admin import client, connection, groups  # noqa: E402
from engine.admin.client import Admin, explain  # noqa: E402
from engine.admin.connection import ClusterError, Connection, security_from_properties  # noqa: E402
from engine.admin.groups import group_from_description, list_groups  # noqa: E402
from engine.tools.records import Imported  # noqa: E402
from engine.tools.to_scenario import to_scenario  # noqa: E402

COORDINATOR = Node(2, "b-2.kafka.internal", 9092, "euw1-az2")


def member(
    member_id: str,
    partitions: list[tuple[str, int]],
    instance: str | None = None,
    target: list[tuple[str, int]] | None = None,
) -> MemberDescription:
    return MemberDescription(
        member_id,
        "orders-app",
        "/10.0.0.9",
        MemberAssignment([TopicPartition(t, p) for t, p in partitions]),
        instance,
        None if target is None else MemberAssignment([TopicPartition(t, p) for t, p in target]),
    )


def test_worked_examples() -> None:
    for module in (connection, client, groups):
        assert doctest.testmod(module).failed == 0


def test_classic_group_with_a_static_member() -> None:
    description = ConsumerGroupDescription(
        "orders",
        False,
        [member("c-1", [("orders", 0), ("orders", 1)], "host-a"), member("c-2", [("orders", 2)])],
        "cooperative-sticky",
        ConsumerGroupState.STABLE,
        COORDINATOR,
        None,
        ConsumerGroupType.CLASSIC,
    )
    group = group_from_description(description)
    assert (group.state, group.assignor, group.protocol) == ("Stable", "cooperative-sticky", "classic")
    assert group.members["c-1"].instance_id == "host-a" and group.members["c-2"].instance_id is None
    assert group.members["c-1"].assignment == [("orders", 0), ("orders", 1)]
    assert group.members["c-2"].client_id == "orders-app" and group.members["c-2"].host == "/10.0.0.9"
    data = Imported(groups={"orders": group})
    data.topic("orders").partition_count = 4
    result = to_scenario(data)
    assert result.scenario.first.topics == {"orders": 4}
    assert [m.instance_id for m in result.scenario.first.members] == ["host-a", None]
    assert [str(tp) for tp in result.current_assignment["c-1"]] == ["orders-0", "orders-1"]


def test_consumer_protocol_group_with_a_target_assignment() -> None:
    description = ConsumerGroupDescription(
        "orders",
        False,
        [member("Xh6peHCnbkn6YNvWJTKQQQ", [("orders", 4)], target=[("orders", 4), ("orders", 5)])],
        "uniform",
        "STABLE",
        COORDINATOR,
        type=ConsumerGroupType.CONSUMER,
    )
    group = group_from_description(description)
    assert group.protocol == "consumer" and group.assignor == "uniform"
    assert group.members["Xh6peHCnbkn6YNvWJTKQQQ"].target_assignment == [("orders", 4), ("orders", 5)]
    result = to_scenario(Imported(groups={"orders": group}))
    assert result.scenario.first.topics == {"orders": 6}


def test_empty_and_rebalancing_groups() -> None:
    empty = group_from_description(
        ConsumerGroupDescription(
            "idle", False, [], "", ConsumerGroupState.EMPTY, COORDINATOR, type=ConsumerGroupType.CLASSIC
        )
    )
    assert (empty.state, empty.assignor, empty.members) == ("Empty", None, {})
    joining = group_from_description(
        ConsumerGroupDescription(
            "g", False, [member("c-1", [])], "", ConsumerGroupState.PREPARING_REBALANCING, COORDINATOR
        )
    )
    assert joining.state == "PreparingRebalance" and joining.members["c-1"].assignment == []
    assert joining.protocol is None  # ConsumerGroupType.UNKNOWN: an old broker did not say


class _Done(concurrent.futures.Future):
    def __init__(self, value=None, error=None) -> None:
        super().__init__()
        self.set_exception(error) if error is not None else self.set_result(value)


class _RecordedAdmin:
    """Answers like an AdminClient with recorded results."""

    def __init__(self, listing=None, error=None) -> None:
        self.listing, self.error = listing, error

    def list_consumer_groups(self, **_: object) -> concurrent.futures.Future:
        return _Done(self.listing, self.error)

    def poll(self, _: float) -> int:
        return 0


def test_listing_groups_from_a_recorded_result() -> None:
    listing = ListConsumerGroupsResult(
        valid=[
            ConsumerGroupListing("orders", False, ConsumerGroupState.STABLE, ConsumerGroupType.CONSUMER),
            ConsumerGroupListing("billing", False, ConsumerGroupState.EMPTY, ConsumerGroupType.CLASSIC),
        ]
    )
    admin = Admin(_RecordedAdmin(listing), Connection.parse("k:9092", 2))
    assert list_groups(admin) == [("billing", "Empty", "classic"), ("orders", "Stable", "consumer")]
    refused = KafkaException(KafkaError(KafkaError.CLUSTER_AUTHORIZATION_FAILED))
    admin = Admin(_RecordedAdmin(error=refused), Connection.parse("k:9092", 2))
    with pytest.raises(
        ClusterError, match=r"^not authorised to list consumer groups \(CLUSTER_AUTHORIZATION"
    ):
        list_groups(admin)


@pytest.mark.parametrize(
    "code, expected",
    [
        (
            KafkaError.GROUP_AUTHORIZATION_FAILED,
            "not authorised to describe group 'orders' (GROUP_AUTHORIZATION_FAILED)",
        ),
        (KafkaError.GROUP_ID_NOT_FOUND, "cannot describe group 'orders': the group does not exist on k:9092"),
        (
            KafkaError._UNSUPPORTED_FEATURE,
            "the broker at k:9092 does not support the request to describe group 'orders'",
        ),
        (KafkaError._TRANSPORT, "cannot reach broker at k:9092 ("),
        (KafkaError.SASL_AUTHENTICATION_FAILED, "authentication failed at k:9092: "),
    ],
)
def test_errors_are_one_clear_line(code: int, expected: str) -> None:
    message = str(
        explain(KafkaException(KafkaError(code)), Connection.parse("k:9092", 2), "describe group 'orders'")
    )
    assert message.startswith(expected) and "\n" not in message


def test_a_timeout_with_a_background_authentication_failure() -> None:
    conn = Connection.parse(
        "k:9092",
        2,
        {"sasl.password": "hunter2", "security.protocol": "SASL_SSL", "sasl.mechanism": "SCRAM-SHA-512"},
    )
    background = [KafkaError(KafkaError._AUTHENTICATION, "SASL authentication error: bad password hunter2")]
    message = str(explain(concurrent.futures.TimeoutError(), conn, "read the cluster metadata", background))
    assert message == "authentication failed at k:9092: SASL authentication error: bad password ***"


def test_settings_are_checked_and_secrets_masked() -> None:
    for bad, message in [("k", "expected HOST:PORT"), ("k:0", "expected HOST:PORT"), ("", "got nothing")]:
        with pytest.raises(ClusterError, match=message):
            Connection.parse(bad, 5)
    with pytest.raises(ClusterError, match="timeout"):
        Connection.parse("k:1", 0)
    with pytest.raises(ClusterError, match="'debug' is not supported"):
        Connection.parse("k:1", 5, {"debug": "all"})
    with pytest.raises(ClusterError, match=r"^sasl.mechanism: required with SASL_PLAINTEXT \(one of PLAIN,"):
        Connection.parse("k:1", 5, {"security.protocol": "SASL_PLAINTEXT"})
    with pytest.raises(ClusterError, match="sasl.mechanism: must be one of"):
        Connection.parse("k:1", 5, {"security.protocol": "SASL_SSL", "sasl.mechanism": "GSSAPI"})
    with pytest.raises(ClusterError, match="security.protocol: must be one of"):
        Connection.parse("k:1", 5, {"security.protocol": "TLS"})
    conn = Connection.parse(
        "a:1, [::1]:9093", 5, {"sasl.username": "u", "sasl.password": "p4ss", "ssl.ca.location": ""}
    )
    assert conn.bootstrap == "a:1,[::1]:9093" and "ssl.ca.location" not in conn.security
    assert "p4ss" not in repr(conn) and conn.client_config()["sasl.password"] == "p4ss"
    assert conn.client_config()["log_level"] == 0


def test_java_client_properties() -> None:
    text = (
        "# client.properties\nsecurity.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n"
        "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required "
        'username="svc-orders" password="p\\"w";\n'
    )
    assert security_from_properties(text, "f") == {
        "security.protocol": "SASL_SSL",
        "sasl.mechanism": "SCRAM-SHA-512",
        "sasl.username": "svc-orders",
        "sasl.password": 'p"w',
    }
    with pytest.raises(
        ClusterError, match=r"^f line 1: ssl.truststore.location is a Java-client setting; use ssl.ca"
    ):
        security_from_properties("ssl.truststore.location=/x.jks", "f")
