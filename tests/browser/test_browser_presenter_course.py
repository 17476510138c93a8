"""Real browser, presenter mode on a 1280 x 720 projector: the course walked with ArrowRight in English and in
Chinese (the two-hour path), each step's question inside the window without scrolling and a screenshot per
step (test-artifacts/presenter-course/, printed); a chart's fonts at least the presenter's minimum; the
language switched from the presenter bar.

Uses the session server and Debian chromium of tests/browser/conftest.py.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from engine.lessons import course
from helpers import ARTIFACTS, PAGE_TIMEOUT_MS, assert_no_exception, wait_rendered
from ui.frame.presenter import MIN_CHART_FONT

pytestmark = pytest.mark.browser
PROJECTOR = {"width": 1280, "height": 720}
SHOTS = ARTIFACTS / "presenter-course"
try:  # the trainer's two-hour path (engine.lessons.paths, ?lessons.path=)
    from engine.lessons.paths import positions

    PATH: str | None = "two_hours"
    STEPS = positions("two_hours")
except ImportError:  # no paths: the whole course
    PATH, STEPS = None, tuple((n, s) for n, lesson in enumerate(course(), 1) for s in range(1, len(lesson.steps) + 1))
STEP_CAPTION = {"en": "Lesson {lesson}, step {step} of", "zh": "第 {lesson} 课，第 {step} 步"}
# the question: the step's bold paragraph (pages/11_Lessons.py draws it as **...**; it has no key of its own)
QUESTION = '[data-testid="stMain"] [data-testid="stMarkdownContainer"] p > strong'
BOX = """(sel) => { const e = document.querySelector(sel); if (!e) return null;
  const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
  text: e.innerText, width: innerWidth, height: innerHeight}; }"""
INSIDE = f"""() => {{ const b = ({BOX})('{QUESTION}');
  return !!b && b.top >= 0 && b.left >= 0 && b.bottom <= b.height && b.right <= b.width; }}"""


def at_position(url: str) -> tuple[int, int]:
    query = parse_qs(urlparse(url).query)
    return int(query["lesson"][0]), int(query["step"][0])


def question_in_view(page, language: str, where: tuple[int, int]) -> dict:
    """The step's question inside the window, as the room sees it (the page scrolls the step into view)."""
    caption = STEP_CAPTION[language].format(lesson=where[0], step=where[1])
    assert caption in page.locator('[data-testid="stMain"]').inner_text(), (where, language)
    try:
        page.wait_for_function(INSIDE, timeout=5_000)
    except Exception:  # noqa: BLE001 - the measured box says why
        pass
    box = page.evaluate(BOX, QUESTION)
    assert box and box["text"].strip(), f"{language} {where}: no question drawn"
    assert 0 <= box["top"] and box["bottom"] <= box["height"] and box["right"] <= box["width"], (language, where, box)
    return box


def walk(server: str, page, language: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    print(f"presenter course screenshots ({language}): {SHOTS}")
    page.set_viewport_size(PROJECTOR)
    first = STEPS[0]
    path = f"&lessons.path={PATH}" if PATH else ""
    page.goto(f"{server}/Lessons?present=1&lang={language}{path}&lesson={first[0]}&step={first[1]}",
              timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    assert not page.locator('[data-testid="stSidebar"]').is_visible()
    page.wait_for_timeout(500)  # the arrow-key script has run
    lowest = 0.0
    for index, where in enumerate(STEPS):
        if index:
            page.keyboard.press("ArrowRight")  # nothing focused: the key reaches the app's document
            page.wait_for_url(lambda url, where=where: at_position(url) == where, timeout=PAGE_TIMEOUT_MS)
            wait_rendered(page)
        assert_no_exception(page, f"11_Lessons.py presenter {language} {where}")
        box = question_in_view(page, language, where)
        lowest = max(lowest, box["bottom"])
        page.screenshot(path=str(SHOTS / f"{language}-lesson{where[0]:02d}-step{where[1]}.png"))
    print(f"{language}: {len(STEPS)} steps, the lowest question ends at {lowest:.0f} px of {PROJECTOR['height']}")


@pytest.mark.minutes
class TestPresenterCourseInEnglish:  # a class: a unit of work of its own, beside the Chinese walk
    def test_each_step_question_fits_the_projector(self, server: str, page) -> None:
        walk(server, page, "en")


@pytest.mark.minutes
class TestPresenterCourseInChinese:
    def test_each_step_question_fits_the_projector(self, server: str, page) -> None:
        walk(server, page, "zh")


CHART_FONTS = """(root) => [...root.querySelectorAll(
  '.gtitle, .legendtext, .ytitle, .ytick text, .textpoint text, .slider-label, .updatemenu-button text')]
  .filter((e) => e.textContent.trim())
  .map((e) => [e.getAttribute('class') || e.parentNode.getAttribute('class'),
               parseFloat(getComputedStyle(e).fontSize)])"""


def test_share_delivery_chart_and_language_in_presenter_mode(server: str, page) -> None:
    """Share Delivery's timeline at 1280 x 720 in presenter mode: every text of it (title, legend, offsets, delivery
    counts, slider, buttons) at least the presenter's minimum; then the language switched from the presenter bar."""
    page.set_viewport_size(PROJECTOR)
    page.goto(f"{server}/Share_Delivery?present=1", timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    assert_no_exception(page, "13_Share_Delivery.py (presenter)")
    chart = page.locator('[data-testid="stPlotlyChart"]').first
    chart.scroll_into_view_if_needed()
    fonts = chart.evaluate(CHART_FONTS)
    kinds = {kind.split()[0] for kind, _ in fonts}
    assert {"gtitle", "legendtext", "ytitle", "slider-label"} <= kinds and any("ytick" in k for k, _ in fonts), kinds
    assert min(size for _, size in fonts) >= MIN_CHART_FONT - 0.05, sorted({tuple(f) for f in fonts})
    legend = max(size for kind, size in fonts if kind.startswith("legendtext"))
    body = page.evaluate("""() => parseFloat(getComputedStyle([...document.querySelectorAll(
      '[data-testid="stMain"] [data-testid="stMarkdownContainer"] p')].find((p) => !p.closest('.st-key-present-bar'))
      ).fontSize)""")
    print(f"presenter chart fonts (px): {sorted({tuple(f) for f in fonts})}; legend {legend} against body text {body}")
    assert legend / body >= 0.74  # 12 px against 25.6 px before: 0.47
    ARTIFACTS.mkdir(exist_ok=True)
    chart.screenshot(path=str(ARTIFACTS / "presenter-share-delivery.png"))

    page.goto(f"{server}/Lessons?present=1&lang=en", timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    bar = page.locator(".st-key-present-bar")
    assert bar.is_visible() and not page.locator('[data-testid="stSidebar"]').is_visible()
    bar.get_by_text("简体中文", exact=True).click()
    page.wait_for_url("**lang=zh**", timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    assert page.locator("h1").first.inner_text().strip() == "引导课程"
    assert "present=1" in page.url and page.locator(".st-key-present-leave").is_visible()
