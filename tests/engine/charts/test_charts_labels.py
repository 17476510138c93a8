"""At the figure level: the pause chart's legend covers no bar; the combined rebalance
animation labels dots only when few, and every panel shares one set of frames."""

from __future__ import annotations

import plotly.graph_objects as go

from engine.charts.rebalance import LABEL_LIMIT, Panel, pause_timeline_figure, rebalance_animations
from engine.consumer.pause import ProtocolTimings, pause_report
from engine.scenario import TopicPartition as TP


def test_pause_legend_sits_above_the_plot_area() -> None:
    before = {"C0": [TP("t", 0), TP("t", 1)], "C1": [TP("t", 2)]}
    after = {"C0": [TP("t", 0)], "C1": [TP("t", 2)], "C2": [TP("t", 1)]}
    reports = {p: pause_report(p, before, after, ProtocolTimings(), rounds=2)
               for p in ("eager", "cooperative", "consumer")}
    fig = pause_timeline_figure(reports)
    legend = fig.layout.legend
    assert legend.yanchor == "bottom" and legend.y >= 1  # outside the bars' area (it sat on the top bar)
    assert fig.layout.margin.t >= 60
    names = [t.name for t in fig.data]
    assert names == ["consuming", "some partitions in transit", "stopped (consuming nothing)"]
    stopped = fig.data[2]
    assert set(stopped.y) == {"eager · C0", "eager · C1"}  # only eager stops a consumer


def test_many_partitions_are_labelled_on_hover_only() -> None:
    n = LABEL_LIMIT + 1
    before = {"C0": [TP("t", p) for p in range(n)]}
    after = {"C0": [TP("t", p) for p in range(0, n, 2)], "C1": [TP("t", p) for p in range(1, n, 2)]}
    fig = rebalance_animations([Panel("range", before, after, ["C0", "C1"]),
                                Panel("sticky", before, after, ["C0", "C1"], [])])
    go.Figure(fig.to_dict())  # a valid Plotly figure
    dots = [t for t in fig.data if len(t.x)]
    assert all(t.mode == "markers" and t.hovertemplate == "%{text}<extra></extra>" for t in dots)
    assert {t.xaxis for t in fig.data} == {"x", "x2"}
    assert all(len(f.data) == len(fig.data) for f in fig.frames)
    assert [b.label for b in fig.layout.updatemenus[0].buttons] == ["Play all", "Pause"]
