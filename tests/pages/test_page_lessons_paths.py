"""The trainer's path on the Lessons page (whole course / two hours / one hour): next / previous walk only the
path's steps; the guide's table reads "10." as a number, not a Markdown list; the handout download (one offline
HTML page per path: question, engine's answer and reason, misconception, link per step; print CSS) in both
languages."""

from __future__ import annotations

import html
import re

import pytest

from engine.lessons import course
from engine.lessons.paths import PATHS, positions
from helpers import REPO
from ui.lessons.lesson_state import shown_answer

MARKDOWN_BLOCK = re.compile(r"^\s*(\d+[.)]\s|[-*+]\s|#|>)")  # what st.table would draw as a list, heading, quote


def _lessons(**params: str):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(REPO / "pages" / "11_Lessons.py"), default_timeout=120)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def _position(at) -> tuple[int, int]:
    values = [at.query_params[k] for k in ("lesson", "step")]
    return tuple(int(v[0] if isinstance(v, list) else v) for v in values)  # type: ignore[return-value]


@pytest.mark.parametrize("path_id", ["two_hours", "one_hour"])
def test_next_and_previous_walk_only_the_paths_steps(path_id: str) -> None:
    first, *_rest = on_path = positions(path_id)
    at = _lessons(lesson=str(first[0]), step=str(first[1]))
    at.radio(key="lessons.path").set_value(path_id).run()
    assert at.button(key="lessons.prev").disabled
    walked = [_position(at)]
    while not at.button(key="lessons.next").disabled:
        at.button(key="lessons.next").click().run()
        walked.append(_position(at))
    assert tuple(walked) == on_path
    minutes = PATHS[path_id].minutes
    assert f"0 of {len(on_path)} steps answered correctly" in at.get("progress")[0].proto.text
    at.button(key="lessons.prev").click().run()
    assert _position(at) == on_path[-2]
    assert any(f"{minutes} minutes" in c.value for c in at.caption)
    assert at.query_params["lessons.path"] in (path_id, [path_id])  # kept in the link


def test_a_link_off_the_path_opens_its_step_and_next_rejoins_the_path() -> None:
    at = _lessons(lesson="8", step="2", **{"lessons.path": "one_hour"})  # the timing wheel: not on the hour's path
    assert at.subheader[0].value == "The timing wheel" and at.selectbox(key="lessons.lesson").value == 8
    at.button(key="lessons.next").click().run()
    assert _position(at) == next(p for p in positions("one_hour") if p > (8, 2))
    options = at.selectbox(key="lessons.lesson").options  # "9. The producer: …": the path's lessons again
    assert [o.split(".")[0] for o in options] == [str(n) for n in sorted({n for n, _ in positions("one_hour")})]
    at.selectbox(key="lessons.lesson").set_value(15).run()
    assert _position(at) == next(p for p in positions("one_hour") if p[0] == 15)  # its first step on the path


@pytest.mark.parametrize("path_id", list(PATHS))
def test_guide_table_numbers_every_lesson_and_sums_its_minutes(path_id: str) -> None:
    at = _lessons()
    at.radio(key="lessons.path").set_value(path_id).run()
    table = next(t.value for t in at.table if "misconception it targets" in t.value.columns)
    assert table["minutes"].sum() == PATHS[path_id].minutes
    assert list(table["steps"]) == [sum(1 for n, _ in positions(path_id) if n == lesson)
                                    for lesson in table["lesson"]]
    assert table["lesson"].tolist() == sorted(set(n for n, _ in positions(path_id)))
    for cell in table.select_dtypes("object").to_numpy().ravel():
        assert not MARKDOWN_BLOCK.match(str(cell)), cell  # "10. The partition log" would show as "0."


def test_guide_table_in_chinese_has_no_markdown_lists() -> None:
    at = _lessons(lang="zh")
    table = next(t.value for t in at.table if len(t.value.columns) == 7)  # the scene table has fewer
    assert table.iloc[:, 0].tolist() == list(range(1, len(course()) + 1))
    for cell in table.select_dtypes("object").to_numpy().ravel():
        assert not MARKDOWN_BLOCK.match(str(cell)), cell


def test_the_page_offers_the_handout() -> None:
    at = _lessons()
    (button,) = [b for b in at.get("download_button") if "lessons.handout" in b.proto.id]
    assert "handout" in button.proto.label


@pytest.mark.parametrize("path_id", list(PATHS))
@pytest.mark.parametrize("language", ["en", "zh"])
def test_handout_holds_every_step_of_the_path(path_id: str, language: str, monkeypatch) -> None:
    from ui.lessons.handout import handout_html
    from ui.lessons.texts import question
    from ui.text import i18n

    monkeypatch.setattr(i18n, "current_language", lambda: language)
    page = handout_html(path_id)
    assert page.startswith("<!doctype html>") and page.endswith("</html>")
    assert not re.search(r"<(script|link|img|iframe)\b|src=|@import|https?://", page)  # nothing to fetch
    assert "@media print" in page and "break-before:page" in page and 'attr(href)' in page
    on_path = positions(path_id)
    assert page.count("<section class='lesson'>") == len({n for n, _ in on_path})
    assert page.count("<div class='step'>") == len(on_path)
    for lesson, number in on_path:
        step = course()[lesson - 1].steps[number - 1]
        assert f"Lessons?lesson={lesson}&amp;step={number}&amp;lessons.path={path_id}" in page
        assert html.escape(question(step.id, step.facts)) in page
        assert html.escape(shown_answer(step)) in page
    if language == "zh":
        assert "预期答案" in page and "第 1 步" in page
        assert not re.search(r"<(h\d|dt)>(Step|Question|Expected answer|Lesson \d)", page)
