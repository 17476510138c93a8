"""Every cached engine call and figure of the dashboard, in one place.

One idiom: a scenario goes in as a ``ScenarioRef`` (``ui.state``), equal and hashed by its 64-character key
alone, never by the JSON it carries; every other argument is a small hashable value (an ``Assignor``, a step
number, frozen timings).  Every wrapper keeps its results in the server's one cache, bounded by bytes across all
sessions (``ui.memo``: least recently used out first).

Results and figures are shared: the same inputs give the very same object, read-only by convention (an
identical figure is what keeps a running animation from restarting on a rerun; ``frozen`` also spares
``st.plotly_chart`` its per-rerun ``to_dict``).  ``memo(copy=True)`` gives each call its own copy, for small
values a page may modify (key samples, tables).  Errors are not cached, and ``outcomes_or_error`` turns a
refusal into a message.

Work a scenario can start goes through the cost model first (``engine.cost``, ``ui.offload``): assignments,
the rolling restart and the protocol walkthrough run inline when small, in a worker process when large, and
are refused in one line over the dashboard's ceiling; ``prepare_comparison`` does it for a whole page at once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pyarrow as pa

from engine.charts.assignment import assignment_grid, consumer_rows, load_bars, topic_owner_figure
from engine.charts.rebalance import Panel, pause_timeline_figure, rebalance_animations
from engine.charts.sample import sample_travel
from engine.charts.share_delivery import delivery_animation
from engine.charts.timing_wheel import wheel_animation
from engine.comparison import (
    ASSIGNMENT_ERRORS,
    CLIENT,
    SERVER,
    Assignor,
    StepOutcome,
    client_assignors,
    outcomes,
    revoked_partitions,
    step_pause,
)
from engine.consumer.librdkafka import LibrdkafkaFailure
from engine.consumer.librdkafka.teaching import client_note
from engine.consumer.member_ids import short_labels
from engine.consumer.membership import RollingRestartConfig
from engine.consumer.metrics import BalanceMetrics, balance_metrics
from engine.consumer.pause import PauseReport, ProtocolTimings
from engine.coordinator.share_assignment import share_assign
from engine.cost import (
    Estimate,
    estimate_assignment,
    estimate_comparison,
    estimate_partition_log,
    estimate_placements,
    estimate_protocol_timeline,
    estimate_remap,
    estimate_replicas,
    estimate_rolling_restart,
    estimate_server_assignment,
    estimate_share_scenario,
    estimate_wheel,
    estimate_wheel_costs,
)
from engine.cost.computations import replica_scan, wheel_levels
from engine.producer import keysample, null_keys
from engine.scenario import Scenario, loads_scenario
from engine.server.replicas import Broker, ReplicaPlacement
from engine.server.timer.cost import COST_MAX_DELAY_MS, CostRow
from engine.server.timer.frames import WheelFrame
from engine.server.timer.model import TaskSpec, WheelConfig, WheelTrace
from engine.share.capacity import CapacityComparison, CapacityInputs, compare
from engine.share.consumers import Workload
from engine.share.timeline import Timeline, build_timeline
from engine.side_by_side import owner_differences
from engine.sizing import SizingInputs, cost_curves
from ui import worker
from ui.figures import frozen
from ui.memo import cached_call, memo
from ui.offload import prepare, ready, run
from ui.state import ScenarioRef

# ---------------------------------------------------------------- a scenario under every assignor


def scenario_of(ref: ScenarioRef) -> Scenario:
    """The scenario of ``ref`` (the one ``ui.state.set_scenario`` keeps, else parsed from its JSON once)."""
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
    the dashboard's ceiling is a ``LimitError`` (``ui.offload.run``: inline, a worker or refused)."""
    return run(_outcomes_key(ref, assignor), outcomes, (scenario_of(ref), assignor), estimate_of(ref, assignor))


def outcomes_ready(ref: ScenarioRef, assignor: Assignor) -> bool:
    """Whether ``outcomes_of`` would answer without a worker (kept, or inline work): what a side note may ask."""
    return ready(_outcomes_key(ref, assignor), estimate_of(ref, assignor))


