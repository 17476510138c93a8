"""Timing Wheel and Load in Chinese beyond their first run: the wheel's three task sources, its step
controls (the event log of a clock advance), its lazy event log and tabs opened, the other insert order and its
inline errors; Load's upload
source and an inline error (a finished run needs Spark: tests/spark/test_i18n_load_run.py).  Each state shows
no English prose and nothing asked of ``_()`` / ``tr()`` is missing."""

from __future__ import annotations

import json

from support.i18n_pages import english_left, run_page
from ui.text import i18n


def missing() -> list[str]:
    return sorted(m for lang, m in i18n.MISSING if lang == "zh")


def clean(at: object) -> bool:
    return not at.exception and english_left(at) == [] and missing() == []  # type: ignore[attr-defined]


def test_wheel_sources_steps_and_errors_in_chinese() -> None:
    i18n.MISSING.clear()
    at = run_page("pages/5_Timing_Wheel.py", "zh")
    assert at.radio(key="wheel.source").options == ["Kafka 预设", "随机批量", "手动输入"]
    at.button(key="wheel.next_expiration").click().run()
    at.button(key="wheel.next").click().run()
    step = at.session_state["wheel.step"]
    assert any(m.value.startswith(f"**第 {step} 步** — ") for m in at.markdown)
    assert list(at.table[0].value.columns) == ["时间（毫秒）", "事件", "任务", "详情"]  # a few lines: static
    rings = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert rings["layout"]["title"]["text"].startswith(f"第 {step} 步（")
    assert all("层" in text for trace in rings["data"] for text in trace.get("hovertext") or ())
    at.session_state["wheel.history"] = True  # the lazy event log, opened
    at.run()
    assert clean(at)
    for view in ("播放", "任务与追踪", "时间轮 vs 堆"):  # each lazy tab, opened by its Chinese label
        at.session_state["wheel.view"] = view
        at.run()
        assert clean(at), view
    at.selectbox(key="wheel.cost_order").set_value("descending").run()
    assert clean(at)
    at.session_state["wheel.view"] = "单步执行"
    at.run()
    at.radio(key="wheel.source").set_value("Random batch").run()
    assert any(c.value.startswith("60 个任务 · ") for c in at.caption)
    at.text_input(key="wheel.random_count").set_value("5000").run()
    assert [e.value for e in at.error] == [
        "任务：必须在 0..2,000 之间，实际为 5,000（不会被截断到范围内）。仍在使用 60。"]
    at.text_input(key="wheel.random_count").set_value("60").run()
    at.radio(key="wheel.source").set_value("By hand").run()
    assert not at.error
    at.button(key="wheel.last").click().run()
    assert clean(at)
    at.text_area(key="wheel.hand").set_value("a, 1, 9\nb, 1, 3").run()
    assert [e.value for e in at.error] == [
        "tasks[1].add_at_ms：时间不能倒退（须 >= 9，即上一个任务的加入时间），实际为 3"]
    at.text_area(key="wheel.hand").set_value("a, x").run()
    assert [e.value for e in at.error] == ["第 1 行：delay_ms 必须是整数，实际为 'x'"]
    at.text_input(key="wheel.wheel_size").input("1").run()
    assert at.error[0].value.startswith("wheel_size：必须在 2..")
    assert clean(at)


def test_load_upload_source_and_an_error_in_chinese() -> None:
    i18n.MISSING.clear()
    at = run_page("pages/6_Load.py", "zh")
    at.text_input(key="load.partitions").set_value("12,-1")
    at.button(key="load.run").click().run()
    assert [e.value for e in at.error] == ["分区数：每个都必须是 1..100,000 之间的整数，实际为 '-1'"]
    at.multiselect(key="load.strategies").set_value([])
    at.button(key="load.run").click().run()
    assert [e.value for e in at.error] == ["分配策略：请至少选择一个"]
    at.multiselect(key="load.strategies").set_value(["range"])
    at.radio(key="load.source").set_value("Upload a file").run()
    at.button(key="load.run").click().run()
    assert [e.value for e in at.error] == ["上传：请先选择文件"]
    assert clean(at)
