"""Inside a partition, cached: the producer's batches and transactions (Producer), a partition's log with its
cleanings (Partition Log), replica placement (Replicas).  A page's input is the CLI's JSON document as text
(hashed as a string); engine modules are imported on first use.  Work a document can start goes through the
cost model (inline, a worker or one line).  Figures are drawn for what a person can see: the compaction's
thousands of records as WebGL markers (``webgl``)."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from engine.cost import Estimate, estimate_partition_log, estimate_replicas
from engine.cost.computations import replica_scan
from engine.server.replicas import Broker, ReplicaPlacement
from ui.frame.figures import frozen
from ui.runtime import worker
from ui.runtime.memo import memo
from ui.runtime.offload import run


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
    inline, in a worker or refused by its estimate (``ui.runtime.offload.run``)."""
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


WEBGL_POINTS = 1_000  # compaction markers drawn as SVG up to this many; more: the same markers in WebGL


@memo()
def compaction_figure(document: str) -> go.Figure:
    """The first cleaning's records at (offset, key), as ``engine.charts.log.compaction_scatter`` draws them
    (kept, removed, tombstones); above ``WEBGL_POINTS`` records the same markers as WebGL points
    (``go.Scattergl``: thousands of SVG markers are slow to draw in a browser)."""
    from engine.charts.log import compaction_scatter

    _, compactions = log_result(document)
    return frozen(webgl(compaction_scatter(compactions[0]["before"], compactions[0]["kept"])))


def webgl(fig: go.Figure, most: int = WEBGL_POINTS) -> go.Figure:
    """``fig`` with its scatter traces as ``go.Scattergl`` (the same points, markers and names) when they hold
    more than ``most`` points; else ``fig`` itself.

    >>> small = go.Figure(go.Scatter(x=[1, 2], y=[3, 4], mode="markers", name="kept"))
    >>> webgl(small) is small, [t.type for t in webgl(small, most=1).data], webgl(small, most=1).data[0].y
    (True, ['scattergl'], (3, 4))
    """
    if sum(len(trace.x or ()) for trace in fig.data) <= most:
        return fig
    traces = [go.Scattergl({k: v for k, v in trace.to_plotly_json().items() if k != "type"}) for trace in fig.data]
    return go.Figure(traces, layout=fig.layout)


def replica_placement(brokers: tuple[Broker, ...], partitions: int, rf: int, start: int, seed: int) -> ReplicaPlacement:
    """``AdminUtils.assignReplicasToBrokers`` for the Replicas page: inline, in a worker or refused by its
    estimate (``ui.runtime.offload.run``)."""
    estimate = estimate_replicas(partitions, rf, replica_scan([b.rack for b in brokers]))
    return run(("replicas", brokers, partitions, rf, start, seed), worker.replica_placement,
               (list(brokers), partitions, rf, start, seed), estimate)


def striped_placement(brokers: tuple[Broker, ...], partitions: int, rf: int, seed: int) -> Any:
    """A KRaft controller creating the topic (``StripedReplicaPlacer`` with ``new Random(seed)``, the controller's
    checks) for the Replicas page: inline, in a worker or refused by its estimate (``ui.runtime.offload.run``)."""
    from engine.cost import estimate_striped
    from engine.metadata.placement.striped import UsableBroker, create_topic, racks_walked

    usable = [UsableBroker(b.id, b.rack) for b in brokers]
    return run(("replicas", "striped", brokers, partitions, rf, seed), create_topic, (usable, partitions, rf, seed),
               estimate_striped(partitions, rf, racks_walked(usable, rf)))
