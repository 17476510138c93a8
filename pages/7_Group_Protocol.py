"""The classic group protocol step by step: coordinator, strategy vote, JoinGroup/SyncGroup/Heartbeat,
the two-bounce upgrade to cooperative-sticky, and rolling restarts with static vs dynamic membership."""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

import engine
from engine.charts import sequence_figure
from engine.common.config_def import INT_MAX
from ui.assignments.cached import first_assignment
from ui.assignments.restarts import restart_section
from ui.frame.layout import page_setup
from ui.frame.lazy import lazy_section, linked
from ui.frame.sidebar import render_sidebar
from ui.frame.state import ScenarioRef, current_ref, current_scenario
from ui.frame.tables import table
from ui.inputs.numbers import whole_number_input
from ui.inputs.paste import checked_paste
from ui.text.i18n import _, tr

MAX_GROUP_ID = 249
MAX_LINES_CHARS = 300_000  # 1,000 lines of a 249-character member id and its strategies

RESTART_LINKED = linked(("protocol.restart_s", "protocol.restart_session", "protocol.gap_s"))  # a lesson's link
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
    table(engine.vote_rows(members, election), key="protocol.votes", large=_("Each member's vote (table)"))
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
    table([{**row, "note": tr(row["note"])} for row in rows], key="protocol.walkthrough",  # notes translated,
          large=_("Every request and response (table)"))  # downloaded in Kafka's English
    st.download_button(_("Download the walkthrough (JSON)"), json.dumps(rows, indent=2), "group_protocol.json",
                       "application/json", key="protocol.download")
    if assignment is None and election.selected:
        st.info(_("The SyncGroup assignment is shown for members of the current scenario; edit the member ids "
                  "to match it to see who gets what."))
    st.markdown(_("**What triggers a rebalance**"))
    triggers = [(tr(event), tr(how)) for event, how in engine.REBALANCE_TRIGGERS]
    table(pd.DataFrame(triggers, columns=["event", "how the coordinator learns it"]))


def upgrade_section(member_ids: list[str]) -> None:
    skip = st.checkbox(_("Skip the first bounce (switch straight to [cooperative-sticky])"), key="protocol.skip_first",
                       persist_state="page")
    stages = engine.rolling_upgrade(member_ids[:10] or ["C0", "C1", "C2"],
                             first_bounce=() if skip else ("cooperative-sticky", "range"))
    table(engine.upgrade_rows(stages))
    if any(s.election.rejected for s in stages):
        st.error(tr(engine.CAPTIONS["protocol.upgrade.rejected"]))
    else:
        st.caption(tr(engine.CAPTIONS["protocol.upgrade"]))


state = current_scenario().first
member_ids = state.member_ids
group_id = coordinator_section()
members, election = vote_section(group_id, member_ids)
if election is not None:
    sync_section(group_id, members, election, state)
lazy_section(_("4 · Rolling upgrade from range to cooperative-sticky"), "protocol.upgrade_view", upgrade_section,
             member_ids)
lazy_section(_("5 · Rolling restart: static (group.instance.id) vs dynamic members"), "protocol.restart_view",
             restart_section, current_ref(), opened=RESTART_LINKED)
