"""Figures for the load pipeline's results (pure: pandas in, ``go.Figure`` out).

Example::

    >>> import pandas as pd
    >>> rows = pd.DataFrame({"num_partitions": [2, 2], "partition": [0, 1], "keyed_messages": [5, 1],
    ...                      "null_key_messages": [1, 0], "messages": [6, 1]})
    >>> fig = partition_load_bars(rows, 2)
    >>> [[int(v) for v in t.y] for t in fig.data]
    [[5, 1], [1, 0]]
"""

from __future__ import annotations

import html

import pandas as pd
import plotly.graph_objects as go

STRATEGY_COLORS = {"range": "#4c78a8", "roundrobin": "#f58518", "sticky": "#54a24b", "cooperative-sticky": "#b279a2"}
METRIC_LABELS = {
    "messages": "messages",
    "bytes": "bytes",
    "peak_messages_per_s": "peak messages/s",
    "peak_bytes_per_s": "peak bytes/s",
}


def partition_load_bars(partitions: pd.DataFrame, num_partitions: int, metric: str = "messages") -> go.Figure:
    """Stacked bars per partition: keyed records and null-key records (for messages/bytes),
    or one bar per partition for a peak metric; a dashed line at the mean."""
    rows = partitions[partitions["num_partitions"] == num_partitions].sort_values("partition")
    fig = go.Figure()
    if metric in ("messages", "bytes"):
        keyed = rows["keyed_messages" if metric == "messages" else "keyed_bytes"]
        total = rows[metric]
        fig.add_bar(x=rows["partition"], y=keyed, name="keyed", marker_color="#4c78a8")
        fig.add_bar(x=rows["partition"], y=total - keyed if metric == "bytes" else rows["null_key_messages"],
                    name="null key", marker_color="#bab0ac")
        fig.update_layout(barmode="stack")
    else:
        total = rows[metric].fillna(0)
        fig.add_bar(x=rows["partition"], y=total, name=METRIC_LABELS[metric], marker_color="#4c78a8")
    if len(rows):
        fig.add_hline(y=float(total.mean()), line_dash="dash", line_color="#e45756",
                      annotation_text="mean", annotation_position="top left")
    fig.update_layout(
        title=f"Load per partition ({num_partitions} partitions)",
        xaxis_title="partition", yaxis_title=METRIC_LABELS[metric], legend_orientation="h",
        margin={"t": 50, "b": 40}, height=360,
    )
    fig.update_xaxes(type="category")
    return fig


def consumer_load_bars(
    consumers: pd.DataFrame, num_partitions: int, consumer_count: int, metric: str = "messages",
    target: float | None = None,
) -> go.Figure:
    """Per consumer, one bar per strategy side by side (same group, same partitions)."""
    rows = consumers[(consumers["num_partitions"] == num_partitions) & (consumers["consumers"] == consumer_count)]
    fig = go.Figure()
    for strategy in dict.fromkeys(rows["strategy"]):
        part = rows[rows["strategy"] == strategy].sort_values("member")
        fig.add_bar(x=part["member"], y=part[metric].fillna(0), name=strategy,
                    marker_color=STRATEGY_COLORS.get(strategy), customdata=part["partitions"],
                    hovertemplate="%{x}: %{y:,.2f} (%{customdata} partitions)<extra>" + strategy + "</extra>")
    if target is not None:
        fig.add_hline(y=target, line_dash="dot", line_color="#e45756", annotation_text="target")
    fig.update_layout(
        barmode="group", title=f"Load per consumer: {consumer_count} consumers, {num_partitions} partitions",
        xaxis_title="consumer", yaxis_title=METRIC_LABELS[metric], legend_orientation="h",
        margin={"t": 50, "b": 40}, height=360,
    )
    return fig


def max_consumer_bars(consumers: pd.DataFrame, metric: str = "peak_messages_per_s",
                      target: float | None = None) -> go.Figure:
    """The busiest consumer's load per consumer count: one panel per partition count, strategies side by side.

    Grouped bars, not lines: strategies often give the same value (range and roundrobin on 12 partitions
    and 3 consumers), and lines would then lie on top of each other and hide half the series.
    """
    from plotly.subplots import make_subplots

    worst = consumers.groupby(["strategy", "num_partitions", "consumers"], sort=False)[metric].max().reset_index()
    counts = sorted(int(n) for n in worst["num_partitions"].unique())
    fig = make_subplots(rows=1, cols=max(1, len(counts)), shared_yaxes=True, horizontal_spacing=0.04,
                        subplot_titles=[f"{n} partitions" for n in counts])
    for col, n in enumerate(counts, start=1):
        for strategy, part in worst[worst["num_partitions"] == n].groupby("strategy", sort=False):
            part = part.sort_values("consumers")
            fig.add_bar(x=[f"{c} consumers" for c in part["consumers"]], y=part[metric], name=str(strategy),
                        legendgroup=str(strategy), showlegend=col == 1,
                        marker_color=STRATEGY_COLORS.get(str(strategy)), row=1, col=col,
                        hovertemplate="%{x}: %{y:,.2f}<extra>" + f"{strategy}, {n} partitions</extra>")
        fig.update_xaxes(title_text="consumer count", type="category", row=1, col=col)
    if target is not None:
        fig.add_hline(y=target, line_dash="dot", line_color="#e45756", annotation_text="target", row="all", col="all")
    fig.update_yaxes(title_text=METRIC_LABELS.get(metric, metric), row=1, col=1)
    fig.update_layout(title="Busiest consumer per consumer count", barmode="group", height=380,
                      legend_orientation="h", legend_y=-0.25, margin={"t": 80, "b": 90})
    return fig


def hot_keys_bars(hot: pd.DataFrame, num_partitions: int, top: int = 15) -> go.Figure:
    """The hottest keys overall (horizontal bars), labelled with the partition they land on."""
    rows = hot[hot["num_partitions"] == num_partitions].sort_values(["messages", "key_hex"], ascending=[False, True])
    rows = rows.head(top).iloc[::-1]
    labels = [f"{html.escape(str(k))} → p{p}"  # plotly reads tags in labels: escape them
              for k, p in zip(rows["key_text"], rows["partition"])]
    fig = go.Figure(go.Bar(x=rows["messages"], y=labels, orientation="h", marker_color="#f58518"))
    fig.update_layout(title=f"Hottest keys ({num_partitions} partitions)", xaxis_title="messages",
                      height=max(240, 24 * len(rows) + 80), margin={"t": 50, "b": 40})
    return fig
