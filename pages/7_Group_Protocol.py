"""The classic group protocol step by step: coordinator, strategy vote, JoinGroup/SyncGroup/Heartbeat,
the two-bounce upgrade to cooperative-sticky, and rolling restarts with static vs dynamic membership."""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

import engine
from engine.charts import restart_comparison, restart_timeline, sequence_figure
from engine.common.config_def import INT_MAX
from engine.consumer.membership import MAX_TIME_MS
from ui.assignments.cached import first_assignment, rolling_restarts
from ui.frame.layout import page_setup
from ui.frame.sidebar import render_sidebar
from ui.frame.state import ScenarioRef, current_ref, current_scenario
from ui.inputs.numbers import whole_number_input
from ui.inputs.paste import checked_paste
from ui.text.i18n import _, tr

MAX_GROUP_ID = 249
MAX_LINES_CHARS = 300_000  # 1,000 lines of a 249-character member id and its strategies

page_setup(_("Group Protocol"), "🤝", _("FIND_COORDINATOR → JOIN_GROUP → SYNC_GROUP → HEARTBEAT, the strategy "
                                        "vote, and what a rolling restart costs with and without static membership."))
render_sidebar()


def coordinator_section() -> str:
    st.subheader(_("1 · FIND_COORDINATOR: which broker owns the group"))
    group_id = st.text_input("group.id", value="my-group", max_chars=MAX_GROUP_ID, key="protocol.group_id",
                             help=_("Any text up to {n} characters.").format(n=MAX_GROUP_ID))
    st.metric(_("__consumer_offsets partition (its leader is the group coordinator)"),
              engine.coordinator_partition(group_id))
    st.caption(_("Utils.abs(groupId.hashCode()) % offsets.topic.num.partitions (50). Utils.abs maps "
                 "Integer.MIN_VALUE to 0, so 'polygenelubricants' lands on partition 0."))
    return group_id


def vote_section(group_id: str, member_ids: list[str]) -> tuple[list, engine.Election | None]:
    st.subheader(_("2 · JOIN_GROUP: electing the assignment strategy"))
    lines = st.text_area(
        _("partition.assignment.strategy per member, in join order (member: strategy, strategy)"), height=160,
        value="\n".join(f"{m}: range" for m in member_ids[:50]) or "C0: range", key="protocol.lists",
        max_chars=MAX_LINES_CHARS,
        help=_("One line per member, at most 1,000 lines and {chars} characters (the browser stops a longer "
               "paste); strategies: {strategies}. The first line joins first and leads.").format(
                   chars=f"{MAX_LINES_CHARS:,}", strategies=", ".join(engine.STRATEGY_NAMES)))
    try:
        members = engine.parse_strategy_lines(checked_paste(lines, MAX_LINES_CHARS, "strategy lists"))
    except engine.EngineError as exc:
        st.error(tr(str(exc)))
        return [], None
    election, _steps = engine.walkthrough(group_id, members)
    for member, error in election.rejected.items():
        st.error(f"{member}: {tr(error)}")
    cols = st.columns(3)
    cols[0].metric(_("selected protocol"), election.selected or _("none"))
    cols[1].metric(_("leader (first to join)"), election.leader or _("none"))
    cols[2].metric(_("candidates (supported by all)"), ", ".join(election.candidates) or _("none"))
    st.dataframe(pd.DataFrame(engine.vote_rows(members, election)), hide_index=True, width="stretch")
    st.caption(tr(engine.CAPTIONS["protocol.vote"]))
    return members, election


