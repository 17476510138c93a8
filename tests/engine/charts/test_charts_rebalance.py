"""The rebalance animation: frames, who travels through the pool, and the pause timeline figure."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from engine.charts.rebalance import (
    COLUMN_LABELS_LIMIT,
    KINDS,
    PAUSE_ROWS_LIMIT,
    Panel,
    pause_timeline_figure,
    plan_travel,
    rebalance_animations,
)
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


def _drawn(trace: go.Bar) -> dict[str, tuple[tuple[int, int], ...]]:
    """A pause trace's intervals (ms) by row, as the bars draw them (base, base + length in seconds)."""
    rows: dict[str, list[tuple[int, int]]] = {}
    for row, base, length in zip(trace.y, trace.base, trace.x, strict=True):
        rows.setdefault(row, []).append((round(base * 1000), round((base + length) * 1000)))
    return {row: tuple(intervals) for row, intervals in rows.items()}


def test_a_pause_figure_over_100_alike_consumers_has_one_row_per_protocol_with_their_own_intervals() -> None:
    """Above ``PAUSE_ROWS_LIMIT`` consumers, those with the same pauses share a row; what the row draws is each
    one's own intervals (a crash delays everyone's to after session.timeout.ms: the two protocols differ)."""
    t = ProtocolTimings()
    members = {f"C{i}": [TP("t", i)] for i in range(100)}
    reports = {"eager": pause_report("eager", members, members, t),
               "eager, C3 crashed": pause_report("eager", members, members, t, crashed=["C3"])}
    fig = pause_timeline_figure(reports)
    assert list(fig.data[0].y) == ["eager · 100 consumers (C0, ...)", "eager, C3 crashed · 100 consumers (C0, ...)"]
    assert fig.layout.height < 300  # two rows tall, not a hundred
    for trace, stops in ((fig.data[1], False), (fig.data[2], True)):
        drawn = _drawn(trace)
        for label, report in reports.items():
            own = report.member_stops if stops else report.member_pauses
            assert {own.get(m, ()) for m in members} == {drawn[f"{label} · 100 consumers (C0, ...)"]}
    assert _drawn(fig.data[1])["eager · 100 consumers (C0, ...)"] == ((t.processing_ms, t.processing_ms +
                                                                       t.rejoin_ms + t.sync_ms),)


def test_a_pause_figure_keeps_a_row_per_consumer_up_to_the_limit_and_splits_distinct_timelines() -> None:
    t = ProtocolTimings()
    few = {f"C{i}": [TP("t", i)] for i in range(PAUSE_ROWS_LIMIT)}
    assert len(pause_timeline_figure({"eager": pause_report("eager", few, few, t)}).data[0].y) == PAUSE_ROWS_LIMIT
    many = {f"C{i}": [TP("t", i)] for i in range(100)}
    report = pause_report("cooperative", many, {**many, "C0": [TP("t", 0), TP("t", 1)], "C1": []}, t)
    fig = pause_timeline_figure({"cooperative": report})
    rows = ["cooperative · 1 consumer (C0)", "cooperative · 1 consumer (C1)", "cooperative · 98 consumers (C2, ...)"]
    assert list(fig.data[0].y) == rows
    # t-1 travels from C1 to C0: both wait for it the same time, but C1, left with nothing, stops: two rows
    pauses, stops = _drawn(fig.data[1]), _drawn(fig.data[2])
    assert pauses[rows[0]] == pauses[rows[1]] == report.member_pauses["C0"] == report.member_pauses["C1"] != ()
    assert stops.get(rows[0], ()) == report.member_stops["C0"] == ()
    assert stops[rows[1]] == report.member_stops["C1"] != ()
    assert pauses.get(rows[2], ()) == stops.get(rows[2], ()) == ()  # the 98 others: nothing moves
    assert all(report.member_pauses[f"C{i}"] == report.member_stops[f"C{i}"] == () for i in range(2, 100))


def test_an_animation_of_2000_consumers_names_at_most_41_columns_on_each_axis() -> None:
    """The pool and at most ``COLUMN_LABELS_LIMIT`` consumers, evenly spaced, the first and the last among them;
    each name sits on its own consumer's column (the dots keep every column)."""
    members = [f"C{i}" for i in range(2_000)]
    before = {m: [TP("t", i)] for i, m in enumerate(members)}
    after = {m: [TP("t", (i + 1) % 2_000)] for i, m in enumerate(members)}
    fig = rebalance_animations([Panel("range", before, after, members),
                                Panel("sticky", before, before, members[::-1])])
    for axis, order in (("xaxis", members), ("xaxis2", members[::-1])):
        ticks = fig.layout[axis]
        assert len(ticks.tickvals) == len(ticks.ticktext) == COLUMN_LABELS_LIMIT + 1 == 41
        assert (ticks.tickvals[0], ticks.ticktext[0]) == (0, "revoked / unassigned")
        assert [ticks.ticktext[i] for i in (1, -1)] == [order[0], order[-1]]
        assert all(text == order[value - 1] for value, text in zip(ticks.tickvals[1:], ticks.ticktext[1:],
                                                                   strict=True))
        assert list(ticks.range) == [-0.7, 2_000.7]  # every consumer keeps its column


def test_an_animation_of_a_few_consumers_names_every_column() -> None:
    fig = rebalance_animations([Panel("sticky", {"C0": [A, B], "C1": [C]}, {"C0": [A, C]}, ["C0", "C1"])])
    assert list(fig.layout.xaxis.tickvals) == [0, 1, 2]
    assert list(fig.layout.xaxis.ticktext) == ["revoked / unassigned", "C0", "C1"]
