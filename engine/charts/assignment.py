"""Figures for one assignment: a consumer x partition grid coloured by topic, and per-consumer bars.

``assignment_grid({"C0": [t0-0], "C1": [t0-1]}, {"t0": 2}, ["C0", "C1"])`` draws a 2 x 2 heatmap whose
cell (C0, t0-0) has the colour of t0 and the other cells are empty.  Beyond ``MAX_GRID_CELLS`` cells the
grid is aggregated to consumer x topic partition counts so that the browser stays responsive.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from engine.charts.text import plain_all
from engine.consumer.assignment import AssignmentView as Assignment
from engine.java.strings import string_compare_key
from engine.scenario import TopicPartition

MAX_GRID_CELLS = 40_000
TOPIC_COLOURS = (
    "#4C78A8",
    "#F58518",
    "#54A24B",
    "#B279A2",
    "#E45756",
    "#72B7B2",
    "#EECA3B",
    "#9D755D",
    "#FF9DA6",
    "#BAB0AC",
)


def topic_colour(index: int) -> str:
    return TOPIC_COLOURS[index % len(TOPIC_COLOURS)]


def sorted_topics(topics: Mapping[str, int]) -> list[str]:
    return sorted(topics, key=string_compare_key)


def _discrete_scale(n: int) -> list[list[float | str]]:
    scale: list[list[float | str]] = []
    for i in range(n):
        lo, hi = i / n, (i + 1) / n
        scale += [[lo, topic_colour(i)], [hi, topic_colour(i)]]
    return scale


def _height(rows: int) -> int:
    return int(min(900, max(220, 60 + 22 * rows)))


def assignment_grid(assignment: Assignment, topics: Mapping[str, int], members: Sequence[str],
                    title: str = "") -> go.Figure:
    """Consumers (rows) x partitions (columns); a cell has its topic's colour where the consumer owns it."""
    names = sorted_topics(topics)
    columns = [TopicPartition(t, p) for t in names for p in range(topics[t])]
    if len(columns) * max(1, len(members)) > MAX_GRID_CELLS:
        return topic_count_grid(assignment, topics, members, title)
    column_of = {tp: i for i, tp in enumerate(columns)}
    topic_index = {t: i for i, t in enumerate(names)}
    z = np.full((len(members), len(columns)), np.nan)
    row_of = {m: i for i, m in enumerate(members)}
    for member, tps in assignment.items():
        for tp in tps:
            if member in row_of and tp in column_of:
                z[row_of[member], column_of[tp]] = topic_index[tp.topic]
    n = max(1, len(names))
    fig = go.Figure(go.Heatmap(
        z=z, x=plain_all(str(tp) for tp in columns), y=plain_all(members), zmin=-0.5, zmax=n - 0.5,
        colorscale=_discrete_scale(n), showscale=False, xgap=1, ygap=1,
        hovertemplate="%{y} owns %{x}<extra></extra>",
    ))
    fig.update_layout(
        title=title,
        height=_height(len(members)),
        margin=dict(l=10, r=10, t=40 if title else 10, b=10),
        yaxis=dict(autorange="reversed", type="category"),
        xaxis=dict(type="category", showticklabels=len(columns) <= 60),
    )
    return fig


def topic_count_grid(assignment: Assignment, topics: Mapping[str, int], members: Sequence[str],
                     title: str = "") -> go.Figure:
    """The aggregated grid: partitions per consumer and topic (for large groups)."""
    names = sorted_topics(topics)
    col = {t: i for i, t in enumerate(names)}
    z = np.zeros((len(members), len(names)))
    for r, member in enumerate(members):
        for tp in assignment.get(member, ()):
            if tp.topic in col:
                z[r, col[tp.topic]] += 1
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=plain_all(names),
            y=plain_all(members),
            colorscale="Blues",
            texttemplate="%{z}",
            hovertemplate="%{y}: %{z} partitions of %{x}<extra></extra>",
        )
    )
    fig.update_layout(title=title or "partitions per consumer and topic", height=_height(len(members)),
                      margin=dict(l=10, r=10, t=40, b=10), yaxis=dict(autorange="reversed", type="category"))
    return fig


def load_bars(counts: Mapping[str, int], loads: Mapping[str, float] | None = None,
              title: str = "") -> go.Figure:
    """Partitions per consumer (bars), plus weighted load per consumer when weights are set."""
    members = list(counts)
    labels = plain_all(members)
    fig = go.Figure(go.Bar(x=labels, y=[counts[m] for m in members], name="partitions",
                           marker_color="#4C78A8"))
    if loads is not None:
        fig.add_trace(go.Bar(x=labels, y=[round(loads.get(m, 0.0), 3) for m in members], name="weighted load",
                             marker_color="#F58518"))
    fig.update_layout(
        title=title,
        barmode="group",
        height=260,
        margin=dict(l=10, r=10, t=40 if title else 10, b=10),
        xaxis=dict(type="category"),
        legend=dict(orientation="h", y=1.15),
    )
    return fig