def prepare_comparison(ref: ScenarioRef, client: str) -> None:
    """Before a page compares ``client``'s assignors (and a share group's ``simple``): refuse the lot in one
    line over the ceiling, or compute the missing ones in the worker while the page waits (nothing to do when
    the whole is inline work)."""
    scenario = scenario_of(ref)
    requests = [(_outcomes_key(ref, a), outcomes, (scenario, a), estimate_of(ref, a))
                for a in client_assignors(client)]
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
    """Every chosen strategy's rebalance from ``step - 1`` to ``step`` in one figure with one Play (issue 11)."""
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


# ---------------------------------------------------------------- group protocol


def replica_placement(brokers: tuple[Broker, ...], partitions: int, rf: int, start: int, seed: int) -> ReplicaPlacement:
    """``AdminUtils.assignReplicasToBrokers`` for the Replicas page: inline, in a worker or refused by its
    estimate (``ui.offload.run``)."""
    estimate = estimate_replicas(partitions, rf, replica_scan([b.rack for b in brokers]))
    return run(("replicas", brokers, partitions, rf, start, seed), worker.replica_placement,
               (list(brokers), partitions, rf, start, seed), estimate)


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


# ---------------------------------------------------------------- keys


@memo("Generating keys…", copy=True)
def generated_keys(spec: keysample.SampleSpec) -> pa.Array:
    return keysample.generate(spec)


@memo("Reading keys…", copy=True)
def pasted_keys(text: str) -> pa.Array:
    return keysample.parse_pasted(text)


@memo("Reading the upload…", copy=True)
def uploaded_keys(content: bytes, name: str, column: str | None) -> pa.Array:
    return keysample.parse_upload(content, name, column or None)


def placements(keys: pa.Array, sample_id: str, partitions: int, partitioner: str) -> np.ndarray:
    """Each key's partition (``sample_id`` names the sample in the cache): inline, in a worker or refused by
    its estimate (``ui.offload.run``); a copy, the page's own."""
    return np.array(run(("placements", sample_id, partitions, partitioner), worker.placements,
                        (keys, partitions, partitioner), estimate_placements(len(keys))))


def remap_curve_of(keys: pa.Array, sample_id: str, from_partitions: int,
                   counts: tuple[int, ...]) -> list[tuple[int, float]]:
    """The share of keys moving from ``from_partitions`` to each count: through ``ui.offload.run``."""
    return list(run(("remap", sample_id, from_partitions, counts), worker.remap, (keys, from_partitions, counts),
                    estimate_remap(len(keys), len(counts))))


@memo("Simulating the producer…", copy=True)
def null_key_runs(config: null_keys.ProducerConfig) -> dict[str, null_keys.ProducerRun]:
    return null_keys.simulate_all(config)


# ---------------------------------------------------------------- sizing and the timing wheel


@memo("Computing costs…", copy=True)
def sizing_curves(inputs: SizingInputs, counts: tuple[int, ...]) -> dict[str, list[float]]:
    return cost_curves(inputs, counts)


def wheel_run(config: WheelConfig, tasks: tuple[TaskSpec, ...]) -> tuple[WheelTrace, list[WheelFrame]]:
    """The traced run and its frames: inline, in a worker or refused by its estimate (``ui.offload.run``)."""
    levels = wheel_levels(config.tick_ms, config.wheel_size, max((t.delay_ms for t in tasks), default=0))
    return run(("wheel_run", config, tasks), worker.wheel_run, (config, tasks), estimate_wheel(len(tasks), levels))


@memo("Building the animation…")
def wheel_animation_figure(config: WheelConfig, tasks: tuple[TaskSpec, ...], first: int, window: int,
                           levels: int) -> go.Figure:
    _, frames = wheel_run(config, tasks)
    return wheel_animation(frames[first:first + window], config, levels)


def wheel_costs(count: int, tick_ms: int, wheel_size: int, order: str) -> list[CostRow]:
    """The wheel-versus-heap measurement: inline, in a worker or refused by its estimate (``ui.offload.run``)."""
    levels = wheel_levels(tick_ms, wheel_size, COST_MAX_DELAY_MS)
    return run(("wheel_costs", count, tick_ms, wheel_size, order), worker.wheel_costs,
               (count, tick_ms, wheel_size, order), estimate_wheel_costs(count, levels))


# ---------------------------------------------------------------- inside a partition (pages 9 and 10)
# The input is the CLI's JSON document as text (hashed as a string); engine modules are imported on first use.


