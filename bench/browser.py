"""``python -m bench browser``: what a dashboard user waits for, measured in Debian's chromium.

    .venv/bin/python -m bench browser          # large, 200x20000, 1000x100000; N = 1, 10, 30; 100 in a row
    .venv/bin/python -m bench browser --quick  # large preset only, N = 1, 10 sessions in a row (a smoke run)
    .venv/bin/python -m bench browser --pages Assignments,Rebalance --groups large,200x20000 --sessions 1,10

Starts ``streamlit run app.py`` on a free loopback port and opens every page under pages/ in fresh browser
contexts (Playwright, /usr/bin/chromium headless).  A page that reads the shared scenario is opened once per
group (a preset as ``?preset=large``, a generated group as the share link ``?s=`` built by
``bench.browser_groups``); a page that does not is opened once with its defaults.  Each page is visited
twice: the first (cold) visit fills the server's caches, the table shows the second (warm) one, as the
issue's targets are for warm caches.

How each figure is measured (compatible with ../shared/tools/page_weight.py and load_sessions.py):

- server s: the script runs of the visit as the websocket shows them: from each run's ``new_session``
  ForwardMsg (sent when the script starts) to its ``script_finished`` (or the next ``new_session``), summed
  over the runs. The timestamps are Chromium's own (CDP ``Network.webSocketFrameReceived``), taken when the
  frame arrives, so the benchmark's Python does not enter them.  On a busy machine the script thread waits
  for a core and this grows.
- MB: Streamlit messages received: websocket frame payloads plus ``/_stcore/message`` bodies (MiB).
- first chart s, idle s: in the page, from navigation start (``performance.now()``, polled every 50 ms): the
  first Plotly chart drawn (``.main-svg``); idle = stApp's ``data-test-script-state`` is ``notRunning``, no
  ``stStatusWidget``, no skeleton and every ``stPlotlyChart`` drawn, held for 0.5 s (reported: when it
  began).
- browser s = idle s - server s: everything that is not the script, split into load s (navigation start to
  the first script run's ``new_session``: HTML, Streamlit's scripts, the websocket connecting; CDP
  ``Network.requestWillBeSent`` of the document to that frame) and render s (the rest: drawing, waiting).
- concurrent: N fresh contexts open the page at once; p50 / p95 (nearest rank) / max over the sessions.  An
  error is a timeout, an exception box, an error alert or a crashed page.
- server CPU s and RSS: /proc/<pid>/stat (utime + stime + cutime + cstime) and /proc/<pid>/status (VmRSS),
  summed over the server and its live descendants, before and after.
- sequential: sessions opened one after another (the scenario pages in turn, load group), RSS sampled every
  tenth of them; bounded = RSS growth over the second half at most ``SEQUENTIAL_GROWTH_LIMIT_MIB``.
  Disconnected sessions live for Streamlit's ``server.disconnectedSessionTTL`` (120 s by default, kept), so
  they are part of the figure.

The server runs with ``--server.fileWatcherType none``: the working tree may change while the benchmark
runs, and a "source file changed" prompt in the status widget would be measured instead of the page.  The
browsers run on the same machine as the server: the concurrent figures include their CPU contention (as in
the issue's measurements).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import math
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.browser_groups import DEFAULT_GROUPS, GroupSpec, parse_group

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
VIEWPORT = {"width": 1440, "height": 900}
HEALTH_TIMEOUT_S = 60
STOP_TIMEOUT_S = 20
IDLE_HOLD_MS = 500
QUICK_SEQUENTIAL = 10
ERROR_WIDTH = 60  # characters of an error message in the tables
RUN_ALL_ARGS = ["--quick"]  # `python -m bench` (every benchmark): the quick run; the full one is `-m bench browser`
SCENARIO_PAGE = re.compile(r"\b(current_scenario\w*|init_state|render_sidebar)\b|\bui\.state\b")

IDLE_TARGET_S = {"large": 2.0, "200x20000": 4.0, "1000x100000": 30.0}  # warm, one session
PAYLOAD_TARGET_MB = {"200x20000": 1.5}
DEFAULTS_TARGET_GROUP = "large"  # pages without the scenario are held to the large preset's target
LOAD_TARGET = ("large", 30, 1.0)  # group, concurrent sessions, server p95 per rerun (s)
SEQUENTIAL_GROWTH_LIMIT_MIB = 32.0
SEQUENTIAL_TARGET_COUNT = 100

IDLE_PROBE = """(() => {
  if (window.top !== window || window.__bench) return;
  const b = window.__bench = {firstChart: null, idleSince: null};
  const q = (s) => document.querySelectorAll(s).length;
  const idle = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    return !!app && app.getAttribute('data-test-script-state') === 'notRunning'
      && !q('[data-testid="stStatusWidget"]') && !q('[data-testid="stSkeleton"]')
      && q('[data-testid="stPlotlyChart"] .main-svg') >= q('[data-testid="stPlotlyChart"]');
  };
  setInterval(() => {
    const now = performance.now();
    if (b.firstChart === null && q('[data-testid="stPlotlyChart"] .main-svg')) b.firstChart = now;
    if (idle()) { if (b.idleSince === null) b.idleSince = now; } else { b.idleSince = null; }
  }, 50);
})();"""
IDLE_HELD = f"""() => {{ const b = window.__bench;
  return !!b && b.idleSince !== null && performance.now() - b.idleSince >= {IDLE_HOLD_MS}; }}"""
PAGE_ERRORS = """() => {
  const first = (sel) => {
    const e = document.querySelector(sel);
    return e ? e.innerText.replace(/\\s+/g, ' ') : null;
  };
  const ex = first('[data-testid="stException"]');
  if (ex) return 'exception: ' + ex.slice(0, 100);
  const al = first('[data-testid="stAlertContentError"]');
  return al ? 'error alert: ' + al.slice(0, 100) : null;
}"""


# ------------------------------------------------------------------------------------- what one visit saw


class ScriptRuns:
    """Script runs of one session from its websocket frames (CDP timestamps, seconds), and bytes received."""

    def __init__(self) -> None:
        self.durations: list[float] = []
        self.bytes = 0
        self.compile_error = False
        self.navigated: float | None = None  # the page's document request (CDP time)
        self.first_start: float | None = None
        self._started: float | None = None

    def feed(self, timestamp: float, payload: bytes) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        self.bytes += len(payload)
        msg = ForwardMsg()
        try:
            msg.ParseFromString(payload)
        except Exception:  # noqa: BLE001  (a frame that is not a ForwardMsg counts as bytes only)
            return
        kind = msg.WhichOneof("type")
        if kind == "new_session":
            self._close(timestamp)
            self._started = timestamp
            self.first_start = timestamp if self.first_start is None else self.first_start
        elif kind == "script_finished":
            self._close(timestamp)
            self.compile_error |= msg.script_finished == ForwardMsg.FINISHED_WITH_COMPILE_ERROR

    def feed_cdp(self, params: dict[str, Any]) -> None:
        """A ``Network.webSocketFrameReceived`` event (binary frames are base64 in ``payloadData``)."""
        response = params.get("response", {})
        data = response.get("payloadData", "")
        payload = base64.b64decode(data) if response.get("opcode") == 2 else data.encode("utf-8")
        self.feed(float(params.get("timestamp", 0.0)), payload)

    def on_request(self, params: dict[str, Any]) -> None:
        """A ``Network.requestWillBeSent`` event: the first document request marks navigation start."""
        if self.navigated is None and params.get("type") == "Document":
            self.navigated = float(params.get("timestamp", 0.0))

    @property
    def load_s(self) -> float | None:
        """Navigation start to the first script run: HTML, Streamlit's scripts, the websocket connecting."""
        if self.navigated is None or self.first_start is None:
            return None
        return max(0.0, self.first_start - self.navigated)

    def _close(self, timestamp: float) -> None:
        if self._started is not None:
            self.durations.append(max(0.0, timestamp - self._started))
            self._started = None

    @property
    def server_s(self) -> float | None:
        return sum(self.durations) if self.durations else None


