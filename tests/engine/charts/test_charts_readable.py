"""Assignment figures at projector distance and at real sizes (issues 11 item 11 and 13).

Every axis has a title, ticks are at least 12 px, the top margin holds Plotly's mode bar, big groups are
aggregated into numbers (no per-point strings), and the drill-down uses one WebGL trace.
"""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from engine.charts.assignment import (
    GRID_PARTITION_LIMIT,
    TICK_PX,
    assignment_grid,
    count_histogram,
    load_bars,
    topic_owner_figure,
)
from engine.scenario import TopicPartition as TP

MEMBERS = [f"consumer-{i}" for i in range(120)]
TOPICS = {f"t{i}": 50 for i in range(20)}  # 1,000 partitions
ASSIGNMENT = {m: [TP(f"t{(i + k) % 20}", (i * 7 + k) % 50) for k in range(8)] for i, m in enumerate(MEMBERS)}


def figures() -> list[go.Figure]:
    small = {"C0": [TP("t", 0)], "C1": [TP("t", 1)]}
    return [assignment_grid(small, {"t": 2}, ["C0", "C1"]), assignment_grid(ASSIGNMENT, TOPICS, MEMBERS),
            load_bars({"C0": 1, "C1": 1}, {"C0": 1.0, "C1": 2.0}), load_bars({m: 8 for m in MEMBERS}),
            count_histogram({m: 8 for m in MEMBERS}), topic_owner_figure(ASSIGNMENT, "t0", 50, MEMBERS)]


@pytest.mark.parametrize("index", range(6))
def test_axes_have_titles_readable_ticks_and_room_for_the_mode_bar(index: int) -> None:
    fig = figures()[index]
    for axis in (fig.layout.xaxis, fig.layout.yaxis):
        assert axis.title.text, f"figure {index}: an axis without a title"
        assert axis.tickfont.size >= TICK_PX >= 12
    assert fig.layout.margin.t >= 40  # the mode bar (about 30 px) sits in the margin, above names and bars


def test_big_group_is_aggregated_to_numbers_per_consumer_and_topic() -> None:
    assert sum(TOPICS.values()) > GRID_PARTITION_LIMIT
    fig = assignment_grid(ASSIGNMENT, TOPICS, MEMBERS)
    trace = fig.data[0]
    assert len(trace.x) == len(TOPICS) and len(trace.y) == len(MEMBERS)
    assert trace.z.sum() == sum(len(v) for v in ASSIGNMENT.values())
    assert trace.text is None and trace.hovertext is None
    assert fig.layout.yaxis.showticklabels is False and "hover for names" in fig.layout.yaxis.title.text


def test_many_consumers_get_a_histogram_not_thin_bars() -> None:
    counts = {m: 8 + (i % 3) for i, m in enumerate(MEMBERS)}
    fig = load_bars(counts)
    assert list(fig.data[0].x) == [8, 9, 10] and sum(fig.data[0].y) == len(MEMBERS)


def test_topic_drill_down_is_one_webgl_trace_of_numbers() -> None:
    fig = topic_owner_figure(ASSIGNMENT, "t0", 50, MEMBERS)
    owned = sorted(tp.partition for tps in ASSIGNMENT.values() for tp in tps if tp.topic == "t0")
    assert len(fig.data) == 1 and isinstance(fig.data[0], go.Scattergl)
    assert sorted(fig.data[0].x) == owned and fig.data[0].text is None


def test_every_cached_figure_has_ticks_of_at_least_12_px() -> None:
    import ui.assignments.cached as cached
    from engine.comparison import CLIENT
    from engine.consumer.pause import ProtocolTimings
    from engine.presets import build_preset
    from ui.frame.state import ScenarioRef

    ref = ScenarioRef.of(build_preset("seed-d"))
    figures = [cached.animations_figure(ref, (CLIENT["sticky"],), 1, 160),
               cached.pause_figure(ref, 1, ProtocolTimings(), ()),
               cached.grid_figure(ref, CLIENT["range"], 1), cached.bars_figure(ref, CLIENT["range"], 1)]
    for fig in figures:
        for axis in ("xaxis", "yaxis"):
            assert fig.to_dict()["layout"][axis]["tickfont"]["size"] >= 12
