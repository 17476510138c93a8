"""Plotly figures of the hierarchical timing wheel: concentric rings (one per level), an animation
built from the trace's frames, and the wheel-vs-heap cost chart.  Pure: data in, ``go.Figure`` out.

The animation is one figure whose frames carry only what changes from step to step (``frame_update``: the
buckets' colours, outlines and hovers, the hands, the arrivals); Plotly keeps each trace's other attributes
(positions, widths, names) from the figure's first frame.  The cost chart is one figure, two panels sharing
the x axis (``cost_panels``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go
from plotly.colors import sample_colorscale
from plotly.subplots import make_subplots

from engine.server.timer.cost import CostRow
from engine.server.timer.frames import BucketView, WheelFrame
from engine.server.timer.model import WheelConfig

EMPTY = "#eef0f3"
NOT_CREATED = "rgba(0,0,0,0)"
DRAINED = "#d62728"
ARRIVED = "#ff7f0e"
HAND = "#222222"
RING_WIDTH = 0.82
ANIMATION_BAR_BUDGET = 24_000  # bars over all frames of one animation (keeps the page light)
MAX_ANIMATION_FRAMES = 120


def level_ticks(config: WheelConfig, levels: int) -> list[int]:
    return [config.tick_ms * config.wheel_size**level for level in range(levels)]


PALETTE = sample_colorscale("Blues", [0.3 + 0.7 * i / 15 for i in range(16)])


def _bucket_color(count: int, peak: int) -> str:
    if count <= 0:
        return EMPTY
    return PALETTE[min(15, round(15 * count / max(peak, 1)))]


def _level_traces(frame: WheelFrame, config: WheelConfig, level: int, tick: int) -> dict[str, Any]:
    n = config.wheel_size
    created = level < len(frame.wheel_times)
    peak = max((b.count for b in frame.buckets.values()), default=1)
    colors: list[str] = []
    lines: list[str] = []
    widths: list[float] = []
    hover: list[str] = []
    for index in range(n):
        view = frame.buckets.get((level, index))
        count = view.count if view else 0
        colors.append(_bucket_color(count, peak) if created else NOT_CREATED)
        key = (level, index)
        if key in frame.drained:
            lines.append(DRAINED)
            widths.append(3)
        elif key in frame.arrived:
            lines.append(ARRIVED)
            widths.append(3)
        else:
            lines.append("#ffffff" if created else "#d0d4da")
            widths.append(0.5)
        hover.append(_hover(level, index, view, tick, created))
    return {
        "type": "barpolar", "r": [RING_WIDTH] * n, "base": [1 + level] * n, "theta": [i * 360 / n for i in range(n)],
        "width": [360 / n * 0.94] * n, "marker": {"color": colors, "line": {"color": lines, "width": widths}},
        "hovertext": hover, "hoverinfo": "text", "name": f"level {level} (tick {tick:,} ms)", "showlegend": False,
    }


def _hover(level: int, index: int, view: BucketView | None, tick: int, created: bool) -> str:
    if not created:
        return f"level {level} not created yet (created on demand by an overflow)"
    if view is None:
        return f"level {level} bucket {index}: empty"
    names = ", ".join(view.sample) + (" …" if view.count > len(view.sample) else "")
    start = view.expiration_ms
    return (f"level {level} bucket {index}<br>[{start:,}, {start + tick - 1:,}] ms, expires at {start:,}"
            f"<br>{view.count} task(s): {names}")


def _hands(frame: WheelFrame, config: WheelConfig, ticks: Sequence[int]) -> dict[str, Any]:
    r: list[float | None] = []
    theta: list[float | None] = []
    n = config.wheel_size
    for level, current in enumerate(frame.wheel_times[: len(ticks)]):
        angle = (current // ticks[level]) % n * 360 / n
        r += [1 + level - 0.05, 1 + level + RING_WIDTH + 0.05, None]
        theta += [angle, angle, None]
    return {"type": "scatterpolar", "r": r, "theta": theta, "mode": "lines", "line": {"color": HAND, "width": 3},
            "hoverinfo": "skip", "name": "current time", "showlegend": False}


def _arrivals(frame: WheelFrame, config: WheelConfig) -> dict[str, Any]:
    r, theta, text = [], [], []
    n = config.wheel_size
    for (level, index), tasks in frame.arrived.items():
        r.append(1 + level + RING_WIDTH / 2)
        theta.append(index * 360 / n)
        text.append(", ".join(tasks[:3]) + (" …" if len(tasks) > 3 else ""))
    return {"type": "scatterpolar", "r": r, "theta": theta, "mode": "markers", "text": text,
            "hovertemplate": "placed here: %{text}<extra></extra>",
            "marker": {"symbol": "star", "size": 13, "color": ARRIVED, "line": {"color": "#7a3d00", "width": 1}},
            "name": "placed this step", "showlegend": False}


def _frame_traces(frame: WheelFrame, config: WheelConfig, levels: int) -> list[dict[str, Any]]:
    ticks = level_ticks(config, levels)
    traces: list[dict[str, Any]] = [_level_traces(frame, config, lv, ticks[lv]) for lv in range(levels)]
    return [*traces, _hands(frame, config, ticks), _arrivals(frame, config)]


def frame_title(frame: WheelFrame) -> str:
    fired = f" · fired {len(frame.fired)}" if frame.fired else ""
    return (f"step {frame.step} ({frame.kind}) · t = {frame.time_ms:,} ms · wheel times "
            f"{frame.wheel_times} · {frame.pending} waiting{fired}")


def _layout(config: WheelConfig, levels: int, title: str) -> dict[str, Any]:
    ticks = level_ticks(config, levels)
    return dict(
        title={"text": title, "font": {"size": 14}},
        height=560, margin={"l": 30, "r": 30, "t": 60, "b": 30},
        polar={
            "hole": 0.0,
            "angularaxis": {"rotation": 90, "direction": "clockwise", "showticklabels": config.wheel_size <= 60,
                            "tickmode": "array", "tickvals": [i * 360 / config.wheel_size
                                                              for i in range(config.wheel_size)],
                            "ticktext": [str(i) for i in range(config.wheel_size)], "showgrid": False},
            "radialaxis": {"range": [0, levels + 1], "tickmode": "array",
                           "tickvals": [1 + lv + RING_WIDTH / 2 for lv in range(levels)],
                           "ticktext": [f"L{lv} · {t:,} ms" for lv, t in enumerate(ticks)],
                           "angle": 90, "tickangle": 90, "showgrid": False, "showline": False},
        },
    )


def _figure(data: list[dict[str, Any]], layout: dict[str, Any], frames: list[dict[str, Any]] | None = None
            ) -> go.Figure:
    """A figure from plain dicts without Plotly's per-property validation (50x faster for the
    animation; the dicts above only use documented barpolar/scatterpolar attributes)."""
    return go.Figure(data=data, layout=layout, frames=frames, _validate=False)


def wheel_rings(frame: WheelFrame, config: WheelConfig, levels: int) -> go.Figure:
    """One frame: level 0 is the inner ring; colour = tasks in a bucket; black hand = the level's
    current bucket; red outline = drained this step; orange = tasks placed this step."""
    levels = max(levels, len(frame.wheel_times))
    return _figure(_frame_traces(frame, config, levels), _layout(config, levels, frame_title(frame)))


def animation_window(frames_total: int, levels: int, wheel_size: int) -> int:
    """How many frames one animation may hold (bars across all frames stay under the budget)."""
    per_frame = max(levels * wheel_size, 1)
    return max(2, min(MAX_ANIMATION_FRAMES, ANIMATION_BAR_BUDGET // per_frame, frames_total))


CHANGING: dict[str, tuple[str, ...]] = {"barpolar": ("marker", "hovertext"), "scatterpolar": ("r", "theta", "text")}
"""What a step changes, by trace type: a ring's colours, outlines and hovers; the hands' and arrivals' places."""


