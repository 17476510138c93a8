"""The Timing Wheel page's cached work: the traced run and its frames, the animation, the wheel-versus-heap
measurement; each through the cost model (inline, a worker or one line).

The animation is built once per run and window and frozen (``ui.frame.figures``): its JSON (0.7 MB for the
default preset's 120 frames) is made once, not on every rerun, and its Chinese and presenter variants once for
the whole server."""

from __future__ import annotations

import plotly.graph_objects as go

from engine.charts.timing_wheel import wheel_animation
from engine.cost import estimate_wheel, estimate_wheel_costs
from engine.cost.computations import wheel_levels
from engine.server.timer.cost import COST_MAX_DELAY_MS, CostRow
from engine.server.timer.frames import WheelFrame
from engine.server.timer.model import TaskSpec, WheelConfig, WheelTrace
from ui.frame.figures import frozen
from ui.runtime import worker
from ui.runtime.memo import memo
from ui.runtime.offload import run


def wheel_run(config: WheelConfig, tasks: tuple[TaskSpec, ...]) -> tuple[WheelTrace, list[WheelFrame]]:
    """The traced run and its frames: inline, in a worker or refused by its estimate (``ui.runtime.offload.run``)."""
    levels = wheel_levels(config.tick_ms, config.wheel_size, max((t.delay_ms for t in tasks), default=0))
    return run(("wheel_run", config, tasks), worker.wheel_run, (config, tasks), estimate_wheel(len(tasks), levels))


@memo("Building the animation…")
def wheel_animation_figure(config: WheelConfig, tasks: tuple[TaskSpec, ...], first: int, window: int,
                           levels: int) -> go.Figure:
    """Frames ``first .. first + window - 1`` of the run as one animated figure (Plotly frames, each holding
    what the step changes), frozen."""
    _, frames = wheel_run(config, tasks)
    return frozen(wheel_animation(frames[first:first + window], config, levels))


def wheel_costs(count: int, tick_ms: int, wheel_size: int, order: str) -> list[CostRow]:
    """The wheel-versus-heap measurement: inline, in a worker or refused by its estimate
    (``ui.runtime.offload.run``)."""
    levels = wheel_levels(tick_ms, wheel_size, COST_MAX_DELAY_MS)
    return run(("wheel_costs", count, tick_ms, wheel_size, order), worker.wheel_costs,
               (count, tick_ms, wheel_size, order), estimate_wheel_costs(count, levels))
