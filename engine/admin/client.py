"""The AdminClient of one import, and Kafka's errors as one clear line.

``admin_client`` creates confluent-kafka's AdminClient with the bounded, silent configuration of
``Connection.client_config`` and an ``error_cb`` that remembers the client's last global error (a
refused connection, a failed SASL handshake), so a timeout can say why.  ``explain`` turns a
``KafkaException`` (or a ``concurrent.futures`` timeout) into a ``ClusterError`` such as
``cannot reach broker at 127.0.0.1:1 (Connection refused; waited 2 s)`` or ``not authorised to
describe group 'orders' (GROUP_AUTHORIZATION_FAILED)``, with secrets masked.

Worked example (asserted in tests/engine/admin/test_import_admin.py)::

    >>> from confluent_kafka import KafkaError
    >>> c = Connection.parse("kafka-1:9092", 2)
    >>> str(explain(KafkaError(KafkaError.GROUP_AUTHORIZATION_FAILED), c, "describe group 'orders'"))
    "not authorised to describe group 'orders' (GROUP_AUTHORIZATION_FAILED)"
"""

from __future__ import annotations

import concurrent.futures
from dataclasses import dataclass, field
from typing import Any

from confluent_kafka import KafkaError, KafkaException
from confluent_kafka.admin import AdminClient

from engine.admin.connection import ClusterError, Connection

UNREACHABLE = frozenset(
    {
        KafkaError._TRANSPORT,
        KafkaError._ALL_BROKERS_DOWN,
        KafkaError._RESOLVE,
        KafkaError._TIMED_OUT,
        KafkaError.REQUEST_TIMED_OUT,
        KafkaError._WAIT_COORD,
    }
)
AUTHENTICATION = frozenset(
    {KafkaError._AUTHENTICATION, KafkaError.SASL_AUTHENTICATION_FAILED, KafkaError._SSL}
)
AUTHORISATION = frozenset(
    {
        KafkaError.GROUP_AUTHORIZATION_FAILED,
        KafkaError.TOPIC_AUTHORIZATION_FAILED,
        KafkaError.CLUSTER_AUTHORIZATION_FAILED,
    }
)
UNSUPPORTED = frozenset({KafkaError._UNSUPPORTED_FEATURE, KafkaError.UNSUPPORTED_VERSION})


@dataclass
class Admin:
    """An AdminClient with the connection it was made for and the last error it reported."""

    client: Any
    connection: Connection
    errors: list[KafkaError] = field(default_factory=list)

    @property
    def timeout(self) -> float:
        return self.connection.timeout_s

    def wait(self, future: Any, what: str) -> Any:
        """The future's result within the timeout; any failure becomes a ``ClusterError``."""
        try:
            return future.result(timeout=self.timeout + 1)
        except (KafkaException, concurrent.futures.TimeoutError) as exc:
            raise self.failure(exc, what) from None

    def failure(self, exc: BaseException, what: str) -> ClusterError:
        """``explain`` with the client's last background error (served by ``poll``)."""
        self.client.poll(0)
        return explain(exc, self.connection, what, self.errors[-1:])


def admin_client(connection: Connection) -> Admin:
    errors: list[KafkaError] = []
    config = connection.client_config()
    config["error_cb"] = errors.append
    try:
        client = AdminClient(config)
    except KafkaException as exc:
        raise explain(exc, connection, "configure the client") from None
    return Admin(client, connection, errors)


def _error_of(exc: BaseException) -> KafkaError | None:
    if isinstance(exc, KafkaError):
        return exc
    if isinstance(exc, KafkaException) and exc.args and isinstance(exc.args[0], KafkaError):
        return exc.args[0]
    return None


def explain(
    exc: BaseException, connection: Connection, what: str, background: list[KafkaError] | None = None
) -> ClusterError:
    """One line for a failure of ``what`` (e.g. ``describe group 'orders'``); secrets masked."""
    error = _error_of(exc)
    last = background[-1] if background else None
    where = connection.bootstrap
    if error is None or error.code() in UNREACHABLE:
        if last is not None and last.code() in AUTHENTICATION:
            return ClusterError(connection.redact(f"authentication failed at {where}: {last.str()}"))
        known = last or error
        detail = known.str() if known is not None else "no answer"
        return ClusterError(
            connection.redact(
                f"cannot reach broker at {where} ({detail}; waited {connection.timeout_s:g} s to {what})"
            )
        )
    code = error.code()
    if code in AUTHENTICATION:
        return ClusterError(connection.redact(f"authentication failed at {where}: {error.str()}"))
    if code in AUTHORISATION:
        return ClusterError(f"not authorised to {what} ({error.name()})")
    if code == KafkaError.GROUP_ID_NOT_FOUND:
        return ClusterError(f"cannot {what}: the group does not exist on {where}")
    if code in UNSUPPORTED:
        return ClusterError(f"the broker at {where} does not support the request to {what} ({error.name()})")
    return ClusterError(connection.redact(f"cannot {what} at {where}: {error.name()}: {error.str()}"))
