"""The producer settings that decide ordering and duplicates, resolved exactly as Kafka 4.0's
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
* Defaults: those of the 4.0 code line the vectors follow (``linger.ms`` 0) unless ``released`` is asked for:
  released 4.0 lingers 5 ms (KIP-1030).
* ``acks`` is a ``ConfigDef`` STRING matched exactly (after trimming) against ``all``, ``-1``, ``0``, ``1``.

Worked examples (run by ``tests/test_worked_examples.py``; more in ``tests/test_idempotence.py``)::

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
    >>> resolve({}).linger_ms, resolve({}, RELEASED).linger_ms
    (0, 5)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from engine.common.config_def import ConfigException, parse_string, valid_string
from engine.errors import ScenarioError
from engine.release import CODE_LINE, RELEASED, Release

INT_MAX: Final = 2**31 - 1
MAX_IN_FLIGHT_FOR_IDEMPOTENCE: Final = (
    5  # ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION_FOR_IDEMPOTENCE
)
MAX_REQUEST_SIZE: Final = 1_048_576  # max.request.size
RECONNECT_BACKOFF_MS: Final = 50  # reconnect.backoff.ms (its jitter is not modelled)
ACKS_VALUES: Final = ("all", "-1", "0", "1")
DEFAULTS: Final[dict[str, Any]] = {  # ProducerConfig's defaults on the 4.0 code line the vectors follow
    "enable.idempotence": True,
    "acks": "all",
    "retries": INT_MAX,
    "max.in.flight.requests.per.connection": 5,
    "delivery.timeout.ms": 120_000,
    "request.timeout.ms": 30_000,
    "linger.ms": 0,
    "batch.size": 16_384,
    "retry.backoff.ms": 100,
    "retry.backoff.max.ms": 1_000,
    "transactional.id": None,
}
RELEASED_DEFAULTS: Final[dict[str, Any]] = {**DEFAULTS, "linger.ms": 5}  # KIP-1030: released 4.0 lingers 5 ms
RELEASE_DEFAULTS: Final[dict[str, dict[str, Any]]] = {CODE_LINE.key: DEFAULTS, RELEASED.key: RELEASED_DEFAULTS}


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
    release: Release = CODE_LINE  # whose defaults filled the properties left out

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


def _int(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ScenarioError(f"{name}: must be an integer {low:,}..{high:,}, got {value!r}")
    return value


def parse_acks(value: Any) -> int:
    """``acks`` as ``ConfigDef`` reads it (a string, trimmed, exactly one of ``all``, ``-1``, ``0``, ``1``:
    ``ValidString`` is case-sensitive, so ``"ALL"`` is refused), then ``ProducerConfig.parseAcks``."""
    text = parse_string("acks", value)
    valid_string("acks", text, ACKS_VALUES)
    return -1 if text == "all" else int(text)


def _read(raw: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(raw) - set(DEFAULTS))
    if unknown:
        raise ScenarioError(
            f"config: unknown or unsupported property {unknown[0]!r} (supported: {', '.join(DEFAULTS)})"
        )
    v = {**defaults, **raw}
    if not isinstance(v["enable.idempotence"], bool):
        raise ScenarioError(f"enable.idempotence: true or false, got {v['enable.idempotence']!r}")
    limits = {
        "retries": INT_MAX,
        "max.in.flight.requests.per.connection": 100,
        "delivery.timeout.ms": INT_MAX,
        "request.timeout.ms": INT_MAX,
        "linger.ms": INT_MAX,
        "batch.size": INT_MAX,
        "retry.backoff.ms": INT_MAX,
        "retry.backoff.max.ms": INT_MAX,
    }
    for name, high in limits.items():
        _int(name, v[name], 1 if name == "max.in.flight.requests.per.connection" else 0, high)
    tid = v["transactional.id"]
    if tid is not None and (not isinstance(tid, str) or not tid):
        raise ConfigError(
            f"ConfigException: Invalid value {tid!r} for configuration transactional.id: "
            "String must be non-empty"
        )
    return v


def resolve(raw: Mapping[str, Any], release: Release = CODE_LINE) -> ProducerSettings:
    """User-set properties (Kafka names) -> effective settings, raising Kafka's ``ConfigException``s; the
    properties left out take ``release``'s defaults (the 4.0 code line's, or released 4.0's)."""
    if not isinstance(raw, Mapping):
        raise ScenarioError(f"config: expected an object of producer properties, got {type(raw).__name__}")
    v = _read(raw, RELEASE_DEFAULTS[release.key])
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
        release,
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
