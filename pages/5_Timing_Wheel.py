"""Timing wheel: Kafka's purgatory timer (hierarchical timing wheel) step by step, animated, and
measured against a plain binary heap (what a bare DelayQueue would be)."""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from engine import (
    MAX_PAGE_TASKS,
    MAX_PAGE_WHEEL_SIZE,
    MAX_TICK_MS,
    MIN_WHEEL_SIZE,
    WHEEL_TEXTS,
    EngineError,
    WheelConfig,
    case_to_dict,
    cost_rows,
    task_rows,
    trace_to_dict,
    validate_wheel,
)
from engine.charts import animation_window, wheel_rings
from engine.charts.timing_wheel import cost_panels
from engine.server.timer.model import MAX_START_MS
from ui.frame.door import door, refusal
from ui.frame.layout import page_setup
from ui.frame.lazy import lazy_tabs
from ui.frame.release_note import release_caption
from ui.frame.tables import table
from ui.inputs.numbers import whole_number_input
from ui.text.i18n import _, tr
from ui.timer.cached import wheel_animation_figure, wheel_costs, wheel_run
from ui.timer.wheel import STEP, clamp_step, event_log, hovers_translated, step_controls, tasks_from_widgets

COST_SIZES = (1_000, 10_000)

page_setup(_("Timing Wheel"), "⏱️", _("Kafka's hierarchical timing wheel (the purgatory behind delayed "
                                       "produce, fetch and heartbeat), computed exactly like "
                                       "org.apache.kafka.server.util.timer and checked against vectors from "
                                       "Kafka's code."))
st.markdown(tr(WHEEL_TEXTS["intro"]))


def inputs_section() -> tuple[WheelConfig, tuple]:
    c1, c2, c3 = st.columns(3)
    tick = whole_number_input("tick_ms", 1, MAX_TICK_MS, 1, "wheel.tick_ms", container=c1,
                              help=_("Level 0's bucket width, 1..{max} ms (Kafka: 1).").format(max=f"{MAX_TICK_MS:,}"))
    size = whole_number_input("wheel_size", MIN_WHEEL_SIZE, MAX_PAGE_WHEEL_SIZE, 20, "wheel.wheel_size", container=c2,
                              help=_("Buckets per level, {low}..{high} on this page (Kafka: 20).").format(
                                  low=MIN_WHEEL_SIZE, high=MAX_PAGE_WHEEL_SIZE))
    start = whole_number_input("start_ms", 0, MAX_START_MS, 0, "wheel.start_ms", container=c3,
                               help=_("The timer's start time; its wheels start at it rounded down to a tick."))
    config = WheelConfig(tick, size, start)
    try:
        tasks = tasks_from_widgets(config.start_ms)
        validate_wheel(config, tasks, MAX_PAGE_TASKS)
    except EngineError as exc:
        refusal(str(exc))
        st.stop()
    return config, tasks


def step_section(config: WheelConfig, frames: list, levels: int) -> None:
    step_controls(frames)
    frame = frames[st.session_state[STEP]]
    left, right = st.columns([3, 2])
    left.plotly_chart(hovers_translated(wheel_rings(frame, config, levels)), width="stretch", key="wheel.rings")
    left.caption(tr(WHEEL_TEXTS["rings"]))
    with right:
        st.markdown(_("**Step {step}** — {kind} at t = {t} ms").format(step=frame.step, kind=tr(frame.kind),
                                                                        t=f"{frame.time_ms:,}"))
        if frame.log:
            table([vars(line) for line in frame.log], key="wheel.step_log")
        else:
            st.info(_("The empty wheel at the start time."))
        event_log(frames, frame.step)


def play_section(config: WheelConfig, tasks: tuple, frames: list, levels: int) -> None:
    window = animation_window(len(frames), levels, config.wheel_size)
    first = st.session_state[STEP] // window * window
    shown = frames[first:first + window]
    st.caption(_("Steps {first}..{last} of {total} (the stretch holding the current step; move the step in the "
                 "first tab to animate another stretch). Press Play or drag the slider.").format(
        first=shown[0].step, last=shown[-1].step, total=len(frames) - 1))
    st.plotly_chart(wheel_animation_figure(config, tasks, first, window, levels), width="stretch",
                    key="wheel.animation")


def cost_section(config: WheelConfig) -> None:
    st.markdown(tr(WHEEL_TEXTS["cost"]))
    o1, o2, o3 = st.columns(3)
    orders = {order: tr(order) for order in ("random", "ascending", "descending")}
    order = o1.selectbox(_("Insert order"), list(orders), key="wheel.cost_order", format_func=orders.__getitem__,
                         help=tr(WHEEL_TEXTS["cost.order"]), persist_state="page")  # kept while the tab is closed
    big = o2.toggle(_("Add 10⁵ tasks (a few seconds)"), key="wheel.cost_1e5", persist_state="page")
    huge = o3.toggle(_("Add 10⁶ tasks (about a minute)"), key="wheel.cost_1e6", persist_state="page")
    sizes = [*COST_SIZES, *([100_000] if big or huge else []), *([1_000_000] if huge else [])]
    progress, rows = st.progress(0.0, text=_("Measuring…")), []
    for i, n in enumerate(sizes):
        progress.progress(i / len(sizes), text=_("Measuring {n} tasks…").format(n=f"{n:,}"))
        rows += door(wheel_costs, n, config.tick_ms, config.wheel_size, order)  # the cost model first
    progress.empty()
    st.plotly_chart(cost_panels(rows), width="stretch", key="wheel.costs")  # steps and µs per task, one x axis
    measured = pd.DataFrame(cost_rows(rows))
    table(measured, key="wheel.cost_table")
    st.caption(tr(WHEEL_TEXTS["cost.caption"]))
    st.download_button(_("Download the measurements (CSV)"), measured.to_csv(index=False),
                       "timing_wheel_costs.csv", "text/csv", key="wheel.download_costs")


def tasks_section(config: WheelConfig, tasks: tuple, trace) -> None:
    table(task_rows(trace), key="wheel.tasks_table")  # static up to 40 tasks, else the searchable grid
    d1, d2 = st.columns(2)
    case = json.dumps(case_to_dict(config, tasks), indent=1)
    d1.download_button(_("Download the input (python -m engine wheel)"), case, "timing_wheel_input.json",
                       "application/json", key="wheel.download_input")
    d2.download_button(_("Download the full trace (JSON)"), json.dumps(trace_to_dict(trace)),
                       "timing_wheel_trace.json", "application/json", key="wheel.download_trace")


config, tasks = inputs_section()
trace, frames = door(wheel_run, config, tasks)  # the cost model first: inline, a worker, or one line
levels = len(trace.levels)
clamp_step(len(frames) - 1)
st.caption(_("{tasks} tasks · {advances} clock advances · {levels} level(s) created (ticks {ticks} ms) · "
             "{steps} steps").format(tasks=f"{len(tasks):,}", advances=f"{len(trace.advances):,}", levels=levels,
                                     ticks=", ".join(f"{t:,}" for t, _size in trace.levels),
                                     steps=f"{len(frames) - 1:,}"))
lazy_tabs({_("Step through"): lambda: step_section(config, frames, levels),  # only the open tab runs
           _("Play"): lambda: play_section(config, tasks, frames, levels),
           _("Wheel vs heap"): lambda: cost_section(config),
           _("Tasks and trace"): lambda: tasks_section(config, tasks, trace)}, "wheel.view")
release_caption("wheel")
