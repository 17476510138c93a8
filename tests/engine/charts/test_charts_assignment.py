"""The assignment grid and bars: cells, aggregation for big groups, and escaped labels."""

from __future__ import annotations

import math

import plotly.graph_objects as go

from engine.charts.assignment import MAX_GRID_CELLS, assignment_grid, load_bars
from engine.charts.text import plain
from engine.scenario import TopicPartition as TP


def test_docstring_example() -> None:
    fig = assignment_grid({"C0": [TP("t0", 0)], "C1": [TP("t0", 1)]}, {"t0": 2}, ["C0", "C1"])
    z = fig.data[0].z
    assert z[0][0] == 0 and math.isnan(z[0][1]) and math.isnan(z[1][0]) and z[1][1] == 0
    assert list(fig.data[0].x) == ["t0-0", "t0-1"]


def test_topics_get_distinct_values_in_java_order() -> None:
    fig = assignment_grid({"A": [TP("b", 0), TP("B", 0)]}, {"b": 1, "B": 1}, ["A"])
    assert list(fig.data[0].x) == ["B-0", "b-0"]  # 'B' < 'b' in Java order
    assert list(fig.data[0].z[0]) == [0, 1]


def test_large_groups_are_aggregated() -> None:
    members = [f"m{i}" for i in range(50)]
    topics = {"t": MAX_GRID_CELLS}
    fig = assignment_grid({"m0": [TP("t", 0), TP("t", 1)]}, topics, members)
    assert list(fig.data[0].x) == ["t"] and fig.data[0].z[0][0] == 2


def test_html_in_names_is_escaped() -> None:
    fig = assignment_grid({"<b>x</b>": [TP("t", 0)]}, {"t": 1}, ["<b>x</b>"])
    assert list(fig.data[0].y) == ["&lt;b&gt;x&lt;/b&gt;"]
    bars = load_bars({"<i>y</i>": 2}, {"<i>y</i>": 1.5})
    assert list(bars.data[0].x) == [plain("<i>y</i>")] and list(bars.data[1].y) == [1.5]
    assert isinstance(bars, go.Figure)


def test_an_all_equal_count_grid_has_no_colour_bar_and_separates_thousands() -> None:
    """A colour bar spanning 24.6..25.4 on an all-25 matrix suggests variation that is not there."""
    from engine.charts.assignment import topic_count_grid
    from engine.scenario import TopicPartition

    topics = {f"t{i}": 2_000 for i in range(2)}
    members = [f"C{i}" for i in range(80)]
    even = {m: [TopicPartition(t, p) for t in topics for p in range(i * 25, i * 25 + 25)]
            for i, m in enumerate(members)}
    fig = topic_count_grid(even, topics, members)
    assert fig.data[0].showscale is False and "25 in every cell" in fig.layout.title.text
    assert fig.data[0].zmin == 0 and ",d" in fig.data[0].hovertemplate
    uneven = {**even, "C0": even["C0"] + [TopicPartition("t0", 1_999)]}
    fig = topic_count_grid(uneven, topics, members)
    assert fig.data[0].showscale is not False and fig.data[0].zmax == 26 and "every cell" not in fig.layout.title.text
