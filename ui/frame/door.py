"""The one door a page's work passes through: its estimate, its progress and its refusal, shown the same way on
every page.

- ``door(fn, *args)``: the page's work (a cached call that estimates, then computes inline, in a worker process
  or refuses: ``ui.runtime.offload``); a refusal or a cancel is one line and the page stops there;
- ``admit(estimate)``: work that runs on the script thread whatever its size (an import's parsing, a Spark run
  with its own progress) is admitted by its estimate against the dashboard's ceiling, or refused
  (``LimitError``) before it starts;
- ``refusal(message)``: the one line a refusal is, with the same icon everywhere;
- ``install()``: the runtime's display (``ui.runtime.progress``) becomes this one: a spinner while a cached
  value is computed, a status box (elapsed against estimated seconds) with a Cancel button while worker jobs run.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from engine import cost
from engine.cost import DASHBOARD_CEILING, Estimate
from engine.errors import EngineError
from ui.runtime import progress
from ui.runtime.offload import POLL_SECONDS, POOL, Cancelled, Job
from ui.text.i18n import _, tr

T = TypeVar("T")
REFUSED_ICON = ":material/block:"


def refusal(message: str) -> None:
    """A refusal (an ``EngineError``'s line) on the page, in the session's language."""
    st.error(tr(message), icon=REFUSED_ICON)


def admit(estimate: Estimate) -> None:
    """``LimitError`` (the estimate and what drives it, one line) when ``estimate`` is over the dashboard's
    ceiling; nothing otherwise."""
    cost.admit(estimate, DASHBOARD_CEILING)


def door(fn: Callable[..., T], *args: Any) -> T:
    """A page's one check before its work: ``fn(*args)`` (estimate, then compute inline, in a worker, or
    start the work); a refusal or a cancel is one line on the page, and the page stops there."""
    try:
        return fn(*args)
    except EngineError as exc:
        refusal(str(exc))
        st.stop()
        raise  # st.stop() ends the run; outside one (a plain call), the refusal goes on


class PageDisplay:
    """``ui.runtime.progress.Display`` on a page; outside a script run, a plain call or wait."""

    def computing(self, text: str, compute: Callable[[], T]) -> T:
        if get_script_run_ctx(suppress_warning=True) is None:
            return compute()
        with st.spinner(tr(text)):
            return compute()

    def waiting(self, jobs: Sequence[Job], what: str) -> None:
        """Block this script run until ``jobs`` are done: a status box with elapsed vs estimated seconds and a
        Cancel button that cancels them for every session waiting on them."""
        if get_script_run_ctx(suppress_warning=True) is None:
            progress.Plain().waiting(jobs, what)
            return
        estimate = sum((j.estimate.seconds for j in jobs), 0.0)
        cancel_key = f"offload.cancel.{abs(hash(tuple(j.key for j in jobs))):x}"
        if st.session_state.get(cancel_key):  # pressed: this rerun cancels, whoever started the jobs
            for job in jobs:
                POOL.cancel(job)
            raise Cancelled(_("Cancelled: {what}").format(what=tr(what)))
        with st.status(_("Computing in a worker process: {what}").format(what=tr(what)), expanded=True) as box:
            st.button(_("Cancel"), key=cancel_key, icon=":material/cancel:")
            bar = st.progress(0.0)
            while not all(job.done.is_set() for job in jobs):
                bar.progress(min(max(job.elapsed() for job in jobs) / max(estimate, 0.1), 0.99),
                             text=_elapsed_text(jobs, estimate))
                time.sleep(POLL_SECONDS)
            box.update(state="complete", expanded=False)


def _elapsed_text(jobs: Sequence[Job], estimate: float) -> str:
    elapsed = max(job.elapsed() for job in jobs)
    text = _("{elapsed} s of about {estimate} s").format(elapsed=f"{elapsed:.0f}", estimate=f"{estimate:.0f}")
    queued = sum(1 for job in jobs if job.started is None)
    if queued and POOL.running() > len(jobs):
        text += " " + _("(waiting for another session's computation to finish)")
    return text


@functools.cache
def install() -> None:
    """Once per process: every computation the runtime runs for a page is shown by ``PageDisplay``."""
    progress.install(PageDisplay())