@dataclass
class Visit:
    """One browser session opening one page: the figures of the table (seconds, bytes)."""

    group: str
    page: str
    server_s: float | None = None
    load_s: float | None = None
    runs: int = 0
    bytes: int = 0
    first_chart_s: float | None = None
    idle_s: float | None = None
    charts: int = 0
    error: str | None = None
    cold_server_s: float | None = None  # the first visit's server time (caches filled then)

    @property
    def browser_s(self) -> float | None:
        if self.idle_s is None or self.server_s is None:
            return None
        return max(0.0, self.idle_s - self.server_s)

    @property
    def render_s(self) -> float | None:
        """What the browser spends after the page has loaded: drawing, and waiting between runs."""
        if self.browser_s is None or self.load_s is None:
            return None
        return max(0.0, self.browser_s - self.load_s)

    @property
    def mib(self) -> float:
        return self.bytes / 2**20


# ------------------------------------------------------------------------------------- server process


@dataclass(frozen=True)
class Usage:
    """CPU seconds and resident memory of a process tree at one moment."""

    cpu_s: float
    rss_mib: float


def _stat_fields(pid: int) -> list[str]:
    """Fields of /proc/<pid>/stat from field 3 (state) on; the command name may hold spaces or parentheses."""
    text = Path(f"/proc/{pid}/stat").read_text()
    return text[text.rindex(")") + 2:].split()


