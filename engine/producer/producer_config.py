"""The producer settings that decide ordering and duplicates, resolved exactly as Kafka's
``ProducerConfig.postProcessAndValidateIdempotenceConfigs`` and ``KafkaProducer.configureDeliveryTimeout`` do.

* ``enable.idempotence`` defaults to **true** (since Kafka 3.0, KIP-679); seed article 004 says false.
  ``acks`` defaults to ``all``, ``retries`` to Integer.MAX_VALUE, ``max.in.flight.requests.per.connection``
  to 5.
* Idempotence needs ``acks=all``, ``retries > 0`` and ``max.in.flight <= 5``.  If the user *set*
  ``enable.idempotence=true`` a conflict is a ``ConfigException``; if they left it at the default,
  idempotence is
  silently disabled (``acks=1`` alone turns it off).
* ``transactional.id`` without idempotence is a ``ConfigException``.
* ``delivery.timeout.ms`` must be >= ``linger.ms + request.timeout.ms``: an explicit smaller value is a
  ``ConfigException``, the default is raised to that sum.
* ``PRODUCER_CONFIG`` declares the eleven properties the lab reads as ``ProducerConfig`` defines them (type,
  released default, validator, doc), in its definition order; ``linger.ms``'s older default (0 before Kafka 4.0,
  KIP-1030) is keyed by ``engine.release.BEFORE_4_0``.
* ``acks`` is a ``ConfigDef`` STRING matched exactly (after trimming) against ``all``, ``-1``, ``0``, ``1``.

Worked examples (run by ``tests/test_worked_examples.py``; more in
``tests/engine/producer/test_idempotence.py``)::

    >>> resolve({"acks": "1"}).idempotence, resolve({"acks": "1"}).notes
    (False, ("Idempotence will be disabled because acks is set to 1, not set to 'all'.",))
    >>> try:
    ...     resolve({"acks": "1", "enable.idempotence": True})
    ... except ConfigException as refused:
    ...     print(refused)
    ConfigException: Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee
    idempotence.
    >>> try:
    ...     resolve({"acks": "ALL"})
    ... except ConfigException as refused:
    ...     print(refused)
    ConfigException: Invalid value ALL for configuration acks: String must be one of: all, -1, 0, 1
    >>> resolve({}).linger_ms, resolve({}, BEFORE_4_0).linger_ms
    (5, 0)
    >>> key = PRODUCER_CONFIG.keys["linger.ms"]
    >>> key.type, key.default, key.default_in(BEFORE_4_0), key.validator
    ('LONG', 5, 0, Range(low=0, high=None))
    >>> try:
    ...     PRODUCER_CONFIG.parse({"retries": " -1 "})
    ... except ConfigException as refused:
    ...     print(refused)
    ConfigException: Invalid value -1 for configuration retries: Value must be at least 0
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from engine.common.config_def import (
    BOOLEAN,
    INT,
    INT_MAX,
    LONG,
    STRING,
    ConfigDef,
    ConfigException,
    NonEmptyString,
    Range,
    ValidString,
)
from engine.errors import LimitError, ScenarioError, quote
from engine.release import BEFORE_4_0, RELEASED, Defaults

MAX_IN_FLIGHT_FOR_IDEMPOTENCE: Final = (
    5  # ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION_FOR_IDEMPOTENCE
)
MAX_REQUEST_SIZE: Final = 1_048_576  # max.request.size
RECONNECT_BACKOFF_MS: Final = 50  # reconnect.backoff.ms (its jitter is not modelled)
MAX_IN_FLIGHT_IN_LAB: Final = 100


def _at_most(high: int) -> Callable[[str, Any], None]:
    """The lab's own upper bound on a value Kafka accepts: a ``LimitError`` that says Kafka accepts it."""

    def check(name: str, value: int) -> None:
        if value > high:
            raise LimitError(f"{name}: at most {high:,} in this lab (Kafka accepts it), got {value:,}")

    return check


# ProducerConfig.CONFIG (Kafka 4.2.0 ProducerConfig.java lines 390-542), the properties the lab reads, in
# definition order: ConfigDef parses and validates in it, so the first bad one is named
PRODUCER_CONFIG: Final = (
    ConfigDef("org.apache.kafka.clients.producer.ProducerConfig")
    .define("retries", INT, INT_MAX, Range.between(0, INT_MAX),
            "Number of times to retry a request that fails with a transient error.")
    .define("acks", STRING, "all", ValidString(("all", "-1", "0", "1")),
            "The number of acknowledgments the producer requires the leader to have received before considering "
            "a request complete.")
    .define("batch.size", INT, 16_384, Range.at_least(0),
            "The default batch size in bytes: records sent to the same partition are batched together.")
    .define("linger.ms", LONG, 5, Range.at_least(0),
            "The producer waits up to this delay for other records, so that they can be batched together.",
            older_defaults={BEFORE_4_0: 0}, lab_check=_at_most(INT_MAX))
    .define("delivery.timeout.ms", INT, 120_000, Range.at_least(0),
            "An upper bound on the time to report success or failure after a call to send() returns.")
    .define("retry.backoff.ms", LONG, 100, Range.at_least(0),
            "The amount of time to wait before attempting to retry a failed request to a given topic partition.",
            lab_check=_at_most(INT_MAX))
    .define("retry.backoff.max.ms", LONG, 1_000, Range.at_least(0),
            "The maximum amount of time in milliseconds to wait when retrying a request to the broker that has "
            "repeatedly failed.", lab_check=_at_most(INT_MAX))
    .define("request.timeout.ms", INT, 30_000, Range.at_least(0),
            "The maximum amount of time the client will wait for the response of a request.")
    .define("max.in.flight.requests.per.connection", INT, 5, Range.at_least(1),
            "The maximum number of unacknowledged requests the client will send on a single connection before "
            "blocking.", lab_check=_at_most(MAX_IN_FLIGHT_IN_LAB))
    .define("enable.idempotence", BOOLEAN, True, None,
            "When set to 'true', the producer will ensure that exactly one copy of each message is written in the "
            "stream.")
    .define("transactional.id", STRING, None, NonEmptyString(),
            "The TransactionalId to use for transactional delivery.")
)
DEFAULTS: Final = PRODUCER_CONFIG.defaults()  # released Kafka's defaults, by property name


