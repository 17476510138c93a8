"""Group Protocol figures cost what the Assignments page costs.

A fixed number of traces carries every request and event of the sequence diagram and the restart timeline:
a shape, an arrow or a trace per request would re-validate the figure at each addition (3.4 s for 50 members),
and a trace per event is about 800 on the large preset, slow in the browser.
"""

from __future__ import annotations

import engine
from engine.charts.protocol import EVENT_COLOURS, restart_timeline, sequence_figure
from engine.consumer.membership import RollingRestartConfig, rolling_restart
from engine.presets import build_preset


def test_sequence_figure_has_one_trace_and_an_arrow_per_request() -> None:
    members = engine.parse_strategy_lines("\n".join(f"C{i}: range" for i in range(50)))
    _, steps = engine.walkthrough("my-group", members)
    fig = sequence_figure(steps, [m.member_id for m in members][:12])
    assert len(fig.data) == 1 and len(fig.data[0].text) == len(steps) > 100
    assert len(fig.layout.annotations) == len(steps) and len(fig.layout.shapes) == 12 + 2
    assert fig.layout.xaxis.title.text and fig.layout.yaxis.title.text
    assert fig.layout.xaxis.side == "top" and fig.layout.height > 4_000  # lane names readable at the top
    assert list(fig.layout.xaxis.ticktext[:2]) == ["every member", "C0"]


def test_restart_timeline_has_a_trace_per_event_kind_not_per_event() -> None:
    state = build_preset("large").first
    results = [rolling_restart(state, "range", RollingRestartConfig(), static) for static in (False, True)]
    events = sum(len(r.events) for r in results)
    fig = restart_timeline(results)
    assert len(fig.data) <= 1 + len(EVENT_COLOURS) < events
    assert sum(len(t.x) for t in fig.data[1:]) == events
    rebalances = sum(1 for r in results for e in r.events if e.rebalance and e.duration_ms)
    assert len(fig.data[0].x) == rebalances


def test_long_sync_group_texts_are_cut_in_the_hover_not_in_the_table() -> None:
    from engine.charts.protocol import HOVER_CHARS

    members = engine.parse_strategy_lines("C0: range\nC1: range")
    assignment = {"C0": [f"t-{p}" for p in range(0, 4000, 2)], "C1": [f"t-{p}" for p in range(1, 4000, 2)]}
    _, steps = engine.walkthrough("my-group", members, assignment)
    fig = sequence_figure(steps, ["C0", "C1"])
    assert max(len(t) for t in fig.data[0].hovertext) <= HOVER_CHARS + 40
    assert any("t-3999" in row["response"] for row in engine.walkthrough_rows(steps))
