"""``python -m bench browser``: what a dashboard user waits for, measured in Debian's chromium.

    .venv/bin/python -m bench browser          # large, 2000x200000; 3 warm visits; N = 1, 10, 30; 100 in a row
    .venv/bin/python -m bench browser --quick  # large preset only, 1 warm visit, N = 1, 10 sessions in a row
    .venv/bin/python -m bench browser --baseline HEAD~3 --variants en,zh,presenter --pages Assignments,Keys
    .venv/bin/python -m bench browser --pages Assignments,Rebalance --groups large,200x20000 --sessions 1,10

Starts ``streamlit run app.py`` on a free loopback port and opens every page under pages/ as a person would: a
fresh browser for every visit (Playwright driving /usr/bin/chromium headless), the page's own URL, and a wait
until nothing moves.  A page that reads the shared scenario is opened once per group (a preset as
``?preset=large``, a generated group as the share link ``?s=`` built by ``bench.browser_groups``); a page that
does not is opened once with its defaults.  Each page is visited once cold (filling the server's caches), then
``--repeat`` times warm (3; ``--quick``: 1): the table shows each figure's median over the warm visits, and its
minimum after a slash when there are several (``median/min``), as the issue's targets are for warm caches.

``--variants en,zh,presenter`` opens each page also in Chinese (``lang=zh`` added to its query) and in presenter
mode (``present=1``), each a row of its own (``large / Keys [zh]``); English is always measured, as the
reference: a variant is held to "no slower" (median idle <= English's x ``VARIANT_FACTOR`` + ``VARIANT_SLACK_S``).

``--baseline REV`` measures the code as it was at a git revision in the same run: ``bench.browser_baseline``
checks REV out as a worktree beside the repo and a second server (same interpreter, same flags) serves it.
Every page is measured on both, interleaved so machine noise hits both alike: baseline cold, current cold,
then for each repeat baseline warm, current warm.  The table shows the baseline's row above the current one and
``idle vs base`` = current median idle / baseline median idle.  The targets judge the current code only.

How each figure is measured (compatible with ../shared/tools/page_weight.py and load_sessions.py):

- server s: the script runs of the visit as the websocket shows them: from each run's ``new_session``
  ForwardMsg (sent when the script starts) to its ``script_finished`` (or the next ``new_session``), summed
  over the runs. The timestamps are Chromium's own (CDP ``Network.webSocketFrameReceived``), taken when the
  frame arrives, so the benchmark's Python does not enter them.  On a busy machine the script thread waits
  for a core and this grows.  cold server s: the same on the cold visit.
- MB: Streamlit messages received: websocket frame payloads plus ``/_stcore/message`` bodies (MiB).
- first chart s, idle s: in the page, from navigation start (``performance.now()``; ``bench.browser_metrics``'
  probe, installed before the page's scripts): the first Plotly chart drawn (``.main-svg``, seen by a
  MutationObserver or the 50 ms poll); idle = "nothing moves": stApp's ``data-test-script-state`` is
  ``notRunning``, no ``stStatusWidget``, no skeleton, every ``stPlotlyChart`` drawn, and no DOM change (a
  MutationObserver on the document: children, attributes, text), all held for 0.5 s.  Reported: when that
  quiet began, the later of the page's state turning idle and its last DOM change.  A page that never stops
  changing times out, its error naming the element that changed last.
- load s: navigation start to the first script run's ``new_session`` (HTML, Streamlit's scripts, the websocket
  connecting; CDP ``Network.requestWillBeSent`` of the document to that frame); render s = idle s - server s
  - load s: drawing, and waiting between runs.
- script s, layout s, task s: the browser's own split, CDP ``Performance.getMetrics`` at idle (the domain
  enabled before navigation, in a fresh browser): ScriptDuration; LayoutDuration + RecalcStyleDuration;
  TaskDuration (all of the renderer main thread's work, these included).
- concurrent: N fresh contexts of one browser open the page at once; p50 / p95 (nearest rank) / max over the
  sessions.  An error is a timeout, an exception box, an error alert or a crashed page.
- server CPU s and RSS: /proc/<pid>/stat (utime + stime + cutime + cstime) and /proc/<pid>/status (VmRSS),
  summed over the server and its live descendants, before and after.
- sequential: sessions opened one after another (the scenario pages in turn, load group), RSS sampled every
  tenth of them; bounded = RSS growth over the second half at most ``SEQUENTIAL_GROWTH_LIMIT_MIB``.
  Disconnected sessions live for Streamlit's ``server.disconnectedSessionTTL`` (120 s by default, kept), so
  they are part of the figure.

The servers run with ``--server.fileWatcherType none``: the working tree may change while the benchmark runs,
and a "source file changed" prompt in the status widget would be measured instead of the page.  The browsers
run on the same machine as the servers: the figures include their CPU contention (as in the issue's
measurements); the load average at the start and the end is printed with the report.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import re
import signal
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.browser_baseline import baseline_worktree, describe_tree, resolve_rev, streamlit_server, subject
from bench.browser_groups import DEFAULT_GROUPS, GroupSpec, parse_group
from bench.browser_metrics import (
    IDLE_HELD,
    IDLE_PROBE,
    PAGE_ERRORS,
    READ_PROBE,
    STILL_MOVING,
    Row,
    ScriptRuns,
    Usage,
    Visit,
    browser_split,
    label,
    ratio,
    usage,
)

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
VIEWPORT = {"width": 1440, "height": 900}
ERROR_WIDTH = 60  # characters of an error message in the tables
RUN_ALL_ARGS = ["--quick"]  # `python -m bench` (every benchmark): the quick run; the full one is `-m bench browser`
SCENARIO_PAGE = re.compile(r"\b(current_scenario\w*|init_state|render_sidebar)\b|\bui\.state\b")

# warm, one session; generated groups by their name (MEMBERSxPARTITIONS, whatever the topics)
IDLE_TARGET_S = {"large": 2.0, "2000x200000": 2.0, "200x20000": 4.0, "1000x100000": 30.0}
PAYLOAD_TARGET_MB = {"200x20000": 1.5}
DEFAULTS_TARGET_GROUP = "large"  # pages without the scenario are held to the large preset's target
USABLE_ONLY = {"1000x100000"}  # groups whose target is "usable": idle within a generous bound, no error
LOAD_TARGET = ("large", 30, 1.0)  # group, concurrent sessions, server p95 per rerun (s)
SEQUENTIAL_GROWTH_LIMIT_MIB = 32.0
SEQUENTIAL_TARGET_COUNT = 100
VARIANT_QUERY = {"en": "", "zh": "lang=zh", "presenter": "present=1"}  # what a variant adds to a page's query
VARIANT_FACTOR, VARIANT_SLACK_S = 1.10, 0.1  # "no slower": idle <= English idle x factor + slack
CURRENT, BASELINE = "current", "baseline"
# option -> (full run, --quick); an option given on the command line wins over both
RUN_DEFAULTS: dict[str, tuple[Any, Any]] = {
    "groups": (",".join(DEFAULT_GROUPS), "large"),
    "sessions": ("1,10,30", "1"),
    "load_group": (LOAD_TARGET[0], LOAD_TARGET[0]),
    "sequential": (SEQUENTIAL_TARGET_COUNT, 10),
    "repeat": (3, 1),
}


@dataclass(frozen=True)
class Server:
    """One running dashboard: which code it serves, where, its process and the pages its tree has."""

    code: str  # CURRENT or BASELINE
    base: str
    pid: int
    pages: frozenset[str]


# ---------------------------------------------------------------------------------------------- pages


def page_paths(root: Path = REPO) -> dict[str, bool]:
    """Streamlit URL path of every page under ``root``/pages -> whether the page reads the shared scenario."""
    out = {}
    for path in sorted((root / "pages").glob("*.py")):
        name = re.sub(r"^[0-9]+[_\- ]*", "", path.stem)
        out[name] = bool(SCENARIO_PAGE.search(path.read_text(encoding="utf-8")))
    return out


def parse_variants(text: str) -> list[str]:
    """``en,zh,presenter`` (``zh+presenter``: both) -> the variants, English first (always: the reference)."""
    out = ["en"]
    for item in (x.strip() for x in text.split(",")):
        if not item:
            continue
        parts = [p.strip() for p in item.split("+") if p.strip()]
        bad = [p for p in parts if p not in VARIANT_QUERY] or ([] if parts else [item])
        if bad:
            raise ValueError(f"--variants: unknown {', '.join(map(repr, bad))}; "
                             f"variants are {', '.join(VARIANT_QUERY)} (joined by + for several)")
        name = "+".join(p for p in VARIANT_QUERY if p in parts and p != "en") or "en"  # one name per variant
        if name not in out:
            out.append(name)
    return out


def variant_query(variant: str) -> str:
    """What a variant adds to a page's query: ``zh+presenter`` -> ``lang=zh&present=1``."""
    return "&".join(VARIANT_QUERY[p] for p in variant.split("+") if VARIANT_QUERY[p])


