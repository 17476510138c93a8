"""Helpers shared by the tests (import them from here, never from conftest): where the repo and the real-Kafka
vectors live, loading a vector file, and opening a dashboard page under AppTest."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
TESTS = REPO / "tests"  # fixtures/ and vectors/ live here; test modules sit in subfolders, so never __file__
VECTORS = Path(os.environ.get("KPL_VECTORS", REPO.parent / "shared" / "vectors"))
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

def load_vectors(name: str) -> dict[str, Any]:
    """Load ../shared/vectors/<name>, or skip with a clear message when the folder is absent."""
    path = VECTORS / name
    if not path.is_file():
        pytest.skip(f"real-Kafka vectors not found at {path} (expected ../shared/vectors beside the repo)",
                    allow_module_level=True)
    return json.loads(path.read_text(encoding="utf-8"))


def open_page(page_file: str, preset: str | None = None) -> Any:
    """AppTest of ``pages/<page_file>`` after a first run, optionally with a sidebar preset loaded."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(REPO / "pages" / page_file), default_timeout=120).run()
    assert not at.exception, at.exception
    if preset:
        at.selectbox(key="sidebar.preset").set_value(preset).run()
        assert not at.exception, at.exception
    return at


def run_load(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m engine load ARGS`` in a child process (no SPARK_REMOTE, the child's own Python)."""
    env = {k: v for k, v in os.environ.items() if k not in ("SPARK_REMOTE", "PYSPARK_PYTHON")}
    return subprocess.run([sys.executable, "-m", "engine", "load", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=600)


# ---------------------------------------------------------------------------------------------- browser pages

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = REPO / "test-artifacts"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]
PAGE_TIMEOUT_MS = 90_000
MAX_SCREENSHOT_HEIGHT = 16_000  # px; a taller page is cut there


def page_files() -> list[Path]:
    return sorted((REPO / "pages").glob("*.py"))


def url_path(page: Path) -> str:
    """Streamlit's URL path of a page file: ``3_Keys.py`` -> ``Keys`` (leading number and separator dropped)."""
    return re.sub(r"^[0-9]+[_\- ]*", "", page.stem)


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


def content_height(page: Any) -> int:
    """Height of the page's content.  Streamlit scrolls inside its main container, not the document, so
    ``full_page=True`` alone captures only the viewport."""
    return int(page.evaluate(
        "() => { const m = document.querySelector('[data-testid=\"stMain\"]')"
        " || document.querySelector('section.main'); return m ? m.scrollHeight : document.body.scrollHeight; }"))


def full_page_screenshot(page: Any, path: Path) -> int:
    """Screenshot of the whole content: the viewport is first made as tall as the content (then restored).
    Returns the height captured."""
    viewport = page.viewport_size
    height = min(max(viewport["height"], content_height(page)), MAX_SCREENSHOT_HEIGHT)
    page.set_viewport_size({"width": viewport["width"], "height": height})
    page.wait_for_timeout(400)  # charts re-lay out to the new size
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(viewport)
    return height
