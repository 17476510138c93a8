"""The scenario under every assignor, cached: the results every scenario page starts from.

One idiom for every feature's cache wrappers (``ui.<feature>.cached``): a scenario goes in as a
``ScenarioRef`` (``ui.frame.state``), equal and hashed by its 64-character key alone, never by the JSON it
carries; every other argument is a small hashable value (an ``Assignor``, a step number, frozen timings).
Results live in the server's one cache, bounded by bytes across all sessions (``ui.runtime.memo``: least
recently used out first), and are shared: the same inputs give the very same object, read-only by convention.
``memo(copy=True)`` gives each call its own copy, for small values a page may modify.  Errors are not cached.

Work a scenario can start goes through the cost model first (``engine.cost``, ``ui.runtime.offload``):
assignments run inline when small, in a worker process when large, and are refused in one line over the
dashboard's ceiling; ``prepare_comparison`` does it for a whole page at once, a share group's own assignment
(``share_result_of``) included.  A streams group's steps (``streams_steps_of``) go the same way, by their estimate.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from engine.comparison import ASSIGNMENT_ERRORS, Assignor, StepOutcome, client_assignors, outcomes
from engine.coordinator.share_assignment import share_assign
from engine.coordinator.streams.scenario import StreamsStep, estimate_streams_scenario, streams_steps
from engine.cost import (
    Estimate,
    estimate_assignment,
    estimate_comparison,
    estimate_server_assignment,
    estimate_share_scenario,
)
from engine.errors import EngineError
from engine.scenario import Scenario, loads_scenario
from ui.frame.state import ScenarioRef
from ui.runtime.memo import cached_call, memo
from ui.runtime.offload import prepare, ready, run


def scenario_of(ref: ScenarioRef) -> Scenario:
    """The scenario of ``ref`` (the one ``ui.frame.state.set_scenario`` keeps, else parsed from its JSON once)."""
    return cached_call(("scenario", ref.key), lambda: loads_scenario(ref.json))


@memo()
def estimate_of(ref: ScenarioRef, assignor: Assignor) -> Estimate:
    """What ``outcomes_of`` will cost (``engine.cost``), before any of it runs."""
    scenario = scenario_of(ref)
    if assignor.group_protocol == "classic":
        return estimate_assignment(scenario, assignor.name, assignor.client)
    return estimate_server_assignment(scenario, assignor.name)


@memo()
def comparison_estimate(ref: ScenarioRef, client: str) -> Estimate:
    """Everything Assignments and Rebalance compute for ``client`` (its strategies and the KIP-848 pair)."""
    return estimate_comparison(scenario_of(ref), client)


def _outcomes_key(ref: ScenarioRef, assignor: Assignor) -> tuple[str, str, Assignor]:
    return ("outcomes", ref.key, assignor)


def outcomes_of(ref: ScenarioRef, assignor: Assignor) -> list[StepOutcome]:
    """Every step under one assignor; a KIP-848 assignor may raise (``ASSIGNMENT_ERRORS``), and work over
    the dashboard's ceiling is a ``LimitError`` (``ui.runtime.offload.run``: inline, a worker or refused)."""
    return run(_outcomes_key(ref, assignor), outcomes, (scenario_of(ref), assignor), estimate_of(ref, assignor))


def outcomes_ready(ref: ScenarioRef, assignor: Assignor) -> bool:
    """Whether ``outcomes_of`` would answer without a worker (kept, or inline work): what a side note may ask."""
    return ready(_outcomes_key(ref, assignor), estimate_of(ref, assignor))


def prepare_comparison(ref: ScenarioRef, client: str) -> None:
    """Before a page compares ``client``'s assignors (and a share group's ``simple``): refuse the lot in one
    line over the ceiling, or compute the missing ones in the worker while the page waits (nothing to do when
    the whole is inline work)."""
    scenario = scenario_of(ref)
    requests: list[tuple[Hashable, Callable[..., Any], tuple[Any, ...], Estimate]] = [
        (_outcomes_key(ref, a), outcomes, (scenario, a), estimate_of(ref, a)) for a in client_assignors(client)]
    if scenario.group_type == "share":  # the share group's own assignment is part of the page (and its estimate)
        requests.append((("share", ref.key), share_assign, (scenario,), share_estimate_of(ref)))
    prepare(requests, comparison_estimate(ref, client), comparison_estimate(ref, client).drivers)


def outcomes_or_error(ref: ScenarioRef, assignor: Assignor) -> list[StepOutcome] | str:
    """``outcomes_of``, or the one-line reason the assignor refuses the scenario."""
    try:
        return outcomes_of(ref, assignor)
    except ASSIGNMENT_ERRORS as exc:
        return str(exc)


@memo()
def share_estimate_of(ref: ScenarioRef) -> Estimate:
    """What ``share_result_of`` will cost (``engine.cost``), before any of it runs."""
    return estimate_share_scenario(scenario_of(ref))


def share_result_of(ref: ScenarioRef) -> Any:
    """The scenario as a share group (``engine.coordinator.share_assignment``) by its estimate (inline, in a
    worker, or refused: ``ui.runtime.offload.run``): a ``ShareAssignResult``, or the one-line reason it is
    refused (a str)."""
    try:
        return run(("share", ref.key), share_assign, (scenario_of(ref),), share_estimate_of(ref))
    except EngineError as exc:
        return str(exc)


@memo()
def streams_estimate_of(ref: ScenarioRef) -> Estimate:
    """What ``streams_steps_of`` will cost (``engine.cost.streams``, every step), before any of it runs."""
    return estimate_streams_scenario(scenario_of(ref))


def streams_steps_of(ref: ScenarioRef) -> list[StreamsStep] | str:
    """A streams group's steps (``engine.coordinator.streams.scenario``) by their estimate (inline, in a worker,
    or refused: ``ui.runtime.offload.run``), or the one-line reason they are refused (a str)."""
    try:
        return run(("streams", ref.key), streams_steps, (scenario_of(ref),), streams_estimate_of(ref))
    except EngineError as exc:
        return str(exc)