@dataclass(frozen=True)
class Target:
    """Where to point a session: a page, the group it opens (``group`` "defaults": no query), a variant."""

    page: str
    group: str
    query: str
    variant: str = "en"

    def url(self, base: str) -> str:
        query = "&".join(q for q in (self.query, variant_query(self.variant)) if q)
        return f"{base}/{self.page}" + (f"?{query}" if query else "")

    @property
    def label(self) -> str:
        return label(self.group, self.page, self.variant)


def plan(pages: dict[str, bool], groups: list[GroupSpec], variants: tuple[str, ...] = ("en",)) -> list[Target]:
    """Scenario pages once per group, the other pages once with their defaults; each in every variant."""
    out = [Target(page, g.name, g.query(), v) for g in groups for page, scenario in pages.items() if scenario
           for v in variants]
    return out + [Target(page, "defaults", "", v) for page, scenario in pages.items() if not scenario
                  for v in variants]


# ---------------------------------------------------------------------------------------------- one visit


async def _message_bytes(response: Any) -> int:
    try:
        return len(await response.body())
    except Exception:  # noqa: BLE001  (the context closed first: nothing more was received)
        return 0


async def _why_not_idle(page: Any) -> str:
    """What kept a page from idle, read from its probe (10 s at most: a hung page must not stall the run)."""
    try:
        return str(await asyncio.wait_for(page.evaluate(STILL_MOVING), timeout=10))
    except asyncio.TimeoutError:
        return "page unresponsive"
    except Exception as exc:  # noqa: BLE001  (the page crashed, closed or navigated away)
        return "probe unreadable: " + (str(exc).splitlines() or [type(exc).__name__])[0]