ConfigError = ConfigException  # Kafka's ``ConfigException``: the message is Kafka's


@dataclass(frozen=True)
class ProducerSettings:
    """The effective values after Kafka's post-processing, and why they differ from what was asked."""

    idempotence: bool
    acks: int  # -1 = all
    retries: int
    max_in_flight: int
    delivery_timeout_ms: int
    request_timeout_ms: int
    linger_ms: int
    batch_size: int
    retry_backoff_ms: int
    retry_backoff_max_ms: int
    user_set: frozenset[str] = frozenset()
    notes: tuple[str, ...] = field(default=())
    defaults: Defaults = RELEASED  # whose defaults filled the properties left out

    @property
    def guarantee_message_order(self) -> bool:
        """``KafkaProducer.newSender``: ``maxInflightRequests == 1`` mutes a partition while it has a
        request."""
        return self.max_in_flight == 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "enable.idempotence": self.idempotence,
            "acks": "all" if self.acks == -1 else str(self.acks),
            "retries": self.retries,
            "max.in.flight.requests.per.connection": self.max_in_flight,
            "delivery.timeout.ms": self.delivery_timeout_ms,
            "request.timeout.ms": self.request_timeout_ms,
            "linger.ms": self.linger_ms,
            "batch.size": self.batch_size,
            "retry.backoff.ms": self.retry_backoff_ms,
            "retry.backoff.max.ms": self.retry_backoff_max_ms,
        }


def resolve(raw: Mapping[str, Any], defaults: Defaults = RELEASED) -> ProducerSettings:
    """User-set properties (Kafka names) -> effective settings, raising Kafka's ``ConfigException``s; the
    properties left out take the ``defaults`` table (released Kafka's, or a 3.x producer's)."""
    if not isinstance(raw, Mapping):
        raise ScenarioError(f"config: expected an object of producer properties, got {type(raw).__name__}")
    unknown = sorted(set(raw) - set(PRODUCER_CONFIG.keys))
    if unknown:
        raise ScenarioError(
            f"config: unknown or unsupported property '{quote(unknown[0])}' (supported: {', '.join(DEFAULTS)})"
        )
    v = PRODUCER_CONFIG.parse(raw, defaults)
    user = frozenset(raw)
    acks = -1 if v["acks"] == "all" else int(v["acks"])  # ProducerConfig.parseAcks
    idempotence, notes = _idempotence(v, acks, "enable.idempotence" in user)
    if not idempotence and v["transactional.id"] is not None:
        raise ConfigError("ConfigException: Cannot set a transactional.id without also enabling idempotence.")
    delivery = _delivery_timeout(v, "delivery.timeout.ms" in user, notes)
    if idempotence and "enable.idempotence" not in user:
        notes.insert(
            0, "enable.idempotence is true by default since Kafka 3.0 (seed article 004 says false)."
        )
    return ProducerSettings(
        idempotence,
        acks,
        v["retries"],
        v["max.in.flight.requests.per.connection"],
        delivery,
        v["request.timeout.ms"],
        v["linger.ms"],
        v["batch.size"],
        v["retry.backoff.ms"],
        v["retry.backoff.max.ms"],
        user,
        tuple(notes),
        defaults,
    )


def _idempotence(v: dict[str, Any], acks: int, explicit: bool) -> tuple[bool, list[str]]:
    """``postProcessAndValidateIdempotenceConfigs``."""
    notes: list[str] = []
    if not v["enable.idempotence"]:
        return False, notes
    disable = False
    if v["retries"] == 0:
        if explicit:
            raise ConfigError(
                "ConfigException: Must set retries to non-zero when using the idempotent producer."
            )
        notes.append("Idempotence will be disabled because retries is set to 0.")
        disable = True
    if acks != -1:
        if explicit:
            raise ConfigError(
                "ConfigException: Must set acks to all in order to use the idempotent producer. "
                "Otherwise we cannot guarantee idempotence."
            )
        notes.append(f"Idempotence will be disabled because acks is set to {acks}, not set to 'all'.")
        disable = True
    in_flight = v["max.in.flight.requests.per.connection"]
    if in_flight > MAX_IN_FLIGHT_FOR_IDEMPOTENCE:
        if explicit:
            raise ConfigError(
                "ConfigException: Must set max.in.flight.requests.per.connection to at most 5 to use "
                "the idempotent producer."
            )
        notes.append(
            f"Idempotence will be disabled because max.in.flight.requests.per.connection is set to "
            f"{in_flight}, which is greater than 5."
        )
        disable = True
    return not disable, notes


def _delivery_timeout(v: dict[str, Any], explicit: bool, notes: list[str]) -> int:
    """``KafkaProducer.configureDeliveryTimeout``."""
    floor = min(v["linger.ms"] + v["request.timeout.ms"], INT_MAX)
    if v["delivery.timeout.ms"] >= floor:
        return int(v["delivery.timeout.ms"])
    if explicit:
        raise ConfigError(
            "ConfigException: delivery.timeout.ms should be equal to or larger than linger.ms + "
            "request.timeout.ms"
        )
    notes.append(
        f"delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms. "
        f"Setting it to {floor}."
    )
    return floor
