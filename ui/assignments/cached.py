"""The cached results and figures of the assignment pages (Assignments, Rebalance, Group Protocol, Compare):
metrics, grids and bars, the rebalance animation and pauses, the other client's difference, the protocol
walkthrough and rolling restarts, a share group's partition view, a streams group's steps (any scenario as one) and
its figures.  Outcomes come from ``ui.scenario.cached``;
figures are ``frozen`` (``ui.frame.figures``): an identical figure keeps a running animation from restarting on
a rerun."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from engine.charts.animation import play_controls
from engine.charts.assignment import assignment_grid, consumer_rows, load_bars, topic_owner_figure
from engine.charts.rebalance import Panel, pause_timeline_figure, rebalance_animations
from engine.charts.sample import sample_travel
from engine.charts.text import plain_all
from engine.comparison import ASSIGNMENT_ERRORS, CLIENT, SERVER, Assignor, revoked_partitions, step_pause
from engine.consumer.librdkafka import LibrdkafkaFailure
from engine.consumer.librdkafka.teaching import client_note
from engine.consumer.member_ids import short_labels
from engine.consumer.membership import RollingRestartConfig
from engine.consumer.metrics import BalanceMetrics, balance_metrics
from engine.consumer.pause import PauseReport, ProtocolTimings
from engine.coordinator.streams.scenario import StreamsStep, as_streams_group, estimate_streams_scenario, streams_steps
from engine.cost import estimate_protocol_timeline, estimate_rolling_restart
from engine.errors import EngineError
from engine.side_by_side import owner_differences
from ui.frame.figures import frozen
from ui.frame.state import ScenarioRef
from ui.runtime import worker
from ui.runtime.memo import cached_call, memo
from ui.runtime.offload import run
from ui.scenario.cached import outcomes_of, scenario_of, share_result_of, streams_steps_of


@memo()
def client_crash_of(ref: ScenarioRef, assignor: Assignor) -> str | None:
    """Where the real client itself would crash on the scenario (``LibrdkafkaFailure``), else None (a limit
    or another refusal is not a crash)."""
    try:
        outcomes_of(ref, assignor)
    except LibrdkafkaFailure as exc:
        return str(exc)
    except ASSIGNMENT_ERRORS:
        return None
    return None


@memo()
def client_difference(ref: ScenarioRef, shown: Assignor, other: Assignor, step: int) -> tuple[int, str | None]:
    """How many partitions ``shown`` and ``other`` (the same strategy in the other client) own differently at
    ``step``, and the engine's teaching note about it (``client_note``, English) or None.  Both assignors'
    outcomes must be computed (not an error)."""
    a, b = outcomes_of(ref, shown)[step].assignment, outcomes_of(ref, other)[step].assignment
    return len(owner_differences(a, b)), client_note(shown.name, shown.client, a, b)


@memo()
def metrics_of(ref: ScenarioRef, assignor: Assignor, step: int) -> BalanceMetrics:
    scenario = scenario_of(ref)
    assignment = outcomes_of(ref, assignor)[step].assignment
    return balance_metrics(assignment, scenario.steps[step], scenario.weights)


@memo()
def grid_figure(ref: ScenarioRef, assignor: Assignor, step: int, title: str = "", short: bool = False) -> go.Figure:
    state, assignment = scenario_of(ref).steps[step], outcomes_of(ref, assignor)[step].assignment
    labels = short_labels(state.member_ids) if short else None
    return frozen(assignment_grid(assignment, state.topics, state.member_ids, title, labels))


@memo()
def bars_figure(ref: ScenarioRef, assignor: Assignor, step: int, short: bool = False) -> go.Figure:
    m = metrics_of(ref, assignor, step)
    labels = short_labels(list(m.partitions_per_member)) if short else None
    return frozen(load_bars(m.partitions_per_member, m.load_per_member, labels=labels))


@memo()
def topic_figure(ref: ScenarioRef, assignor: Assignor, step: int, topic: str) -> go.Figure:
    """Drill-down of an aggregated grid: who owns each partition of one topic."""
    state, assignment = scenario_of(ref).steps[step], outcomes_of(ref, assignor)[step].assignment
    return frozen(topic_owner_figure(assignment, topic, state.topics.get(topic, 0), state.member_ids))


@memo(copy=True)
def member_table(ref: ScenarioRef, assignor: Assignor, step: int) -> pd.DataFrame:
    """One row per consumer (partitions, topics, load, first partitions): the searchable table of big groups."""
    assignment, m = outcomes_of(ref, assignor)[step].assignment, metrics_of(ref, assignor, step)
    return consumer_rows(assignment, scenario_of(ref).steps[step].member_ids, m.load_per_member)


@memo()
def animations_figure(ref: ScenarioRef, assignors: tuple[Assignor, ...], step: int, frame_ms: int) -> go.Figure:
    """Every chosen strategy's rebalance from ``step - 1`` to ``step`` in one figure with one Play."""
    scenario, panels, note = scenario_of(ref), [], ""
    order = list(dict.fromkeys([*scenario.steps[step - 1].member_ids, *scenario.steps[step].member_ids]))
    for assignor in assignors:
        steps = outcomes_of(ref, assignor)
        sample = sample_travel(steps[step - 1].assignment, steps[step].assignment,
                               revoked_partitions(steps[step], assignor))
        panels.append(Panel(f"{assignor.title} ({assignor.rebalance})", sample.before, sample.after, order,
                            sample.revoked))
        note = note or sample.title
    return frozen(rebalance_animations(panels, frame_ms, note))


