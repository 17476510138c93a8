"""Animate a rebalance: which partitions travel, how many are revoked, and how long consumers pause."""

from __future__ import annotations

import zlib

import pandas as pd
import streamlit as st

from engine.consumer.events import (
    AddMember,
    AddPartitions,
    ChangeSubscription,
    CrashRejoin,
    RemoveMember,
    Timeline,
    build_timeline,
    step_labels,
)
from engine.consumer.explain import PROTOCOLS, STRATEGY_LABELS
from engine.consumer.metrics import revoked_eager
from engine.consumer.pause import MAX_TIMING_MS, ProtocolTimings
from engine.coordinator.group_spec import PartitionAssignorError
from engine.coordinator.target_assignment import SERVER_ASSIGNORS
from engine.errors import EngineError, ScenarioError
from engine.scenario import STRATEGIES, dumps_scenario
from ui.cached import (
    animation_figure,
    pause_cached,
    pause_figure,
    replay_cached,
    scenario_key,
    server_cached,
    server_pause_cached,
    server_revoked,
)
from ui.layout import page_setup
from ui.sidebar import render_sidebar
from ui.state import current_scenario, init_state

ANIMATE_ALL_LIMIT = 1_000
EVENT_LABELS = {
    "remove": "a consumer leaves",
    "add": "a consumer joins",
    "crash-rejoin": "a consumer crashes and rejoins",
    "add-partitions": "partitions are added to a topic",
    "change-subscription": "a consumer changes its subscription",
}

page_setup("Rebalance", "🔄", "What moves when the group changes: eager protocols stop the world, cooperative moves only what must move.")
init_state()
render_sidebar()
scenario = current_scenario()
ss = st.session_state
events: list = ss.setdefault("rebalance.events", [])

sources = ["events", "scenario steps"] if len(scenario.steps) > 1 else ["events"]
source = st.radio("Rebalances to show", sources, index=len(sources) - 1, horizontal=True, key="rebalance.source",
                  help="The scenario's own steps (from a preset or a saved file), or a timeline of events you build here.")


def _add_event() -> None:
    kind = ss.get("rebalance.kind")
    member = ss.get("rebalance.member") or ""
    try:
        if kind == "remove":
            event = RemoveMember(member)
        elif kind == "crash-rejoin":
            event = CrashRejoin(member)
        elif kind == "add":
            new_id = (ss.get("rebalance.new_id") or "").strip()
            if not new_id:
                raise ScenarioError("add: the new member id is empty")
            event = AddMember(new_id)
        elif kind == "add-partitions":
            event = AddPartitions(ss.get("rebalance.topic") or "", int(ss.get("rebalance.count") or 0))
        else:
            event = ChangeSubscription(member, tuple(ss.get("rebalance.sub_topics") or ()))
        build_timeline(scenario, [*events, event])  # validate before keeping it
        events.append(event)
        ss.pop("rebalance.event_error", None)
    except ScenarioError as exc:
        ss["rebalance.event_error"] = str(exc)


def _clear_events() -> None:
    events.clear()
    ss.pop("rebalance.event_error", None)


timeline: Timeline
if source == "scenario steps":
    timeline = Timeline(scenario, step_labels(scenario), (), tuple(() for _ in scenario.steps))
