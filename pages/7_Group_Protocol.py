"""The classic group protocol step by step: coordinator, strategy vote, JoinGroup/SyncGroup/Heartbeat,
the two-bounce upgrade to cooperative-sticky, and rolling restarts with static vs dynamic membership."""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from engine.charts.protocol import restart_comparison, restart_timeline, sequence_figure
from engine.consumer.group import assign_once
from engine.consumer.membership import (
    MAX_RESTART_MEMBERS,
    RollingRestartConfig,
    compare_rolling_restarts,
    rolling_restart,
)
from engine.consumer.protocol import (
    REBALANCE_TRIGGERS,
    Timeouts,
    coordinator_partition,
    parse_strategy_lines,
    rolling_upgrade,
    walkthrough,
)
from engine.errors import EngineError
from engine.scenario import STRATEGIES, GroupState, Scenario, dumps_scenario, loads_scenario
from ui.layout import page_setup
from ui.sidebar import render_sidebar
from ui.state import current_scenario, init_state

MAX_GROUP_ID = 249

page_setup("Group Protocol", "🤝", "FIND_COORDINATOR → JOIN_GROUP → SYNC_GROUP → HEARTBEAT, the strategy vote, "
           "and what a rolling restart costs with and without static membership.")
init_state()
render_sidebar()
scenario = current_scenario()
state = scenario.first
member_ids = [m.id for m in state.members]


@st.cache_data(show_spinner=False, max_entries=64)
def _assignment(scenario_json: str, strategy: str) -> dict[str, list[str]]:
    first = loads_scenario(scenario_json).first
    return {m: [str(tp) for tp in tps] for m, tps in assign_once(first, strategy).items()}


@st.cache_data(show_spinner="Replaying the rolling restart...", max_entries=32)
def _restarts(scenario_json: str, config: RollingRestartConfig, strategies: tuple[str, ...]):
    first: GroupState = loads_scenario(scenario_json).first
    rows = compare_rolling_restarts(first, config, strategies)
    timelines = [rolling_restart(first, s, config, static) for s in strategies for static in (False, True)]
    return rows, timelines


# ------------------------------------------------------------------ 1. coordinator
st.subheader("1 · FIND_COORDINATOR: which broker owns the group")
group_id = st.text_input("group.id", value="my-group", max_chars=MAX_GROUP_ID, key="protocol.group_id",
                         help=f"Any text up to {MAX_GROUP_ID} characters.")
partition = coordinator_partition(group_id)
st.metric("__consumer_offsets partition (its leader is the group coordinator)", partition)
st.caption("Utils.abs(groupId.hashCode()) % offsets.topic.num.partitions (50). Utils.abs maps Integer.MIN_VALUE "
           "to 0, so 'polygenelubricants' lands on partition 0.")

# ------------------------------------------------------------------ 2. the vote
st.subheader("2 · JOIN_GROUP: electing the assignment strategy")
default_lines = "\n".join(f"{m}: range" for m in member_ids[:50]) or "C0: range"
lines = st.text_area(
    "partition.assignment.strategy per member, in join order (member: strategy, strategy)", value=default_lines,
    height=160, key="protocol.lists",
    help="One line per member, at most 1,000 lines; strategies: range, roundrobin, sticky, cooperative-sticky. "
         "The first line joins first and leads.")
try:
    members = parse_strategy_lines(lines)
except EngineError as exc:
    st.error(str(exc))
    members = []
if members:
    election, steps = walkthrough(group_id, members)
    for member, error in election.rejected.items():
        st.error(f"{member}: {error}")
    cols = st.columns(3)
    cols[0].metric("selected protocol", election.selected or "none")
    cols[1].metric("leader (first to join)", election.leader or "none")
    cols[2].metric("candidates (supported by all)", ", ".join(election.candidates) or "none")
    votes = pd.DataFrame([{"member": m.member_id, "strategies": ", ".join(m.strategies),
                           "votes for": election.votes.get(m.member_id, "— rejected"),
                           "client rebalance protocol": election.rebalance_protocols.get(m.member_id, "—")}
                          for m in members])
    st.dataframe(votes, hide_index=True, width="stretch")
    st.caption("ClassicGroup.selectProtocol: candidates are the protocols every member supports; each member "
               "votes for the first candidate in its own list; most votes wins. A member whose list shares "
               "nothing with the group gets INCONSISTENT_GROUP_PROTOCOL and is not admitted.")

    # -------------------------------------------------------------- 3. sync + heartbeat
    st.subheader("3 · SYNC_GROUP and HEARTBEAT")
    c1, c2, c3 = st.columns(3)
    session = c1.number_input("session.timeout.ms", 1, 3_600_000, 45_000, 1_000, key="protocol.session_ms")
    heartbeat = c2.number_input("heartbeat.interval.ms", 1, 3_600_000, 3_000, 500, key="protocol.heartbeat_ms")
    max_poll = c3.number_input("max.poll.interval.ms", 1, 3_600_000, 300_000, 10_000, key="protocol.poll_ms")
    timeouts = Timeouts(int(session), int(heartbeat), int(max_poll))
    for problem in timeouts.problems():
        st.warning(problem)
    known = [m for m in election.accepted if m in member_ids]
    assignment = None
    if election.selected and len(known) == len(election.accepted):
        sub = GroupState(topics=state.topics, partition_racks=state.partition_racks,
                         members=tuple(m for m in state.members if m.id in set(known)))
        assignment = _assignment(dumps_scenario(Scenario(steps=(sub,))), election.selected)
    election, steps = walkthrough(group_id, members, assignment, timeouts)
    st.plotly_chart(sequence_figure(steps, [m.member_id for m in members][:12]), key="protocol.sequence")
    table = pd.DataFrame([{"api": s.api, "from": s.sender, "request": s.request, "response": s.response,
                           "note": s.note} for s in steps])
    st.dataframe(table, hide_index=True, width="stretch")
    st.download_button("Download the walkthrough (JSON)", json.dumps(table.to_dict("records"), indent=2),
                       "group_protocol.json", "application/json", key="protocol.download")
    if assignment is None and election.selected:
        st.info("The SyncGroup assignment is shown for members of the current scenario; edit the member ids to "
                "match it to see who gets what.")
    st.markdown("**What triggers a rebalance**")
    st.dataframe(pd.DataFrame(REBALANCE_TRIGGERS, columns=["event", "how the coordinator learns it"]),
                 hide_index=True, width="stretch")