@memo()
def pause_of(ref: ScenarioRef, assignor: Assignor, step: int, timings: ProtocolTimings,
             crashed: tuple[str, ...]) -> PauseReport:
    steps = outcomes_of(ref, assignor)
    return step_pause(assignor, steps[step - 1].assignment, steps[step], timings, crashed)


PAUSE_FIGURE = {"eager (sticky)": CLIENT["sticky"],
                "cooperative (cooperative-sticky)": CLIENT["cooperative-sticky"],
                "consumer KIP-848 (uniform)": SERVER["uniform"]}


@memo()
def pause_figure(ref: ScenarioRef, step: int, timings: ProtocolTimings,
                 crashed: tuple[str, ...]) -> go.Figure:
    """Eager, cooperative and KIP-848 pauses of one step (an assignor refusing the scenario is left out)."""
    reports = {}
    for label, assignor in PAUSE_FIGURE.items():
        try:
            reports[label] = pause_of(ref, assignor, step, timings, crashed)
        except ASSIGNMENT_ERRORS:
            pass  # the page reports the server assignor's error in its table
    return frozen(pause_timeline_figure(reports))


def first_assignment(ref: ScenarioRef, strategy: str) -> dict[str, list[str]]:
    """The assignment a new group gets (step 0), as ``"t0-2"`` strings for the walkthrough's text."""
    scenario = scenario_of(ref)
    return run(("first_assignment", ref.key, strategy), worker.first_assignment, (scenario.first, strategy),
               estimate_protocol_timeline(scenario))


def rolling_restarts(ref: ScenarioRef, config: RollingRestartConfig, strategies: tuple[str, ...]) -> tuple:
    """The comparison rows and the timelines, from one replay per strategy and membership kind."""
    scenario = scenario_of(ref)
    return run(("rolling_restarts", ref.key, config, strategies), worker.rolling_restarts,
               (scenario.first, config, strategies), estimate_rolling_restart(scenario, strategies))


@memo()
def side_ref(ref: ScenarioRef, partitions: int) -> ScenarioRef:
    """The scenario one side of the Compare page runs on (``engine.side_by_side.scenario_for``)."""
    from engine.side_by_side import Choice, scenario_for

    return ScenarioRef.of(scenario_for(scenario_of(ref), Choice(CLIENT["range"], partitions)))


@memo()
def share_view_of(ref: ScenarioRef, step: int) -> Any:
    """Who reads each subscribed partition at ``step`` (a ``SharePartitionView``)."""
    from engine.coordinator.share_assignment import partition_view

    state = scenario_of(ref).steps[step]
    return partition_view(share_result_of(ref).steps[step], state.topics, {m.id: m.topics for m in state.members})


@memo()
def share_figures(ref: ScenarioRef, step: int, title: str) -> tuple[go.Figure, go.Figure]:
    """The share group's consumer x partition grid and its members-per-partition bars."""
    from engine.charts.share import members_per_partition

    state, result = scenario_of(ref).steps[step], share_result_of(ref).steps[step]
    grid = assignment_grid(result.assignment, state.topics, state.member_ids, title)
    return frozen(grid), frozen(members_per_partition(share_view_of(ref, step).members_of))


