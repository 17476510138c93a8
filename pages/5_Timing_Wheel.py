"""Timing wheel: Kafka's purgatory timer (hierarchical timing wheel) step by step, animated, and
measured against a plain binary heap (what a bare DelayQueue would be)."""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from engine.charts import timing_wheel as charts
from engine.errors import EngineError, LimitError, ScenarioError
from engine.server.timer.cases import trace_to_dict
from engine.server.timer.cost import CostRow, measure_costs
from engine.server.timer.driver import simulate
from engine.server.timer.frames import WheelFrame, wheel_frames
from engine.server.timer.model import (
    MAX_PAGE_TASKS,
    MAX_PAGE_WHEEL_SIZE,
    MAX_TICK_MS,
    MAX_TRACED_TASKS,
    MAX_WHEEL_SIZE,
    MIN_WHEEL_SIZE,
    TaskSpec,
    WheelConfig,
    WheelTrace,
)
from engine.server.timer.validation import validate, validate_config
from engine.server.timer.workloads import (
    FETCH_MAX_WAIT_MS,
    HEARTBEAT_INTERVAL_MS,
    REQUEST_TIMEOUT_MS,
    SESSION_TIMEOUT_MS,
    kafka_preset,
    parse_task_lines,
    random_tasks,
)
from ui.layout import page_setup

STEP = "wheel.step"
DEFAULT_HAND = "# id, delay_ms[, add_at_ms[, cancel_at_ms]]\na, 25\nb, 7, 3\nc, 0\nd, 400\ne, 8000, 10, 2000\n"
COST_SIZES = (1_000, 10_000)

page_setup("Timing Wheel", "⏱️",
           "Kafka's hierarchical timing wheel (the purgatory behind delayed produce, fetch and heartbeat), "
           "computed exactly like org.apache.kafka.server.util.timer and checked against vectors from Kafka's code.")

st.markdown(
    "A broker parks every request that has to wait — a produce with `acks=all` until the ISR has the data, a "
    "fetch until `fetch.min.bytes` arrive, a member's session until its next heartbeat — in a "
    "`DelayedOperationPurgatory`. Its timer is a **hierarchical timing wheel** (`SystemTimer`, tick 1 ms, 20 "
    "buckets): a task goes into the bucket of its expiration in O(1); tasks too far out go to an overflow wheel "
    "whose tick is the whole interval of the wheel below, created on demand. Only *buckets* enter the "
    "`DelayQueue`, so the clock jumps from one bucket expiration to the next, and when an overflow bucket "
    "expires its tasks drop into a finer wheel. Seed article 002 ends here; this page lets you watch it."
)


# --------------------------------------------------------------------------- cached engine calls


@st.cache_data(show_spinner="Running the wheel…", max_entries=16)
def run_wheel(config: WheelConfig, tasks: tuple[TaskSpec, ...]) -> tuple[WheelTrace, list[WheelFrame]]:
    trace = simulate(config, list(tasks))
    return trace, wheel_frames(trace)


@st.cache_resource(show_spinner="Building the animation…", max_entries=8)  # shared, never mutated: no copy
def animation(config: WheelConfig, tasks: tuple[TaskSpec, ...], first: int, window: int, levels: int):
    _, frames = run_wheel(config, tasks)
    return charts.wheel_animation(frames[first:first + window], config, levels)


@st.cache_data(show_spinner=False, max_entries=32)
def costs(count: int, tick_ms: int, wheel_size: int, order: str) -> list[CostRow]:
    return measure_costs(count, seed=1, config=WheelConfig(tick_ms, wheel_size, 0), order=order)