async def visit(browser: Any, base: str, target: Target, timeout_s: float, code: str = CURRENT) -> Visit:
    """Open ``target`` in a fresh context; wait (``timeout_s`` at most) until nothing moves, charts drawn."""
    from playwright.async_api import Error as PlaywrightError

    result = Visit(target.group, target.page, target.variant, code)
    runs = ScriptRuns()
    bodies: list[asyncio.Task[int]] = []
    context = await browser.new_context(viewport=VIEWPORT)
    page = None
    try:
        page = await context.new_page()
        await page.add_init_script(IDLE_PROBE)
        cdp = await context.new_cdp_session(page)
        cdp.on("Network.webSocketFrameReceived", runs.feed_cdp)
        cdp.on("Network.requestWillBeSent", runs.on_request)
        await cdp.send("Network.enable")
        await cdp.send("Performance.enable")
        page.on("response", lambda r: bodies.append(asyncio.ensure_future(_message_bytes(r)))
                if "/_stcore/message" in r.url else None)
        deadline = time.monotonic() + timeout_s
        await page.goto(target.url(base), timeout=timeout_s * 1000, wait_until="commit")
        remaining_ms = max(1.0, (deadline - time.monotonic()) * 1000)
        await page.wait_for_function(IDLE_HELD, polling=100, timeout=remaining_ms)
        result.split(browser_split((await cdp.send("Performance.getMetrics"))["metrics"]))
        probe = await page.evaluate(READ_PROBE)
        result.first_chart_s = None if probe["firstChart"] is None else probe["firstChart"] / 1000
        result.idle_s = probe["idle"] / 1000
        result.charts = await page.locator('[data-testid="stPlotlyChart"]').count()
        result.error = await page.evaluate(PAGE_ERRORS)
    except PlaywrightError as exc:
        if type(exc).__name__ == "TimeoutError":
            result.error = f"not idle within {timeout_s:g} s ({await _why_not_idle(page)})"
        else:
            result.error = "browser: " + (str(exc).splitlines() or [type(exc).__name__])[0]
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