@memo()
def share_change_figure(ref: ScenarioRef, step: int) -> go.Figure:
    """Members per partition at ``step - 1`` and ``step``, animated."""
    from engine.charts.share import members_change_animation

    return frozen(members_change_animation(share_view_of(ref, step - 1).members_of,
                                           share_view_of(ref, step).members_of))


def streams_steps_for(ref: ScenarioRef) -> list[StreamsStep] | str:
    """The scenario of ``ref`` as a streams group (``as_streams_group``: its own steps when it is one,
    ``streams_steps_of``), every step, by the estimate (inline, in a worker, or refused: a str, one line)."""
    scenario = scenario_of(ref)
    if scenario.group_type == "streams":
        return streams_steps_of(ref)
    try:
        group = cached_call(("as streams", ref.key), lambda: as_streams_group(scenario))
        return run(("streams", ref.key), streams_steps, (group,), estimate_streams_scenario(group))
    except EngineError as exc:
        return str(exc)


@dataclass(frozen=True)
class StreamsChartText:
    """A streams figure's words, in the session's language (part of the cache key: one figure per language)."""

    title: str
    instance: str
    tasks: str
    active: str
    standby: str
    threads: str
    step: str  # "step {n}"


ACTIVE_COLOUR, STANDBY_COLOUR = "#1f77b4", "#9ecae1"


def _instance_bars(step: StreamsStep, order: list[str], text: StreamsChartText) -> list[go.Bar]:
    loads = {p.process_id: p for p in step.processes}
    threads = [loads[p].threads if p in loads else 0 for p in order]
    return [go.Bar(x=plain_all(order), y=[getattr(loads[p], kind) if p in loads else 0 for p in order], name=name,
                   marker_color=colour, customdata=threads,
                   hovertemplate=f"%{{x}}: %{{y}} {name}<br>{text.threads}: %{{customdata}}<extra></extra>")
            for kind, name, colour in (("active", text.active, ACTIVE_COLOUR),
                                       ("standby", text.standby, STANDBY_COLOUR))]


def _streams_layout(fig: go.Figure, text: StreamsChartText, instances: int, top: int) -> go.Figure:
    fig.update_layout(barmode="stack", height=380, title=text.title, legend=dict(orientation="h", y=1.12),
                      margin=dict(l=10, r=10, t=70, b=10),
                      xaxis=dict(title=text.instance, type="category", showticklabels=instances <= 60),
                      yaxis=dict(title=text.tasks, range=[0, top * 1.05 + 0.5]))
    return fig


def _computed(ref: ScenarioRef) -> list[StreamsStep]:
    """``streams_steps_for``'s steps; its refusal raised (a page draws a figure only after the steps came)."""
    steps = streams_steps_for(ref)
    if isinstance(steps, str):
        raise EngineError(steps)
    return steps


@memo()
def streams_load_figure(ref: ScenarioRef, step: int, text: StreamsChartText) -> go.Figure:
    """Active and standby tasks per application instance at ``step`` (one bar pair per instance, however many
    threads and tasks)."""
    shown = _computed(ref)[step]
    order = [p.process_id for p in shown.processes]
    top = max((p.active + p.standby for p in shown.processes), default=0)
    return frozen(_streams_layout(go.Figure(_instance_bars(shown, order, text)), text, len(order), top))


@memo()
def streams_animation_figure(ref: ScenarioRef, step: int,
                             text: StreamsChartText) -> go.Figure:
    """Active and standby tasks per application instance, one frame per step (data only: the layout is shared),
    opened on ``step``."""
    steps = _computed(ref)
    order = list(dict.fromkeys(p.process_id for s in steps for p in s.processes))
    top = max((p.active + p.standby for s in steps for p in s.processes), default=0)
    frames = [go.Frame(data=_instance_bars(s, order, text), name=str(s.index)) for s in steps]
    fig = go.Figure(data=_instance_bars(steps[step], order, text), frames=frames)
    controls = play_controls([text.step.format(n=s.index) for s in steps], duration_ms=1200)
    controls["sliders"][0]["active"] = step
    fig.update_layout(**controls)
    return frozen(_streams_layout(fig, text, len(order), top))
