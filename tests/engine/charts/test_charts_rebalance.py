"""The rebalance animation: frames, who travels through the pool, and the pause timeline figure."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from engine.charts.rebalance import KINDS, Panel, pause_timeline_figure, plan_travel, rebalance_animations
from engine.consumer.pause import ProtocolTimings, pause_report
from engine.scenario import TopicPartition as TP

A, B, C, D = TP("t", 0), TP("t", 1), TP("t", 2), TP("u", 0)


def test_docstring_example_deleted_partition_ends_in_the_pool() -> None:
    fig = rebalance_animations([Panel("sticky", {"C0": [A, B], "C1": [C]}, {"C0": [A, C]}, ["C0", "C1"])])
    go.Figure(fig.to_dict())  # the hand-built dicts follow plotly's schema
    assert len(fig.frames) == 13
    for frame in fig.frames:
        assert sum(len(trace.x) for trace in frame.data) == 3
    last = fig.frames[-1].data[KINDS.index("deleted")]
    assert list(last.x) == [0.0]  # B (deleted) ends in the pool column


def test_eager_sends_everything_through_the_pool_cooperative_only_movers() -> None:
    before, after = {"C0": [A, B], "C1": [C]}, {"C0": [A], "C1": [C, B]}
    eager = plan_travel(before, after, ["C0", "C1"], None)
    assert eager.via_pool.all()
    coop = plan_travel(before, after, ["C0", "C1"], [B])
    assert dict(zip(eager.labels, coop.via_pool, strict=True)) == {"t-0": False, "t-1": True, "t-2": False}
    assert list(coop.kinds) == [0, 2, 0]
    assert np.array_equal(coop.end[1], [2, 0])  # B ends in C1's column, first slot (t-1 sorts before t-2)


def test_new_partitions_start_in_the_pool_and_frames_have_play_and_slider() -> None:
    fig = rebalance_animations([Panel("cooperative", {"C0": [A]}, {"C0": [A, D]}, ["C0"], revoked=[])])
    new = KINDS.index("new / unassigned -> assigned")
    assert list(fig.frames[0].data[new].x) == [0.0] and list(fig.frames[-1].data[new].x) == [1.0]
    assert fig.layout.updatemenus[0].buttons[0].label == "Play all"
    assert len(fig.layout.sliders[0].steps) == len(fig.frames)


def test_big_groups_get_fewer_frames() -> None:
    before = {"C0": [TP("t", p) for p in range(6000)]}
    after = {"C1": [TP("t", p) for p in range(6000)]}
    fig = rebalance_animations([Panel("range", before, after, ["C0", "C1"])])
    assert len(fig.frames) == 7


def test_pause_timeline_rows() -> None:
    t = ProtocolTimings()
    report = pause_report("eager", {"C0": [A]}, {"C0": [A], "C1": []}, t)
    fig = pause_timeline_figure({"eager": report})
    assert isinstance(fig, go.Figure)
    assert list(fig.data[0].y) == ["eager · C0", "eager · C1"]
    assert list(fig.data[1].x) == [(t.rejoin_ms + t.sync_ms) / 1000]
