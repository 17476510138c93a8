"""AppTest of the Sizing page's "Kafka Streams" tab: the numbers shown are engine.streams_sizing's, a field changes
them, refused values are named beside their field, the charts render, and the tab in Chinese shows no English
prose and asks for no missing translation."""

from __future__ import annotations

import json
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from engine import streams_sizing as ss
from helpers import REPO
from support.i18n_pages import english_left, run_page
from ui.text import i18n

DEFAULT = ss.StreamsSizingInputs((ss.SourceSubtopology((6,), False), ss.SourceSubtopology((6, 6), True)))


@pytest.fixture
def app() -> AppTest:
    """The Sizing page with its lazy "Kafka Streams" tab open (only the open tab runs)."""
    at = AppTest.from_file(str(REPO / "pages" / "4_Sizing.py"), default_timeout=120)
    at.session_state["sizing.view"] = "Kafka Streams"
    return at.run()


def _tab(at: AppTest, label: str = "Kafka Streams") -> Any:
    return next(t for t in at.tabs if t.label == label)


def _metric(at: AppTest, label: str) -> str:
    return next(m.value for m in _tab(at).metric if m.label == label)


def _chart(at: AppTest, key: str) -> dict[str, Any]:
    return json.loads(next(c for c in at.get("plotly_chart") if c.key == key).proto.spec)


def test_the_tab_shows_the_engines_answer(app: AppTest) -> None:
    expected = ss.size_streams(DEFAULT)
    assert not app.exception and not _tab(app).error
    assert _metric(app, "Tasks") == "12"
    assert _metric(app, "Threads with an active task") == f"{expected.busy_threads} / {expected.threads}" == "6 / 6"
    assert _metric(app, "Standby copies") == f"{expected.standby_copies}" == "6"
    assert _metric(app, "Worst restore after a failure (s)") == f"{expected.worst_restore_s:,.1f}"
    threads = _chart(app, "sizing.streams.threads_chart")
    assert [t["name"] for t in threads["data"]] == ["active tasks", "standby tasks"]
    assert [sum(t["y"]) for t in threads["data"]] == [12, 6]
    restore = _chart(app, "sizing.streams.restore_chart")
    assert [t["y"] for t in restore["data"]] == [[f.restore_s for f in expected.failovers_without],
                                                [f.restore_s for f in expected.failovers]]
    table = _tab(app).table[0].value
    assert list(table["the instance that fails"]) == ["app-1", "app-2", "app-3"]
    assert any("StickyTaskAssignor" in c.value and "4.2.0" in c.value for c in _tab(app).caption)


def test_more_threads_than_tasks_are_named(app: AppTest) -> None:
    app.text_input(key="sizing.streams.threads").set_value("5").run()
    assert _metric(app, "Threads with an active task") == "12 / 15"
    assert any(w.value.startswith("3 of 15 threads get no active task") for w in _tab(app).warning)
    app.text_input(key="sizing.streams.sources.0").set_value("20, 4").run()  # 20 + 6 tasks for 15 threads
    assert _metric(app, "Tasks") == "26" and _metric(app, "Threads with an active task") == "15 / 15"


def test_one_instance_places_no_standby(app: AppTest) -> None:
    app.text_input(key="sizing.streams.instances").set_value("1").run()
    assert _metric(app, "Standby copies") == "0"
    assert any(w.value.startswith("6 standby copies are not placed") for w in _tab(app).warning)
    assert any("no other instance takes its tasks over" in i.value for i in _tab(app).info)
    assert "sizing.streams.restore_chart" not in {c.key for c in app.get("plotly_chart")}


@pytest.mark.parametrize(("key", "value", "message"), [
    ("sizing.streams.instances", "0", "Application instances: must be 1..30, got 0 (not clamped). Still using 3."),
    ("sizing.streams.threads", "2.5", "decimal is not rounded"),
    ("sizing.streams.restore_mb_s", "0", "Restore rate per instance (MB/s): must be a number in 0.001..100000"),
    ("sizing.streams.sources.1", "6, x", "Subtopology 1: its source topics' partitions: must be a whole number, "
                                         "got 'x'. Still using 6, 6."),
])
def test_a_refused_value_is_named_beside_its_field(app: AppTest, key: str, value: str, message: str) -> None:
    app.text_input(key=key).set_value(value).run()
    assert not app.exception
    assert any(message in e.value for e in _tab(app).error), [e.value for e in _tab(app).error]
    assert _metric(app, "Tasks") == "12"  # the last accepted values


def test_too_many_tasks_in_all_is_refused(app: AppTest) -> None:
    app.text_input(key="sizing.streams.sources.0").set_value("1000").run()
    assert [e.value for e in _tab(app).error] == ["tasks: at most 1,000 in all, got 1,006"]
    assert not _tab(app).metric


def test_the_tab_in_chinese() -> None:
    i18n.MISSING.clear()
    at = run_page("pages/4_Sizing.py", "zh")
    zh = "Kafka Streams 应用"
    at.session_state["sizing.view"] = zh
    at.run()
    assert [m.label for m in _tab(at, zh).metric][:2] == ["任务", "有活动任务的流线程"]
    at.text_input(key="sizing.streams.threads").set_value("5").run()
    at.text_input(key="sizing.streams.sources.0").set_value("6, x").run()
    assert any(e.value.startswith("子拓扑 0：其源主题的分区数：必须是整数") for e in _tab(at, zh).error)
    assert not at.exception and english_left(at) == []
    at.text_input(key="sizing.streams.sources.0").set_value("1000").run()
    assert [e.value for e in _tab(at, zh).error] == ["任务：总共最多 1,000 个，实际为 1,006"]
    at.text_input(key="sizing.streams.instances").set_value("1").run()
    assert not at.exception and english_left(at) == []
    assert sorted(m for lang, m in i18n.MISSING if lang == "zh") == []


def test_a_lessons_link_to_the_streams_fields_opens_the_tab() -> None:
    """A link naming the tab's fields (``?sizing.streams.instances=1``) opens it; the first tab does not run."""
    at = AppTest.from_file(str(REPO / "pages" / "4_Sizing.py"), default_timeout=120)
    at.query_params["sizing.streams.instances"] = "1"
    at.run()
    assert not at.exception and at.session_state["sizing.view"] == "Kafka Streams"
    assert _metric(at, "Standby copies") == "0"
    assert "sizing.formula_chart" not in {c.key for c in at.get("plotly_chart")}


def test_the_tabs_fields_keep_their_values_while_another_tab_is_open(app: AppTest) -> None:
    app.text_input(key="sizing.streams.sources.0").set_value("8").run()
    app.checkbox(key="sizing.streams.stateful.0").check().run()
    app.session_state["sizing.view"] = "Partitions for a topic"
    app.run()
    app.session_state["sizing.view"] = "Kafka Streams"
    app.run()
    assert app.text_input(key="sizing.streams.sources.0").value == "8"
    assert app.checkbox(key="sizing.streams.stateful.0").value and _metric(app, "Tasks") == "14"
