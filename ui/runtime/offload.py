"""Work a page starts, by its estimate (``engine.cost``): inline, in a worker process, or refused in one line.

- under ``INLINE_SECONDS``: computed on the script thread (``ui.runtime.memo.cached_call``);
- up to ``DASHBOARD_CEILING``: computed in a worker process, so it never holds this server's interpreter (the
  Global Interpreter Lock every session's script shares).  The server keeps one small pool (``KPL_WORKERS``,
  default 1 process at a time) for every session; a job already asked for by another session is joined, not
  started again, and its result goes into the server's one byte-bounded cache (``ui.runtime.memo.STORE``), so every
  session reuses it.  The page waits as ``ui.runtime.progress`` shows it (a page: a status box with elapsed
  against estimated seconds and a Cancel button that terminates the worker, ``ui.frame.door``);
- over the ceiling: ``engine.cost.admit``'s one line (the estimate and what drives it) and nothing runs.

Workers are forked from a ``forkserver`` that has imported the engine once (``set_forkserver_preload``), never
from the server itself (a fork of a process with threads is unsafe).

>>> mode(Estimate(0.2, 1 << 20, "small")), mode(Estimate(20.0, 1 << 30, "large"))
('inline', 'worker')
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import wait as wait_connections
from typing import Any, TypeVar

from engine.cost import DASHBOARD_CEILING, INLINE_SECONDS, Estimate, admit
from engine.errors import EngineError
from ui.runtime.memo import STORE, cached_call, deep_size
from ui.runtime.progress import shown

T = TypeVar("T")
WORKERS = max(1, int(os.environ.get("KPL_WORKERS", "1")))
PRELOAD = ["ui.runtime.worker", "engine.comparison", "engine.consumer.membership", "engine.cost"]
POLL_SECONDS = 0.25


class Cancelled(EngineError):
    """The computation was cancelled (a person pressed Cancel, here or in another session)."""


def mode(estimate: Estimate) -> str:
    """``inline``, ``worker`` or ``refused`` for work of this estimate on a dashboard page."""
    if estimate.seconds <= INLINE_SECONDS:
        return "inline"
    try:
        admit(estimate, DASHBOARD_CEILING)
    except EngineError:
        return "refused"
    return "worker"


@dataclass(frozen=True)
class Failure:
    """A worker's error, kept in the cache in place of a result."""

    error: BaseException


@dataclass(eq=False)
class Job:
    key: Hashable
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    estimate: Estimate
    submitted: float = field(default_factory=time.monotonic)
    started: float | None = None
    process: Any = None
    conn: Any = None
    outcome: tuple[str, Any] | None = None
    done: threading.Event = field(default_factory=threading.Event)

    def elapsed(self) -> float:
        return time.monotonic() - self.submitted

    def value(self) -> Any:
        """The result, or the job's error raised (``Cancelled`` when it was cancelled)."""
        assert self.outcome is not None
        kind, payload = self.outcome
        if kind == "ok":
            return payload
        raise payload


