"""Helpers shared by the tests (import them from here, never from conftest): where the repo and the real-Kafka
vectors live, loading a vector file, and opening a dashboard page under AppTest."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
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


def shown_tables(at: Any) -> list[Any]:
    """Every table of the last run of ``at`` as a DataFrame, in page order: static ones (``st.table``, drawn by
    ``ui.frame.tables.table`` when small: their float columns are the texts the grid shows, ``grid_text``) and
    interactive grids (``st.dataframe``).  A table inside a closed lazy section is not drawn: open it first."""
    return [node.value for node in at if node.type in ("table", "dataframe")]


def shown_table(at: Any, column: str) -> Any:
    """The first table of ``shown_tables`` with ``column`` (StopIteration when none has it)."""
    return next(frame for frame in shown_tables(at) if column in frame.columns)


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


NO_RUN_S = 1.0  # after an action that starts no script run (a value typed again): how long to be sure of it
SETTLE_S = 0.15  # after the run finished: fragments and Plotly charts finish drawing
_RENDER_STATE = """() => ({
  state: document.querySelector('[data-testid="stApp"]')?.getAttribute('data-test-script-state'),
  charts: document.querySelectorAll('[data-testid="stPlotlyChart"]').length,
  drawn: document.querySelectorAll('[data-testid="stPlotlyChart"] .main-svg').length,
  skeletons: document.querySelectorAll('[data-testid="stSkeleton"]').length})"""


@dataclass
class ScriptRuns:
    """Script runs the server reported finished to one browser page (``script_finished`` messages on its
    websocket), and how many of them ``wait_rendered`` has already waited for."""

    finished: int = 0
    seen: int = 0

    def count(self, payload: bytes | str) -> None:
        if isinstance(payload, bytes) and len(payload) < 1024:  # the message is a few bytes; charts are not
            from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

            try:
                kind = ForwardMsg.FromString(payload).WhichOneof("type")
            except Exception:  # noqa: BLE001 - not a ForwardMsg: not ours to count
                return
            self.finished += kind == "script_finished"


_RUNS: dict[int, ScriptRuns] = {}


def watch_runs(page: Any) -> ScriptRuns:
    """Count the script runs the server finishes for ``page`` (call before its first ``goto``), so that
    ``wait_rendered`` waits for the run an action started instead of a fixed quiet second."""
    runs = _RUNS[id(page)] = ScriptRuns()

    def on_websocket(ws: Any) -> None:
        if ws.url.endswith("/_stcore/stream"):
            ws.on("framereceived", runs.count)

    page.on("websocket", on_websocket)
    return runs


def wait_rendered(page: Any, timeout_ms: int = PAGE_TIMEOUT_MS) -> None:
    """Wait until the script run that the last navigation or action started has finished and every Plotly
    chart has drawn.  On a page ``watch_runs`` watches, a run is known finished from the server's
    ``script_finished`` message (an action that starts none is waited for ``NO_RUN_S``); elsewhere, after a
    quiet second."""
    page.wait_for_selector('[data-testid="stMainBlockContainer"] h1', timeout=timeout_ms)
    runs = _RUNS.get(id(page))
    start = time.monotonic()
    deadline = start + timeout_ms / 1000
    quiet_since = None
    while time.monotonic() < deadline:
        seen = page.evaluate(_RENDER_STATE)
        idle = seen["state"] == "notRunning" and seen["drawn"] >= seen["charts"] and not seen["skeletons"]
        if runs is None:
            settle, ran = 1.0, True
        else:
            settle, ran = SETTLE_S, runs.finished > runs.seen or time.monotonic() - start > NO_RUN_S
        if idle and ran:
            quiet_since = quiet_since or time.monotonic()
            if time.monotonic() - quiet_since > settle:
                if runs is not None:
                    runs.seen = runs.finished
                return
        else:
            quiet_since = None
        page.wait_for_timeout(50)
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


def kafka_scale_shape(topics: int, per_topic: int, members: int, fraction: float) -> dict[str, Any]:
    """Kafka-scale groups as a scenario document: ``topics`` x ``per_topic`` partitions, ``members``
    each on a random ``fraction`` of the topics (seeded), then the first member leaves."""
    import random

    rng = random.Random(22)
    names = [f"topic{t}" for t in range(topics)]
    take = round(topics * fraction)
    rows = [{"id": f"consumer{i}", "topics": names if take == topics else sorted(rng.sample(names, take))}
            for i in range(members)]
    topic_map = dict.fromkeys(names, per_topic)
    return {"steps": [{"topics": topic_map, "members": rows}, {"topics": topic_map, "members": rows[1:]}]}
