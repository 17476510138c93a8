"""Estimates of the assignments a scenario can start: a client's classic replay, the KIP-848 server
assignors, everything the Assignments and Rebalance pages compare, rolling restarts, the protocol timeline.

>>> from engine.scenario import parse_scenario
>>> s = parse_scenario({"topics": {"t0": 1000}, "members": [{"id": f"c{i}", "topics": ["t0"]} for i in range(10)]})
>>> e = estimate_assignment(s, "range")
>>> e.seconds < 1.0, e.drivers
(True, '1,000 partitions x 10 members (range), 1 step')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.cost.computations import ShareStepShape, estimate_protocol_walkthrough, estimate_share_assignment
from engine.cost.constants import MODELS
from engine.cost.model import Estimate, evaluate
from engine.cost.shape import describe, scenario_features
from engine.cost.share import ShareMember, ShareStep, given_counts
from engine.cost.share import share_step_shapes as follow_share_steps
from engine.cost.terms import SERVER_ASSIGNORS, assignment_model, client_strategies, cooperative, server_model

if TYPE_CHECKING:  # attributes only: the estimates of other commands never import the scenario model
    from engine.scenario import Scenario

COOPERATIVE_ROUNDS = 2  # a step that revokes partitions runs a second JoinGroup round
RESTART_STEPS_PER_MEMBER = 2  # a dynamic member's leave and join (a static one's expire and join at most)


def join_rounds(strategy: str, client: str = "java") -> int:
    """JoinGroup rounds of a step that revokes partitions: ``COOPERATIVE_ROUNDS`` for a cooperative strategy, else
    one; a strategy the model does not cost is an ``EngineError`` naming it."""
    assignment_model(strategy, client)
    return COOPERATIVE_ROUNDS if cooperative(strategy, client) else 1


def assignment_features(scenario: Scenario, strategy: str, client: str = "java") -> tuple[str, dict[str, float]]:
    """The model (``assign.<client>.<strategy>``; a strategy it does not cost is an ``EngineError``) and the
    scenario's features, follow-up rounds counted for a cooperative strategy."""
    return assignment_model(strategy, client), scenario_features(scenario, join_rounds(strategy, client))


def server_features(scenario: Scenario) -> dict[str, float]:
    return scenario_features(scenario)


def estimate_assignment(scenario: Scenario, strategy: str, client: str = "java") -> Estimate:
    """The classic-protocol replay of every step with ``client``'s ``strategy``."""
    model, features = assignment_features(scenario, strategy, client)
    label = strategy if client == "java" else f"librdkafka {strategy}"
    return evaluate(MODELS[model], features, describe(scenario, label))


def cli_io_features(scenario: Scenario, strategy: str) -> dict[str, float]:
    """What ``assign`` reads and writes around the replay: the members' subscriptions decoded and
    validated, and every step's assignment written as JSON (twice for a cooperative strategy, whose answer
    also holds the first round's assignment)."""
    features = scenario_features(scenario)
    copies = 2 if cooperative(strategy) else 1
    return {"subscriptions": features["subscriptions"], "output_partitions": copies * features["partitions"]}


def estimate_cli_io(scenario: Scenario, strategy: str) -> Estimate:
    """``python -m engine assign``'s JSON in and out (``cli_io_features``), beside the replay's estimate."""
    return evaluate(MODELS["cli_io"], cli_io_features(scenario, strategy), describe(scenario, f"{strategy}, JSON"))


def estimate_assign_command(scenario: Scenario, strategy: str, client: str = "java") -> Estimate:
    """``python -m engine assign``: the replay, and its JSON in and out built while the replay's results are held
    (``Estimate.holding``)."""
    return estimate_assignment(scenario, strategy, client).holding(estimate_cli_io(scenario, strategy))


def estimate_server_assignment(scenario: Scenario, assignor: str) -> Estimate:
    """A KIP-848 server assignor (``uniform``, ``range``) over every step."""
    return evaluate(MODELS[server_model(assignor)], server_features(scenario),
                    describe(scenario, f"{assignor} (KIP-848)"))


def estimate_server_assign_command(scenario: Scenario, assignor: str) -> Estimate:
    """``python -m engine server-assign``: the assignor over every step and the command's JSON in and out."""
    return estimate_server_assignment(scenario, assignor).holding(estimate_cli_io(scenario, assignor))


def estimate_comparison(scenario: Scenario, client: str = "java") -> Estimate:
    """Every assignor the Assignments and Rebalance pages show for ``client``: its classic strategies and
    the two KIP-848 assignors, each over every step (and a share group's ``simple``)."""
    total = Estimate(0.0, 0, "")
    strategies = client_strategies(client)
    for strategy in strategies:
        total += estimate_assignment(scenario, strategy, client)
    for assignor in SERVER_ASSIGNORS:
        total += estimate_server_assignment(scenario, assignor)
    share = scenario.group_type == "share"  # the pages show the share group's own assignment (simple) first
    if share:
        total += estimate_share_scenario(scenario)
    return replace(total, drivers=describe(scenario, f"{len(strategies) + len(SERVER_ASSIGNORS) + share} assignors"))


def share_step_shapes(scenario: Scenario) -> list[ShareStepShape]:
    """The scenario as share-assign steps (``engine.coordinator.share_assignment.scenario_to_share_case``): an
    imported group's first step holds its current assignment, every later step what the previous one answered
    (``engine.cost.share.share_step_shapes`` follows it)."""
    imported = bool(scenario.current_assignment)
    given = {m: given_counts((tp.topic, tp.partition) for tp in tps) for m, tps in scenario.current_assignment.items()}
    return follow_share_steps(
        ShareStep(state.topics, [ShareMember(m.id, m.topics, given.get(m.id, {}) if imported and i == 0 else None)
                                 for m in state.members])
        for i, state in enumerate(scenario.steps))


def estimate_share_scenario(scenario: Scenario) -> Estimate:
    """The scenario's members as a share group (KIP-932's ``SimpleAssignor``) over every step."""
    return estimate_share_assignment(share_step_shapes(scenario))


def rolling_restart_features(scenario: Scenario, strategies: Sequence[str]) -> dict[str, float]:
    """For each strategy and membership kind (dynamic, static), a replay of ``1 + 2 x members`` steps
    (``replays``: partitions x steps, cooperative rounds counted) and a pause report per rebalance, each
    comparing every member's partitions (``pauses``: members² x partitions)."""
    state = scenario.first
    members, partitions = len(state.members), state.total_partitions
    steps = 1 + RESTART_STEPS_PER_MEMBER * members
    rounds = sum(join_rounds(s) for s in strategies)
    return {"replays": 2.0 * rounds * steps * partitions,
            "pauses": 2.0 * len(strategies) * members * members * partitions}


def estimate_rolling_restart(scenario: Scenario, strategies: Sequence[str]) -> Estimate:
    """A rolling restart of the first step's members, dynamic and static, for each strategy."""
    state = scenario.first
    return evaluate(MODELS["rolling_restart"], rolling_restart_features(scenario, strategies),
                    f"{len(state.members):,} members restarted one by one over {state.total_partitions:,} "
                    f"partitions ({len(strategies)} strategies x 2)")


def estimate_protocol_timeline(scenario: Scenario) -> Estimate:
    """The Group Protocol page: the first step's assignment by the elected strategy (costed as the
    dearest) and the JoinGroup/SyncGroup walkthrough of its members."""
    first = replace(scenario, steps=(scenario.first,))
    assign = max((estimate_assignment(first, s) for s in client_strategies("java")), key=lambda e: e.seconds)
    return assign + estimate_protocol_walkthrough(len(scenario.first.members))