class Pool:
    """At most ``workers`` worker processes at a time; jobs wait in order; one dispatcher thread."""

    def __init__(self, workers: int = WORKERS) -> None:
        self.workers = workers
        self._lock = threading.Lock()
        self._waiting: deque[Job] = deque()
        self._running: list[Job] = []
        self._live: dict[Hashable, Job] = {}
        self._context: Any = None
        self._thread: threading.Thread | None = None
        self._wake_read, self._wake_write = multiprocessing.Pipe(duplex=False)

    def submit(self, key: Hashable, fn: Callable[..., Any], args: tuple[Any, ...], estimate: Estimate) -> Job:
        """The live job of ``key`` (another session's), else a new one queued."""
        with self._lock:
            job = self._live.get(key)
            if job is None:
                job = self._live[key] = Job(key, fn, args, estimate)
                self._waiting.append(job)
                if self._thread is None:
                    self._thread = threading.Thread(target=self._dispatch, name="kpl-offload", daemon=True)
                    self._thread.start()
        self._wake_write.send_bytes(b"")
        return job

    def cancel(self, job: Job) -> None:
        with self._lock:
            if job.done.is_set():
                return
            if job in self._waiting:
                self._waiting.remove(job)
            elif job.process is not None:
                job.process.terminate()
                job.process.join(5)
                self._running.remove(job)
            self._finish(job, ("error", Cancelled("cancelled")))
        self._wake_write.send_bytes(b"")

    def running(self) -> int:
        with self._lock:
            return len(self._running) + len(self._waiting)

    def _start(self, job: Job) -> None:
        if self._context is None:
            self._context = multiprocessing.get_context("forkserver")
            self._context.set_forkserver_preload(PRELOAD)
        from ui.runtime.worker import work

        parent, child = self._context.Pipe(duplex=False)
        job.process = self._context.Process(target=work, args=(child, job.fn, job.args, STORE.largest),
                                            daemon=True,
                                            name="kpl-worker")
        job.process.start()
        child.close()
        job.conn, job.started = parent, time.monotonic()
        self._running.append(job)

    def _finish(self, job: Job, outcome: tuple[str, Any]) -> None:
        job.outcome = outcome
        if self._live.get(job.key) is job:
            del self._live[job.key]
        job.done.set()

    def _dispatch(self) -> None:
        while True:
            with self._lock:
                while self._waiting and len(self._running) < self.workers:
                    job = self._waiting.popleft()
                    try:
                        self._start(job)
                    except Exception as exc:  # noqa: BLE001 - a worker that cannot start is the job's error
                        self._finish(job, ("error", RuntimeError(f"the worker process did not start: {exc}")))
                conns = {job.conn: job for job in self._running}
            ready = wait_connections([self._wake_read, *conns], timeout=5)
            for conn in ready:
                if conn is self._wake_read:
                    while self._wake_read.poll():
                        self._wake_read.recv_bytes()
                    continue
                self._collect(conns[conn])

    def _collect(self, job: Job) -> None:
        try:
            raw = job.conn.recv_bytes()
            outcome: tuple[str, Any] = pickle.loads(raw)
        except (EOFError, OSError):
            job.process.join(5)
            outcome = ("error", RuntimeError(f"the worker process stopped (exit code {job.process.exitcode})"))
        job.conn.close()
        with self._lock:
            cancelled = job not in self._running
        if cancelled:
            return
        if outcome[0] == "ok":
            STORE.put(job.key, outcome[1], deep_size(outcome[1]))
        else:  # a refusal (a KIP-848 assignor's, a limit) is kept too: a rerun must not start the work again
            STORE.put(job.key, Failure(outcome[1]), 1024)
        with self._lock:
            if job in self._running:
                self._running.remove(job)
                job.process.join(5)
                self._finish(job, outcome)


POOL = Pool()


def ready(key: Hashable, estimate: Estimate) -> bool:
    """Whether ``run`` for ``key`` would answer without a worker: the value is kept, or the work is inline."""
    return STORE.get(key)[0] or mode(estimate) == "inline"


def run(key: Hashable, fn: Callable[..., T], args: tuple[Any, ...], estimate: Estimate, what: str = "") -> T:
    """``fn(*args)`` for ``key``, kept in the server's cache: inline, in a worker (the page waits: progress
    and Cancel, ``ui.runtime.progress``), or refused (``LimitError``) by ``estimate``."""
    hit, value = STORE.get(key)
    if hit:
        if isinstance(value, Failure):
            raise value.error
        return value
    how = mode(estimate)
    if how == "inline":
        return cached_call(key, lambda: fn(*args))
    admit(estimate, DASHBOARD_CEILING)
    job = POOL.submit(key, fn, args, estimate)
    shown().waiting([job], what or estimate.drivers)
    return job.value()


def prepare(requests: Sequence[tuple[Hashable, Callable[..., Any], tuple[Any, ...], Estimate]], total: Estimate,
            what: str) -> None:
    """Start every request of a page at once: nothing when the page's total is inline work (the calls then run
    inline as they come), else the missing ones go to the worker pool and the page waits for all of them.
    Over the ceiling, ``LimitError`` (``total``'s line) before any work."""
    how = mode(total)
    if how == "inline":
        return
    admit(total, DASHBOARD_CEILING)
    jobs = [POOL.submit(key, fn, args, estimate) for key, fn, args, estimate in requests if not STORE.get(key)[0]]
    if jobs:
        shown().waiting(jobs, what)
