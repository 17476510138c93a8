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
* Defaults: released Kafka's (``linger.ms`` 5 since 4.0, KIP-1030), or a 3.x producer's (``linger.ms`` 0) when
  ``BEFORE_4_0`` is asked for.
* ``acks`` is a ``ConfigDef`` STRING matched exactly (after trimming) against ``all``, ``-1``, ``0``, ``1``.

Worked examples (run by ``tests/engine/test_worked_examples.py``; more in
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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from engine.common.config_def import (
    ConfigException,
    at_least,
    invalid,
    parse_boolean,
    parse_int,
    parse_long,
    parse_string,
    valid_string,
)
from engine.errors import LimitError, ScenarioError, quote
from engine.release import BEFORE_4_0, RELEASED, Defaults

INT_MAX: Final = 2**31 - 1
MAX_IN_FLIGHT_FOR_IDEMPOTENCE: Final = (
    5  # ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION_FOR_IDEMPOTENCE
)
MAX_REQUEST_SIZE: Final = 1_048_576  # max.request.size
RECONNECT_BACKOFF_MS: Final = 50  # reconnect.backoff.ms (its jitter is not modelled)
ACKS_VALUES: Final = ("all", "-1", "0", "1")
DEFAULTS: Final[dict[str, Any]] = {  # ProducerConfig's defaults in released Kafka
    "enable.idempotence": True,
    "acks": "all",
    "retries": INT_MAX,
    "max.in.flight.requests.per.connection": 5,
    "delivery.timeout.ms": 120_000,
    "request.timeout.ms": 30_000,
    "linger.ms": 5,  # KIP-1030 (0 before Kafka 4.0)
    "batch.size": 16_384,
    "retry.backoff.ms": 100,
    "retry.backoff.max.ms": 1_000,
    "transactional.id": None,
}
TABLES: Final[dict[Defaults, dict[str, Any]]] = {RELEASED: DEFAULTS, BEFORE_4_0: {**DEFAULTS, "linger.ms": 0}}


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


def _acks(name: str, value: Any) -> str:
    """``acks`` as ``ConfigDef`` reads it: a string, trimmed, exactly one of ``all``, ``-1``, ``0``, ``1``
    (``ValidString`` is case-sensitive, so ``"ALL"`` is refused)."""
    text = parse_string(name, value)
    valid_string(name, text, ACKS_VALUES)
    return text


def parse_acks(value: Any) -> int:
    """``acks`` read by ``ConfigDef``, then ``ProducerConfig.parseAcks``: "all" -> -1."""
    text = _acks("acks", value)
    return -1 if text == "all" else int(text)


def _transactional_id(name: str, value: Any) -> str | None:
    """``STRING`` with ``NonEmptyString`` (null = none)."""
    if value is None:
        return None
    text = parse_string(name, value)
    if not text:
        raise invalid(name, value, "String must be non-empty")
    return text


def _ranged(parse: Callable[[str, Any], int], low: int) -> Callable[[str, Any], int]:
    def convert(name: str, value: Any) -> int:
        number = parse(name, value)
        at_least(name, number, low)
        return number

    return convert


# ProducerConfig's define order (ConfigDef parses and validates in it, so the first bad one is named), with each
# property's type and validator
PARSE_ORDER: Final[tuple[tuple[str, Callable[[str, Any], Any]], ...]] = (
    ("retries", _ranged(parse_int, 0)),
    ("acks", _acks),
    ("batch.size", _ranged(parse_int, 0)),
    ("linger.ms", _ranged(parse_long, 0)),
    ("delivery.timeout.ms", _ranged(parse_int, 0)),
    ("retry.backoff.ms", _ranged(parse_long, 0)),
    ("retry.backoff.max.ms", _ranged(parse_long, 0)),
    ("request.timeout.ms", _ranged(parse_int, 0)),
    ("max.in.flight.requests.per.connection", _ranged(parse_int, 1)),
    ("enable.idempotence", parse_boolean),
    ("transactional.id", _transactional_id),
)
LAB_LIMITS: Final = {  # the lab's own bounds on values Kafka accepts (a LimitError, not Kafka's refusal)
    "max.in.flight.requests.per.connection": 100,
    "linger.ms": INT_MAX,
    "retry.backoff.ms": INT_MAX,
    "retry.backoff.max.ms": INT_MAX,
}


def _read(raw: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(raw) - set(DEFAULTS))
    if unknown:
        raise ScenarioError(
            f"config: unknown or unsupported property '{quote(unknown[0])}' (supported: {', '.join(DEFAULTS)})"
        )
    v = dict(defaults)
    for name, parse in PARSE_ORDER:
        if name in raw:
            v[name] = parse(name, raw[name])
    for name, high in LAB_LIMITS.items():
        if v[name] > high:
            raise LimitError(f"{name}: at most {high:,} in this lab (Kafka accepts it), got {v[name]:,}")
    return v


def resolve(raw: Mapping[str, Any], defaults: Defaults = RELEASED) -> ProducerSettings:
    """User-set properties (Kafka names) -> effective settings, raising Kafka's ``ConfigException``s; the
    properties left out take the ``defaults`` table (released Kafka's, or a 3.x producer's)."""
    if not isinstance(raw, Mapping):
        raise ScenarioError(f"config: expected an object of producer properties, got {type(raw).__name__}")
    v = _read(raw, TABLES[defaults])
    user = frozenset(raw)
    acks = parse_acks(v["acks"])
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
