"""Real browser for the "inside a partition" pages: Producer and Partition Log open by URL without an
exception
and their animations advance after Play (batches in flight; segments rolling).  Uses the session server and
Debian chromium of tests/browser/conftest.py; screenshots go to test-artifacts/."""

from __future__ import annotations

import time

import pytest

from helpers import ARTIFACTS, PAGE_TIMEOUT_MS, assert_no_exception, full_page_screenshot, wait_rendered

pytestmark = pytest.mark.browser


def play_and_wait(page, chart_index: int = 0) -> tuple[str, str]:
    """Press Play on the ``chart_index``-th animated chart; return the slider label before and after."""
    charts = page.locator('[data-testid="stPlotlyChart"]').filter(has=page.locator(".slider-container"))
    chart = charts.nth(chart_index)
    chart.scroll_into_view_if_needed(timeout=PAGE_TIMEOUT_MS)
    label = chart.locator("text.slider-label").first
    before = label.text_content() or ""
    chart.locator(".updatemenu-button", has_text="Play").click()
    deadline = time.monotonic() + 20
    while label.text_content() == before and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    return before, label.text_content() or ""


@pytest.mark.parametrize("path,name,first_label", [
    ("Producer", "9_Producer", "t=0"),
    ("Partition_Log", "10_Partition_Log", "batches appended: 200"),  # opens on the last frame
])
def test_page_opens_and_its_animation_plays(server: str, page, path: str, name: str,
                                            first_label: str) -> None:
    page.goto(f"{server}/{path}", timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    assert_no_exception(page, f"{name}.py")
    assert page.locator('[data-testid="stAlert"]').filter(has_text="Error").count() == 0
    before, after = play_and_wait(page)
    assert before.strip() == first_label
    assert after != before, "the animation did not advance after Play"
    full_page_screenshot(page, ARTIFACTS / f"{name}-after-play.png")


def test_producer_preset_changes_the_log(server: str, page) -> None:
    page.goto(f"{server}/Producer", timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="reordered partitions")
    assert metric.locator('[data-testid="stMetricValue"]').inner_text().strip() == "1"
    page.locator('[data-testid="stMain"] [data-testid="stSelectbox"]').first.click()
    page.get_by_role("option", name="The same with the defaults (idempotence on since 3.0)").click()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        value = metric.locator('[data-testid="stMetricValue"]').inner_text().strip()
        if value == "0":
            break
        page.wait_for_timeout(200)
    wait_rendered(page)
    assert_no_exception(page, "9_Producer.py after a preset")
    assert metric.locator('[data-testid="stMetricValue"]').inner_text().strip() == "0"
