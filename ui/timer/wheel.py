"""The Timing Wheel page's Streamlit glue: the task sources' widgets, the step cursor in the session, the event
log.

The step the page shows is ``st.session_state["wheel.step"]`` (also the slider's key); the buttons move it
with ``go_to`` / ``next_expiration``, clamped to the frames of the current run.  The slider keeps its value
while another of the page's lazy tabs is open (``persist_state="page"``); the event log is a lazy expander,
built only when opened.
"""

from __future__ import annotations

import functools
from typing import Any

import pandas as pd
import streamlit as st

from engine import (
    FETCH_MAX_WAIT_MS,
    HEARTBEAT_INTERVAL_MS,
    MAX_PAGE_TASKS,
    MAX_TRACED_TASKS,
    REQUEST_TIMEOUT_MS,
    SESSION_TIMEOUT_MS,
    TaskSpec,
    kafka_preset,
    parse_task_lines,
    random_tasks,
)
from engine.common.config_def import LONG_MAX, LONG_MIN
from engine.server.timer.model import MAX_DELAY_MS
from engine.server.timer.workloads import PRESET_DURATION_MS, PRESET_MEMBERS
from ui.frame.tables import table
from ui.inputs.numbers import whole_number_input
from ui.inputs.paste import checked_paste, paste_area
from ui.text.i18n import DEFAULT_LANGUAGE, _, current_language, translate

STEP = "wheel.step"
HISTORY_ROWS = 500  # event-log lines the table shows; the CSV holds every line
MAX_HAND_CHARS = 200_000  # typed tasks: room for MAX_PAGE_TASKS lines of about 100 characters
DEFAULT_HAND = ("# id, delay_ms[, add_at_ms[, cancel_at_ms]]\n"
                "a, 25\nc, 0\nd, 400\nb, 7, 3\ne, 8000, 10, 2000\n")  # add times never go back


def _preset(start_ms: int) -> tuple[TaskSpec, ...]:
    c1, c2, c3 = st.columns(3)
    duration = whole_number_input(_("Duration (ms)"), *PRESET_DURATION_MS, 20_000, "wheel.preset_duration",
                                  container=c1, help=_("How long requests keep arriving (1,000..60,000 ms)."))
    members = whole_number_input(_("Group members"), *PRESET_MEMBERS, 3, "wheel.preset_members", container=c2,
                                 help=_("1..10; the last one stops heart-beating halfway."))
    seed = whole_number_input(_("Seed"), LONG_MIN, LONG_MAX, 7, "wheel.preset_seed", container=c3)
    st.caption(_("produce (acks=all) waits up to request.timeout.ms = {request} ms, 95% complete after 2–60 ms; "
                 "fetch waits up to fetch.max.wait.ms = {fetch} ms, 60% complete early; heartbeats every "
                 "{heartbeat} ms against session.timeout.ms = {session} ms (each one completes the previous). "
                 "Completed operations are cancelled: O(1) unlinking from their bucket.").format(
        request=f"{REQUEST_TIMEOUT_MS:,}", fetch=FETCH_MAX_WAIT_MS, heartbeat=f"{HEARTBEAT_INTERVAL_MS:,}",
        session=f"{SESSION_TIMEOUT_MS:,}"))
    return tuple(kafka_preset(int(seed), int(duration), int(members), start_ms=start_ms))


def _random(start_ms: int) -> tuple[TaskSpec, ...]:
    c1, c2, c3, c4 = st.columns(4)
    count = whole_number_input(_("Tasks"), 0, MAX_PAGE_TASKS, 60, "wheel.random_count", container=c1,
                               help=_("0..{max} on this page").format(max=f"{MAX_PAGE_TASKS:,}"))
    max_delay = whole_number_input(_("Max delay (ms)"), 0, MAX_DELAY_MS, 2_000, "wheel.random_max_delay",
                                   container=c2, help=_("Delays are uniform in 0..max."))
    spread = whole_number_input(_("Added over (ms)"), 0, MAX_DELAY_MS, 0, "wheel.random_spread", container=c3,
                                help=_("0 = all added at the start; otherwise add times are uniform over this "
                                       "span."))
    seed = whole_number_input(_("Seed"), LONG_MIN, LONG_MAX, 1, "wheel.random_seed", container=c4)
    return tuple(random_tasks(int(count), int(seed), int(max_delay), int(spread), start_ms))


