"""AppTest of pages/5_Timing_Wheel.py: stepping by widget keys, the event log, bad input, the cost panel; the
first view draws the open tab alone, each tab and the event log when opened."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from engine.server.timer.driver import simulate
from engine.server.timer.frames import wheel_frames
from engine.server.timer.model import MAX_PAGE_TASKS, WheelConfig
from engine.server.timer.workloads import kafka_preset
from helpers import open_page


def _page() -> AppTest:
    return open_page("5_Timing_Wheel.py")


def _hand(at: AppTest, text: str, tick: int = 1, size: int = 3) -> AppTest:
    at.radio(key="wheel.source").set_value("By hand")
    at.text_input(key="wheel.tick_ms").input(str(tick))
    at.text_input(key="wheel.wheel_size").input(str(size))
    at.run()
    at.text_area(key="wheel.hand").set_value(text)
    return at.run()


def _frames(at: AppTest) -> list:
    """Every table the page drew, static (``st.table``) or grid (``st.dataframe``), as DataFrames."""
    return [t.value for t in [*at.table, *at.dataframe]]


def _step_log(at: AppTest) -> list[dict]:
    return [df for df in _frames(at) if "event" in df.columns][0].to_dict("records")


def _open(at: AppTest, view: str) -> AppTest:
    """The page with its tab ``view`` open (only the open tab runs)."""
    at.session_state["wheel.view"] = view
    return at.run()


@pytest.fixture(scope="module")
def preset_page() -> AppTest:
    return _page()


def test_default_page_shows_the_kafka_preset(preset_page: AppTest) -> None:
    at = preset_page
    assert not at.error
    frames = wheel_frames(simulate(WheelConfig(), kafka_preset(7)))
    assert any(f"{len(kafka_preset(7)):,} tasks" in c.value for c in at.caption)
    assert at.session_state["wheel.step"] == 0
    assert at.slider(key="wheel.step").max == len(frames) - 1
    assert [c.key for c in at.get("plotly_chart")] == ["wheel.rings"]  # the open tab alone: Step through
    assert not at.dataframe and not any(b.key == "wheel.download_log" for b in at.get("download_button"))


def test_each_tab_draws_when_opened_and_the_step_is_kept() -> None:
    at = _page()
    at.button(key="wheel.next").click().run()
    at.button(key="wheel.next").click().run()
    assert at.session_state["wheel.step"] == 2
    _open(at, "Play")
    assert [c.key for c in at.get("plotly_chart")] == ["wheel.animation"] and not at.slider
    _open(at, "Tasks and trace")
    tasks = next(df for df in _frames(at) if "inserted" in df.columns)
    assert len(tasks) == len(kafka_preset(7)) and not at.get("plotly_chart")
    assert {b.key for b in at.get("download_button")} == {"wheel.download_input", "wheel.download_trace"}
    _open(at, "Step through")
    assert at.session_state["wheel.step"] == 2 and at.slider(key="wheel.step").value == 2


def test_the_animation_sends_each_frame_as_what_the_step_changes(preset_page: AppTest) -> None:
    at = _open(preset_page, "Play")
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert len(spec["frames"]) > 10 and [b["label"] for b in spec["layout"]["updatemenus"][0]["buttons"]] == [
        "Play", "Pause"]
    ring = spec["frames"][5]["data"][0]
    assert sorted(ring) == ["hovertext", "marker", "type"]  # positions and widths stay the figure's
    assert len(ring["hovertext"]) == len(spec["data"][0]["r"]) == 20
    _open(at, "Step through")


def test_the_event_log_is_built_when_opened(preset_page: AppTest) -> None:
    at = preset_page
    at.button(key="wheel.last").click().run()
    at.session_state["wheel.history"] = True
    at.run()
    frames = wheel_frames(simulate(WheelConfig(), kafka_preset(7)))
    lines = sum(len(f.log) for f in frames)
    assert any(c.value.startswith(f"{lines:,} lines") for c in at.caption)
    log = next(df for df in _frames(at) if "event" in df.columns and len(df) == min(lines, 500))
    assert list(log["event"]) == [line.event for f in frames for line in f.log][-500:]
    assert any(b.key == "wheel.download_log" for b in at.get("download_button"))
    at.session_state["wheel.history"] = False
    at.button(key="wheel.first").click().run()


def test_step_buttons_move_through_the_frames(preset_page: AppTest) -> None:
    at = preset_page
    frames = wheel_frames(simulate(WheelConfig(), kafka_preset(7)))
    first_advance = next(f.step for f in frames if f.kind == "advance")
    at.button(key="wheel.next_expiration").click().run()
    assert not at.exception
    assert at.session_state["wheel.step"] == first_advance
    log = _step_log(at)
    assert log[0]["event"] == "expire bucket"
    assert [line["event"] for line in log] == [line.event for line in frames[first_advance].log]
    at.button(key="wheel.next").click().run()
    assert at.session_state["wheel.step"] == first_advance + 1
    at.button(key="wheel.prev").click().run()
    at.button(key="wheel.prev").click().run()
    assert at.session_state["wheel.step"] == first_advance - 1
    at.button(key="wheel.last").click().run()
    assert at.session_state["wheel.step"] == len(frames) - 1
    at.button(key="wheel.next").click().run()  # clamped at the end
    assert at.session_state["wheel.step"] == len(frames) - 1
    at.button(key="wheel.first").click().run()
    assert at.session_state["wheel.step"] == 0 and not at.exception


def test_a_task_drops_from_level_2_to_level_0() -> None:
    at = _hand(_page(), "x, 11")
    assert not at.exception and not at.error
    at.button(key="wheel.next_expiration").click().run()
    details = [line["detail"] for line in _step_log(at)]
    assert at.session_state["wheel.step"] == 2
    assert "level 2 bucket 1 (expires 9)" in details[0]
    assert details[1].startswith("drops from level 2 to level 0 bucket 2")
    at.button(key="wheel.next_expiration").click().run()
    assert [line["event"] for line in _step_log(at)] == ["expire bucket", "fire"]


def test_random_batch_uses_the_count() -> None:
    at = _page()
    at.radio(key="wheel.source").set_value("Random batch").run()
    at.text_input(key="wheel.random_count").set_value("30").run()
    assert not at.exception and not at.error
    assert any(c.value.startswith("30 tasks") for c in at.caption)


@pytest.mark.parametrize(("key", "typed", "message"), [
    ("wheel.tick_ms", "0", "tick_ms: must be 1..4,294,967,296, got 0 (not clamped). Still using 1."),
    ("wheel.wheel_size", "1", "wheel_size: must be 2..512, got 1 (not clamped). Still using 20."),
    ("wheel.wheel_size", "600", "wheel_size: must be 2..512, got 600 (not clamped). Still using 20."),
    ("wheel.start_ms", "-5", "start_ms: must be a whole number 0..4,398,046,511,104, got '-5'. Still using 0."),
])
def test_bad_config_is_refused_under_its_field(key: str, typed: str, message: str) -> None:
    at = _page()
    captions = [c.value for c in at.caption]
    at.text_input(key=key).input(typed).run()
    assert not at.exception
    assert [e.value for e in at.error] == [message]
    assert [c.value for c in at.caption] == captions  # the wheel still runs on the last accepted config


def test_bad_tasks_get_an_inline_message() -> None:
    at = _hand(_page(), "a, -3")
    assert not at.exception
    assert at.error[0].value.startswith("tasks[0].delay_ms: must be in 0..")
    at.text_area(key="wheel.hand").set_value("a, 1, 9\nb, 1, 3").run()
    assert "time cannot go back" in at.error[0].value
    at.text_area(key="wheel.hand").set_value("a; 1").run()
    assert at.error[0].value.startswith("line 1: expected")


def test_too_many_random_tasks_is_refused() -> None:
    at = _page()
    at.radio(key="wheel.source").set_value("Random batch").run()
    at.text_input(key="wheel.random_count").set_value(str(MAX_PAGE_TASKS + 1)).run()
    assert not at.exception
    assert [e.value for e in at.error] == ["Tasks: must be 0..2,000, got 2,001 (not clamped). Still using 60."]
    assert any(c.value.startswith("60 tasks") for c in at.caption)  # the last accepted count


def test_cost_panel_measures_both_timers(preset_page: AppTest) -> None:
    at = _open(preset_page, "Wheel vs heap")
    assert [c.key for c in at.get("plotly_chart")] == ["wheel.costs"]  # steps and µs per task: one figure
    assert len(json.loads(at.get("plotly_chart")[0].proto.spec)["data"]) == 8  # 2 timers x 2 phases x 2 panels
    table = [df for df in _frames(at) if "timer" in df.columns][0]  # 4 rows: a static table, floats as shown
    assert sorted(set(table["tasks"])) == [1_000, 10_000]
    assert set(table["timer"]) == {"timing wheel", "binary heap (DelayQueue)"}
    wheel = table[(table["timer"] == "timing wheel") & (table["tasks"] == 10_000)].iloc[0]
    assert wheel["levels"] == 4 and float(wheel["insert steps/task"]) < 5
    _open(at, "Step through")


def test_the_step_button_and_the_step_slider_have_their_own_labels() -> None:
    """One msgid served a button ("单步" fits it) and a slider (it does not): two msgids now."""
    at = _page()
    button = at.button(key="wheel.next").label
    slider = next(s.label for s in at.slider if s.key == "wheel.step") if at.slider else None
    assert button == "Step forward" and slider not in (None, button)