def descendants(pid: int) -> list[int]:
    """Live descendants of ``pid`` (a scan of /proc, children before grandchildren)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                children.setdefault(int(_stat_fields(int(entry.name))[1]), []).append(int(entry.name))
            except (OSError, ValueError, IndexError):
                continue
    found, queue = [], list(children.get(pid, []))
    while queue:
        child = queue.pop(0)
        found.append(child)
        queue.extend(children.get(child, []))
    return found


def usage(pid: int) -> Usage:
    """utime + stime + cutime + cstime and VmRSS, summed over ``pid`` and its live descendants."""
    ticks = os.sysconf("SC_CLK_TCK")
    cpu, rss_kib = 0.0, 0
    for p in [pid, *descendants(pid)]:
        try:
            fields = _stat_fields(p)
            status = Path(f"/proc/{p}/status").read_text()
        except OSError:
            continue
        cpu += sum(int(x) for x in fields[11:15]) / ticks
        rss = [line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")]
        rss_kib += int(rss[0]) if rss else 0  # a zombie has no VmRSS
    return Usage(cpu, rss_kib / 1024)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + HEALTH_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with code {proc.returncode}; see {log}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.read().strip() == b"ok":
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"streamlit was not healthy within {HEALTH_TIMEOUT_S} s; see {log}")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server this benchmark started (by its PID): terminate, then kill if it lingers."""
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=STOP_TIMEOUT_S)


