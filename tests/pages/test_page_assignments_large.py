"""Assignments on a big group: one strategy drawn at a time, aggregated views, drill-down."""

from __future__ import annotations

from engine.charts.assignment import GRID_PARTITION_LIMIT
from engine.consumer.group import replay
from engine.presets import build_preset
from helpers import open_page, shown_tables


def charts(at) -> list[str]:
    return [c.key for c in at.get("plotly_chart")]


def test_large_preset_draws_one_strategy_aggregated_with_a_drill_down() -> None:
    at = open_page("1_Assignments.py", "large")
    scenario = build_preset("large")
    assert scenario.first.total_partitions > GRID_PARTITION_LIMIT
    assert charts(at) == ["assign.grid.range", "assign.bars.range"]  # one tab runs, not twelve charts
    assert any("unreadable above" in i.value for i in at.info)
    assert not any("consumer" in t.columns for t in shown_tables(at))  # the per-consumer table: closed, not drawn
    at.session_state["assign.table_view.range"] = True  # its lazy expander, opened
    at.run()
    table = next(d.value for d in at.dataframe if "consumer" in d.value.columns)  # 50 rows: the grid
    expected = {m: len(tps) for m, tps in replay(scenario, "range").steps[0].assignment.items()}
    assert dict(zip(table["consumer"], table["partitions"], strict=True)) == expected
    at.session_state["assign.view"] = "Sticky"
    at.run()
    assert charts(at) == ["assign.grid.sticky", "assign.bars.sticky"]
    topic = sorted(scenario.first.topics)[0]
    at.selectbox(key="assign.topic.sticky").set_value(topic).run()
    assert not at.exception
    assert "assign.topic_fig.sticky" in charts(at)
    member = scenario.first.member_ids[3]
    assert not at.session_state["assign.table_view.sticky"]  # the strategy's own expander, closed until...
    at.selectbox(key="assign.member.sticky").set_value(member).run()
    assert at.session_state["assign.table_view.sticky"]  # ...a consumer is chosen: it opens itself
    table = next(d.value for d in at.dataframe if "consumer" in d.value.columns)
    assert list(table["consumer"]) == [member]


def test_small_group_keeps_the_client_assignors_side_by_side() -> None:
    at = open_page("1_Assignments.py", "seed-d")
    assert charts(at)[:2] == ["assign.grid.range", "assign.bars.range"] and len(charts(at)) == 8
    assert not any("unreadable above" in i.value for i in at.info)


def test_downloads_are_built_on_click_not_on_every_rerun(monkeypatch) -> None:
    import engine

    calls: list[int] = []
    real = engine.records
    monkeypatch.setattr(engine, "records", lambda *a, **k: calls.append(1) or real(*a, **k))
    at = open_page("1_Assignments.py", "large")
    at.session_state["assign.config_view"] = True  # the config section, a lazy expander
    at.run()
    at.selectbox(key="assign.config_strategy").set_value("sticky").run()
    assert not at.exception and calls == []  # the 12,000-row CSV is not rebuilt for a rerun
    assert {b.key for b in at.get("download_button")} >= {"assign.download_csv", "assign.download_json"}
