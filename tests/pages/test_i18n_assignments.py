"""Assignments in Chinese beyond its first state: the librdkafka client at seed-d's second step (the
Java-vs-librdkafka note, the seed articles' callouts, the step labels) and the large preset's aggregated views
with a drill-down, each with no English prose and nothing missing from the catalogue."""

from __future__ import annotations

from typing import Any

from streamlit.testing.v1 import AppTest

from engine.presets import build_preset
from helpers import REPO
from support.i18n_pages import english_left
from ui.text import i18n


def run_zh(preset: str, **state: Any) -> AppTest:
    """The page in Chinese, its state set before the first run (``?preset=`` and session state)."""
    at = AppTest.from_file(str(REPO / "pages" / "1_Assignments.py"), default_timeout=180)
    at.session_state[i18n.STATE_KEY] = "zh"
    at.query_params["preset"] = preset
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def test_assignments_in_chinese_with_librdkafka_a_second_step_and_a_large_group() -> None:
    i18n.MISSING.clear()
    at = run_zh("seed-d", **{"client.selected": "librdkafka", "assign.step": 1,
                             "assign.articles_view": True})  # the article corrections' lazy expander, opened
    assert english_left(at) == []
    assert any("group.protocol" in t.value.columns for t in at.table)  # the balance table, static
    assert at.selectbox(key="assign.step").options == ["第 0 步：初始消费者组", "第 1 步：C1 离开"]
    assert at.radio(key="client.assign").options == ["Java 客户端", "librdkafka 客户端"]
    assert any("librdkafka" in i.value and "换成 Java 消费者" in i.value for i in at.info)  # the client note
    callout = "《深入客户端（Explore Client）》（笔误）的说法"  # an article's callout by title and verdict
    assert any(callout in w.value for w in at.warning)
    scenario = build_preset("large")
    at = run_zh("large", **{"assign.view": "Sticky（粘性）", "assign.topic.sticky": sorted(scenario.first.topics)[0],
                            "assign.member.sticky": scenario.first.member_ids[3]})
    assert english_left(at) == []
    assert {c.key for c in at.get("plotly_chart")} == {"assign.grid.sticky", "assign.bars.sticky",
                                                        "assign.topic_fig.sticky"}
    assert at.session_state["assign.table_view.sticky"]  # a consumer chosen: its table's expander opened itself
    assert [len(d.value) for d in at.dataframe] == [1]  # ...and drew its row (english_left read it above)
    assert any("个分区 × 50 个消费者" in i.value for i in at.info)
    assert sorted(m for lang, m in i18n.MISSING if lang == "zh") == []
