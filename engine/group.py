"""Replay of Kafka's classic consumer-group protocol over a sequence of rebalances.

(The implementation lands with the assignors; the public types below are the contract pages use.)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.scenario import TopicPartition

Assignment = dict[str, list[TopicPartition]]


@dataclass(frozen=True)
class StepResult:
    """What one rebalance step ends with (``moved`` counts as ../shared/vectors/README.md says)."""

    assignment: Assignment
    moved: int
    moved_from_remaining: int
    generation: int
    leader: str
    rounds: int = 1
    converged: bool = True
    first_round_assignment: Assignment | None = None
    revoked_before_join: Assignment | None = None
    revoked_first_round: Assignment | None = None


@dataclass(frozen=True)
class ReplayResult:
    strategy: str
    steps: list[StepResult] = field(default_factory=list)
