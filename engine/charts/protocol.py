"""Figures for the group protocol page: the request sequence and the rolling-restart timeline.

``sequence_figure(steps, lanes)`` draws each request as an arrow from its sender's lane to the
coordinator's lane, top to bottom in order.  ``restart_timeline(results)`` draws one row per
(strategy, membership) with a marker per coordinator event and a bar per rebalance's duration.
"""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from engine.charts.text import plain
from engine.consumer.membership import RestartComparison, RollingRestartResult
from engine.consumer.protocol import ProtocolStep

API_COLOURS = {"FIND_COORDINATOR": "#7f7f7f", "JOIN_GROUP": "#1f77b4", "SYNC_GROUP": "#2ca02c", "HEARTBEAT": "#ff7f0e"}
EVENT_COLOURS = {"leave": "#d62728", "expire": "#9467bd", "join": "#1f77b4", "down": "#bbbbbb",
                 "static-rejoin": "#2ca02c"}


HOVER_CHARS = 300  # a SyncGroup of a big group lists thousands of partitions: the table below has them all


def _short(text: str) -> str:
    return text if len(text) <= HOVER_CHARS else f"{text[:HOVER_CHARS]}... (in full in the table)"


def sequence_figure(steps: Sequence[ProtocolStep], members: Sequence[str]) -> go.Figure:
    """One text trace, shapes and arrows set in one layout (adding them one by one re-validates the figure
    each time: 3.4 s for the large preset's 50 members).  The lane names sit on a top axis: with many members
    the diagram is thousands of pixels tall, and the names are needed where reading starts."""
    lanes = ["every member", *members, "coordinator"]
    x_of = {name: i for i, name in enumerate(lanes)}
    end = x_of["coordinator"]
    shapes = [dict(type="line", xref="x", yref="y", x0=i, x1=i, y0=0.5, y1=len(steps) + 0.5,
                   line=dict(color="#cccccc", dash="dot")) for i in range(len(lanes))]
    starts = [x_of.get(step.sender, 0) for step in steps]
    arrows = [dict(x=end, y=row, ax=start, ay=row, xref="x", yref="y", axref="x", ayref="y", showarrow=True,
                   arrowhead=3, arrowwidth=2, text="",
                   arrowcolor="#d62728" if "INCONSISTENT" in step.response else API_COLOURS.get(step.api, "#333333"))
              for row, (start, step) in enumerate(zip(starts, steps, strict=True), start=1)]
    fig = go.Figure(go.Scatter(
        x=[(start + end) / 2 for start in starts], y=list(range(1, len(steps) + 1)), mode="text",
        text=[plain(step.api) for step in steps], textposition="top center", showlegend=False,
        hovertext=[plain(_short(f"{step.request} -> {step.response}")) for step in steps], hoverinfo="text"))
    fig.update_xaxes(tickvals=list(range(len(lanes))), ticktext=[plain(x) for x in lanes],
                     range=[-0.5, len(lanes) - 0.5], title="sender (arrows point at the coordinator)",
                     tickfont=dict(size=12), side="top")  # lane names where reading starts: the figure is tall
    fig.update_yaxes(autorange="reversed", showticklabels=False, range=[0, len(steps) + 1], title="request order")
    fig.update_layout(title="Requests in order (arrows point at the group coordinator)", height=120 + 40 * len(steps),
                      margin=dict(t=130, b=30), plot_bgcolor="white", shapes=shapes, annotations=arrows)
    return fig


def _restart_bars(results: Sequence[RollingRestartResult]) -> go.Bar:
    """Every rebalance's duration as one horizontal bar trace."""
    spans = [(f"{r.strategy} / {'static' if r.static else 'dynamic'}", e) for r in results for e in r.events
             if e.rebalance and e.duration_ms]
    return go.Bar(x=[e.duration_ms / 1000 for _, e in spans], base=[e.time_ms / 1000 for _, e in spans],
                  y=[row for row, _ in spans], orientation="h", marker_color="rgba(214,39,40,0.35)", showlegend=False,
                  hovertext=[plain(f"{e.member}: rebalance {e.duration_ms / 1000:.1f} s, {e.moved} moved")
                             for _, e in spans], hoverinfo="text")


def restart_timeline(results: Sequence[RollingRestartResult]) -> go.Figure:
    """One bar trace for the rebalances and one marker trace per event kind (not one trace per event)."""
    fig = go.Figure(_restart_bars(results))
    for kind, colour in EVENT_COLOURS.items():
        points = [(f"{r.strategy} / {'static' if r.static else 'dynamic'}", e) for r in results for e in r.events
                  if e.kind == kind]
        if not points:
            continue
        fig.add_trace(go.Scatter(
            x=[e.time_ms / 1000 for _, e in points], y=[row for row, _ in points], mode="markers", name=kind,
            marker=dict(size=11, color=colour, symbol="x" if points[0][1].rebalance else "circle"),
            hovertext=[plain(f"{e.member} at {e.time_ms / 1000:.1f} s: {e.label}") for _, e in points],
            hoverinfo="text"))
    fig.update_layout(title="Rolling restart: coordinator events (x = rebalance; shaded = rebalance duration)",
                      xaxis_title="seconds", yaxis_title="strategy / membership", height=160 + 40 * len(results),
                      barmode="overlay", margin=dict(t=50, b=40))
    return fig


def restart_comparison(rows: Sequence[RestartComparison]) -> go.Figure:
    fig = go.Figure()
    for membership in ("dynamic", "static"):
        chosen = [r for r in rows if r.membership == membership]
        fig.add_bar(name=membership, x=[r.strategy for r in chosen], y=[r.consumer_seconds_paused for r in chosen],
                    text=[f"{r.rebalances} rebalances, {r.partitions_moved} moved" for r in chosen])
    fig.update_layout(barmode="group", title="Consumer-seconds paused over the whole rolling restart",
                      xaxis_title="strategy", yaxis_title="consumer-seconds", height=380, margin=dict(t=50, b=30))
    return fig
