"""Every way Kafka assigns a group, on one scenario: what the Assignments and Rebalance pages compare.

An ``Assignor`` is either a client strategy under the classic group protocol (``engine.consumer.strategies``:
range, roundrobin, sticky, cooperative-sticky) or a KIP-848 server assignor under ``group.protocol=consumer``
(``engine.coordinator.assignors``: uniform, range).  ``outcomes`` runs one over every step of a scenario
and answers in one shape, ``StepOutcome``: the assignment (``TopicPartition`` lists), the owner changes,
what the members that stay revoked, and the rounds.  The ``*_row`` functions are the table rows the
dashboard shows.

Worked example (asserted in tests/engine/test_comparison.py): seed-d (C0..C2 on t0..t3, 2 partitions each),
then C1 leaves.  At step 1 ``sticky`` moves C1's 3 partitions and revokes the 5 the others owned
(eager), ``cooperative-sticky`` moves the same 3 and revokes nothing, the server's ``uniform`` moves 3
and revokes nothing::

    >>> from engine.presets import build_preset
    >>> s = build_preset("seed-d")
    >>> [(o[1].moved, revoked_count(o[1])) for o in (outcomes(s, CLIENT["sticky"]),
    ...     outcomes(s, CLIENT["cooperative-sticky"]), outcomes(s, SERVER["uniform"]))]
    [(3, 5), (3, 0), (3, 0)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from engine.consumer.assignment import Assignment, AssignmentView, partitions, revoked
from engine.consumer.group import replay, revocations
from engine.consumer.librdkafka import STRATEGIES as LIBRDKAFKA_STRATEGIES
from engine.consumer.librdkafka import replay_librdkafka
from engine.consumer.metrics import BalanceMetrics
from engine.consumer.pause import PauseReport, ProtocolTimings, pause_report
from engine.consumer.strategies import strategies, strategy_of
from engine.coordinator.assignors import server_assignor, server_assignors
from engine.coordinator.group_spec import PartitionAssignorError
from engine.coordinator.target_assignment import server_assign
from engine.errors import EngineError
from engine.scenario import Scenario, TopicPartition

GroupProtocol = Literal["classic", "consumer"]
ASSIGNMENT_ERRORS = (EngineError, PartitionAssignorError)  # what a server assignor may raise on a scenario


@dataclass(frozen=True)
class Assignor:
    """A client strategy (``group.protocol=classic``) or a KIP-848 server assignor (``consumer``)."""

    group_protocol: GroupProtocol
    name: str
    client: str = "java"  # whose client-side assignor runs in the leader (classic only): java or librdkafka

    @property
    def suffix(self) -> str:
        return " (librdkafka)" if self.client == "librdkafka" and self.group_protocol == "classic" else ""

    @property
    def label(self) -> str:
        return self.name + self.suffix if self.group_protocol == "classic" else server_assignor(self.name).label

    @property
    def title(self) -> str:
        """A column heading: the strategy's label ("Cooperative sticky") or "uniform (KIP-848)"."""
        return strategy_of(self.name).label + self.suffix if self.group_protocol == "classic" else self.label

    @property
    def rebalance(self) -> str:
        """The pause model's protocol: ``eager``, ``cooperative`` or ``consumer``."""
        return strategy_of(self.name).mode if self.group_protocol == "classic" else "consumer"

    @property
    def protocol_label(self) -> str:
        return self.rebalance if self.group_protocol == "classic" else "consumer (KIP-848)"


CLIENT = {s.name: Assignor("classic", s.name) for s in strategies()}
SERVER = {a.name: Assignor("consumer", a.name) for a in server_assignors()}
ASSIGNORS = (*CLIENT.values(), *SERVER.values())
CLIENTS = {"java": "Java client", "librdkafka": "librdkafka client"}


def client_assignors(client: str = "java") -> tuple[Assignor, ...]:
    """``ASSIGNORS`` as a group of ``client`` consumers runs them: the leader's client-side strategies
    (librdkafka offers range, roundrobin and cooperative-sticky, no eager sticky) and the broker's
    KIP-848 assignors (the same for every client: the group coordinator computes them).

    >>> [a.title for a in client_assignors("librdkafka")][:3]
    ['Range (librdkafka)', 'Round-robin (librdkafka)', 'Cooperative sticky (librdkafka)']
    >>> [a.label for a in client_assignors("librdkafka")][3:]
    ['uniform (KIP-848)', 'range (KIP-848)']
    """
    if client not in CLIENTS:
        raise EngineError(f"client: must be one of {', '.join(CLIENTS)}, got {client!r}")
    if client == "java":
        return ASSIGNORS
    offered = [Assignor("classic", name, client) for name in CLIENT if name in LIBRDKAFKA_STRATEGIES]
    return (*offered, *SERVER.values())


