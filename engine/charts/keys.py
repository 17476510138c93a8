"""Figures for the Keys page: per-partition histograms, N -> M remap, null-key partitioners over time."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.colors
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from engine.producer.null_keys import STRATEGIES, ProducerRun


def partition_histogram(counts: Mapping[str, np.ndarray], title: str = "Records per partition") -> go.Figure:
    """Grouped bars: one trace per partitioner, x = partition, y = records; a dashed line at the mean."""
    fig = go.Figure()
    for name, values in counts.items():
        fig.add_bar(x=list(range(len(values))), y=np.asarray(values).tolist(), name=name)
    first = next(iter(counts.values()), np.zeros(0))
    if len(first) and first.sum():
        fig.add_hline(y=float(np.mean(first)), line_dash="dash", annotation_text="mean", line_color="gray")
    fig.update_layout(title=title, barmode="group", xaxis_title="partition", yaxis_title="records",
                      legend_orientation="h", margin=dict(t=60, b=40))
    return fig


def remap_chart(curve: Sequence[tuple[int, float]], from_partitions: int, chosen: int | None = None) -> go.Figure:
    """Share of keys that change partition when the count goes from N to each M."""
    xs = [m for m, _ in curve]
    ys = [100 * share for _, share in curve]
    fig = go.Figure(go.Scatter(x=xs, y=ys, mode="lines+markers", name="keys that move",
                               hovertemplate="%{x} partitions: %{y:.1f}% of keys move<extra></extra>"))
    if chosen is not None and chosen in xs:
        y = ys[xs.index(chosen)]
        fig.add_scatter(x=[chosen], y=[y], mode="markers+text", text=[f"{y:.1f}%"], textposition="top center",
                        marker=dict(size=14, color="crimson"), name=f"{from_partitions} -> {chosen}")
    fig.update_layout(title=f"Keys that change partition when going from {from_partitions} partitions",
                      xaxis_title="new partition count M", yaxis_title="% of keyed records", yaxis_range=[0, 105],
                      margin=dict(t=60, b=40))
    return fig


BROKER_COLOURS: tuple[str, ...] = tuple(plotly.colors.qualitative.Plotly)  # broker b -> colour b


def producer_timeline(runs: Mapping[str, ProducerRun], broker_latency_ms: Sequence[float]) -> go.Figure:
    """Records per broker over time, one panel per null-key strategy (stacked areas); a broker has one colour
    in every panel, so the one legend names it everywhere."""
    fig = make_subplots(rows=len(runs), cols=1, shared_xaxes=True, vertical_spacing=0.08,
                        subplot_titles=[f"{STRATEGIES.get(name, name)}: slowest broker gets "
                                        f"{100 * run.broker_share()[int(np.argmax(broker_latency_ms))]:.0f}%"
                                        for name, run in runs.items()])
    for row, run in enumerate(runs.values(), start=1):
        times = (np.arange(run.records.shape[0]) * run.bucket_ms).tolist()
        brokers = int(run.leaders.max()) + 1
        for b in range(brokers):
            series = run.records[:, run.leaders == b].sum(axis=1)
            colour = BROKER_COLOURS[b % len(BROKER_COLOURS)]
            fill = "rgba({}, {}, {}, 0.5)".format(*plotly.colors.hex_to_rgb(colour))
            fig.add_scatter(x=times, y=series.tolist(), stackgroup=f"s{row}", line_color=colour, fillcolor=fill,
                            name=f"broker {b} ({broker_latency_ms[b]:g} ms)", legendgroup=f"b{b}",
                            showlegend=row == 1, row=row, col=1)
    fig.update_xaxes(title_text="time (ms)", row=len(runs), col=1)
    fig.update_yaxes(title_text="records / bucket")
    fig.update_layout(height=260 * max(1, len(runs)), margin=dict(t=60, b=40), legend_orientation="h")
    return fig