def _by_hand(start_ms: int) -> tuple[TaskSpec, ...]:
    text = paste_area(_("One task per line: id, delay_ms[, add_at_ms[, cancel_at_ms]]"), "wheel.hand",
                      MAX_HAND_CHARS, _("add_at_ms must not go back in time; cancel_at_ms = the operation "
                                        "completes then."), value=DEFAULT_HAND, height=160)
    return tuple(parse_task_lines(checked_paste(text, MAX_HAND_CHARS, "tasks")))


SOURCES = {"Kafka preset": _preset, "Random batch": _random, "By hand": _by_hand}  # values: in URLs and tests


def tasks_from_widgets(start_ms: int) -> tuple[TaskSpec, ...]:
    """The tasks of the chosen source (``EngineError`` for bad input, shown by the page)."""
    labels = {"Kafka preset": _("Kafka preset"), "Random batch": _("Random batch"), "By hand": _("By hand")}
    source = st.radio(_("Tasks"), list(SOURCES), horizontal=True, key="wheel.source",
                      format_func=labels.__getitem__,  # translated here: AppTest calls it outside the run
                      help=_("At most {page} tasks on this page (the CLI takes {cli}).").format(
                          page=f"{MAX_PAGE_TASKS:,}", cli=f"{MAX_TRACED_TASKS:,}"))
    return SOURCES[source](start_ms)


def clamp_step(last: int) -> int:
    """The current step, kept within ``0..last`` (a new run may have fewer steps)."""
    st.session_state[STEP] = min(max(int(st.session_state.get(STEP, 0)), 0), last)
    return st.session_state[STEP]


def go_to(step: int, last: int) -> None:
    st.session_state[STEP] = min(max(step, 0), last)


def next_expiration(advance_steps: list[int], last: int) -> None:
    """Jump to the next clock advance (the next DelayQueue poll) after the current step."""
    current = st.session_state[STEP]
    go_to(next((s for s in advance_steps if s > current), last), last)


def step_controls(frames: list) -> None:
    """Start / Back / Step / Next expiration / End buttons and the step slider."""
    last = len(frames) - 1
    advances = [f.step for f in frames if f.kind == "advance"]
    b = st.columns(5)
    b[0].button(_("Start"), icon=":material/first_page:", key="wheel.first", on_click=go_to, args=(0, last),
                width="stretch")
    b[1].button(_("Back"), icon=":material/chevron_left:", key="wheel.prev",
                on_click=lambda: go_to(st.session_state[STEP] - 1, last), width="stretch")
    b[2].button(_("Step forward"), icon=":material/chevron_right:", key="wheel.next",
                on_click=lambda: go_to(st.session_state[STEP] + 1, last), width="stretch",
                help=_("One step: a group of adds at one instant, or one clock advance."))
    b[3].button(_("Next expiration"), icon=":material/fast_forward:",
                key="wheel.next_expiration", on_click=next_expiration,
                args=(advances, last), width="stretch",
                help=_("Jump to the next bucket expiration (the next DelayQueue poll)."))
    b[4].button(_("End"), icon=":material/last_page:", key="wheel.last", on_click=go_to, args=(last, last),
                width="stretch")
    if last > 0:  # kept while another tab is open (only the open tab runs)
        st.slider(_("Step of the run"), 0, last, key=STEP, persist_state="page")  # not the button's "Step forward"


def event_log(frames: list, step: int) -> None:
    """Every event up to ``step`` in a lazy expander (its label stays the same, so it stays open from step to
    step): nothing of it runs until it is opened; then the line count, the last ``HISTORY_ROWS`` lines and the
    whole log as CSV."""
    log = st.expander(_("Event log up to this step"), key="wheel.history", on_change="rerun")
    if not log.open:
        return
    history = [vars(line) for f in frames[: step + 1] for line in f.log]
    with log:
        st.caption(_("{n} lines; the table shows the last {shown}, the CSV every line.").format(
            n=f"{len(history):,}", shown=HISTORY_ROWS))
        table(pd.DataFrame(history[-HISTORY_ROWS:]), key="wheel.history_table")
        st.download_button(_("Download the event log (CSV)"), pd.DataFrame(history).to_csv(index=False),
                           "timing_wheel_log.csv", "text/csv", key="wheel.download_log")


@functools.lru_cache(maxsize=16_384)
def _hover(text: str, language: str) -> str:
    return translate(text, language)  # most bucket texts repeat from step to step


def hovers_translated(fig: Any) -> Any:
    """The rings' bucket hover texts in the session's language (the chart hook translates titles and trace
    names, not hover texts)."""
    language = current_language()
    if language != DEFAULT_LANGUAGE:
        fig.for_each_trace(lambda t: t.update(hovertext=[_hover(h, language) for h in t.hovertext])
                           if t.hovertext else None)
    return fig
