"""Figures for replica placement: the partition x broker replica matrix and leaders per broker.

``replica_matrix({0: [0, 1], 1: [1, 2]}, [0, 1, 2])`` has one row per partition, one column per
broker; cell value 2 = current leader, 1 = follower replica, 0 = no replica, -1 = replica on a dead
broker.  Numbers in the cells give the replica's position in the list (1 = preferred leader).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import plotly.graph_objects as go

LEADER, FOLLOWER, NONE, DEAD = 2, 1, 0, -1
MATRIX_COLOURS = [(0.0, "#d62728"), (0.33, "#f2f2f2"), (0.66, "#9ecae9"), (1.0, "#1f77b4")]


def replica_matrix(
    assignment: Mapping[int, Sequence[int]],
    brokers: Sequence[int],
    leaders: Mapping[int, int | None] | None = None,
    dead: Iterable[int] = (),
) -> go.Figure:
    gone = set(dead)
    leaders = leaders if leaders is not None else {p: r[0] for p, r in assignment.items()}
    parts = sorted(assignment)
    z, text = [], []
    for p in parts:
        row, labels = [], []
        for b in brokers:
            replicas = list(assignment[p])
            if b not in replicas:
                row.append(NONE)
                labels.append("")
                continue
            row.append(DEAD if b in gone else LEADER if leaders.get(p) == b else FOLLOWER)
            labels.append(str(replicas.index(b) + 1))
        z.append(row)
        text.append(labels)
    fig = go.Figure(go.Heatmap(
        z=z, x=[f"broker {b}" for b in brokers], y=[f"p{p}" for p in parts], text=text, texttemplate="%{text}",
        zmin=-1, zmax=2, colorscale=MATRIX_COLOURS, showscale=False,
        hovertemplate="%{y} on %{x}: replica #%{text}<extra></extra>",
    ))
    fig.update_layout(title="Replicas (number = position in the replica list; dark = current leader, "
                            "red = dead broker)",
                      yaxis_autorange="reversed", height=min(900, 120 + 18 * len(parts)), margin=dict(t=50, b=30))
    return fig


def leader_counts_figure(series: Mapping[str, Mapping[int, int]], brokers: Sequence[int]) -> go.Figure:
    """Grouped bars: partitions led per broker, one bar group per situation (e.g. before / after)."""
    fig = go.Figure()
    for name, counts in series.items():
        fig.add_bar(name=name, x=[f"broker {b}" for b in brokers], y=[counts.get(b, 0) for b in brokers])
    fig.update_layout(barmode="group", title="Partitions led per broker", yaxis_title="leaders", height=360,
                      margin=dict(t=50, b=30))
    return fig
