"""A 10 MB paste is refused at once: every paste area is bounded in the browser (``max_chars``,
said in its help text) and its size is checked before anything parses it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from streamlit.testing.v1 import AppTest

from engine.errors import LimitError
from helpers import REPO, open_page
from ui.inputs.paste import checked_paste
from ui.scenario.builder import MAX_PASTE_CHARS

TEN_MB = "[" * (10 * 2**20)  # would fail deep in the JSON parser if it got there


def area(at: AppTest, key: str):
    return next(t for t in at.text_area if t.key == key)


def test_checked_paste() -> None:
    assert checked_paste("{}", 10, "x") == "{}"
    with pytest.raises(LimitError, match="cut there"):
        checked_paste("x" * 10, 10, "x")


def test_home_page_refuses_a_10_mb_paste_by_its_size() -> None:
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60).run()
    paste = area(at, "builder.json")
    assert paste.proto.max_chars == MAX_PASTE_CHARS
    assert f"{MAX_PASTE_CHARS:,} characters" in paste.help
    before = at.session_state["scenario.current"]
    paste.set_value(TEN_MB).run()
    at.button(key="builder.load_json").click().run()
    assert not at.exception
    # the browser (and AppTest) cut the paste at max_chars; the cut text is named, never parsed
    assert area(at, "builder.json").value == TEN_MB[:MAX_PASTE_CHARS]
    assert any(f"reached the {MAX_PASTE_CHARS:,}-character limit" in e.value for e in at.error), at.error
    assert at.session_state["scenario.current"] == before


@pytest.mark.parametrize("page_file,key,tab", [
    ("4_Sizing.py", "sizing.producer_perf", None), ("4_Sizing.py", "sizing.consumer_perf", None),
    ("7_Group_Protocol.py", "protocol.lists", None),
    ("3_Keys.py", "keys.group_ids", ("keys.view", "Group coordinator")),
])
def test_paste_areas_are_bounded_in_the_browser(page_file: str, key: str, tab: tuple[str, str] | None,
                                                first_run: Callable[..., AppTest]) -> None:
    at = first_run(page_file)
    if tab:  # the area is in a lazy tab: drawn once the tab is open
        at = open_page(page_file)
        at.session_state[tab[0]] = tab[1]
        at.run()
    paste = area(at, key)
    assert paste.proto.max_chars > 0
    assert f"{paste.proto.max_chars:,} characters" in paste.help


def test_group_protocol_refuses_an_over_long_paste_before_parsing() -> None:
    at = open_page("7_Group_Protocol.py")
    area(at, "protocol.lists").set_value("C0: range\n" * 40_000).run()
    assert not at.exception
    assert any("strategy lists: the paste reached the 300,000-character limit" in e.value for e in at.error)


@pytest.mark.parametrize("page_file,radio,choice", [
    ("3_Keys.py", "keys.source", "paste"), ("5_Timing_Wheel.py", "wheel.source", "By hand"),
    ("9_Producer.py", None, None), ("4_Sizing.py", None, None), ("7_Group_Protocol.py", None, None),
])
def test_every_paste_area_of_a_page_is_bounded(page_file: str, radio: str | None, choice: str | None,
                                              first_run: Callable[..., AppTest]) -> None:
    at = open_page(page_file) if radio else first_run(page_file)  # choosing a radio is a change: its own page
    if radio:
        at.radio(key=radio).set_value(choice).run()
        assert not at.exception
    areas = list(at.text_area)
    assert areas
    assert [a.key for a in areas if not a.proto.max_chars] == []


def test_home_page_paste_areas_are_bounded_including_the_importer() -> None:
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60).run()
    keys = {a.key: a.proto.max_chars for a in at.text_area}
    assert "import.paste" in keys, keys
    assert [k for k, limit in keys.items() if not limit] == []


def test_typed_timer_tasks_over_the_limit_are_refused_before_parsing() -> None:
    from ui.timer.wheel import MAX_HAND_CHARS

    at = open_page("5_Timing_Wheel.py")
    at.radio(key="wheel.source").set_value("By hand").run()
    area(at, "wheel.hand").set_value("t, 10\n" * (MAX_HAND_CHARS // 6 + 1)).run()
    assert not at.exception
    assert any("tasks: the paste reached the" in e.value for e in at.error), at.error