def tasks_from_widgets(start_ms: int) -> tuple[TaskSpec, ...]:
    source = st.radio("Tasks", ["Kafka preset", "Random batch", "By hand"], horizontal=True, key="wheel.source",
                      help=f"At most {MAX_PAGE_TASKS:,} tasks on this page (the CLI takes "
                           f"{MAX_TRACED_TASKS:,}).")
    if source == "Kafka preset":
        c1, c2, c3 = st.columns(3)
        duration = c1.number_input("Duration (ms)", value=20_000, step=1_000, key="wheel.preset_duration",
                                   help="How long requests keep arriving (1,000..60,000 ms).")
        members = c2.number_input("Group members", value=3, step=1, key="wheel.preset_members",
                                  help="1..10; the last one stops heart-beating halfway.")
        seed = c3.number_input("Seed", value=7, step=1, key="wheel.preset_seed")
        st.caption(f"produce (acks=all) waits up to request.timeout.ms = {REQUEST_TIMEOUT_MS:,} ms, 95% complete "
                   f"after 2–60 ms; fetch waits up to fetch.max.wait.ms = {FETCH_MAX_WAIT_MS} ms, 60% complete "
                   f"early; heartbeats every {HEARTBEAT_INTERVAL_MS:,} ms against session.timeout.ms = "
                   f"{SESSION_TIMEOUT_MS:,} ms (each one completes the previous). Completed operations are "
                   "cancelled: O(1) unlinking from their bucket.")
        if not 1_000 <= duration <= 60_000 or not 1 <= members <= 10:
            raise ScenarioError(f"preset: duration must be 1,000..60,000 ms and members 1..10, got "
                                   f"{duration:,} ms and {members}")
        return tuple(kafka_preset(int(seed), int(duration), int(members), start_ms=start_ms))
    if source == "Random batch":
        c1, c2, c3, c4 = st.columns(4)
        count = c1.number_input("Tasks", value=60, step=10, key="wheel.random_count",
                                help=f"0..{MAX_PAGE_TASKS:,} on this page")
        max_delay = c2.number_input("Max delay (ms)", value=2_000, step=100, key="wheel.random_max_delay",
                                    help="Delays are uniform in 0..max.")
        spread = c3.number_input("Added over (ms)", value=0, step=100, key="wheel.random_spread",
                                 help="0 = all added at the start; otherwise add times are uniform over this span.")
        seed = c4.number_input("Seed", value=1, step=1, key="wheel.random_seed")
        if count > MAX_PAGE_TASKS or count < 0:
            raise LimitError(f"tasks: 0..{MAX_PAGE_TASKS:,} on this page, got {count:,}")
        return tuple(random_tasks(int(count), int(seed), int(max_delay), int(spread), start_ms))
    text = st.text_area("One task per line: id, delay_ms[, add_at_ms[, cancel_at_ms]]", value=DEFAULT_HAND,
                        height=160, key="wheel.hand",
                        help="add_at_ms must not go back in time; cancel_at_ms = the operation completes then.")
    return tuple(parse_task_lines(text))


# --------------------------------------------------------------------------- inputs

c1, c2, c3 = st.columns(3)
tick = c1.number_input("tick_ms", value=1, step=1, key="wheel.tick_ms",
                       help=f"Level 0's bucket width, 1..{MAX_TICK_MS:,} ms (Kafka: 1).")
size = c2.number_input("wheel_size", value=20, step=1, key="wheel.wheel_size",
                       help=f"Buckets per level, {MIN_WHEEL_SIZE}..{MAX_PAGE_WHEEL_SIZE} on this page (Kafka: 20).")
start = c3.number_input("start_ms", value=0, step=1, key="wheel.start_ms",
                        help="The timer's start time; its wheels start at it rounded down to a tick.")
config = WheelConfig(int(tick), int(size), int(start))
try:
    validate_config(config)
    if config.wheel_size > MAX_PAGE_WHEEL_SIZE:
        raise LimitError(f"wheel_size: at most {MAX_PAGE_WHEEL_SIZE} on this page (the CLI takes "
                            f"{MAX_WHEEL_SIZE:,}), got {config.wheel_size:,}")
except EngineError as exc:
    st.error(str(exc), icon="🚫")
    st.stop()

try:
    tasks = tasks_from_widgets(config.start_ms)
    validate(config, tasks, MAX_PAGE_TASKS)
except EngineError as exc:
    st.error(str(exc), icon="🚫")
    st.stop()

