"""Real browser (what a facilitator stumbles on): what only the browser shows.

* item 2: after an event is added on Rebalance, the step selector names the step the data shows (a keyed
  selectbox keeps its old label in the browser when only its labels change);
* item 12: one Play moves every strategy's animation, at the chosen speed, with partition labels on the dots.

Uses the session server and Debian chromium of tests/browser/conftest.py; screenshots go to test-artifacts/.
"""

from __future__ import annotations

import time

import pytest

from helpers import ARTIFACTS, PAGE_TIMEOUT_MS, assert_no_exception, full_page_screenshot, wait_rendered

pytestmark = pytest.mark.browser


def choose(page, label: str, option: str) -> None:
    """Pick ``option`` in the Streamlit selectbox labelled ``label``."""
    box = page.locator('[data-testid="stSelectbox"]').filter(has_text=label).first
    box.scroll_into_view_if_needed(timeout=PAGE_TIMEOUT_MS)
    box.click()
    page.get_by_role("option", name=option, exact=True).click()
    wait_rendered(page)


def selectbox_text(page, label: str) -> str:
    """The label of the option a selectbox shows (Streamlit draws it in its combobox input)."""
    box = page.locator('[data-testid="stSelectbox"]').filter(has_text=label).first
    return box.inner_text() + " " + box.locator("input").first.input_value()


def test_step_label_follows_the_added_event(server: str, page) -> None:
    page.goto(f"{server}/Rebalance?preset=seed-d", timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    page.locator('[data-testid="stRadio"]').get_by_text("events", exact=True).click()
    wait_rendered(page)
    assert "step 1: C2 leaves" in selectbox_text(page, "Rebalance")  # the default: the last consumer leaves
    choose(page, "consumer", "C1")
    page.get_by_role("button", name="Add event to the timeline").click()
    wait_rendered(page)
    assert_no_exception(page, "2_Rebalance.py")
    shown = selectbox_text(page, "Rebalance")
    assert "step 1: C1 leaves" in shown, shown
    full_page_screenshot(page, ARTIFACTS / "issue11-rebalance-event-label.png")


def test_one_play_moves_every_strategy_with_labelled_dots(server: str, page) -> None:
    page.goto(f"{server}/Rebalance?preset=seed-d", timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    animated = page.locator('[data-testid="stPlotlyChart"]').filter(has=page.locator(".slider-container"))
    assert animated.count() == 1, "one animation (one Play) for every strategy"
    chart = animated.first
    chart.scroll_into_view_if_needed(timeout=PAGE_TIMEOUT_MS)
    assert chart.locator(".updatemenu-button", has_text="Play").count() == 1
    assert chart.locator("text", has_text="t0-0").count() >= 4  # a label on the dot, in each of 4 panels
    page.locator('[data-testid="stButtonGroup"]').get_by_text("fast", exact=True).click()
    wait_rendered(page)
    chart = page.locator('[data-testid="stPlotlyChart"]').filter(has=page.locator(".slider-container")).first
    label = chart.locator("text.slider-label").first
    assert label.text_content().strip() == "frame before"
    chart.locator(".updatemenu-button", has_text="Play").click()
    deadline = time.monotonic() + 15
    while label.text_content().strip() != "frame after" and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert label.text_content().strip() == "frame after"
    full_page_screenshot(page, ARTIFACTS / "issue11-rebalance-play-all.png")


PRODUCER_OUT = ("500000 records sent, 49985.0 records/sec (47.67 MB/sec), 373.25 ms avg latency, "
                "632.00 ms max latency, 355 ms 50th, 590 ms 95th, 623 ms 99th, 630 ms 99.9th.")


def test_seed_a_callout_is_above_its_grid(server: str, page) -> None:
    """Item 7: the callout is on screen next to the grid it explains, not below the fold."""
    page.goto(f"{server}/Assignments?preset=seed-a", timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    assert_no_exception(page, "1_Assignments.py")
    callout = page.locator('[data-testid="stAlert"]').filter(has_text="(out of date since Kafka 0.9) says").first
    chart = page.locator('[data-testid="stPlotlyChart"]').first
    assert callout.bounding_box()["y"] < chart.bounding_box()["y"]
    full_page_screenshot(page, ARTIFACTS / "issue11-assignments-seed-a-callout.png")


def test_sizing_paste_fills_the_field(server: str, page) -> None:
    """Item 5: after a perf-test paste the field shows the value used (one source of truth)."""
    page.goto(f"{server}/Sizing", timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    area = page.locator('[data-testid="stTextArea"]').filter(has_text="producer-perf-test").locator("textarea")
    area.fill(PRODUCER_OUT)
    area.press("Control+Enter")
    wait_rendered(page)
    field = page.locator('[data-testid="stTextInput"]').filter(has_text="Producer p").locator("input")
    assert field.input_value() == "47.67"
    assert page.get_by_text("now in the field above").count() == 1
    full_page_screenshot(page, ARTIFACTS / "issue11-sizing-paste.png")


def test_home_page_new_blank_scenario(server: str, page) -> None:
    """Item 1: the sidebar's "New blank scenario" starts from one topic and one consumer, named as such."""
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(server, timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    page.get_by_role("button", name="New blank scenario").click()
    wait_rendered(page)
    sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
    assert "new blank scenario" in sidebar and "1 consumer(s), 1 step(s)" in sidebar
    full_page_screenshot(page, ARTIFACTS / "issue11-home-blank.png")
