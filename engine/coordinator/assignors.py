"""The KIP-848 server-side assignors, in one registry (Kafka's ``ConsumerGroupPartitionAssignor``s).

With ``group.protocol=consumer`` the group coordinator computes every member's target assignment
with one of the broker's ``group.consumer.assignors`` (default ``uniform``, then ``range``), chosen by
the members' ``group.remote.assignor``.  Each entry holds what Kafka puts on the assignor: its
``name()``, its class, and the ``assign`` function over a ``GroupSpec``.  The client strategies
(``engine.consumer.strategies``) name an entry here as the assignor Kafka's migration maps them to.

Worked example (asserted in tests/engine/consumer/test_strategies.py)::

    >>> [a.name for a in server_assignors()], DEFAULT_SERVER_ASSIGNOR
    (['uniform', 'range'], 'uniform')
    >>> server_assignor("range").kafka_class
    'org.apache.kafka.coordinator.group.assignor.RangeAssignor'
    >>> server_assignor("range").label
    'range (KIP-848)'
    >>> [a.name for a in share_assignors()], share_assignor("simple").label
    (['simple'], 'simple (share group)')

Share groups (KIP-932) have their own broker list, ``group.share.assignors`` (only ``simple``), and
their assignor's answer may give one partition to several members, so it is a registry of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.coordinator.group_spec import GroupSpec, MemberPartitions, TopicDescriber
from engine.coordinator.range import assign_range
from engine.coordinator.simple import ShareAssignment, assign_simple
from engine.coordinator.uniform import assign_uniform
from engine.errors import ScenarioError

AssignFunction = Callable[[GroupSpec, TopicDescriber], dict[str, MemberPartitions]]
ShareAssignFunction = Callable[[GroupSpec, TopicDescriber], ShareAssignment]
_PACKAGE = "org.apache.kafka.coordinator.group.assignor."


@dataclass(frozen=True)
class ServerAssignor:
    """One of the broker's ``group.consumer.assignors``."""

    name: str
    kafka_class: str
    assign: AssignFunction

    @property
    def label(self) -> str:
        return f"{self.name} (KIP-848)"


_REGISTRY: dict[str, ServerAssignor] = {a.name: a for a in (
    ServerAssignor("uniform", _PACKAGE + "UniformAssignor", assign_uniform),
    ServerAssignor("range", _PACKAGE + "RangeAssignor", assign_range),
)}
SERVER_ASSIGNOR_NAMES = tuple(_REGISTRY)
DEFAULT_SERVER_ASSIGNOR = SERVER_ASSIGNOR_NAMES[0]  # the first of group.consumer.assignors


def server_assignors() -> list[ServerAssignor]:
    """In the broker's default ``group.consumer.assignors`` order."""
    return list(_REGISTRY.values())


def server_assignor(name: Any) -> ServerAssignor:
    """The entry for a name; anything else raises ``ScenarioError`` naming it."""
    found = _REGISTRY.get(name) if isinstance(name, str) else None
    if found is None:
        raise ScenarioError(f"assignor: must be one of {', '.join(SERVER_ASSIGNOR_NAMES)}, got {name!r}")
    return found


@dataclass(frozen=True)
class ShareAssignor:
    """One of the broker's ``group.share.assignors`` (KIP-932 share groups)."""

    name: str
    kafka_class: str
    assign: ShareAssignFunction

    @property
    def label(self) -> str:
        return f"{self.name} (share group)"


_SHARE_REGISTRY: dict[str, ShareAssignor] = {a.name: a for a in (
    ShareAssignor("simple", _PACKAGE + "SimpleAssignor", assign_simple),
)}
SHARE_ASSIGNOR_NAMES = tuple(_SHARE_REGISTRY)
DEFAULT_SHARE_ASSIGNOR = SHARE_ASSIGNOR_NAMES[0]


def share_assignors() -> list[ShareAssignor]:
    return list(_SHARE_REGISTRY.values())


def share_assignor(name: Any) -> ShareAssignor:
    """The entry for a name; anything else raises ``ScenarioError`` naming it."""
    found = _SHARE_REGISTRY.get(name) if isinstance(name, str) else None
    if found is None:
        raise ScenarioError(f"assignor: must be one of {', '.join(SHARE_ASSIGNOR_NAMES)}, got {name!r}")
    return found
