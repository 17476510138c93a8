"""In a real browser: a page opened with ``?lang=zh`` keeps the language when the sidebar's translated page
list leads to another page, the switch brings English back, and a CSV download starts with a UTF-8 byte-order
mark.  Every page's Chinese rendering is checked by ``test_browser.py`` (the switch, then the CJK text)."""

from __future__ import annotations

import re

import pytest

from helpers import PAGE_TIMEOUT_MS, wait_rendered

pytestmark = pytest.mark.browser
CJK = re.compile(r"[\u4e00-\u9fff]")


def test_the_language_follows_the_page_list_and_the_switch_brings_english_back(server: str, page) -> None:
    page.goto(f"{server}/Sizing?lang=zh", timeout=PAGE_TIMEOUT_MS)
    wait_rendered(page)
    button = page.locator('[data-testid="stDownloadButton"]').filter(has_text="CSV").first
    with page.expect_download(timeout=PAGE_TIMEOUT_MS) as info:
        button.click()
    data = open(info.value.path(), "rb").read()
    assert data.startswith(b"\xef\xbb\xbf") and b"," in data  # Excel reads the Chinese headers as UTF-8
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
