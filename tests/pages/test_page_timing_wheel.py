"""AppTest of pages/5_Timing_Wheel.py: stepping by widget keys, the event log, bad input, the cost panel."""

from __future__ import annotations

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


def _step_log(at: AppTest) -> list[dict]:
    return [df for df in at.dataframe if "event" in df.value.columns][0].value.to_dict("records")


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
    charts = at.get("plotly_chart")
    assert len(charts) >= 2  # the rings, the animation (and the cost charts)


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
    table = [df for df in preset_page.dataframe if "timer" in df.value.columns][0].value
    assert sorted(set(table["tasks"])) == [1_000, 10_000]
    assert set(table["timer"]) == {"timing wheel", "binary heap (DelayQueue)"}
    wheel = table[(table["timer"] == "timing wheel") & (table["tasks"] == 10_000)].iloc[0]
    assert wheel["levels"] == 4 and wheel["insert steps/task"] < 5


def test_the_step_button_and_the_step_slider_have_their_own_labels() -> None:
    """One msgid served a button ("单步" fits it) and a slider (it does not): two msgids now."""
    at = _page()
    button = at.button(key="wheel.next").label
    slider = next(s.label for s in at.slider if s.key == "wheel.step") if at.slider else None
    assert button == "Step forward" and slider not in (None, button)
