"""Figures for the Sizing page: each cost against the partition count, the chosen count marked."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import plotly.graph_objects as go
from plotly.subplots import make_subplots


def cost_grid(counts: Sequence[int], curves: Mapping[str, Sequence[float]], units: Mapping[str, str],
              limits: Mapping[str, float | None], chosen: int, recommended: int, columns: int = 2) -> go.Figure:
    """Small multiples: one panel per cost, a red line at the chosen count, dotted limits."""
    names = list(curves)
    rows = math.ceil(len(names) / columns)
    fig = make_subplots(rows=rows, cols=columns, subplot_titles=[f"{n} ({units.get(n, '')})" for n in names],
                        vertical_spacing=0.5 / max(rows, 1) * 0.6, horizontal_spacing=0.08)
    for i, name in enumerate(names):
        r, c = i // columns + 1, i % columns + 1
        fig.add_scatter(x=list(counts), y=list(curves[name]), mode="lines", name=name, showlegend=False,
                        line=dict(color="#1f77b4"), row=r, col=c,
                        hovertemplate="%{x} partitions: %{y:,.4g}<extra></extra>")
        limit = limits.get(name)
        if limit is not None:
            fig.add_scatter(x=[counts[0], counts[-1]], y=[limit, limit], mode="lines", showlegend=False,
                            line=dict(color="gray", dash="dot"), name="limit", row=r, col=c,
                            hovertemplate=f"limit {limit:,.4g}<extra></extra>")
        fig.add_vline(x=chosen, line_color="crimson", row=r, col=c)
        if recommended != chosen:
            fig.add_vline(x=recommended, line_color="seagreen", line_dash="dash", row=r, col=c)
    fig.update_layout(height=230 * rows, margin=dict(t=50, b=30), title="Costs against the partition count "
                      "(red: chosen, green dashed: recommended, dotted: limit)")
    return fig


def formula_comparison(right: int, wrong: int, target: float, producer: float, consumer: float) -> go.Figure:
    """Throughput the two formulas deliver against the target."""
    slowest = min(producer, consumer)
    fig = go.Figure()
    fig.add_bar(x=["max(Tt/Tp, Tt/Tc)", "Tt / max(Tp, Tc) (seed article)"], y=[right * slowest, wrong * slowest],
                text=[f"{right} partitions", f"{wrong} partitions"], textposition="auto",
                marker_color=["seagreen", "indianred"])
    fig.add_hline(y=target, line_dash="dash", annotation_text=f"target {target:g} MB/s")
    fig.update_layout(title="Throughput the group can sustain (N x min(p, c))", yaxis_title="MB/s",
                      margin=dict(t=60, b=40), height=360)
    return fig
