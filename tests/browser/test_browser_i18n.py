"""Issue 16 in a real browser: every page opened with ``?lang=zh`` renders in Chinese (CJK font installed by
``make chromium``), the sidebar's page list is translated and keeps the language across pages, the switch
brings English back, and a CSV download starts with a UTF-8 byte-order mark."""

from __future__ import annotations

import re

import pytest

from helpers import (
    ARTIFACTS,
    PAGE_TIMEOUT_MS,
    assert_no_exception,
    full_page_screenshot,
    page_files,
    url_path,
    wait_rendered,
)

pytestmark = pytest.mark.browser
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("path", ["", *(url_path(p) for p in page_files())], ids=lambda p: p or "Home")
def test_every_page_in_chinese(server: str, page, path: str) -> None:
    page.goto(f"{server}/{path}?lang=zh", timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    assert_no_exception(page, path or "Home")
    main = page.locator('[data-testid="stMain"]').inner_text()
    assert len(CJK.findall(main)) > 20, main[:300]
    sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
    assert "分区分配" in sidebar and "再均衡" in sidebar  # the page list, translated
    ARTIFACTS.mkdir(exist_ok=True)
    full_page_screenshot(page, ARTIFACTS / f"zh-{path or 'Home'}.png")


def test_the_language_follows_the_page_list_and_the_switch_brings_english_back(server: str, page) -> None:
    page.goto(f"{server}/Sizing?lang=zh", timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    page.locator('[data-testid="stSidebar"]').get_by_role("link", name="再均衡").click()
    page.wait_for_url(re.compile(r".*/Rebalance.*"), timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    assert "lang=zh" in page.url
    assert CJK.search(page.locator("h1").first.inner_text())
    page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').filter(has_text="语言").click()
    page.get_by_role("option", name="English").click()
    wait_rendered(page)
    assert page.locator("h1").first.inner_text().strip() == "Rebalance"
    assert "lang=" not in page.url


def test_a_csv_download_starts_with_a_byte_order_mark(server: str, page) -> None:
    page.goto(f"{server}/Sizing?lang=zh", timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    button = page.locator('[data-testid="stDownloadButton"]').filter(has_text="CSV").first
    with page.expect_download(timeout=PAGE_TIMEOUT_MS) as info:
        button.click()
    data = open(info.value.path(), "rb").read()
    assert data.startswith(b"\xef\xbb\xbf") and b"," in data