@memo("Simulating the producer…", copy=True)
def produce_result(document: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``python -m engine produce`` on ``document``: the report and the animation frames."""
    import json

    from engine.producer import idempotence

    simulated = idempotence.simulate(idempotence.parse_spec(json.loads(document)))
    return idempotence.report(simulated), simulated.frames


@memo()
def produce_figures(document: str) -> dict[str, go.Figure]:
    from engine.charts.producer import batch_animation, log_strip, request_timeline

    result, frames = produce_result(document)
    return {"log": frozen(log_strip(result["partitions"])), "timeline": frozen(request_timeline(result)),
            "animation": frozen(batch_animation(frames, result["batches"]))}


@memo("Replaying the transactions…", copy=True)
def txn_result(document: str) -> dict[str, Any]:
    import json

    from engine.storage.txn_log import replay

    return replay(json.loads(document))


def log_result(document: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``python -m engine log`` on ``document`` (with frames) and the records before/after each cleaning:
    inline, in a worker or refused by its estimate (``ui.offload.run``)."""
    return run(("log", document), worker.partition_log, (document,), log_estimate(document))


def log_estimate(document: str) -> Estimate:
    """The estimate of a page's log document (a workload: batches x records per batch; its cleaner actions)."""
    import json

    spec = json.loads(document)
    workload = spec.get("workload", {})
    batches = int(workload.get("batches", 0))
    return estimate_partition_log(batches * int(workload.get("records_per_batch", 0)), batches,
                                  len(spec.get("actions", [])))


@memo()
def log_animation_figure(document: str) -> go.Figure:
    from engine.charts.log import segments_animation
    from engine.storage.partition_log import segment_size_property

    out, _ = log_result(document)
    name, size = segment_size_property(out["config"])
    return frozen(segments_animation(out["frames"], size, name))


@memo(size=lambda starter: 0)  # one object per process, holding a JVM's handle: not data
def spark_starter() -> Any:
    """The one ``SessionStarter`` of this process (starts the dashboard's SparkSession in a thread)."""
    from engine.spark.session import SessionOptions, SessionStarter

    return SessionStarter(SessionOptions())


@memo()
def side_ref(ref: ScenarioRef, partitions: int) -> ScenarioRef:
    """The scenario one side of the Compare page runs on (``engine.side_by_side.scenario_for``)."""
    from engine.comparison import CLIENT
    from engine.side_by_side import Choice, scenario_for

    return ScenarioRef.of(scenario_for(scenario_of(ref), Choice(CLIENT["range"], partitions)))


# ------------------------------------------------------------------- share delivery (KIP-932)


@memo()
def share_timeline(workload: Workload) -> Timeline:
    """Share consumers over one share partition, the frames of its timeline and the summary."""
    return build_timeline(workload)


@memo()
def share_delivery_figure(workload: Workload) -> go.Figure:
    return frozen(delivery_animation(share_timeline(workload)))


@memo()
def share_capacity(inputs: CapacityInputs) -> CapacityComparison:
    """Consumer group or share group for a throughput target, the share group measured on ``SharePartition``."""
    return compare(inputs)
# ---------------------------------------------------------------- share groups (KIP-932)


@memo()
def share_estimate_of(ref: ScenarioRef) -> Estimate:
    """What ``share_result_of`` will cost (``engine.cost``), before any of it runs."""
    return estimate_share_scenario(scenario_of(ref))


def share_result_of(ref: ScenarioRef) -> Any:
    """The scenario as a share group (``engine.coordinator.share_assignment``) by its estimate (inline, in a
    worker, or refused: ``ui.offload.run``): a ``ShareAssignResult``, or the one-line reason it is refused (a
    str)."""
    from engine.errors import EngineError

    try:
        return run(("share", ref.key), share_assign, (scenario_of(ref),), share_estimate_of(ref))
    except EngineError as exc:
        return str(exc)


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


def striped_placement(brokers: tuple[Broker, ...], partitions: int, rf: int, seed: int) -> Any:
    """A KRaft controller creating the topic (``StripedReplicaPlacer`` with ``new Random(seed)``, the controller's
    checks) for the Replicas page: inline, in a worker or refused by its estimate (``ui.offload.run``)."""
    from engine.metadata.placement.striped import UsableBroker, create_topic
    from engine.server.replicas import estimate_striped

    usable = [UsableBroker(b.id, b.rack) for b in brokers]
    return run(("replicas", "striped", brokers, partitions, rf, seed), create_topic, (usable, partitions, rf, seed),
               estimate_striped(usable, partitions, rf))