trace, frames = run_wheel(config, tasks)
levels = len(trace.levels)
last = len(frames) - 1
st.session_state[STEP] = min(max(int(st.session_state.get(STEP, 0)), 0), last)
advance_steps = [f.step for f in frames if f.kind == "advance"]


def go_to(step: int) -> None:
    st.session_state[STEP] = min(max(step, 0), last)


def next_expiration() -> None:
    current = st.session_state[STEP]
    go_to(next((s for s in advance_steps if s > current), last))


# --------------------------------------------------------------------------- views

summary = (f"{len(tasks):,} tasks · {len(trace.advances):,} clock advances · {levels} level(s) created "
           f"(ticks {', '.join(f'{t:,}' for t, _ in trace.levels)} ms) · {len(frames) - 1:,} steps")
st.caption(summary)

tab_step, tab_play, tab_cost, tab_tasks = st.tabs(["Step through", "Play", "Wheel vs heap", "Tasks and trace"])

with tab_step:
    b1, b2, b3, b4, b5 = st.columns(5)
    b1.button("⏮ Start", key="wheel.first", on_click=go_to, args=(0,), width="stretch")
    b2.button("◀ Back", key="wheel.prev", on_click=lambda: go_to(st.session_state[STEP] - 1),
              width="stretch")
    b3.button("Step ▶", key="wheel.next", on_click=lambda: go_to(st.session_state[STEP] + 1),
              width="stretch", help="One step: a group of adds at one instant, or one clock advance.")
    b4.button("Next expiration ⏩", key="wheel.next_expiration", on_click=next_expiration,
              width="stretch", help="Jump to the next bucket expiration (the next DelayQueue poll).")
    b5.button("⏭ End", key="wheel.last", on_click=go_to, args=(last,), width="stretch")
    if last > 0:
        st.slider("Step", 0, last, key=STEP)
    frame = frames[st.session_state[STEP]]
    left, right = st.columns([3, 2])
    with left:
        st.plotly_chart(charts.wheel_rings(frame, config, levels), width="stretch", key="wheel.rings")
        st.caption("Level 0 is the inner ring. Colour = tasks in the bucket; black hand = the level's current "
                   "time; red outline = bucket drained at this step; orange star = tasks placed at this step "
                   "(a drop from a higher wheel shows as a red outer bucket and an orange inner one).")
    with right:
        st.markdown(f"**Step {frame.step}** — {frame.kind} at t = {frame.time_ms:,} ms")
        if frame.log:
            st.dataframe(pd.DataFrame([vars(line) for line in frame.log]), hide_index=True,
                         width="stretch", key="wheel.step_log")
        else:
            st.info("The empty wheel at the start time.")
        history = [vars(line) for f in frames[: frame.step + 1] for line in f.log]
        with st.expander(f"Event log up to this step ({len(history):,} lines)"):
            st.dataframe(pd.DataFrame(history[-500:]), hide_index=True, width="stretch")
            st.download_button("Download the event log (CSV)", pd.DataFrame(history).to_csv(index=False),
                               "timing_wheel_log.csv", "text/csv", key="wheel.download_log")

with tab_play:
    window = charts.animation_window(len(frames), levels, config.wheel_size)
    first = st.session_state[STEP] // window * window
    shown = frames[first:first + window]
    st.caption(f"Steps {shown[0].step}..{shown[-1].step} of {last} (the stretch holding the current step; move the "
               "step in the first tab to animate another stretch). Press ▶ Play or drag the slider.")
    st.plotly_chart(animation(config, tasks, first, window, levels), width="stretch", key="wheel.animation")