@contextmanager
def streamlit_server(log: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``streamlit run app.py`` on a free loopback port, stopped on exit (also on error)."""
    port = free_port()
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
               "--server.port", str(port), "--server.address", "127.0.0.1",
               "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    with log.open("w") as out:
        proc = subprocess.Popen(command, cwd=REPO, stdout=out, stderr=subprocess.STDOUT)
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_healthy(url, proc, log)
            yield url, proc
        finally:
            _stop(proc)


# ---------------------------------------------------------------------------------------------- pages


def page_paths() -> dict[str, bool]:
    """Streamlit URL path of every page under pages/ -> whether the page reads the shared scenario."""
    out = {}
    for path in sorted((REPO / "pages").glob("*.py")):
        name = re.sub(r"^[0-9]+[_\- ]*", "", path.stem)
        out[name] = bool(SCENARIO_PAGE.search(path.read_text(encoding="utf-8")))
    return out


@dataclass(frozen=True)
class Target:
    """Where to point a session: a page and the group it opens (``group`` "defaults": no query)."""

    page: str
    group: str
    query: str

    def url(self, base: str) -> str:
        return f"{base}/{self.page}" + (f"?{self.query}" if self.query else "")


def plan(pages: dict[str, bool], groups: list[GroupSpec]) -> list[Target]:
    """Scenario pages once per group; the other pages once with their defaults."""
    out = [Target(page, g.name, g.query()) for g in groups for page, scenario in pages.items() if scenario]
    return out + [Target(page, "defaults", "") for page, scenario in pages.items() if not scenario]


# ---------------------------------------------------------------------------------------------- one visit


async def _message_bytes(response: Any) -> int:
    try:
        return len(await response.body())
    except Exception:  # noqa: BLE001  (the context closed first: nothing more was received)
        return 0


async def visit(browser: Any, base: str, target: Target, timeout_s: float) -> Visit:
    """Open ``target`` in a fresh context; wait (``timeout_s`` at most) until idle with charts drawn."""
    from playwright.async_api import Error as PlaywrightError

    result = Visit(target.group, target.page)
    runs = ScriptRuns()
    bodies: list[asyncio.Task[int]] = []
    context = await browser.new_context(viewport=VIEWPORT)
    try:
        page = await context.new_page()
        await page.add_init_script(IDLE_PROBE)
        cdp = await context.new_cdp_session(page)
        cdp.on("Network.webSocketFrameReceived", runs.feed_cdp)
        cdp.on("Network.requestWillBeSent", runs.on_request)
        await cdp.send("Network.enable")
        page.on("response", lambda r: bodies.append(asyncio.ensure_future(_message_bytes(r)))
                if "/_stcore/message" in r.url else None)
        deadline = time.monotonic() + timeout_s
        await page.goto(target.url(base), timeout=timeout_s * 1000, wait_until="commit")
        remaining_ms = max(1.0, (deadline - time.monotonic()) * 1000)
        await page.wait_for_function(IDLE_HELD, polling=100, timeout=remaining_ms)
        probe = await page.evaluate("() => window.__bench")
        result.first_chart_s = None if probe["firstChart"] is None else probe["firstChart"] / 1000
        result.idle_s = probe["idleSince"] / 1000
        result.charts = await page.locator('[data-testid="stPlotlyChart"]').count()
        result.error = await page.evaluate(PAGE_ERRORS)
    except PlaywrightError as exc:
        timed_out = type(exc).__name__ == "TimeoutError"
        first_line = (str(exc).splitlines() or [type(exc).__name__])[0]
        result.error = f"not idle within {timeout_s:g} s" if timed_out else f"browser: {first_line}"
    finally:
        if bodies:
            done, _ = await asyncio.wait(bodies, timeout=10)
            runs.bytes += sum(t.result() for t in done)
        await _close(context)
    result.server_s, result.load_s, result.runs = runs.server_s, runs.load_s, len(runs.durations)
    result.bytes = runs.bytes
    if runs.compile_error and not result.error:
        result.error = "script compile error"
    return result


async def _close(context: Any) -> None:
    try:
        await asyncio.wait_for(context.close(), timeout=30)
    except Exception:  # noqa: BLE001  (a hung or crashed context must not stop the benchmark)
        pass


# ---------------------------------------------------------------------------------------------- runs


@dataclass
class LoadRow:
    """N concurrent sessions on one target: their visits and the server's CPU and RSS around them."""

    target: Target
    visits: list[Visit]
    before: Usage
    after: Usage

    @property
    def errors(self) -> list[str]:
        return [v.error for v in self.visits if v.error]


@dataclass
class Sequential:
    """RSS samples (sessions opened so far, MiB) over sessions opened one after another."""

    samples: list[tuple[int, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def growth_second_half(self) -> float | None:
        if len(self.samples) < 3:
            return None
        last_n, last = self.samples[-1]
        half = min(self.samples, key=lambda s: abs(s[0] - last_n / 2))
        return last - half[1]


async def measure_pages(browser: Any, base: str, targets: list[Target],
                        args: argparse.Namespace) -> list[Visit]:
    """Cold then warm visit of every target; the warm visit is kept with the cold one's server time."""
    warm_visits = []
    for target in targets:
        cold = await visit(browser, base, target, args.cold_timeout)
        warm = await visit(browser, base, target, args.timeout)
        warm.cold_server_s = cold.server_s
        if cold.error and not warm.error:
            warm.error = f"cold visit: {cold.error}"
        print(f"  {target.group} / {target.page}: cold server {_s(cold.server_s)} s, "
              f"warm idle {_s(warm.idle_s)} s, {warm.mib:.2f} MB{', ' + warm.error if warm.error else ''}",
              file=sys.stderr, flush=True)
        warm_visits.append(warm)
    return warm_visits


async def measure_load(browser: Any, base: str, targets: list[Target], levels: list[int], pid: int,
                       timeout_s: float) -> list[LoadRow]:
    rows = []
    for n in levels:
        for target in targets:
            before = usage(pid)
            visits = await asyncio.gather(*(visit(browser, base, target, timeout_s) for _ in range(n)))
            rows.append(LoadRow(target, list(visits), before, usage(pid)))
            print(f"  N={n} {target.group} / {target.page}: {len(rows[-1].errors)} errors", file=sys.stderr,
                  flush=True)
    return rows


async def measure_sequential(browser: Any, base: str, targets: list[Target], count: int, pid: int,
                             timeout_s: float) -> Sequential:
    out = Sequential([(0, usage(pid).rss_mib)])
    every = max(1, count // 10)
    for i in range(count):
        v = await visit(browser, base, targets[i % len(targets)], timeout_s)
        if v.error:
            out.errors.append(v.error)
        if (i + 1) % every == 0 or i + 1 == count:
            out.samples.append((i + 1, usage(pid).rss_mib))
    return out


# ---------------------------------------------------------------------------------------------- tables


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (``q`` in 0..100) of ``values``; None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def _s(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def format_table(headers: list[str], rows: list[list[str]], text_columns: tuple[int, ...] = (0,)) -> str:
    """Columns as wide as their widest cell; ``text_columns`` left-aligned, figures right-aligned."""
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]
    lines = []
    for row in [headers, *rows]:
        cells = [str(c).ljust(w) if i in text_columns else str(c).rjust(w)
                 for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def short(text: str | None, limit: int = ERROR_WIDTH) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks the cut); None is empty."""
    if not text:
        return ""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def page_table(visits: list[Visit]) -> str:
    headers = ["group / page", "cold server s", "server s", "runs", "browser s", "load s", "render s",
               "first chart s", "idle s", "MB", "charts", "error"]
    rows = [[f"{v.group} / {v.page}", _s(v.cold_server_s), _s(v.server_s), str(v.runs), _s(v.browser_s),
             _s(v.load_s), _s(v.render_s), _s(v.first_chart_s), _s(v.idle_s), f"{v.mib:.2f}", str(v.charts),
             short(v.error)] for v in visits]
    return format_table(headers, rows, text_columns=(0, 11))


def _p(values: list[float]) -> str:
    figures = (percentile(values, 50), percentile(values, 95), max(values, default=None))
    return "/".join(_s(x) for x in figures)


def load_table(rows: list[LoadRow]) -> str:
    headers = ["N  group / page", "idle p50/p95/max s", "server p50/p95/max s", "errors", "server CPU s",
               "RSS before->after MiB"]
    out = []
    for r in rows:
        idle = [v.idle_s for v in r.visits if v.idle_s is not None and not v.error]
        server = [v.server_s for v in r.visits if v.server_s is not None]
        errors = sorted(set(r.errors))
        out.append([f"{len(r.visits):<3}{r.target.group} / {r.target.page}", _p(idle), _p(server),
                    f"{len(r.errors)}" + (f" ({short('; '.join(errors))})" if errors else ""),
                    f"{r.after.cpu_s - r.before.cpu_s:.1f}",
                    f"{r.before.rss_mib:.0f}->{r.after.rss_mib:.0f}"])
    return format_table(headers, out, text_columns=(0, 3))


def sequential_table(seq: Sequential) -> str:
    rows = [[str(n), f"{rss:.0f}"] for n, rss in seq.samples]
    return format_table(["sessions opened", "server RSS MiB"], rows)


# ---------------------------------------------------------------------------------------------- targets


@dataclass(frozen=True)
class Check:
    """One of the issue's targets: what was measured and whether it is met (None: not judged by this run)."""

    target: str
    measured: str
    met: bool | None


def _idle_check(v: Visit) -> Check | None:
    group = DEFAULTS_TARGET_GROUP if v.group == "defaults" else v.group
    limit = IDLE_TARGET_S.get(group)
    if limit is None:
        return None
    if group == "1000x100000":
        label = f"{v.page} usable at 1000x100000 (idle <= {limit:g} s, no error)"
    else:
        label = f"{v.page} idle <= {limit:g} s ({v.group})"
    measured = v.error or f"{v.idle_s:.2f} s"
    return Check(label, measured, v.error is None and v.idle_s is not None and v.idle_s <= limit)


def page_checks(visits: list[Visit]) -> list[Check]:
    out = []
    for v in visits:
        idle = _idle_check(v)
        if idle:
            out.append(idle)
        limit = PAYLOAD_TARGET_MB.get(v.group)
        if limit is not None:
            measured = f"{v.mib:.2f} MB" + (f" ({v.error})" if v.error else "")
            met = not v.error and v.mib < limit
            out.append(Check(f"{v.page} payload < {limit:g} MB ({v.group})", measured, met))
    ran = {v.group for v in visits}
    for group, limit in IDLE_TARGET_S.items():
        if group not in ran:
            out.append(Check(f"every scenario page idle <= {limit:g} s ({group})", "not run", None))
    return out


def load_checks(rows: list[LoadRow]) -> list[Check]:
    group, n, limit = LOAD_TARGET
    out = []
    for r in rows:
        if r.target.group in (group, "defaults") and len(r.visits) == n:
            p95 = percentile([v.server_s for v in r.visits if v.server_s is not None], 95)
            errors = len(r.errors)
            met = p95 is not None and p95 < limit and errors == 0
            label = f"{r.target.page}: {n} sessions ({r.target.group}), server p95 < {limit:g} s, no errors"
            out.append(Check(label, f"p95 {_s(p95)} s, {errors} errors", met))
    label = f"{n} concurrent sessions ({group}): server p95 < {limit:g} s, no errors"
    return out or [Check(label, "not run", None)]


def sequential_check(seq: Sequential | None) -> Check:
    label = f"RSS bounded over {SEQUENTIAL_TARGET_COUNT} sequential sessions (2nd half <= " \
            f"{SEQUENTIAL_GROWTH_LIMIT_MIB:g} MiB)"
    if seq is None or len(seq.samples) < 2:
        return Check(label, "not run", None)
    count = seq.samples[-1][0]
    growth = seq.growth_second_half()
    measured = f"{_s(growth, 0)} MiB over sessions {count // 2}-{count}, {len(seq.errors)} errors"
    if count < SEQUENTIAL_TARGET_COUNT:
        return Check(label, measured + f" (only {count} sessions)", None)
    met = growth is not None and growth <= SEQUENTIAL_GROWTH_LIMIT_MIB and not seq.errors
    return Check(label, measured, met)


def checks_table(checks: list[Check]) -> str:
    verdict = {True: "met", False: "MISSED", None: "-"}
    rows = [[c.target, short(c.measured), verdict[c.met]] for c in checks]
    return format_table(["target", "measured", "verdict"], rows, text_columns=(0, 1, 2))


def summary(checks: list[Check]) -> str:
    judged = [c for c in checks if c.met is not None]
    missed = [c.target for c in judged if not c.met]
    line = f"targets: {len(judged) - len(missed)} of {len(judged)} judged met, " \
           f"{len(checks) - len(judged)} not judged"
    return line + (f"; missed: {'; '.join(missed)}" if missed else "")


# ---------------------------------------------------------------------------------------------- main


@dataclass
class Report:
    start: Usage
    after_pages: Usage
    end: Usage
    visits: list[Visit]
    load: list[LoadRow]
    sequential: Sequential | None


async def run_all(base: str, pid: int, args: argparse.Namespace) -> Report:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS)
        try:
            start = usage(pid)
            visits = await measure_pages(browser, base, args.targets, args)
            after_pages = usage(pid)
            load = await measure_load(browser, base, args.load_targets, args.levels, pid, args.timeout)
            seq = None
            if args.sequential:
                seq = await measure_sequential(browser, base, args.sequential_targets, args.sequential, pid,
                                               args.timeout)
        finally:
            await browser.close()
    return Report(start, after_pages, usage(pid), visits, load, seq)


def _ints(text: str, what: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"{what}: expected comma-separated whole numbers, got {text!r}") from None
    if not values or min(values) < 1:
        raise ValueError(f"{what}: expected numbers >= 1, got {text!r}")
    return values


def _resolve(args: argparse.Namespace) -> None:
    """Turn the options into targets (pages x groups); every bad value is a one-line ValueError."""
    pages = page_paths()
    chosen = [p.strip() for p in args.pages.split(",") if p.strip()] or list(pages)
    unknown = [p for p in chosen if p not in pages]
    if unknown:
        raise ValueError(f"--pages: unknown {', '.join(unknown)}; pages are {', '.join(pages)}")
    pages = {p: pages[p] for p in chosen}
    specs = [parse_group(g) for g in args.groups.split(",") if g.strip()]
    load_spec = parse_group(args.load_group)
    for spec in [*specs, load_spec]:
        spec.query()  # encode now: no measurement pays for it, and a bad group fails before the server starts
    args.levels = _ints(args.sessions, "--sessions")
    if args.timeout <= 0 or args.cold_timeout <= 0 or args.sequential < 0:
        raise ValueError("--timeout and --cold-timeout must be > 0 and --sequential >= 0")
    args.targets = plan(pages, specs)
    args.load_targets = plan(pages, [load_spec])
    args.sequential_targets = [t for t in args.load_targets if t.group != "defaults"] or args.load_targets


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench browser", description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", default="", help="comma-separated page paths (default: all of pages/)")
    parser.add_argument("--groups", default=",".join(DEFAULT_GROUPS),
                        help="comma-separated presets or MEMBERSxPARTITIONS[xTOPICS] (default: %(default)s)")
    parser.add_argument("--sessions", default="1,10,30", help="concurrent sessions (default: %(default)s)")
    parser.add_argument("--load-group", default=LOAD_TARGET[0], help="group of the concurrent runs")
    parser.add_argument("--sequential", type=int, default=SEQUENTIAL_TARGET_COUNT,
                        help="sequential sessions for the RSS check (0: skip; default %(default)s)")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per warm visit (default 120)")
    parser.add_argument("--cold-timeout", type=float, default=600, help="seconds per cold visit (600)")
    parser.add_argument("--quick", action="store_true",
                        help=f"large preset only, N = 1, {QUICK_SEQUENTIAL} sequential sessions")
    args = parser.parse_args(argv)
    if args.quick:
        args.groups, args.sessions, args.load_group, args.sequential = "large", "1", "large", QUICK_SEQUENTIAL
    try:
        _resolve(args)
    except Exception as exc:  # noqa: BLE001  (ValueError, ScenarioError: one line, exit 2)
        parser.error(str(exc))
    return args


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def print_report(report: Report, args: argparse.Namespace, started: float) -> None:
    print(f"\nbrowser benchmark, {os.cpu_count()} cores, load average now {_load()}, "
          f"{time.monotonic() - started:.0f} s{' (--quick)' if args.quick else ''}")
    print("\n1. Pages, one session, warm caches (cold server s: the first visit)\n")
    print(page_table(report.visits))
    print(f"\n2. Concurrent sessions ({args.load_group})\n")
    print(load_table(report.load))
    start, pages, end = report.start, report.after_pages, report.end
    print(f"\n3. Server process: RSS {start.rss_mib:.0f} MiB at start, {pages.rss_mib:.0f} after the pages, "
          f"{end.rss_mib:.0f} at the end; CPU {pages.cpu_s - start.cpu_s:.1f} s for the pages, "
          f"{end.cpu_s - pages.cpu_s:.1f} s after them\n")
    if report.sequential:
        print(f"sequential sessions ({args.load_group}, errors {len(report.sequential.errors)}):")
        print(sequential_table(report.sequential))
    checks = page_checks(report.visits) + load_checks(report.load) + [sequential_check(report.sequential)]
    print("\n4. Targets\n")
    print(checks_table(checks))
    print(f"\n{summary(checks)}")


def main(argv: list[str]) -> None:
    args = parse_args(argv)
    if not CHROMIUM.exists():
        raise SystemExit(f"browser benchmark: no Debian chromium at {CHROMIUM} (run `make chromium`)")
    started = time.monotonic()
    print(f"browser benchmark: {len(args.targets)} page visits x 2, sessions {args.levels}, "
          f"{args.sequential} in a row; load average at start {_load()}", file=sys.stderr, flush=True)
    log = REPO / "test-artifacts" / "bench-browser-streamlit.log"
    log.parent.mkdir(exist_ok=True)
    try:
        with streamlit_server(log) as (base, proc):
            report = asyncio.run(run_all(base, proc.pid, args))
    except RuntimeError as exc:
        raise SystemExit(f"browser benchmark: {exc}") from None
    except KeyboardInterrupt:
        raise SystemExit("browser benchmark: interrupted (the server was stopped)") from None
    print_report(report, args, started)


if __name__ == "__main__":
    main(sys.argv[1:])
