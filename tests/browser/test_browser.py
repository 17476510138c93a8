"""Real browser: every page opens by its URL without an exception and redraws in Chinese, its animations play,
shared links restore.

Runs Debian's chromium (installed by ``make chromium``) through Playwright's sync API against
``streamlit run app.py`` on a free localhost port.  Screenshots go to test-artifacts/ (git-ignored; copy
screenshot-assignments.png to docs/ to refresh README's picture: a run does not touch the tree).
"""

from __future__ import annotations

import re
import struct
import time
from pathlib import Path

import pytest

from engine.presets import build_preset
from helpers import (
    ARTIFACTS,
    MAX_SCREENSHOT_HEIGHT,
    PAGE_TIMEOUT_MS,
    REPO,
    assert_no_exception,
    content_height,
    full_page_screenshot,
    page_files,
    url_path,
    wait_rendered,
)
from ui.frame.state import encode_scenario
from ui.text.i18n import LANGUAGES

pytestmark = pytest.mark.browser
CJK = re.compile(r"[\u4e00-\u9fff]")


def switch_language(page, language: str) -> None:
    """The sidebar's language switch, as a person uses it (a rerun of the same session, not a new page load)."""
    page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').filter(has_text="语言").click()
    page.get_by_role("option", name=LANGUAGES[language]).click()
    wait_rendered(page)


def play_and_wait(page, first_label: str, last_label: str | None = None) -> None:
    """Play the page's first animated chart: it starts on ``first_label``, advances, and (if given) reaches
    ``last_label``: every frame drawn takes seconds, more on a loaded machine."""
    chart = page.locator('[data-testid="stPlotlyChart"]').filter(has=page.locator(".slider-container")).first
    chart.scroll_into_view_if_needed(timeout=PAGE_TIMEOUT_MS)
    label = chart.locator("text.slider-label").first  # the slider's current value
    before = label.text_content() or ""
    assert before.strip() == first_label
    chart.locator(".updatemenu-button", has_text="Play").click()
    deadline = time.monotonic() + 20
    while label.text_content() == before and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert label.text_content() != before, "the animation did not advance after Play"
    if last_label is not None:
        deadline = time.monotonic() + 30
        while (label.text_content() or "").strip() != last_label and time.monotonic() < deadline:
            page.wait_for_timeout(200)
        assert (label.text_content() or "").strip() == last_label


def home(page) -> None:
    assert page.get_by_text("Scenario builder").count() >= 1


def assignments(page) -> None:
    assert page.locator('[data-testid="stPlotlyChart"]').count() >= 8
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "screenshot-assignments.png"), full_page=False)


def rebalance(page) -> None:
    play_and_wait(page, "frame before", "frame after")


def producer(page) -> None:
    """The preset with the defaults fixes the reordering, and the animation plays (batches in flight)."""
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="reordered partitions")
    assert metric.locator('[data-testid="stMetricValue"]').inner_text().strip() == "1"
    page.locator('[data-testid="stMain"] [data-testid="stSelectbox"]').first.click()
    page.get_by_role("option", name="The same with the defaults (idempotence on since 3.0)").click()
    deadline = time.monotonic() + 60
    while metric.locator('[data-testid="stMetricValue"]').inner_text().strip() != "0" and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    wait_rendered(page)
    assert_no_exception(page, "9_Producer.py after a preset")
    assert metric.locator('[data-testid="stMetricValue"]').inner_text().strip() == "0"
    play_and_wait(page, "t=0")


def partition_log(page) -> None:
    assert page.locator('[data-testid="stAlert"]').filter(has_text="Error").count() == 0
    play_and_wait(page, "batches appended: 200")  # opens on the last frame, then plays from the first


IN_ENGLISH = {"app": home, "1_Assignments": assignments, "2_Rebalance": rebalance, "9_Producer": producer,
              "10_Partition_Log": partition_log}  # what a page does only in a browser: charts, animations


@pytest.mark.parametrize("page_file", [REPO / "app.py", *page_files()], ids=lambda p: p.stem)
def test_every_page_by_url_in_english_then_in_chinese(server: str, page, page_file: Path) -> None:
    """Each page opened by its URL (a fresh session runs that file alone) draws without an exception, its
    browser-only behaviour works, and the language switch redraws it in Chinese (CJK font from ``make
    chromium``) with the sidebar's page list translated."""
    path = "" if page_file.stem == "app" else url_path(page_file)
    page.goto(f"{server}/{path}", timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    assert_no_exception(page, page_file.name)
    shot = ARTIFACTS / f"{page_file.stem}.png"
    captured = full_page_screenshot(page, shot)
    assert png_height(shot) >= min(content_height_now(page), captured) - 2, "screenshot cut to the viewport"
    IN_ENGLISH.get(page_file.stem, lambda _page: None)(page)
    switch_language(page, "zh")
    assert "lang=zh" in page.url
    assert_no_exception(page, f"{page_file.name} in Chinese")
    main = page.locator('[data-testid="stMain"]').inner_text()
    assert len(CJK.findall(main)) > 20, main[:300]
    sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
    assert "分区分配" in sidebar and "再均衡" in sidebar  # the page list, translated
    full_page_screenshot(page, ARTIFACTS / f"zh-{path or 'Home'}.png")


def test_shared_url_restores_the_scenario(server: str, page) -> None:
    scenario = build_preset("heterogeneous")
    code = encode_scenario(scenario)
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(f"{server}/Assignments?s={code}", timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    assert_no_exception(page, "shared link")
    sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
    assert scenario.name in sidebar
    assert f"{len(scenario.first.members)} consumer(s)" in sidebar
    assert f"{scenario.first.total_partitions} partition(s)" in sidebar
    full_page_screenshot(page, ARTIFACTS / "shared-link.png")


def png_height(path: Path) -> int:
    """Height of a PNG from its IHDR chunk."""
    return int(struct.unpack(">I", path.read_bytes()[20:24])[0])


def content_height_now(page) -> int:
    return min(content_height(page), MAX_SCREENSHOT_HEIGHT)


def test_large_preset_assignments_draws_one_strategy_readably(server: str, page) -> None:
    """A big group draws the open tab's two charts (not twelve), every tick label
    is at least 12 px and Plotly's mode bar covers no tick label (consumer names, topics)."""
    page.goto(f"{server}/Assignments?preset=large", timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    assert_no_exception(page, "1_Assignments.py (large)")
    charts = page.locator('[data-testid="stPlotlyChart"]')
    assert charts.count() == 2
    boxes = page.evaluate("""() => [...document.querySelectorAll('[data-testid="stPlotlyChart"]')].map(c => {
        const bar = c.querySelector('.modebar'); const r = bar ? bar.getBoundingClientRect() : null;
        const ticks = [...c.querySelectorAll('.xtick text, .ytick text')].map(t => {
            const b = t.getBoundingClientRect();
            return {size: parseFloat(getComputedStyle(t).fontSize), l: b.left, r: b.right, t: b.top, b: b.bottom};
        });
        return {bar: r && {l: r.left, r: r.right, t: r.top, b: r.bottom}, ticks};
    })""")
    for chart in boxes:
        assert chart["ticks"] and min(t["size"] for t in chart["ticks"]) >= 12
        bar = chart["bar"]
        if bar:
            covered = [t for t in chart["ticks"] if t["l"] < bar["r"] and t["r"] > bar["l"]
                       and t["t"] < bar["b"] and t["b"] > bar["t"]]
            assert not covered, f"the mode bar covers {len(covered)} tick label(s)"
    full_page_screenshot(page, ARTIFACTS / "assignments-large.png")