def frame_update(traces: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One animation frame's data: of each trace, its type and what a step changes (``CHANGING``); Plotly keeps
    the rest (positions, widths, names, styles) from the figure's traces.

    >>> ring = {"type": "barpolar", "r": [1], "theta": [0], "width": [18], "marker": {"color": ["#eef0f3"]},
    ...         "hovertext": ["empty"], "name": "level 0"}
    >>> hand = {"type": "scatterpolar", "r": [1, 2, None], "theta": [0, 0, None], "mode": "lines"}
    >>> [sorted(t) for t in frame_update([ring, hand])]
    [['hovertext', 'marker', 'type'], ['r', 'theta', 'type']]
    """
    return [{"type": t["type"], **{k: t[k] for k in CHANGING[t["type"]] if k in t}} for t in traces]


def wheel_animation(frames: Sequence[WheelFrame], config: WheelConfig, levels: int, duration_ms: int = 700
                    ) -> go.Figure:
    """A Plotly animation over consecutive frames, with Play/Pause and a step slider."""
    levels = max([levels, *(len(f.wheel_times) for f in frames)])
    first = frames[0]
    layout = _layout(config, levels, frame_title(first))
    play = {"frame": {"duration": duration_ms, "redraw": True}, "fromcurrent": True, "transition": {"duration": 0}}
    layout.update(
        updatemenus=[{"type": "buttons", "direction": "left", "x": 0.0, "y": -0.02, "xanchor": "left",
                      "buttons": [{"label": "Play", "method": "animate", "args": [None, play]},
                                  {"label": "Pause", "method": "animate",
                                   "args": [[None], {"frame": {"duration": 0, "redraw": False},
                                                     "mode": "immediate"}]}]}],
        sliders=[{"active": 0, "x": 0.15, "len": 0.85, "y": -0.02, "currentvalue": {"prefix": "step "},
                  "steps": [{"label": str(f.step), "method": "animate",
                             "args": [[str(f.step)], {"frame": {"duration": 0, "redraw": True},
                                                      "mode": "immediate"}]} for f in frames]}],
        height=620,
    )
    return _figure(_frame_traces(first, config, levels), layout,
                   [{"data": frame_update(_frame_traces(f, config, levels)), "name": str(f.step),
                     "layout": {"title": {"text": frame_title(f)}}} for f in frames])


COST_X_TITLE = "tasks in the timer"
COST_Y_TITLES = {"steps": "counted steps per task", "seconds": "µs per task (this machine, Python)"}
COST_COLORS = ("#636efa", "#ef553b", "#00cc96", "#ab63fa")  # Plotly's first colours, one per timer and phase


def _cost_traces(rows: Sequence[CostRow], measure: str) -> list[go.Scatter]:
    """Per-task cost vs number of tasks: insert (solid) and expire (dotted), wheel then heap, each series in its
    own colour (``COST_COLORS``)."""
    traces: list[go.Scatter] = []
    styles = {"insert": "solid", "expire": "dot"}
    for timer in sorted({r.timer for r in rows}, reverse=True):
        own = sorted((r for r in rows if r.timer == timer), key=lambda r: r.tasks)
        for phase in ("insert", "expire"):
            if measure == "steps":
                ys = [getattr(r, f"{phase}_steps") / r.tasks for r in own]
            else:
                ys = [getattr(r, f"{phase}_seconds") / r.tasks * 1e6 for r in own]
            color = COST_COLORS[len(traces) % len(COST_COLORS)]
            traces.append(go.Scatter(x=[r.tasks for r in own], y=ys, mode="lines+markers", name=f"{timer}: {phase}",
                                     line={"dash": styles[phase], "color": color}))
    return traces


def cost_panels(rows: Sequence[CostRow]) -> go.Figure:
    """Per-task cost against the number of tasks (log x), insert and expire, wheel against heap, in two panels:
    counted steps per task (left), microseconds per task (right), a series in the same colour in both and one
    legend (a click on it hides the series in both).

    >>> from engine.server.timer.cost import measure_costs
    >>> fig = cost_panels(measure_costs(200))
    >>> len(fig.data), [t.showlegend for t in fig.data[::4]], fig.layout.yaxis2.title.text
    (8, [True, False], 'µs per task (this machine, Python)')
    """
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.12)
    for col, measure in enumerate(COST_Y_TITLES, start=1):
        for trace in _cost_traces(rows, measure):
            fig.add_trace(trace.update(legendgroup=trace.name, showlegend=col == 1), row=1, col=col)
        fig.update_yaxes(title_text=COST_Y_TITLES[measure], row=1, col=col)
    fig.update_xaxes(type="log", title_text=COST_X_TITLE)
    fig.update_layout(height=380, margin={"l": 40, "r": 20, "t": 30, "b": 40},
                      legend={"orientation": "h", "y": -0.25})
    return fig
