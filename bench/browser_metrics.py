"""What one browser visit of a page saw, and how the visits of a page are combined (``bench.browser``).

The page's side is an init script, ``IDLE_PROBE``, installed before the page's own scripts: it polls the page
every 50 ms and watches every DOM change (a ``MutationObserver`` on ``document``).  Idle = Streamlit says the
script is not running, no status widget, no skeleton, every Plotly chart drawn, and nothing in the DOM changed:
all of it held for ``IDLE_HOLD_MS``.  The idle time reported is when that quiet began: the later of the moment
the page's state became idle and the last DOM change (changes inside ``MUTATION_IGNORE`` do not count).

The server's side is the websocket (``ScriptRuns``, from CDP ``Network`` events) and its process tree's CPU
and RSS (``usage``, from /proc); the browser's own split is CDP ``Performance.getMetrics`` at idle
(``BrowserSplit``).  ``Row`` keeps the visits of one page on one server
and reports each figure's median and minimum over the warm visits.

``python -m bench browser_metrics`` prints the probe: paste it into a DevTools console before reloading a page
(or run it as a snippet) to watch ``window.__bench`` by hand.
"""

from __future__ import annotations

import base64
import json
import os
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

IDLE_HOLD_MS = 500
POLL_MS = 50
CHART = '[data-testid="stPlotlyChart"]'
DRAWN_CHART = f"{CHART} .main-svg"
# DOM changes that are not the page moving.  Watched on real pages (Load, Keys, Assignments, Rebalance, Lessons,
# Timing Wheel; English, Chinese, presenter mode): nothing changes periodically once a page is idle; the status
# widget animates only while a run is on, and idle waits for it to be gone anyway.
MUTATION_IGNORE = ('[data-testid="stStatusWidget"]',)

IDLE_PROBE = """(() => {
  if (window.top !== window || window.__bench) return;
  const b = window.__bench = {firstChart: null, idleSince: null, lastMutation: null, mutations: 0};
  const IGNORE = %(ignore)s;
  const q = (s) => document.querySelectorAll(s).length;
  let lastNode = null;
  const element = (node) => node && (node.nodeType === 1 ? node : node.parentElement);
  const ignored = (node) => { const e = element(node); return !!e && IGNORE.some((s) => e.closest(s)); };
  const idle = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    return !!app && app.getAttribute('data-test-script-state') === 'notRunning'
      && !q('[data-testid="stStatusWidget"]') && !q('[data-testid="stSkeleton"]')
      && q(%(drawn)s) >= q(%(chart)s);
  };
  const charted = (now) => {
    if (b.firstChart === null && document.querySelector(%(drawn)s)) b.firstChart = now;
  };
  new MutationObserver((records) => {
    const now = performance.now();
    const moved = records.find((r) => !ignored(r.target));
    if (moved) { b.lastMutation = now; b.mutations += 1; lastNode = moved.target; }
    charted(now);
  }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  window.__benchLastMutation = () => {
    const parts = [];
    for (let e = element(lastNode), d = 0; e && d < 4; e = e.parentElement, d++) {
      const id = e.getAttribute('data-testid');
      parts.push(e.tagName.toLowerCase() + (id ? '[' + id + ']' : ''));
    }
    return parts.join(' < ');
  };
  setInterval(() => {
    const now = performance.now();
    charted(now);
    if (idle()) { if (b.idleSince === null) b.idleSince = now; } else { b.idleSince = null; }
  }, %(poll)d);
})();""" % {"ignore": json.dumps(MUTATION_IGNORE), "drawn": json.dumps(DRAWN_CHART), "chart": json.dumps(CHART),
       "poll": POLL_MS}
# The quiet began at the later of idleSince and the last DOM change; null while the page is not idle.
_QUIET = "(b.idleSince === null ? null : Math.max(b.idleSince, b.lastMutation === null ? 0 : b.lastMutation))"
IDLE_HELD = f"""() => {{ const b = window.__bench; if (!b) return false; const quiet = {_QUIET};
  return quiet !== null && performance.now() - quiet >= {IDLE_HOLD_MS}; }}"""
READ_PROBE = f"""() => {{ const b = window.__bench;
  return {{firstChart: b.firstChart, idle: {_QUIET}, mutations: b.mutations}}; }}"""
STILL_MOVING = """() => { const b = window.__bench; if (!b) return 'no probe';
  if (b.idleSince === null) return 'still running';
  return 'DOM still changing: ' + window.__benchLastMutation(); }"""
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