with tab_cost:
    st.markdown(
        "Insert and expire cost of this wheel against one binary heap of tasks (what a bare "
        "`java.util.concurrent.DelayQueue` would be), both in the same pure Python, delays uniform in 1 ms..60 s, "
        "all added at time 0 and drained. **Wheel:** insert O(m) with m = levels (4 for 60 s at 1 ms × 20), "
        "expire O(m) per task plus O(log b) per *bucket* (b = queued buckets, at most m × wheel_size); "
        "cancel O(1). **Heap:** insert O(log n) worst case (O(1) on average for random order), expire "
        "O(log n) per task, cancel O(n) (`remove(Object)` searches the array)."
    )
    o1, o2, o3 = st.columns(3)
    order = o1.selectbox("Insert order", ["random", "ascending", "descending"], key="wheel.cost_order",
                         help="descending expirations are the heap's worst case for inserts (every task sifts to "
                              "the root); ascending its best (Kafka's usual pattern: same timeout, arriving over time).")
    big = o2.toggle("Add 10⁵ tasks (a few seconds)", key="wheel.cost_1e5")
    huge = o3.toggle("Add 10⁶ tasks (about a minute)", key="wheel.cost_1e6")
    sizes = [*COST_SIZES, *([100_000] if big or huge else []), *([1_000_000] if huge else [])]
    progress = st.progress(0.0, text="Measuring…")
    rows: list[CostRow] = []
    for i, n in enumerate(sizes):
        progress.progress(i / len(sizes), text=f"Measuring {n:,} tasks…")
        rows += costs(n, config.tick_ms, config.wheel_size, order)
    progress.empty()
    table = pd.DataFrame([{"timer": r.timer, "tasks": r.tasks, "levels": r.levels,
                           "insert µs/task": round(r.insert_seconds / r.tasks * 1e6, 3),
                           "expire µs/task": round(r.expire_seconds / r.tasks * 1e6, 3),
                           "insert steps/task": round(r.insert_steps / r.tasks, 2),
                           "expire steps/task": round(r.expire_steps / r.tasks, 2),
                           "queue polls": r.buckets_polled} for r in rows])
    g1, g2 = st.columns(2)
    g1.plotly_chart(charts.cost_figure(rows, "steps"), width="stretch", key="wheel.cost_steps")
    g2.plotly_chart(charts.cost_figure(rows, "seconds"), width="stretch", key="wheel.cost_seconds")
    st.dataframe(table, hide_index=True, width="stretch", key="wheel.cost_table")
    st.caption("Counted steps: wheel insert = levels visited + DelayQueue comparisons when a bucket is enqueued; "
               "wheel expire = DelayQueue comparisons + one per task flushed + levels visited when re-adding; heap = "
               "sift comparisons. Times are this machine's Python, not the JVM: compare the two columns, not "
               "the absolute numbers. With random order the heap's inserts are cheap on average; the wheel "
               "wins on expiry at scale and on cancellation, which is what a purgatory mostly does.")
    st.download_button("Download the measurements (CSV)", table.to_csv(index=False), "timing_wheel_costs.csv",
                       "text/csv", key="wheel.download_costs")

with tab_tasks:
    result = trace_to_dict(trace)
    st.dataframe(pd.DataFrame([{"task": t.task_id, "delay_ms": t.delay_ms, "added_at_ms": t.added_at_ms,
                                "expiration_ms": t.expiration_ms,
                                "inserted": "at once" if t.inserted.fired else
                                f"L{t.inserted.level} #{t.inserted.bucket} @ {t.inserted.bucket_expiration_ms}",
                                "fired_at_ms": t.fired_at_ms, "cancelled_at_ms": t.cancelled_at_ms}
                               for t in trace.tasks]), hide_index=True, width="stretch",
                 key="wheel.tasks_table")
    payload = {"tick_ms": config.tick_ms, "wheel_size": config.wheel_size, "start_ms": config.start_ms,
               "tasks": [{"id": t.task_id, "delay_ms": t.delay_ms,
                          **({} if t.add_at_ms is None else {"add_at_ms": t.add_at_ms}),
                          **({} if t.cancel_at_ms is None else {"cancel_at_ms": t.cancel_at_ms})} for t in tasks]}
    d1, d2 = st.columns(2)
    d1.download_button("Download the input (python -m engine wheel)", json.dumps(payload, indent=1),
                       "timing_wheel_input.json", "application/json", key="wheel.download_input")
    d2.download_button("Download the full trace (JSON)", json.dumps(result), "timing_wheel_trace.json",
                       "application/json", key="wheel.download_trace")
