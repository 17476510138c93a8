"""The client-side assignment strategies in one registry: what Kafka puts on a ``ConsumerPartitionAssignor``.

Kafka keeps the facts about a strategy on the assignor itself: ``name()`` (the short name a
``partition.assignment.strategy`` list and the JoinGroup protocol list carry), the class a consumer
config names, and ``supportedProtocols()`` (``RebalanceProtocol.EAGER`` / ``COOPERATIVE``).  Here one
``Strategy`` entry holds them, with the factory of the assignor object the group replay gives each
member, a label for the dashboard, and the KIP-848 server assignor Kafka's migration notes map the
strategy to (``group.protocol=consumer`` ignores ``partition.assignment.strategy``).

Why this registry holds the client assignors only: the KIP-848 server assignors implement another
Kafka interface (``ConsumerGroupPartitionAssignor`` in group-coordinator, chosen by
``group.remote.assignor``), take other inputs and have no rebalance protocol; they have their own
registry beside them, ``engine.coordinator.assignors``.  ``server_assignor`` names an entry there
(a test checks every name).

Clients: every entry has a ``client`` ("java" today).  librdkafka's assignors will be registered under
``client="librdkafka"`` with the same names; lookups take ``client`` and default to Java's.

Worked example (asserted in tests/engine/consumer/test_strategies.py)::

    >>> s = strategy_of("cooperative-sticky")
    >>> s.kafka_class
    'org.apache.kafka.clients.consumer.CooperativeStickyAssignor'
    >>> s.supported_protocols, s.protocol, s.server_assignor
    (('EAGER', 'COOPERATIVE'), 'COOPERATIVE', 'uniform')
    >>> [s.name for s in strategies()]
    ['range', 'roundrobin', 'sticky', 'cooperative-sticky']
    >>> find_strategy("org.apache.kafka.clients.consumer.RangeAssignor").name
    'range'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from engine.consumer.assignment import Assignment
from engine.consumer.assignors import range as range_assignor
from engine.consumer.assignors import roundrobin as roundrobin_assignor
from engine.consumer.assignors.common import Cluster, StickyUserData, Subscription
from engine.consumer.assignors.cooperative import CooperativeStickyAssignor
from engine.consumer.assignors.sticky import StickyAssignor
from engine.errors import ScenarioError
from engine.scenario import TopicPartition

RebalanceProtocol = Literal["EAGER", "COOPERATIVE"]
REBALANCE_PROTOCOLS: tuple[RebalanceProtocol, ...] = ("EAGER", "COOPERATIVE")  # enum id order
EAGER: RebalanceProtocol = "EAGER"
COOPERATIVE: RebalanceProtocol = "COOPERATIVE"
JAVA = "java"
CLIENTS = (JAVA,)  # "librdkafka" joins when its assignors are registered


class ConsumerPartitionAssignor(Protocol):
    """What the replay asks of a member's assignor (Kafka's interface of the same name)."""

    def subscription_user_data(self) -> StickyUserData | int | None: ...

    def on_assignment(self, partitions: list[TopicPartition], generation: int) -> None: ...

    def assign(self, cluster: Cluster, subscriptions: dict[str, Subscription]) -> Assignment: ...


@dataclass(frozen=True)
class StatelessAssignor:
    """An assignor that remembers nothing (range, roundrobin): no user data, ``onAssignment`` a no-op."""

    assign_function: Callable[[Cluster, dict[str, Subscription]], Assignment]

    def subscription_user_data(self) -> None:
        return None

    def on_assignment(self, partitions: list[TopicPartition], generation: int) -> None:
        return None

    def assign(self, cluster: Cluster, subscriptions: dict[str, Subscription]) -> Assignment:
        return self.assign_function(cluster, subscriptions)


_RANGE = StatelessAssignor(range_assignor.assign)
_ROUNDROBIN = StatelessAssignor(roundrobin_assignor.assign)


@dataclass(frozen=True)
class Strategy:
    """One ``partition.assignment.strategy`` of one client."""

    name: str
    kafka_class: str
    label: str
    supported_protocols: tuple[RebalanceProtocol, ...]
    server_assignor: str
    factory: Callable[[], ConsumerPartitionAssignor]
    client: str = JAVA

    @property
    def protocol(self) -> RebalanceProtocol:
        """The protocol it runs as the only strategy: the highest it supports (``ConsumerCoordinator``)."""
        return max(self.supported_protocols, key=REBALANCE_PROTOCOLS.index)

    @property
    def cooperative(self) -> bool:
        return self.protocol == COOPERATIVE

    @property
    def mode(self) -> str:
        """``"eager"`` or ``"cooperative"``: how the dashboard and the pause model name the protocol."""
        return self.protocol.lower()

    def config_line(self) -> str:
        """The consumer config that selects it."""
        return f"partition.assignment.strategy={self.kafka_class}"


_CLIENTS_PACKAGE = "org.apache.kafka.clients.consumer."
_REGISTRY: dict[tuple[str, str], Strategy] = {
    (s.client, s.name): s for s in (
        Strategy("range", _CLIENTS_PACKAGE + "RangeAssignor", "Range", (EAGER,), "range", lambda: _RANGE),
        Strategy("roundrobin", _CLIENTS_PACKAGE + "RoundRobinAssignor", "Round-robin", (EAGER,), "uniform",
                 lambda: _ROUNDROBIN),
        Strategy("sticky", _CLIENTS_PACKAGE + "StickyAssignor", "Sticky", (EAGER,), "uniform",
                 StickyAssignor),
        Strategy("cooperative-sticky", _CLIENTS_PACKAGE + "CooperativeStickyAssignor", "Cooperative sticky",
                 (EAGER, COOPERATIVE), "uniform", CooperativeStickyAssignor),
    )
}


def strategies(client: str = JAVA) -> list[Strategy]:
    """A client's strategies in the dashboard's order."""
    return [s for (c, _), s in _REGISTRY.items() if c == client]


def strategy_names(client: str = JAVA) -> tuple[str, ...]:
    return tuple(s.name for s in strategies(client))


STRATEGY_NAMES = strategy_names()


def strategy_of(name: str | Strategy, client: str = JAVA) -> Strategy:
    """The entry for a short name (a ``Strategy`` passes through); unknown names raise ``ScenarioError``."""
    if isinstance(name, Strategy):
        return name
    found = _REGISTRY.get((client, name)) if isinstance(name, str) else None
    if found is None:
        names = ", ".join(strategy_names(client))
        raise ScenarioError(f"strategy: must be one of {names}, got {_short(name)}")
    return found


def is_strategy(name: object, client: str = JAVA) -> bool:
    return isinstance(name, str) and (client, name) in _REGISTRY


def find_strategy(text: str, client: str = JAVA) -> Strategy:
    """A strategy by short name or Kafka class name (simple or qualified), case-insensitively."""
    key = text.strip().lower().rsplit(".", 1)[-1]
    for s in strategies(client):
        if key in (s.name, s.kafka_class.rsplit(".", 1)[-1].lower()):
            return s
    raise ScenarioError(f"strategy: unknown client strategy {text!r}")


def parse_strategy(data: Any, client: str = JAVA) -> str:
    """The ``strategy`` field of an ``assign`` case (spec section 1)."""
    if not isinstance(data, dict):
        raise ScenarioError(f"input: must be a JSON object, got {type(data).__name__}")
    value: Any = data.get("strategy")
    return strategy_of(value, client).name


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