def not_offered(client: str) -> list[str]:
    """Java's client strategies that ``client`` does not implement (``["sticky"]`` for librdkafka)."""
    return [] if client == "java" else [name for name in CLIENT if name not in LIBRDKAFKA_STRATEGIES]


@dataclass(frozen=True)
class StepOutcome:
    """One step under one assignor; ``rounds`` is None for KIP-848 (no JoinGroup rounds)."""

    assignment: Assignment
    moved: int
    moved_from_remaining: int
    revoked: Assignment
    rounds: int | None = None
    converged: bool = True


def outcomes(scenario: Scenario, assignor: Assignor) -> list[StepOutcome]:
    """Every step of ``scenario`` under ``assignor`` (server assignors may raise ``ASSIGNMENT_ERRORS``)."""
    if assignor.group_protocol == "classic" and assignor.client == "librdkafka":
        return _librdkafka_outcomes(scenario, assignor.name)
    if assignor.group_protocol == "classic":
        steps = replay(scenario, assignor.name).steps
        before = [{m: list(tps) for m, tps in scenario.current_assignment.items()}] + [s.assignment for s in steps]
        return [StepOutcome(s.assignment, s.moved, s.moved_from_remaining,
                            revocations(before[i], s), s.rounds, s.converged)
                for i, s in enumerate(steps)]
    return [StepOutcome(s.assignment, s.moved, s.moved_from_remaining,
                        revoked(s.current_assignment, s.assignment))
            for s in server_assign(scenario, assignor.name).steps]


def _librdkafka_outcomes(scenario: Scenario, strategy: str) -> list[StepOutcome]:
    """librdkafka's replay (``engine.consumer.librdkafka``); raises ``LibrdkafkaFailure`` where the real
    client crashes."""
    steps = replay_librdkafka(scenario, strategy)
    before: list[Assignment] = [{}] + [s.assignment for s in steps]
    return [StepOutcome(s.assignment, s.moved, s.moved_from_remaining, revocations(before[i], s), s.rounds,
                        s.converged) for i, s in enumerate(steps)]


def revoked_count(outcome: StepOutcome) -> int:
    return sum(len(tps) for tps in outcome.revoked.values())


def revoked_partitions(outcome: StepOutcome, assignor: Assignor) -> list[TopicPartition] | None:
    """What the animation sends to the pool; ``None`` for eager (everything the remaining members own)."""
    return None if assignor.rebalance == "eager" else partitions(outcome.revoked)


def step_pause(assignor: Assignor, before: AssignmentView, outcome: StepOutcome, timings: ProtocolTimings,
               crashed: tuple[str, ...]) -> PauseReport:
    """The pause model of the rebalance that ends in ``outcome`` (``engine.consumer.pause``)."""
    return pause_report(assignor.rebalance, before, outcome.assignment, timings, crashed, outcome.rounds or 1)


def _fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def balance_row(assignor: Assignor, metrics: BalanceMetrics, outcome: StepOutcome) -> dict[str, Any]:
    """A row of the Assignments page's balance table."""
    return {
        "strategy": assignor.label,
        "group.protocol": assignor.group_protocol,
        "min partitions": metrics.min_partitions,
        "max partitions": metrics.max_partitions,
        "spread": metrics.spread,
        "idle consumers": len(metrics.idle_members),
        "max load / mean": _fmt(metrics.max_load_over_mean),
        "cross-rack share": "-" if metrics.cross_rack_share is None else f"{metrics.cross_rack_share:.0%}",
        "moved (this step)": outcome.moved,
        "converged": outcome.converged,
    }


def rebalance_row(assignor: Assignor, outcome: StepOutcome, pause: PauseReport) -> dict[str, Any]:
    """A row of the Rebalance page's table."""
    return {
        "strategy": assignor.label,
        "protocol": assignor.protocol_label,
        "moved": outcome.moved,
        "moved from remaining": outcome.moved_from_remaining,
        "partitions revoked": revoked_count(outcome),
        "rounds": outcome.rounds,
        "converged": outcome.converged,
        "partition-seconds unavailable": round(pause.partition_seconds, 3),
        "partition-seconds (bound)": round(pause.partition_seconds_bound, 3),
        "consumer-seconds stopped": round(pause.stopped_consumer_seconds, 3),
    }
