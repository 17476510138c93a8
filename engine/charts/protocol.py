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
EVENT_COLOURS = {"leave": "#d62728", "expire": "#9467bd", "join": "#1f77b4", "down": "#bbbbbb", "static-rejoin": "#2ca02c"}


def sequence_figure(steps: Sequence[ProtocolStep], members: Sequence[str]) -> go.Figure:
    lanes = ["every member", *members, "coordinator"]
    x_of = {name: i for i, name in enumerate(lanes)}
    fig = go.Figure()
    for i, name in enumerate(lanes):
        fig.add_shape(type="line", x0=i, x1=i, y0=0.5, y1=len(steps) + 0.5, line=dict(color="#cccccc", dash="dot"))
    for row, step in enumerate(steps, start=1):
        start = x_of.get(step.sender, 0)
        end = x_of["coordinator"]
        colour = "#d62728" if "INCONSISTENT" in step.response else API_COLOURS.get(step.api, "#333333")
        fig.add_annotation(x=end, y=row, ax=start, ay=row, xref="x", yref="y", axref="x", ayref="y",
                           showarrow=True, arrowhead=3, arrowwidth=2, arrowcolor=colour, text="")
        fig.add_trace(go.Scatter(x=[(start + end) / 2], y=[row], mode="text", text=[plain(step.api)],
                                 textposition="top center", showlegend=False,
                                 hovertext=[plain(f"{step.request} -> {step.response}")], hoverinfo="text"))
    fig.update_xaxes(tickvals=list(range(len(lanes))), ticktext=[plain(x) for x in lanes], range=[-0.5, len(lanes) - 0.5])
    fig.update_yaxes(autorange="reversed", showticklabels=False, range=[0, len(steps) + 1])
    fig.update_layout(title="Requests in order (arrows point at the group coordinator)", height=120 + 40 * len(steps),
                      margin=dict(t=50, b=30), plot_bgcolor="white")
    return fig


def restart_timeline(results: Sequence[RollingRestartResult]) -> go.Figure:
    fig = go.Figure()
    seen: set[str] = set()
    for r in results:
        row = f"{r.strategy} / {'static' if r.static else 'dynamic'}"
        for e in r.events:
            if e.rebalance and e.duration_ms:
                fig.add_trace(go.Bar(x=[e.duration_ms / 1000], base=[e.time_ms / 1000], y=[row], orientation="h",
                                     marker_color="rgba(214,39,40,0.35)", showlegend=False,
                                     hovertext=[plain(f"{e.member}: rebalance {e.duration_ms / 1000:.1f} s, "
                                                      f"{e.moved} moved")], hoverinfo="text"))
            fig.add_trace(go.Scatter(
                x=[e.time_ms / 1000], y=[row], mode="markers", name=e.kind, legendgroup=e.kind,
                showlegend=e.kind not in seen, marker=dict(size=11, color=EVENT_COLOURS[e.kind],
                                                           symbol="x" if e.rebalance else "circle"),
                hovertext=[plain(f"{e.member} at {e.time_ms / 1000:.1f} s: {e.label}")], hoverinfo="text"))
            seen.add(e.kind)
    fig.update_layout(title="Rolling restart: coordinator events (x = rebalance; shaded = rebalance duration)",
                      xaxis_title="seconds", height=160 + 40 * len(results), barmode="overlay", margin=dict(t=50, b=40))
    return fig


def restart_comparison(rows: Sequence[RestartComparison]) -> go.Figure:
    fig = go.Figure()
    for membership in ("dynamic", "static"):
        chosen = [r for r in rows if r.membership == membership]
        fig.add_bar(name=membership, x=[r.strategy for r in chosen], y=[r.consumer_seconds_paused for r in chosen],
                    text=[f"{r.rebalances} rebalances, {r.partitions_moved} moved" for r in chosen])
    fig.update_layout(barmode="group", title="Consumer-seconds paused over the whole rolling restart",
                      yaxis_title="consumer-seconds", height=380, margin=dict(t=50, b=30))
    return fig