# ------------------------------------------------------------------------------------- the server's side


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


# ------------------------------------------------------------------------------------- the server process


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


# ------------------------------------------------------------------------------------- the browser's side


@dataclass(frozen=True)
class BrowserSplit:
    """The renderer's main-thread time from navigation to idle (CDP ``Performance.getMetrics``), seconds."""

    script_s: float
    layout_s: float
    task_s: float


def browser_split(metrics: list[dict[str, Any]]) -> BrowserSplit:
    """``Performance.getMetrics``' ``metrics`` -> script (ScriptDuration), layout (LayoutDuration +
    RecalcStyleDuration) and task (TaskDuration: all main-thread work); a missing metric is an error."""
    values = {m["name"]: float(m["value"]) for m in metrics}
    needed = ("ScriptDuration", "LayoutDuration", "RecalcStyleDuration", "TaskDuration")
    missing = [name for name in needed if name not in values]
    if missing:
        raise ValueError(f"Performance.getMetrics without {', '.join(missing)}")
    return BrowserSplit(values["ScriptDuration"], values["LayoutDuration"] + values["RecalcStyleDuration"],
                        values["TaskDuration"])


# ------------------------------------------------------------------------------------- one visit, many visits


@dataclass
class Visit:
    """One browser session opening one page: the figures of the table (seconds, bytes)."""

    group: str
    page: str
    variant: str = "en"
    code: str = "current"  # which server: "current" or "baseline"
    server_s: float | None = None
    load_s: float | None = None
    runs: int = 0
    bytes: int = 0
    first_chart_s: float | None = None
    idle_s: float | None = None
    charts: int = 0
    script_s: float | None = None
    layout_s: float | None = None
    task_s: float | None = None
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

    def split(self, split: BrowserSplit) -> None:
        self.script_s, self.layout_s, self.task_s = split.script_s, split.layout_s, split.task_s


def label(group: str, page: str, variant: str = "en") -> str:
    """``group / page``, and the variant in brackets unless it is the English page (``large / Keys [zh]``)."""
    return f"{group} / {page}" + ("" if variant == "en" else f" [{variant}]")


def median_min(values: list[float | None]) -> tuple[float | None, float | None]:
    """Median and minimum of the known ``values`` (None are left out); (None, None) when none is known."""
    known = [v for v in values if v is not None]
    if not known:
        return None, None
    return statistics.median(known), min(known)


def ratio(value: float | None, reference: float | None) -> float | None:
    """``value / reference``; None when either is unknown or the reference is not positive."""
    if value is None or reference is None or reference <= 0:
        return None
    return value / reference


@dataclass
class Row:
    """The visits of one page (one group, one variant) on one server: a cold one, then ``repeat`` warm ones."""

    cold: Visit
    warm: list[Visit] = field(default_factory=list)

    @property
    def code(self) -> str:
        return self.cold.code

    @property
    def key(self) -> tuple[str, str, str]:
        return self.cold.group, self.cold.page, self.cold.variant

    @property
    def label(self) -> str:
        return label(*self.key)

    def stat(self, figure: Callable[[Visit], float | None]) -> tuple[float | None, float | None]:
        """Median and minimum of one figure over the warm visits that have it (a visit that timed out has no
        idle time, but its server time and bytes count; the error column tells of it)."""
        return median_min([figure(v) for v in self.warm])

    def median(self, figure: Callable[[Visit], float | None]) -> float | None:
        return self.stat(figure)[0]

    @property
    def idle_s(self) -> float | None:
        return self.median(lambda v: v.idle_s)

    @property
    def errors(self) -> list[str]:
        """The warm visits' errors, and the cold one's (the cold visit fills the caches: its failure counts)."""
        out = [f"cold visit: {self.cold.error}"] if self.cold.error else []
        return out + [v.error for v in self.warm if v.error]

    @property
    def error(self) -> str | None:
        """One line for the table: the first error and how many visits had one."""
        errors = self.errors
        if not errors:
            return None
        return errors[0] if len(errors) == 1 else f"{len(errors)} of {len(self.warm) + 1} visits: {errors[0]}"


def main(argv: list[str]) -> None:
    """Print the idle probe, to paste into a browser's console (``window.__bench`` then shows the figures)."""
    if argv:
        raise SystemExit("python -m bench browser_metrics takes no arguments: it prints the idle probe")
    print(f"// bench.browser's idle probe: idle when held for {IDLE_HOLD_MS} ms ({IDLE_HELD.strip()})")
    print(IDLE_PROBE)