def sync_section(group_id: str, members: list[engine.MemberProtocols], election: engine.Election,
                 state: engine.GroupState) -> None:
    st.subheader(_("3 · SYNC_GROUP and HEARTBEAT"))
    fields = (("session.timeout.ms", 45_000, "session_ms"), ("heartbeat.interval.ms", 3_000, "heartbeat_ms"),
              ("max.poll.interval.ms", 300_000, "poll_ms"))
    timeouts = engine.Timeouts(*(whole_number_input(label, 1, INT_MAX, default, f"protocol.{key}", container=col)
                                 for col, (label, default, key) in zip(st.columns(3), fields, strict=True)))
    for problem in timeouts.problems():
        st.warning(tr(problem))
    synced = engine.sync_group_state(state, election)
    assignment = None
    if synced is not None and election.selected is not None:
        assignment = first_assignment(ScenarioRef.of(engine.Scenario(steps=(synced,))), election.selected)
    election, steps = engine.walkthrough(group_id, members, assignment, timeouts)
    sequence = sequence_figure(steps, [m.member_id for m in members][:12])
    lanes = list(sequence.layout.xaxis.ticktext or ())
    if lanes:  # "every member", the member ids, "coordinator": the first and last lanes are words
        sequence.update_xaxes(ticktext=[tr(lanes[0]), *lanes[1:-1], tr(lanes[-1])])
    st.plotly_chart(sequence, key="protocol.sequence")
    rows = engine.walkthrough_rows(steps)
    st.dataframe(pd.DataFrame([{**row, "note": tr(row["note"])} for row in rows]), hide_index=True,
                 width="stretch")  # the notes are explanations: shown translated, downloaded as Kafka's English
    st.download_button(_("Download the walkthrough (JSON)"), json.dumps(rows, indent=2), "group_protocol.json",
                       "application/json", key="protocol.download")
    if assignment is None and election.selected:
        st.info(_("The SyncGroup assignment is shown for members of the current scenario; edit the member ids "
                  "to match it to see who gets what."))
    st.markdown(_("**What triggers a rebalance**"))
    triggers = [(tr(event), tr(how)) for event, how in engine.REBALANCE_TRIGGERS]
    st.dataframe(pd.DataFrame(triggers, columns=["event", "how the coordinator learns it"]),
                 hide_index=True, width="stretch")


def upgrade_section(member_ids: list[str]) -> None:
    st.subheader(_("4 · Rolling upgrade from range to cooperative-sticky"))
    skip = st.checkbox(_("Skip the first bounce (switch straight to [cooperative-sticky])"), key="protocol.skip_first")
    stages = engine.rolling_upgrade(member_ids[:10] or ["C0", "C1", "C2"],
                             first_bounce=() if skip else ("cooperative-sticky", "range"))
    st.dataframe(pd.DataFrame(engine.upgrade_rows(stages)), hide_index=True, width="stretch")
    if any(s.election.rejected for s in stages):
        st.error(tr(engine.CAPTIONS["protocol.upgrade.rejected"]))
    else:
        st.caption(tr(engine.CAPTIONS["protocol.upgrade"]))


def restart_section(ref: ScenarioRef) -> None:
    st.subheader(_("5 · Rolling restart: static (group.instance.id) vs dynamic members"))
    times = ((_("restart time per member (s)"), MAX_TIME_MS // 1000, 30, "restart_s"), ("session.timeout.ms",
             MAX_TIME_MS, 45_000, "restart_session"), (_("gap between restarts (s)"), MAX_TIME_MS // 1000, 10, "gap_s"))
    restart_s, session_ms, gap_s = (whole_number_input(label, 0, high, default, f"protocol.{key}", container=col)
                                    for col, (label, high, default, key) in zip(st.columns(3), times, strict=True))
    strategies = st.multiselect(_("strategies"), engine.STRATEGY_NAMES, default=["range", "cooperative-sticky"],
                                key="protocol.strategies")
    if not strategies:
        return
    try:  # the engine refuses more than MAX_RESTART_MEMBERS members
        config = engine.RollingRestartConfig(restart_s * 1000, session_ms, gap_s * 1000)
        rows, timelines = rolling_restarts(ref, config, tuple(strategies))
    except engine.LimitError as exc:  # too big to replay here: said, not an error of the user's
        st.warning(_("{error}. Sections 1-4 above still cover this group.").format(error=tr(str(exc))))
        return
    except engine.EngineError as exc:
        st.error(tr(str(exc)))
        return
    frame = pd.DataFrame(engine.restart_comparison_rows(rows))
    st.dataframe(frame, hide_index=True, width="stretch")
    bars = restart_comparison(rows)
    bars.for_each_trace(lambda t: t.update(text=[tr(x) for x in t.text or ()]))  # "2 rebalances, 3 moved"
    st.plotly_chart(bars, key="protocol.restart_bars")
    st.plotly_chart(restart_timeline(timelines), key="protocol.restart_timeline")
    st.download_button(_("Download the comparison (CSV)"), frame.to_csv(index=False), "rolling_restart.csv",
                       "text/csv", key="protocol.restart_download")
    st.caption(tr(engine.CAPTIONS["protocol.restart"]))


state = current_scenario().first
member_ids = state.member_ids
group_id = coordinator_section()
members, election = vote_section(group_id, member_ids)
if election is not None:
    sync_section(group_id, members, election, state)
upgrade_section(member_ids)
restart_section(current_ref())
