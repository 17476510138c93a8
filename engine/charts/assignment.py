"""Figures for one assignment, drawn for what a person can see: a consumer x partition grid for small groups,
aggregated views above ``GRID_PARTITION_LIMIT`` partitions.

``assignment_grid({"C0": [t0-0], "C1": [t0-1]}, {"t0": 2}, ["C0", "C1"])`` draws a 2 x 2 heatmap whose
cell (C0, t0-0) has the colour of t0 and the other cells are empty.  Above ``GRID_PARTITION_LIMIT``
partitions (or ``MAX_GRID_CELLS`` cells) the grid is aggregated to partitions per consumer and topic
(``topic_count_grid``), with ``count_histogram`` (how many consumers own how many partitions) and a
drill-down to one topic (``topic_owner_figure``: WebGL points, one per partition).  Figures carry numbers
(heatmap values, positions); labels come from the axes and ``hovertemplate``, not from per-point strings.
Exact numbers stay in the page's tables and downloads: aggregation is for the eye.

Readable at projector distance: every axis has a title, tick labels are ``TICK_PX`` px or larger, names are
drawn as ticks only when each row gets at least that much room (``NAMED_ROWS_LIMIT``), and the top margin
(``TOP_MARGIN_PX``) keeps Plotly's mode bar above the plot rather than over names or bars.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from engine.charts.text import plain, plain_all
from engine.consumer.assignment import AssignmentView as Assignment
from engine.java.strings import string_compare_key
from engine.scenario import TopicPartition

GRID_PARTITION_LIMIT = 300  # partitions: above, the per-partition grid is replaced by aggregated views
MAX_GRID_CELLS = 40_000
NAMED_ROWS_LIMIT = 40  # consumers drawn by name (one tick each); beyond, names are on hover only
NAMED_COLUMNS_LIMIT = 60
TICK_PX = 12
TOP_MARGIN_PX = 44
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


def is_aggregated(topics: Mapping[str, int], members: Sequence[str]) -> bool:
    """True when ``assignment_grid`` draws the aggregated grid instead of one cell per partition."""
    partitions = sum(topics.values())
    return partitions > GRID_PARTITION_LIMIT or partitions * max(1, len(members)) > MAX_GRID_CELLS


def _discrete_scale(n: int) -> list[list[float | str]]:
    scale: list[list[float | str]] = []
    for i in range(n):
        lo, hi = i / n, (i + 1) / n
        scale += [[lo, topic_colour(i)], [hi, topic_colour(i)]]
    return scale


def _height(rows: int) -> int:
    return int(min(900, max(240, 90 + 24 * rows)))


def _axis(title: str, count: int, limit: int, **extra: Any) -> dict[str, Any]:
    """An axis with a title and ``TICK_PX`` ticks; tick labels only when ``count`` of them fit."""
    shown = count <= limit
    text = title if shown else f"{title} ({count:,}; hover for names)"
    return dict(title=dict(text=text, font=dict(size=TICK_PX + 2)), tickfont=dict(size=TICK_PX),
                showticklabels=shown, **extra)


def _layout(fig: go.Figure, title: str, height: int, **axes: Any) -> go.Figure:
    fig.update_layout(title=dict(text=title, font=dict(size=TICK_PX + 4)), height=height, font=dict(size=TICK_PX),
                      margin=dict(l=10, r=10, t=TOP_MARGIN_PX + (20 if title else 0), b=10), **axes)
    return fig


def _ticks(members: Sequence[str], labels: Mapping[str, str] | None) -> dict[str, Any]:
    """Axis ticks that show ``labels`` (short names) for categories that stay the full ids (so hover shows
    them): ``{}`` without labels."""
    if not labels:
        return {}
    return dict(tickmode="array", tickvals=plain_all(members),
                ticktext=plain_all(labels.get(m, m) for m in members))


def assignment_grid(assignment: Assignment, topics: Mapping[str, int], members: Sequence[str],
                    title: str = "", labels: Mapping[str, str] | None = None) -> go.Figure:
    """Consumers (rows) x partitions (columns); a cell has its topic's colour where the consumer owns it.
    ``labels``: short names on the consumer axis (``engine.consumer.member_ids``), the full id on hover."""
    if is_aggregated(topics, members):
        return topic_count_grid(assignment, topics, members, title, labels)
    names = sorted_topics(topics)
    columns = [TopicPartition(t, p) for t in names for p in range(topics[t])]
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
    return _layout(fig, title, _height(len(members)),
                   yaxis=_axis("consumer", len(members), NAMED_ROWS_LIMIT, autorange="reversed", type="category",
                               **_ticks(members, labels)),
                   xaxis=_axis("partition (topic-number)", len(columns), NAMED_COLUMNS_LIMIT, type="category"))


def topic_counts(assignment: Assignment, topics: Sequence[str], members: Sequence[str]) -> np.ndarray:
    """Partitions per consumer (rows, in ``members`` order) and topic (columns, in ``topics`` order)."""
    col = {t: i for i, t in enumerate(topics)}
    z = np.zeros((len(members), len(topics)), dtype=np.int32)
    for r, member in enumerate(members):
        for tp in assignment.get(member, ()):
            if tp.topic in col:
                z[r, col[tp.topic]] += 1
    return z


def topic_count_grid(assignment: Assignment, topics: Mapping[str, int], members: Sequence[str],
                     title: str = "", labels: Mapping[str, str] | None = None) -> go.Figure:
    """The aggregated grid: partitions per consumer and topic, as a heatmap of numbers (thousands separated).
    The colour scale runs from 0 to the largest count; when every cell holds the same count there is no scale
    to read (a bar spanning 24.6..25.4 would suggest variation) and the title says the one count."""
    names = sorted_topics(topics)
    z = topic_counts(assignment, names, members)
    numbers = z.size <= 400  # a number in every cell only while the cells are big enough to read
    uniform = z.size > 0 and int(z.min()) == int(z.max())
    fig = go.Figure(go.Heatmap(
        z=z, x=plain_all(names), y=plain_all(members), zmin=0, zmax=max(int(z.max()) if z.size else 0, 1),
        colorscale="Blues", colorbar=dict(title="partitions", tickformat=",d"), showscale=not uniform,
        texttemplate="%{z:,d}" if numbers else None, hovertemplate="%{y}: %{z:,d} partitions of %{x}<extra></extra>",
    ))
    title = title or "partitions per consumer and topic"
    if uniform:
        title = f"{title} ({int(z.max()):,} in every cell)"
    return _layout(fig, title, _height(len(members)),
                   yaxis=_axis("consumer", len(members), NAMED_ROWS_LIMIT, autorange="reversed", type="category",
                               **_ticks(members, labels)),
                   xaxis=_axis("topic", len(names), NAMED_COLUMNS_LIMIT, type="category"))


def count_histogram(counts: Mapping[str, int], title: str = "") -> go.Figure:
    """How many consumers own how many partitions: one bar per partition count, numbers only."""
    values = np.fromiter(counts.values(), dtype=np.int64, count=len(counts))
    owned, consumers = np.unique(values, return_counts=True) if len(values) else (np.zeros(0), np.zeros(0))
    fig = go.Figure(go.Bar(x=owned, y=consumers, marker_color="#4C78A8",
                           hovertemplate="%{y} consumer(s) own %{x} partition(s)<extra></extra>"))
    return _layout(fig, title or "partitions per consumer", 280,
                   xaxis=_axis("partitions owned", 0, 1, dtick=1 if len(owned) <= 20 else None),
                   yaxis=_axis("consumers", 0, 1))


def topic_owner_figure(assignment: Assignment, topic: str, partitions: int, members: Sequence[str]) -> go.Figure:
    """Drill-down to one topic: a WebGL point per partition at (partition number, owner), owners in
    ``members`` order; unowned partitions are left out."""
    row_of = {m: i for i, m in enumerate(members)}
    pairs = sorted((tp.partition, row_of[m]) for m, tps in assignment.items() if m in row_of
                   for tp in tps if tp.topic == topic and tp.partition < partitions)
    xs = np.array([p for p, _ in pairs], dtype=np.int64)
    ys = np.array([r for _, r in pairs], dtype=np.int64)
    owners = sorted(set(ys.tolist()))
    fig = go.Figure(go.Scattergl(x=xs, y=ys, mode="markers", marker=dict(size=7, color="#4C78A8"),
                                 hovertemplate="partition %{x}: consumer row %{y}<extra></extra>"))
    named = len(owners) <= NAMED_ROWS_LIMIT
    yaxis = _axis("consumer", len(owners), NAMED_ROWS_LIMIT, autorange="reversed")
    if named:
        yaxis.update(tickmode="array", tickvals=owners, ticktext=[plain(members[r]) for r in owners])
    return _layout(fig, f"{plain(topic)}: owner of each partition", _height(min(len(owners), 30)),
                   xaxis=_axis("partition", 0, 1, range=[-1, max(partitions, 1)]), yaxis=yaxis)


def load_bars(counts: Mapping[str, int], loads: Mapping[str, float] | None = None,
              title: str = "", labels: Mapping[str, str] | None = None) -> go.Figure:
    """Partitions per consumer (bars), plus weighted load per consumer when weights are set; beyond
    ``NAMED_COLUMNS_LIMIT`` consumers the histogram of ``count_histogram`` (bars too thin to read)."""
    if len(counts) > NAMED_COLUMNS_LIMIT:
        return count_histogram(counts, title)
    members = list(counts)
    names = plain_all(members)
    fig = go.Figure(go.Bar(x=names, y=[counts[m] for m in members], name="partitions",
                           marker_color="#4C78A8"))
    if loads is not None:
        fig.add_trace(go.Bar(x=names, y=[round(loads.get(m, 0.0), 3) for m in members], name="weighted load",
                             marker_color="#F58518"))
    _layout(fig, title, 300, xaxis=_axis("consumer", len(members), NAMED_COLUMNS_LIMIT, type="category",
                                         **_ticks(members, labels)),
            yaxis=_axis("partitions" if loads is None else "partitions / weighted load", 0, 1))
    fig.update_layout(barmode="group", legend=dict(orientation="h", x=0, y=1.02, yanchor="bottom"))
    return fig


def consumer_rows(assignment: Assignment, members: Sequence[str],
                  loads: Mapping[str, float] | None = None) -> pd.DataFrame:
    """The exact numbers behind the aggregated views: one row per consumer (a searchable table)."""
    rows = []
    for m in members:
        tps = list(assignment.get(m, ()))
        row: dict[str, object] = {"consumer": m, "partitions": len(tps), "topics": len({tp.topic for tp in tps})}
        if loads is not None:
            row["weighted load"] = round(loads.get(m, 0.0), 3)
        row["partitions (first 20)"] = ", ".join(str(tp) for tp in tps[:20]) + (" ..." if len(tps) > 20 else "")
        rows.append(row)
    return pd.DataFrame(rows)
