"""Real browser: the guided lessons end to end in English and lessons with every kind of step in
Chinese, presenter mode with the arrow keys, and the exports (a chart's PNG at presentation size, the offline
HTML handout).

Uses the session server and Debian chromium of tests/browser/conftest.py.  The Chinese lesson step is saved as
test-artifacts/lesson-zh.png (copy it to docs/ to refresh README's "Lessons" picture: a run does not touch the tree).
"""

from __future__ import annotations

import struct

import pytest

from engine.articles import article_name
from engine.lessons import LessonStep, course
from helpers import ARTIFACTS, PAGE_TIMEOUT_MS, assert_no_exception, full_page_screenshot, wait_rendered

pytestmark = pytest.mark.browser
TEXTS = {"en": {"check": "Check my answer", "next": "Next step", "correct": "Correct: the engine says"},
         "zh": {"check": "核对我的答案", "next": "下一步", "correct": "正确：引擎给出的答案是"}}


def answer(page, step: LessonStep, language: str) -> None:
    """Type (or pick) the engine's answer, check it, and wait for the verdict."""
    if step.kind == "partitions":
        box = page.locator('[data-testid="stMultiSelect"]').first
        for partition in step.answer:
            box.click()
            page.get_by_role("option", name=partition, exact=True).click()
            wait_rendered(page)
        page.keyboard.press("Escape")
    elif step.kind == "choice":  # language-neutral options (record orders, true / false, ConfigException)
        radio = page.locator('[data-testid="stRadio"]').filter(has_text=step.answer).first  # not the sidebar's
        radio.get_by_text(step.answer, exact=True).click()
        wait_rendered(page)
    else:
        field = page.locator('[data-testid="stTextInput"] input').first
        field.fill(str(step.answer))
        field.press("Enter")
        wait_rendered(page)
    page.get_by_role("button", name=TEXTS[language]["check"]).click()
    wait_rendered(page)
    alert = page.locator('[data-testid="stAlertContentSuccess"]')
    alert.wait_for(timeout=PAGE_TIMEOUT_MS)
    assert TEXTS[language]["correct"] in alert.inner_text()


def walk(page, lessons: list[int], language: str) -> None:
    for number in lessons:
        for index, step in enumerate(course()[number - 1].steps, 1):
            assert f"step={index}" in page.url and f"lesson={number}" in page.url, page.url
            answer(page, step, language)
            assert_no_exception(page, f"11_Lessons.py lesson {number} step {index} ({language})")
            if (number, index) == (3, 1) and language == "zh":
                warning = page.locator('[data-testid="stAlertContentWarning"]').inner_text()
                assert f"参考文章 004 {article_name('004')} 此处有误" in warning
                full_page_screenshot(page, ARTIFACTS / "lesson-zh.png")
            if (number, index) != (len(course()), len(course()[-1].steps)):
                page.get_by_role("button", name=TEXTS[language]["next"]).click()
                wait_rendered(page)


@pytest.mark.minutes
class TestCourseInEnglish:  # a class: a unit of work of its own (tests/conftest.py), beside the Chinese walk
    def test_the_course_end_to_end_in_english(self, server: str, page) -> None:
        page.set_viewport_size({"width": 1400, "height": 1000})
        page.goto(f"{server}/Lessons", timeout=PAGE_TIMEOUT_MS)
        wait_rendered(page)
        walk(page, list(range(1, len(course()) + 1)), "en")
        total = sum(len(lesson.steps) for lesson in course())
        assert f"{total} of {total} steps answered correctly" in page.locator('[data-testid="stProgress"]').inner_text()


ZH_LESSONS = (3, 9)  # every kind of step (partitions, number, choice) and lesson 3's seed-article warning


@pytest.mark.minutes
class TestCourseInChinese:
    def test_lessons_in_chinese(self, server: str, page) -> None:
        """The English walk covers every step in the browser, the page tests every step's answer in Chinese;
        here the widgets of each kind of step work in Chinese and the language follows the lessons."""
        page.set_viewport_size({"width": 1400, "height": 1000})
        for number in ZH_LESSONS:
            page.goto(f"{server}/Lessons?lang=zh&lesson={number}&step=1", timeout=PAGE_TIMEOUT_MS)
            wait_rendered(page)
            assert page.locator("h1").first.inner_text().strip() == "引导课程"
            walk(page, [number], "zh")
            assert "lang=zh" in page.url
        total = sum(len(lesson.steps) for lesson in course())
        done = len(course()[ZH_LESSONS[-1] - 1].steps)  # a page opened by its URL is a new session
        assert f"已答对 {done} / {total} 步" in page.locator('[data-testid="stProgress"]').inner_text()


def test_presenter_mode_arrow_keys_and_exports(server: str, page) -> None:
    page.set_viewport_size({"width": 1600, "height": 1000})
    page.goto(f"{server}/Lessons?present=1&lesson=1&step=1", timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    assert not page.locator('[data-testid="stSidebar"]').is_visible()
    assert float(page.locator("h1").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) > 48
    page.wait_for_timeout(500)  # the arrow-key script has run
    page.locator("h1").first.click()
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**step=2**", timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    page.keyboard.press("ArrowLeft")
    page.wait_for_url("**step=1**", timeout=PAGE_TIMEOUT_MS)
    full_page_screenshot(page, ARTIFACTS / "issue16-presenter-lesson.png")

    page.goto(f"{server}/Assignments?preset=seed-d&present=1", timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    assert_no_exception(page, "1_Assignments.py (presenter)")
    chart = page.locator('[data-testid="stPlotlyChart"]').first
    chart.hover()
    with page.expect_download(timeout=PAGE_TIMEOUT_MS) as png:
        chart.locator('.modebar-btn[data-title*="Download plot"]').first.click()
    data = open(png.value.path(), "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", data[16:24]) == (1920, 1080)
    with page.expect_download(timeout=PAGE_TIMEOUT_MS) as handout:
        page.get_by_role("button", name="Handout (one-page HTML, works offline)").click()
    text = open(handout.value.path(), encoding="utf-8").read()
    assert text.startswith("<!doctype html>") and text.count("plotly.js v") == 1 and "seed-d" not in text[:0]
    (ARTIFACTS / "issue16-handout.html").write_text(text, encoding="utf-8")
    wait_rendered(page)  # the download button's click reruns the page: that run first, then the next click's
    page.get_by_role("button", name="Leave presenter mode").click()
    page.wait_for_url(lambda url: "present=1" not in url, timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
