"""Real browser: every page opens by its URL without an exception, the animation plays, shared links restore.

Runs Debian's chromium (installed by ``make chromium``) through Playwright's sync API against
``streamlit run app.py`` on a free localhost port.  Screenshots go to test-artifacts/ (git-ignored) and
the Assignments page to docs/screenshot-assignments.png.
"""

from __future__ import annotations

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
from ui.state import encode_scenario

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("page_file", page_files(), ids=lambda p: p.stem)
def test_every_page_opens_by_url(server: str, page, page_file: Path) -> None:
    page.goto(f"{server}/{url_path(page_file)}", timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    assert_no_exception(page, page_file.name)
    shot = ARTIFACTS / f"{page_file.stem}.png"
    captured = full_page_screenshot(page, shot)
    assert png_height(shot) >= min(content_height_now(page), captured) - 2, "screenshot cut to the viewport"
    if page_file.stem == "1_Assignments":
        assert page.locator('[data-testid="stPlotlyChart"]').count() >= 8
        (REPO / "docs").mkdir(exist_ok=True)
        page.screenshot(path=str(REPO / "docs" / "screenshot-assignments.png"), full_page=False)


def test_home_page(server: str, page) -> None:
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(server, timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    assert_no_exception(page, "app.py")
    assert page.get_by_text("Scenario builder").count() >= 1
    full_page_screenshot(page, ARTIFACTS / "app.png")


def test_play_advances_the_rebalance_animation(server: str, page) -> None:
    page.goto(f"{server}/Rebalance", timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    assert_no_exception(page, "2_Rebalance.py")
    chart = page.locator('[data-testid="stPlotlyChart"]').filter(has=page.locator(".slider-container")).first
    chart.scroll_into_view_if_needed(timeout=PAGE_TIMEOUT_MS)
    label = chart.locator("text.slider-label").first  # the slider's current value ("frame ...")
    before = label.text_content()
    assert before.strip() == "frame before"
    chart.locator(".updatemenu-button", has_text="Play").click()
    deadline = time.monotonic() + 15
    while label.text_content() == before and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert label.text_content() != before, "the animation did not advance after Play"
    deadline = time.monotonic() + 30  # every frame drawn: seconds, more on a loaded machine
    while label.text_content().strip() != "frame after" and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    assert label.text_content().strip() == "frame after"
    full_page_screenshot(page, ARTIFACTS / "rebalance-after-play.png")


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
    """Issue 13 / issue 11 item 11: a big group draws the open tab's two charts (not twelve), every tick label
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