async def fresh_visit(pw: Any, server: Server, target: Target, timeout_s: float) -> Visit:
    """``visit`` in a browser of its own, launched for it and closed after it (as a person opening a link)."""
    from playwright.async_api import Error as PlaywrightError

    if target.page not in server.pages:
        return Visit(target.group, target.page, target.variant, server.code,
                     error=f"no page {target.page} in the {server.code} code")
    try:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS)
    except PlaywrightError as exc:
        first_line = (str(exc).splitlines() or [type(exc).__name__])[0]
        return Visit(target.group, target.page, target.variant, server.code, error=f"launch: {first_line}")
    started = time.monotonic()
    try:
        result = await visit(browser, server.base, target, timeout_s, server.code)
    finally:
        await _close(browser)
    print(f"    {server.code} {target.label}: idle {_s(result.idle_s)} s, server {_s(result.server_s)} s, "
          f"{time.monotonic() - started:.0f} s{', ' + result.error if result.error else ''}",
          file=sys.stderr, flush=True)
    return result


async def _close(closable: Any) -> None:
    try:
        await asyncio.wait_for(closable.close(), timeout=30)
    except Exception:  # noqa: BLE001  (a hung or crashed context or browser must not stop the benchmark)
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


def _progress(rows: list[Row]) -> str:
    parts = [f"{r.code} cold server {_s(r.cold.server_s)} s, idle {_s(r.idle_s)} s" for r in rows]
    errors = [f"{r.code}: {r.error}" for r in rows if r.error]
    return f"  {rows[0].label}: " + "; ".join(parts) + (f" ({'; '.join(errors)})" if errors else "")


async def measure_pages(pw: Any, servers: list[Server], targets: list[Target], repeat: int,
                        timeouts: tuple[float, float]) -> list[Row]:
    """Every target on every server, interleaved: each server's cold visit, then ``repeat`` rounds of one
    warm visit per server.  A fresh browser per visit; rows in target order, the servers' in ``servers``'."""
    cold_timeout, warm_timeout = timeouts
    out = []
    for target in targets:
        rows = [Row(await fresh_visit(pw, s, target, cold_timeout)) for s in servers]
        for _ in range(repeat):
            for server, row in zip(servers, rows):
                row.warm.append(await fresh_visit(pw, server, target, warm_timeout))
        print(_progress(rows), file=sys.stderr, flush=True)
        out.extend(rows)
    return out


async def measure_load(browser: Any, base: str, targets: list[Target], levels: list[int], pid: int,
                       timeout_s: float) -> list[LoadRow]:
    rows = []
    for n in levels:
        for target in targets:
            before = usage(pid)
            visits = await asyncio.gather(*(visit(browser, base, target, timeout_s) for _ in range(n)))
            rows.append(LoadRow(target, list(visits), before, usage(pid)))
            print(f"  N={n} {target.label}: {len(rows[-1].errors)} errors", file=sys.stderr, flush=True)
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