# ------------------------------------------------------------------ 4. the upgrade path
st.subheader("4 · Rolling upgrade from range to cooperative-sticky")
skip = st.checkbox("Skip the first bounce (switch straight to [cooperative-sticky])", key="protocol.skip_first")
upgrade_members = member_ids[:10] or ["C0", "C1", "C2"]
stages = rolling_upgrade(upgrade_members, first_bounce=() if skip else ("cooperative-sticky", "range"))
st.dataframe(pd.DataFrame([{
    "bounce": s.bounce, "restarted": s.member,
    "lists": "; ".join(f"{m}=[{', '.join(v)}]" for m, v in s.strategies.items()),
    "vote selects": s.election.selected or "—",
    "rebalance protocols": ", ".join(sorted(set(s.election.rebalance_protocols.values()))),
    "rejected": ", ".join(s.election.rejected) or "",
} for s in stages]), hide_index=True, width="stretch")
if any(s.election.rejected for s in stages):
    st.error("Without the first bounce a restarted member lists only cooperative-sticky while the others list only "
             "range: nothing is common, JoinGroup fails with INCONSISTENT_GROUP_PROTOCOL.")
else:
    st.caption("Bounce 1 keeps range in every list so old and new members agree (still EAGER rebalancing); once every "
               "member lists cooperative-sticky first the vote switches; bounce 2 drops range and the clients "
               "switch to COOPERATIVE rebalancing.")

# ------------------------------------------------------------------ 5. rolling restart
st.subheader("5 · Rolling restart: static (group.instance.id) vs dynamic members")
r1, r2, r3 = st.columns(3)
restart_s = r1.number_input("restart time per member (s)", 0, 3_600, 30, 5, key="protocol.restart_s")
session_s = r2.number_input("session.timeout.ms (s)", 0, 3_600, 45, 5, key="protocol.restart_session_s")
gap_s = r3.number_input("gap between restarts (s)", 0, 3_600, 10, 5, key="protocol.gap_s")
strategies = st.multiselect("strategies", STRATEGIES, default=["range", "cooperative-sticky"], key="protocol.strategies")
if len(state.members) > MAX_RESTART_MEMBERS:
    st.error(f"A rolling restart is limited to {MAX_RESTART_MEMBERS} members; this scenario has {len(state.members)}.")
elif strategies:
    try:
        config = RollingRestartConfig(int(restart_s) * 1000, int(session_s) * 1000, int(gap_s) * 1000)
        rows, timelines = _restarts(dumps_scenario(scenario), config, tuple(strategies))
    except EngineError as exc:
        st.error(str(exc))
    else:
        frame = pd.DataFrame([{"strategy": r.strategy, "membership": r.membership, "rebalances": r.rebalances,
                               "partitions moved": r.partitions_moved,
                               "consumer-seconds paused": round(r.consumer_seconds_paused, 1),
                               "of which rebalance pauses": round(r.rebalance_consumer_seconds, 1),
                               "duration (s)": round(r.total_seconds, 1)} for r in rows])
        st.dataframe(frame, hide_index=True, width="stretch")
        st.plotly_chart(restart_comparison(rows), key="protocol.restart_bars")
        st.plotly_chart(restart_timeline(timelines), key="protocol.restart_timeline")
        st.download_button("Download the comparison (CSV)", frame.to_csv(index=False), "rolling_restart.csv",
                           "text/csv", key="protocol.restart_download")
        st.caption("Dynamic members send LeaveGroup on close and JoinGroup on start: two rebalances each. A static "
                   "member back within session.timeout.ms gets its cached assignment: none. Longer, its session "
                   "expires (one rebalance without it) and it rejoins as a new member (a second one). Consumer-seconds "
                   "= other members' rebalance pauses (engine.consumer.pause model) + each restarting member's own downtime.")
