"""Browser fixtures: one ``streamlit run app.py`` on a free loopback port and one Debian chromium (Playwright) for
every browser test module of the session (under xdist: of the one worker that runs tests/browser, see
tests/conftest.py; the server's log is named after the worker).  Helpers that drive a page live in
``tests/helpers.py``."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator

import pytest

from helpers import ARTIFACTS, CHROMIUM, LAUNCH_ARGS, REPO, watch_runs


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    port = free_port()
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    log = ARTIFACTS / (f"streamlit-{worker}.log" if worker else "streamlit.log")
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


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed at /usr/bin/chromium (run `make chromium`)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    """A page in a fresh browser context (no cookies, no session), 1500 x 1000, downloads allowed."""
    context = browser.new_context(viewport={"width": 1500, "height": 1000}, accept_downloads=True)
    page = context.new_page()
    watch_runs(page)  # wait_rendered then waits for the run an action started, not a fixed quiet second
    yield page
    context.close()