# the page table's figures: header, the figure of one visit, digits
FIGURES: list[tuple[str, Callable[[Visit], float | None], int]] = [
    ("server s", lambda v: v.server_s, 2),
    ("runs", lambda v: float(v.runs), 0),
    ("load s", lambda v: v.load_s, 2),
    ("render s", lambda v: v.render_s, 2),
    ("first chart s", lambda v: v.first_chart_s, 2),
    ("idle s", lambda v: v.idle_s, 2),
    ("script s", lambda v: v.script_s, 2),
    ("layout s", lambda v: v.layout_s, 2),
    ("task s", lambda v: v.task_s, 2),
    ("MB", lambda v: v.mib, 2),
    ("charts", lambda v: float(v.charts), 0),
]


def _cell(row: Row, figure: Callable[[Visit], float | None], digits: int) -> str:
    """``median`` of one visit's figure, ``median/min`` over several warm visits."""
    med, low = row.stat(figure)
    return _s(med, digits) if len(row.warm) < 2 or med is None else f"{_s(med, digits)}/{_s(low, digits)}"


def baseline_ratios(rows: list[Row]) -> dict[tuple[str, str, str], float | None]:
    """Current median idle / baseline median idle, per page (group, page, variant) measured on both."""
    base = {r.key: r.idle_s for r in rows if r.code == BASELINE}
    return {r.key: ratio(r.idle_s, base[r.key]) for r in rows if r.code == CURRENT and r.key in base}


