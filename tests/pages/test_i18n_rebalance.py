"""The Rebalance page in Chinese beyond its first screen: a timeline of events built on the page
(a crash and rejoin, added partitions, a refused event), the steps it gives, the timeline that no longer fits
another preset and the large preset's sampled animation show no English prose, and nothing asked of ``_()`` /
``tr()`` was missing."""

from __future__ import annotations

import json

from support.i18n_pages import english_left, run_page
from ui.text import i18n


def test_the_rebalance_page_with_events_in_chinese() -> None:
    i18n.MISSING.clear()
    at = run_page("pages/2_Rebalance.py", "zh")
    at.selectbox(key="sidebar.preset").set_value("seed-c").run()
    at.radio(key="rebalance.source").set_value("events").run()
    for kind in ("crash-rejoin", "add-partitions"):
        at.selectbox(key="rebalance.kind").set_value(kind).run()
        at.button(key="rebalance.add_event").click().run()
    at.selectbox(key="rebalance.kind").set_value("add").run()
    at.text_input(key="rebalance.new_id").set_value("C1").run()
    at.button(key="rebalance.add_event").click().run()  # C1 is in the group: refused, said in Chinese
    assert not at.exception, at.exception
    step = next(s for s in at.selectbox if s.key and s.key.startswith("rebalance.step"))
    assert step.options == ["第 1 步：C0 崩溃后重新加入（崩溃）", "第 2 步：C0 崩溃后重新加入（重新加入）",
                            "第 3 步：t0 增加 2 个分区"]
    assert any("已经在消费者组中" in e.value for e in at.error)
    assert english_left(at) == []
    at.selectbox(key="sidebar.preset").set_value("large").run()  # the events no longer fit: said in Chinese
    assert [e.value for e in at.error] == ["事件时间线已不再适用于当前场景：add-partitions：未知主题 't0'"]
    at.button(key="rebalance.clear_broken").click().run()
    assert not at.exception, at.exception
    animation = json.loads(at.get("plotly_chart")[0].proto.spec)["layout"]
    assert animation["title"]["text"].startswith("绘制了")
    assert [b["label"] for m in animation["updatemenus"] for b in m["buttons"]] == ["全部播放", "暂停"]
    assert english_left(at) == []
    assert sorted(m for lang, m in i18n.MISSING if lang == "zh") == []
