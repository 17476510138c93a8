"""A share partition's cached work (KIP-932): the delivery timeline and its animation (Share Delivery), and the
consumer-group-or-share-group comparison (Sizing)."""

from __future__ import annotations

import plotly.graph_objects as go

from engine.charts.share_delivery import delivery_animation
from engine.cost.share_consumers import estimate_share_capacity, estimate_share_consumers
from engine.share.capacity import CapacityComparison, CapacityInputs, compare
from engine.share.consumers import Workload
from engine.share.timeline import Timeline, build_timeline
from ui.frame.figures import frozen
from ui.runtime.memo import memo
from ui.runtime.offload import run


def share_timeline(workload: Workload) -> Timeline:
    """Share consumers over one share partition, the frames of its timeline and the summary: inline, in a worker
    or refused by its estimate (``ui.runtime.offload.run``)."""
    return run(("share_timeline", workload), build_timeline, (workload,), estimate_share_consumers(workload))


@memo()
def share_delivery_figure(workload: Workload) -> go.Figure:
    return frozen(delivery_animation(share_timeline(workload)))


def share_capacity(inputs: CapacityInputs) -> CapacityComparison:
    """Consumer group or share group for a throughput target, the share group measured on ``SharePartition``:
    inline, in a worker or refused by its estimate (``ui.runtime.offload.run``)."""
    return run(("share_capacity", inputs), compare, (inputs,), estimate_share_capacity(inputs))