def page_table(rows: list[Row]) -> str:
    ratios = baseline_ratios(rows)
    headers = ["group / page", "code", "cold server s", *(f[0] for f in FIGURES), "idle vs base", "error"]
    out = []
    for r in rows:
        versus = ratios.get(r.key) if r.code == CURRENT else None
        out.append([r.label, r.code, _s(r.cold.server_s), *(_cell(r, f, d) for _, f, d in FIGURES),
                    "" if versus is None else f"{versus:.2f}x", short(r.error)])
    return format_table(headers, out, text_columns=(0, 1, len(headers) - 1))


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
        out.append([f"{len(r.visits):<3}{r.target.label}", _p(idle), _p(server),
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


def _measured(row: Row) -> str:
    med, low = row.stat(lambda v: v.idle_s)
    if med is None:
        return row.error or "no idle time"
    spread = f" (min {low:.2f} s, {len(row.warm)} warm visits)" if len(row.warm) > 1 else ""
    return f"{med:.2f} s" + spread + (f"; {row.error}" if row.error else "")


def _idle_check(row: Row) -> Check | None:
    group = DEFAULTS_TARGET_GROUP if row.cold.group == "defaults" else row.cold.group
    limit = IDLE_TARGET_S.get(group)
    if limit is None:
        return None
    page = row.cold.page
    if group in USABLE_ONLY:
        name = f"{page} usable at {group} (idle <= {limit:g} s, no error)"
    else:
        name = f"{page} idle <= {limit:g} s ({row.cold.group})"
    idle = row.idle_s
    return Check(name, _measured(row), not row.errors and idle is not None and idle <= limit)


def variant_limit(english_idle_s: float) -> float:
    """The slowest a variant may be and still count as no slower than the English page."""
    return english_idle_s * VARIANT_FACTOR + VARIANT_SLACK_S


def variant_checks(rows: list[Row]) -> list[Check]:
    """Each variant of a page (current code) no slower than the same page in English."""
    english = {(r.cold.group, r.cold.page): r for r in rows if r.cold.variant == "en"}
    out = []
    for r in rows:
        if r.cold.variant == "en":
            continue
        en = english.get((r.cold.group, r.cold.page))
        name = f"{r.cold.page} [{r.cold.variant}] no slower than English ({r.cold.group}): idle <= en x " \
               f"{VARIANT_FACTOR:g} + {VARIANT_SLACK_S:g} s"
        if en is None or en.idle_s is None or en.errors:
            why = "not run" if en is None else en.error or "no idle time"
            out.append(Check(name, f"English: {why}", None))
            continue
        limit = variant_limit(en.idle_s)
        met = not r.errors and r.idle_s is not None and r.idle_s <= limit
        out.append(Check(name, f"{_measured(r)} vs en {en.idle_s:.2f} s (limit {limit:.2f} s)", met))
    return out


def page_checks(rows: list[Row]) -> list[Check]:
    """The pages' targets, judged on the current code's rows only (a baseline is not held to them)."""
    current = [r for r in rows if r.code == CURRENT]
    out = []
    for r in current:
        if r.cold.variant != "en":
            continue
        idle = _idle_check(r)
        if idle:
            out.append(idle)
        limit = PAYLOAD_TARGET_MB.get(r.cold.group)
        if limit is not None:
            mib = r.median(lambda v: v.mib)
            met = not r.errors and mib is not None and mib < limit
            out.append(Check(f"{r.cold.page} payload < {limit:g} MB ({r.cold.group})",
                             f"{_s(mib)} MB" + (f" ({r.error})" if r.error else ""), met))
    out += variant_checks(current)
    ran = {r.cold.group for r in current}
    for group in (parse_group(g).name for g in DEFAULT_GROUPS):
        if group not in ran and group in IDLE_TARGET_S:
            out.append(Check(f"every scenario page idle <= {IDLE_TARGET_S[group]:g} s ({group})", "not run", None))
    return out


def load_checks(rows: list[LoadRow]) -> list[Check]:
    group, n, limit = LOAD_TARGET
    out = []
    for r in rows:
        if r.target.group in (group, "defaults") and len(r.visits) == n:
            p95 = percentile([v.server_s for v in r.visits if v.server_s is not None], 95)
            errors = len(r.errors)
            met = p95 is not None and p95 < limit and errors == 0
            name = f"{r.target.page}: {n} sessions ({r.target.group}), server p95 < {limit:g} s, no errors"
            out.append(Check(name, f"p95 {_s(p95)} s, {errors} errors", met))
    name = f"{n} concurrent sessions ({group}): server p95 < {limit:g} s, no errors"
    return out or [Check(name, "not run", None)]


def sequential_check(seq: Sequential | None) -> Check:
    name = f"RSS bounded over {SEQUENTIAL_TARGET_COUNT} sequential sessions (2nd half <= " \
           f"{SEQUENTIAL_GROWTH_LIMIT_MIB:g} MiB)"
    if seq is None or len(seq.samples) < 2:
        return Check(name, "not run", None)
    count = seq.samples[-1][0]
    growth = seq.growth_second_half()
    measured = f"{_s(growth, 0)} MiB over sessions {count // 2}-{count}, {len(seq.errors)} errors"
    if count < SEQUENTIAL_TARGET_COUNT:
        return Check(name, measured + f" (only {count} sessions)", None)
    met = growth is not None and growth <= SEQUENTIAL_GROWTH_LIMIT_MIB and not seq.errors
    return Check(name, measured, met)


def checks_table(checks: list[Check]) -> str:
    verdict = {True: "met", False: "MISSED", None: "-"}
    rows = [[c.target, short(c.measured, 2 * ERROR_WIDTH), verdict[c.met]] for c in checks]
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
    start: dict[str, Usage]  # per server (code)
    after_pages: dict[str, Usage]
    end: Usage  # the current server's, after the concurrent and sequential sessions
    rows: list[Row]
    load: list[LoadRow]
    sequential: Sequential | None


async def run_all(servers: list[Server], args: argparse.Namespace) -> Report:
    """The pages on every server (a fresh browser per visit), then the concurrent and sequential sessions on
    the current server (one browser, a context per session)."""
    from playwright.async_api import async_playwright

    current = next(s for s in servers if s.code == CURRENT)
    async with async_playwright() as pw:
        start = {s.code: usage(s.pid) for s in servers}
        rows = await measure_pages(pw, servers, args.targets, args.repeat, (args.cold_timeout, args.timeout))
        after_pages = {s.code: usage(s.pid) for s in servers}
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS)
        try:
            load = await measure_load(browser, current.base, args.load_targets, args.levels, current.pid,
                                      args.timeout)
            seq = None
            if args.sequential:
                seq = await measure_sequential(browser, current.base, args.sequential_targets, args.sequential,
                                               current.pid, args.timeout)
        finally:
            await _close(browser)
    return Report(start, after_pages, usage(current.pid), rows, load, seq)


def _ints(text: str, what: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"{what}: expected comma-separated whole numbers, got {text!r}") from None
    if not values or min(values) < 1:
        raise ValueError(f"{what}: expected numbers >= 1, got {text!r}")
    return values


def _fill_defaults(args: argparse.Namespace) -> None:
    """Options left out get the full run's default, or ``--quick``'s."""
    for name, (full, quick) in RUN_DEFAULTS.items():
        if getattr(args, name) is None:
            setattr(args, name, quick if args.quick else full)


def _resolve(args: argparse.Namespace) -> None:
    """Turn the options into targets (pages x groups x variants); every bad value is a one-line ValueError."""
    _fill_defaults(args)
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
    if args.repeat < 1:
        raise ValueError(f"--repeat: expected a whole number >= 1, got {args.repeat}")
    if args.timeout <= 0 or args.cold_timeout <= 0 or args.sequential < 0:
        raise ValueError("--timeout and --cold-timeout must be > 0 and --sequential >= 0")
    args.variant_list = parse_variants(args.variants)
    args.baseline_sha = resolve_rev(args.baseline, REPO) if args.baseline is not None else None
    args.targets = plan(pages, specs, tuple(args.variant_list))
    args.load_targets = plan(pages, [load_spec])
    args.sequential_targets = [t for t in args.load_targets if t.group != "defaults"] or args.load_targets


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench browser", description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    full = {name: values[0] for name, values in RUN_DEFAULTS.items()}
    quick = {name: values[1] for name, values in RUN_DEFAULTS.items()}
    parser.add_argument("--pages", default="", help="comma-separated page paths (default: all of pages/)")
    parser.add_argument("--groups", help="comma-separated presets or MEMBERSxPARTITIONS[xTOPICS] "
                                         f"(default: {full['groups']}; --quick: {quick['groups']})")
    parser.add_argument("--variants", default="en",
                        help="comma-separated en, zh (lang=zh), presenter (present=1), or several joined by +; "
                             "en is always measured (default: %(default)s)")
    parser.add_argument("--baseline", metavar="REV",
                        help="a git revision measured in the same run as the named baseline (a worktree)")
    parser.add_argument("--keep-baseline", action="store_true", help="keep the baseline's worktree at the end")
    parser.add_argument("--repeat", type=int,
                        help=f"warm visits per page and server (default {full['repeat']}; --quick: {quick['repeat']})")
    parser.add_argument("--sessions", help=f"concurrent sessions (default: {full['sessions']}; --quick: "
                                           f"{quick['sessions']})")
    parser.add_argument("--load-group", help=f"group of the concurrent runs (default {full['load_group']})")
    parser.add_argument("--sequential", type=int,
                        help=f"sequential sessions for the RSS check (0: skip; default {full['sequential']}; "
                             f"--quick: {quick['sequential']})")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per warm visit (default 120)")
    parser.add_argument("--cold-timeout", type=float, default=600, help="seconds per cold visit (600)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: the --quick defaults above; options given still win")
    args = parser.parse_args(argv)
    try:
        _resolve(args)
    except Exception as exc:  # noqa: BLE001  (ValueError, ScenarioError: one line, exit 2)
        parser.error(str(exc))
    return args


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _server_line(code: str, report: Report) -> str:
    start, pages = report.start[code], report.after_pages[code]
    if code == BASELINE:
        return f"baseline: RSS {start.rss_mib:.0f} MiB at start, {pages.rss_mib:.0f} after the pages; " \
               f"CPU {pages.cpu_s - start.cpu_s:.1f} s for the pages"
    end = report.end
    return f"current: RSS {start.rss_mib:.0f} MiB at start, {pages.rss_mib:.0f} after the pages, " \
           f"{end.rss_mib:.0f} at the end; CPU {pages.cpu_s - start.cpu_s:.1f} s for the pages, " \
           f"{end.cpu_s - pages.cpu_s:.1f} s after them"


def print_report(report: Report, args: argparse.Namespace, started: float, load_at_start: str) -> None:
    print(f"\nbrowser benchmark, {os.cpu_count()} cores, load average {load_at_start} at start, {_load()} at the "
          f"end, {time.monotonic() - started:.0f} s{' (--quick)' if args.quick else ''}")
    if args.baseline_sha:
        print(f"baseline: {args.baseline_sha} ({args.baseline}: {subject(REPO, args.baseline_sha)})")
    print(f"current: the working tree of {REPO} ({args.tree_at_start} at the start)")
    spread = f"median/min over {args.repeat} warm visits" if args.repeat > 1 else "one warm visit"
    print(f"\n1. Pages, one session, a fresh browser per visit, warm caches ({spread}; cold server s: the first "
          f"visit)\n")
    print(page_table(report.rows))
    print(f"\n2. Concurrent sessions ({args.load_group}, current code)\n")
    print(load_table(report.load))
    print("\n3. Server processes\n")
    for code in report.start:
        print(_server_line(code, report))
    if report.sequential:
        print(f"\nsequential sessions ({args.load_group}, errors {len(report.sequential.errors)}):")
        print(sequential_table(report.sequential))
    checks = page_checks(report.rows) + load_checks(report.load) + [sequential_check(report.sequential)]
    print("\n4. Targets (current code)\n")
    print(checks_table(checks))
    print(f"\n{summary(checks)}")


def _servers(stack: ExitStack, args: argparse.Namespace) -> list[Server]:
    """The baseline's server (when asked for) and the current one, each stopped when ``stack`` closes."""
    artifacts = REPO / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    roots = []
    if args.baseline_sha:
        roots.append((BASELINE, stack.enter_context(baseline_worktree(REPO, args.baseline_sha,
                                                                      args.keep_baseline))))
    roots.append((CURRENT, REPO))
    out = []
    for code, root in roots:
        log = artifacts / ("bench-browser-streamlit.log" if code == CURRENT else
                           "bench-browser-streamlit-baseline.log")
        base, proc = stack.enter_context(streamlit_server(log, root))
        out.append(Server(code, base, proc.pid, frozenset(page_paths(root))))
        print(f"{code} server: {base} (pid {proc.pid}, {root})", file=sys.stderr, flush=True)
    return out


def _interrupt_on_sigterm() -> None:
    """A SIGTERM (a kill by PID) ends the run as Ctrl-C does: the finally blocks stop the servers."""
    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)


def main(argv: list[str]) -> None:
    args = parse_args(argv)
    _interrupt_on_sigterm()
    if not CHROMIUM.exists():
        raise SystemExit(f"browser benchmark: no Debian chromium at {CHROMIUM} (run `make chromium`)")
    started, load_at_start, args.tree_at_start = time.monotonic(), _load(), describe_tree(REPO)
    servers = 2 if args.baseline_sha else 1
    print(f"browser benchmark: {len(args.targets)} pages x (1 cold + {args.repeat} warm) x {servers} servers, "
          f"sessions {args.levels}, {args.sequential} in a row; load average at start {load_at_start}",
          file=sys.stderr, flush=True)
    try:
        with ExitStack() as stack:
            report = asyncio.run(run_all(_servers(stack, args), args))
    except RuntimeError as exc:
        raise SystemExit(f"browser benchmark: {exc}") from None
    except KeyboardInterrupt:
        raise SystemExit("browser benchmark: interrupted (the servers were stopped)") from None
    print_report(report, args, started, load_at_start)


if __name__ == "__main__":
    main(sys.argv[1:])