else:
    try:
        built = build_timeline(scenario, events)
        default = [RemoveMember(scenario.first.members[-1].id)] if scenario.first.members else []
        timeline = built if events else build_timeline(scenario, default)
    except ScenarioError as exc:
        st.error(f"The event timeline no longer fits the scenario: {exc}")
        st.button("Clear the timeline", key="rebalance.clear_broken", on_click=_clear_events)
        st.stop()
    last = built.scenario.steps[-1]
    with st.container(border=True):
        st.markdown("**Build a timeline of events** (each event is one or two rebalances)")
        c1, c2, c3 = st.columns(3)
        kind = c1.selectbox("event", list(EVENT_LABELS), format_func=EVENT_LABELS.get, key="rebalance.kind")
        if kind in ("remove", "crash-rejoin", "change-subscription"):
            c2.selectbox("consumer", last.member_ids, key="rebalance.member")
        if kind == "add":
            taken = set(last.member_ids) | {m.id for s in built.scenario.steps for m in s.members}
            free = next(f"C{i}" for i in range(len(taken) + 1) if f"C{i}" not in taken)
            c2.text_input("new member id", free, key="rebalance.new_id")
        if kind == "add-partitions":
            c2.selectbox("topic", list(last.topics), key="rebalance.topic")
            c3.number_input("partitions to add", 1, 10_000, 2, key="rebalance.count")
        if kind == "change-subscription":
            c3.multiselect("new subscription", list(last.topics), key="rebalance.sub_topics")
        b1, b2 = st.columns(2)
        b1.button("Add event to the timeline", key="rebalance.add_event", on_click=_add_event)
        b2.button("Clear the timeline", key="rebalance.clear", on_click=_clear_events)
        if ss.get("rebalance.event_error"):
            st.error(ss["rebalance.event_error"])
        if not events:
            st.caption("No events yet: showing the default, the last consumer leaves.")
    for note in timeline.notes:
        st.info(note)

steps = timeline.scenario.steps
if len(steps) < 2:
    st.info("This timeline has no rebalance to show (for example a static member restarting within session.timeout.ms).")
    st.stop()
step = st.selectbox("Rebalance", range(1, len(steps)), format_func=lambda i: f"step {i}: {timeline.labels[i]}",
                    key="rebalance.step")
scenario_json = dumps_scenario(timeline.scenario)
key = scenario_key(scenario_json)

with st.spinner("Replaying the group protocol..."):
    results = {s: replay_cached(key, s, scenario_json) for s in STRATEGIES}

with st.expander("Protocol timings (for the pause model)", expanded=False):
    t1, t2, t3, t4 = st.columns(4)
    session_timeout = t1.number_input("session.timeout.ms", 0, MAX_TIMING_MS, 45_000, 1_000, key="rebalance.session_timeout_ms")
    rejoin = t2.number_input("time to rejoin (ms)", 0, MAX_TIMING_MS, 3_000, 100, key="rebalance.rejoin_ms")
    sync = t3.number_input("SyncGroup (ms)", 0, MAX_TIMING_MS, 500, 100, key="rebalance.sync_ms")
    processing = t4.number_input("finish in-flight batch (ms)", 0, MAX_TIMING_MS, 1_000, 100, key="rebalance.processing_ms")
    heartbeat = t1.number_input(
        "heartbeat.interval.ms (KIP-848)", 0, MAX_TIMING_MS, 5_000, 500, key="rebalance.heartbeat_interval_ms",
        help="New consumer protocol only: the broker's group.consumer.heartbeat.interval.ms (default 5000). "
             f"The model waits a full interval for each member's next heartbeat. 0..{MAX_TIMING_MS:,} ms.")
    before_members = steps[step - 1].member_ids
    gone = [m for m in before_members if m not in steps[step].member_ids]
    crashed = st.multiselect("members that crashed (no LeaveGroup: detected after session.timeout.ms)", gone,
                             default=[m for m in timeline.crashed[step] if m in gone] if timeline.crashed else [],
                             key=f"rebalance.crashed.{step}.{zlib.crc32(timeline.labels[step].encode()):08x}")
timings = ProtocolTimings(int(session_timeout), int(rejoin), int(sync), int(processing), int(heartbeat))

