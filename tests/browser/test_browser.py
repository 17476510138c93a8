"""Real browser: every page opens by its URL without an exception, the animation plays, shared links restore.

Runs Debian's chromium (installed by ``make chromium``) through Playwright's sync API against
``streamlit run app.py`` on a free localhost port.  Screenshots go to test-artifacts/ (git-ignored) and
the Assignments page to docs/screenshot-assignments.png.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from engine.presets import build_preset
from ui.state import encode_scenario  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = REPO / "test-artifacts"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]
PAGE_TIMEOUT_MS = 90_000

pytestmark = pytest.mark.browser


def page_files() -> list[Path]:
    return sorted((REPO / "pages").glob("*.py"))


def url_path(page: Path) -> str:
    """Streamlit's URL path of a page file: ``3_Keys.py`` -> ``Keys`` (leading number and separator dropped)."""
    return re.sub(r"^[0-9]+[_\- ]*", "", page.stem)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    port = free_port()
    log = (ARTIFACTS / "streamlit.log")
    ARTIFACTS.mkdir(exist_ok=True)
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port), "--server.address",
             "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false"],
            cwd=REPO, stdout=out, stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as r:
                        if r.read().strip() == b"ok":
                            break
                except OSError:
                    pass
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"streamlit did not become healthy; see {log}")
                time.sleep(0.3)
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed at /usr/bin/chromium (run `make chromium`)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield b
        b.close()


def wait_rendered(page, timeout_ms: int = PAGE_TIMEOUT_MS) -> None:
    """Wait until the script run finished (stApp's data-test-script-state) and every Plotly chart has drawn."""
    page.wait_for_selector('[data-testid="stMainBlockContainer"] h1', timeout=timeout_ms)
    deadline = time.monotonic() + timeout_ms / 1000
    quiet_since = None
    while time.monotonic() < deadline:
        state = page.locator('[data-testid="stApp"]').get_attribute("data-test-script-state")
        charts = page.locator('[data-testid="stPlotlyChart"]').count()
        drawn = page.locator('[data-testid="stPlotlyChart"] .main-svg').count()
        skeletons = page.locator('[data-testid="stSkeleton"]').count()
        if state == "notRunning" and drawn >= charts and not skeletons:
            quiet_since = quiet_since or time.monotonic()
            if time.monotonic() - quiet_since > 1.0:
                return
        else:
            quiet_since = None
        page.wait_for_timeout(200)
    raise AssertionError(f"page did not finish rendering in {timeout_ms} ms")


def assert_no_exception(page, name: str) -> None:
    boxes = page.locator('[data-testid="stException"]')
    assert boxes.count() == 0, f"{name}: {boxes.first.inner_text()[:500]}"


@pytest.mark.parametrize("page_file", page_files(), ids=lambda p: p.stem)
def test_every_page_opens_by_url(server: str, browser, page_file: Path) -> None:
    context = browser.new_context(viewport={"width": 1500, "height": 1000})
    try:
        page = context.new_page()
        page.goto(f"{server}/{url_path(page_file)}", timeout=PAGE_TIMEOUT_MS)
        wait_rendered(page)
        assert_no_exception(page, page_file.name)
        page.screenshot(path=str(ARTIFACTS / f"{page_file.stem}.png"), full_page=True)
        if page_file.stem == "1_Assignments":
            assert page.locator('[data-testid="stPlotlyChart"]').count() >= 8
            (REPO / "docs").mkdir(exist_ok=True)
            page.screenshot(path=str(REPO / "docs" / "screenshot-assignments.png"), full_page=False)
    finally:
        context.close()


def test_home_page(server: str, browser) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        page.goto(server, timeout=PAGE_TIMEOUT_MS)
        wait_rendered(page)
        assert_no_exception(page, "app.py")
        assert page.get_by_text("Scenario builder").count() >= 1
        page.screenshot(path=str(ARTIFACTS / "app.png"), full_page=True)
    finally:
        context.close()


def test_play_advances_the_rebalance_animation(server: str, browser) -> None:
    context = browser.new_context(viewport={"width": 1500, "height": 1000})
    try:
        page = context.new_page()
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
        page.wait_for_timeout(2500)
        assert label.text_content().strip() == "frame after"
        page.screenshot(path=str(ARTIFACTS / "rebalance-after-play.png"), full_page=True)
    finally:
        context.close()


def test_shared_url_restores_the_scenario(server: str, browser) -> None:
    scenario = build_preset("heterogeneous")
    code = encode_scenario(scenario)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        page.goto(f"{server}/Assignments?s={code}", timeout=PAGE_TIMEOUT_MS)
        wait_rendered(page)
        assert_no_exception(page, "shared link")
        sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
        assert scenario.name in sidebar
        assert f"{len(scenario.first.members)} consumer(s)" in sidebar
        assert f"{scenario.first.total_partitions} partition(s)" in sidebar
        page.screenshot(path=str(ARTIFACTS / "shared-link.png"), full_page=True)
    finally:
        context.close()
