"""On a real server (``streamlit run app.py`` on a free loopback port), driven as browsers drive it:
websocket sessions sending ``rerun_script`` with a page name and a query string (as ../shared/tools/ws_sessions.py).

- A shared link that asks for too much is refused in under 2 s, and another person's page opened meanwhile stays
  about as fast as it is alone (generous margins: the machine is shared).
- Many different large scenarios opened one after another keep the server's RSS under its bound (README,
  "Running a workshop"): the cache is bounded by bytes, the post-run collection is off, and a closed session
  keeps no results.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.scenario import parse_scenario
from helpers import REPO
from ui.frame.state import encode_scenario

websockets = pytest.importorskip("websockets")
CACHE_MIB = 16  # the server's cache budget in these tests (KPL_CACHE_MIB): two of the groups below fill it


def arun(coro: Any) -> Any:
    """``asyncio.run`` on a thread of its own: a worker that ran Playwright's sync API has a loop running."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text().splitlines()
    return next(int(line.split()[1]) // 1024 for line in status if line.startswith("VmRSS:"))


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    port = free_port()
    env = {**os.environ, "KPL_CACHE_MIB": str(CACHE_MIB)}
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
                             "--server.port", str(port), "--server.address", "127.0.0.1",
                             "--browser.gatherUsageStats", "false"], cwd=REPO, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(240):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1)
                break
            except OSError:
                time.sleep(0.5)
        url = f"ws://127.0.0.1:{port}/_stcore/stream"
        for page in ("Assignments", "Keys"):  # imports done once, as the facilitator's own tab does
            arun(visit(url, page))
        yield url, proc.pid
    finally:
        proc.terminate()
        proc.wait(timeout=30)


async def open_page(ws, page: str) -> tuple[float, list[str]]:
    """Seconds from the request to ``script_finished``, and the texts of the page's error and exception boxes."""
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    name, _, query = page.partition("?")
    msg = BackMsg()
    msg.rerun_script.query_string = query
    msg.rerun_script.page_name = name
    msg.rerun_script.page_script_hash = ""
    start = time.perf_counter()
    await ws.send(msg.SerializeToString())
    shown: list[str] = []
    while True:
        fwd = ForwardMsg()
        fwd.ParseFromString(await asyncio.wait_for(ws.recv(), timeout=300))
        kind = fwd.WhichOneof("type")
        if kind == "delta" and fwd.delta.HasField("new_element"):
            el = fwd.delta.new_element
            if el.WhichOneof("type") == "exception":
                shown.append(f"exception: {el.exception.type}: {el.exception.message}")
            elif el.WhichOneof("type") == "alert" and el.alert.format == el.alert.ERROR:
                shown.append(el.alert.body)
        if kind == "script_finished":
            return time.perf_counter() - start, shown


async def visit(url: str, page: str, delay: float = 0.0) -> tuple[float, list[str]]:
    await asyncio.sleep(delay)
    async with websockets.connect(url, subprotocols=["streamlit"], max_size=None, ping_interval=None,
                                  origin=url.replace("ws://", "http://").split("/_stcore")[0]) as ws:
        return await open_page(ws, page)


def huge_link() -> str:
    topics = {f"t{i}": 100_000 for i in range(20)}
    members = [{"id": f"c{i:03d}", "topics": list(topics)} for i in range(200)]
    return encode_scenario(parse_scenario({"steps": [{"topics": topics, "members": members[: 200 - k]}
                                                     for k in range(10)]}))


def test_a_link_asking_for_too_much_is_refused_quickly_and_another_page_stays_fast(server) -> None:
    url, _ = server
    other = "Assignments?preset=large"
    alone = min(arun(visit(url, other))[0] for _ in range(3))

    async def both() -> list[tuple[float, list[str]]]:
        return await asyncio.gather(visit(url, f"Assignments?s={huge_link()}"), visit(url, other, delay=0.2))

    (refused, shown), (meanwhile, other_shown) = arun(both())
    assert len(shown) == 1 and "over the dashboard's ceiling" in shown[0], shown
    busy = max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))  # a shared machine: more runnable than cores
    assert refused < 2.0 * busy, f"refused after {refused:.2f} s (load {os.getloadavg()[0]:.1f})"
    assert not other_shown
    assert meanwhile < max(3 * alone, alone + 2.0), f"{meanwhile:.2f} s with the link, {alone:.2f} s alone"


def scenario_link(i: int) -> str:
    """A different 6,000-partition group for each ``i`` (partition counts differ)."""
    topics = {"orders": 4_000 + i, "payments": 2_000 + i}
    members = [{"id": f"m{j:02d}", "topics": ["orders", "payments"]} for j in range(40)]
    return encode_scenario(parse_scenario({"steps": [{"topics": topics, "members": members},
                                                     {"topics": topics, "members": members[1:]}]}))


def test_many_different_large_scenarios_keep_the_server_under_its_rss_bound(server) -> None:
    url, pid = server
    base = rss_mib(pid)
    after: list[int] = []
    for i in range(12):  # about 10 MiB of results each: the cache fills after two, then evicts
        _, shown = arun(visit(url, f"Assignments?s={scenario_link(i)}"))
        assert not [s for s in shown if s.startswith("exception")], shown
        after.append(rss_mib(pid))
    # README ("Running a workshop"): base + 2 x the cache + 64 MiB. Once the cache is full the server stops
    # growing: a closed session (Streamlit keeps it two minutes) holds no results. When the downloads' callables
    # kept a page run's globals alive, each group here added about 6 MiB for good (36 MiB over the last six).
    assert max(after) <= base + 2 * CACHE_MIB + 64, f"RSS {base} -> {after} MiB"
    assert after[-1] - after[5] <= 12, f"still growing once the cache is full: {after} MiB (base {base})"