rows = []
for s in STRATEGIES:
    r, prev = results[s].steps[step], results[s].steps[step - 1]
    if PROTOCOLS[s] == "eager":
        revoked = revoked_eager(prev.assignment, list(r.assignment))
    else:
        revoked = sum(len(v) for part in (r.revoked_before_join or {}, r.revoked_first_round or {}) for v in part.values())
    pause = pause_cached(key, s, step, timings, tuple(crashed), scenario_json)
    rows.append({"strategy": s, "protocol": PROTOCOLS[s], "moved": r.moved, "moved from remaining": r.moved_from_remaining,
                 "partitions revoked": revoked, "rounds": r.rounds, "converged": r.converged,
                 "consumer-seconds paused": round(pause.consumer_seconds, 3),
                 "partition-seconds paused": round(pause.partition_seconds, 3)})
    if not r.converged:
        st.error(f"{STRATEGY_LABELS[s]}: the group did not converge in this step (stopped after {r.rounds} rounds).")
for a in SERVER_ASSIGNORS:
    try:
        sr = server_cached(key, a, scenario_json).steps[step]
        pause = server_pause_cached(key, a, step, timings, tuple(crashed), scenario_json)
    except (EngineError, PartitionAssignorError) as exc:
        st.error(f"{a} (KIP-848): {exc}")
        continue
    rows.append({"strategy": f"{a} (KIP-848)", "protocol": "consumer (KIP-848)", "moved": sr.moved,
                 "moved from remaining": sr.moved_from_remaining,
                 "partitions revoked": server_revoked(key, a, step, scenario_json), "rounds": None, "converged": True,
                 "consumer-seconds paused": round(pause.consumer_seconds, 3),
                 "partition-seconds paused": round(pause.partition_seconds, 3)})
numbers = pd.DataFrame(rows)
numbers["rounds"] = numbers["rounds"].astype("Int64")  # KIP-848 has no rounds: shown empty, client rows stay integers
st.subheader("What the engine counts")
st.dataframe(numbers, hide_index=True, width="stretch")
st.caption("Eager strategies revoke every partition of every remaining member before rejoining; cooperative-sticky "
           "revokes only the partitions that change owner (and those of topics a member unsubscribed from). "
           "KIP-848 rows (group.protocol=consumer): the broker's uniform / range assignor computes the target "
           "in one go (no rounds); a member revokes only what leaves its target.")

st.subheader("Partitions on the move")
st.caption("Press Play (or drag the slider): revoked partitions travel to the pool on the left, then to their new owner. "
           "Red: owner changed; light blue: revoked and handed back to the same owner; green: new.")
big = max(st_.total_partitions for st_ in steps[step - 1:step + 1]) > ANIMATE_ALL_LIMIT
shown = st.multiselect("Animate", STRATEGIES, default=["sticky", "cooperative-sticky"] if big else list(STRATEGIES),
                       format_func=STRATEGY_LABELS.get, key="rebalance.animate",
                       help=f"Above {ANIMATE_ALL_LIMIT:,} partitions only the sticky pair is animated by default.")
for row_start in range(0, len(shown), 2):
    cols = st.columns(2)
    for col, s in zip(cols, shown[row_start:row_start + 2], strict=False):
        with col:
            st.markdown(f"**{STRATEGY_LABELS[s]}** ({PROTOCOLS[s]})")
            st.plotly_chart(animation_figure(key, s, step, scenario_json), key=f"rebalance.anim.{s}", width="stretch")

st.subheader("Eager vs cooperative vs KIP-848: who stops, and for how long")
st.plotly_chart(pause_figure(key, step, timings, tuple(crashed), scenario_json), key="rebalance.pause", width="stretch")
st.caption("Model: eager members finish their batch, revoke everything and wait for JoinGroup + SyncGroup; cooperative "
           "members keep consuming during round 1 and only partitions that move pause until round 2 ends. A crash adds "
           "session.timeout.ms before anything starts. KIP-848 (uniform): no global barrier; each member "
           "reconciles on its own heartbeat, a moved partition pauses from its old owner's revoke (next heartbeat + "
           "batch) to its new owner's next heartbeat, and members whose partitions do not move never pause. "
           "Timings are inputs, not measurements.")
