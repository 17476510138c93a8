"""Share groups (KIP-932) on the scenario pages: the ``simple`` assignor's answer beside the consumer-group
assignors (Assignments), what changes when a member leaves or joins (Rebalance), and the facts every view
repeats (D = ceil(members / partitions) members per partition, balance before stickiness).

Pages call one function each; the numbers come from ``engine.coordinator.share_assignment`` through
``ui.scenario.cached`` and ``ui.assignments.cached``.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from engine.comparison import Assignor
from engine.coordinator.group_spec import HOMOGENEOUS
from engine.coordinator.share_assignment import ShareAssignResult, SharePartitionView, share_changes
from engine.coordinator.simple import desired_sharing
from engine.scenario import Scenario
from engine.side_by_side import readers_side_by_side
from ui.assignments.cached import grid_figure, share_change_figure, share_figures, share_view_of
from ui.frame.release_note import release_caption
from ui.frame.state import ScenarioRef
from ui.scenario.cached import outcomes_or_error, scenario_of, share_result_of
from ui.text.i18n import _, tr


def is_share(scenario: Scenario) -> bool:
    return scenario.group_type == "share"


def _result(ref: ScenarioRef) -> ShareAssignResult | None:
    result = share_result_of(ref)
    if isinstance(result, str):
        st.error(_("As a share group: {error}").format(error=tr(result)))
        return None
    return result


def explain() -> None:
    st.caption(_("A share group (KIP-932) lets several consumers read one partition: each record is locked to "
                 "one consumer while it processes it and acknowledged one by one, so members may outnumber "
                 "partitions. The group coordinator's simple assignor puts balance first: every partition should "
                 "have D = ceil(members / partitions) members (1 when there are at least as many partitions as "
                 "members), and every member its even share of the D × partitions memberships. A member holding "
                 "more than its share gives partitions back, a partition with more than D members loses some, and "
                 "the partitions below D are filled from the members below their share that do not read them yet "
                 "(a partition stays short of D when no such member is left), so every partition of a subscribed "
                 "topic has a member. A member keeps what it holds only as far as that balance allows. "
                 "When members subscribe to different topics, each topic is balanced among its own subscribers."))


def sharing_line(ref: ScenarioRef, step: int) -> str:
    """The desired sharing of ``step`` in numbers when every member subscribes to the same topics, else how the
    topics are balanced ("" for a group with no member)."""
    state, result = scenario_of(ref).steps[step], share_result_of(ref)
    if isinstance(result, str) or not state.members:
        return ""
    if result.steps[step].subscription_type != HOMOGENEOUS:
        return _("Members subscribe to different topics here: each topic is balanced among its own subscribers.")
    members = len(state.members)
    partitions = sum(state.topics.get(t, 0) for t in set(state.members[0].topics))
    if not partitions:
        return _("The members subscribe to no existing topic here: nobody has a partition.")
    return _("Here {members} members share {partitions} partitions: D = ceil({members} / {partitions}) = {sharing} "
             "members per partition.").format(members=members, partitions=partitions,
                                               sharing=desired_sharing(members, partitions))


def _sentences(*texts: str) -> str:
    return " ".join(t for t in texts if t)


def _readers_range(view: SharePartitionView) -> str:
    counts = [len(ms) for ms in view.members_of.values()] or [0]
    low, high = min(counts), max(counts)
    return f"{low}" if low == high else f"{low}–{high}"


def share_section(ref: ScenarioRef, step: int) -> None:
    """The share group's assignment at ``step``: grid, members per partition, counts and the partition table."""
    st.subheader(_("As a share group (KIP-932): the simple assignor"))
    explain()
    if _result(ref) is None:
        return
    view = share_view_of(ref, step)
    grid, bars = share_figures(ref, step, _("simple (share group)"))
    if line := sharing_line(ref, step):
        st.caption(line)
    c1, c2, c3 = st.columns(3)
    c1.metric(_("Partitions read by several members"), len(view.shared))
    c2.metric(_("Members per partition"), _readers_range(view))
    c3.metric(_("Members with no partition"), len(view.idle_members))
    st.plotly_chart(grid, key="share.grid", width="stretch")
    st.plotly_chart(bars, key="share.bars", width="stretch")
    rows = [{"partition": str(tp), "members": len(ms), "member ids": ", ".join(ms)}
            for tp, ms in view.members_of.items()]
    st.dataframe(pd.DataFrame(rows, columns=["partition", "members", "member ids"]), hide_index=True,
                 width="stretch", key="share.table")
    release_caption("share-assign")


def _changes_text(changed: int, kept: int) -> str:
    return _("{changed} member(s) change, {kept} keep exactly what they had. The simple assignor balances first: "
             "a member holding more than its even share gives partitions back, and a partition with more than "
             "D = ceil(members / partitions) members loses some; then the partitions below D are filled from the "
             "members below their share that do not read them yet. So when a member leaves, its partitions that "
             "fall below D go to such members (or stay short when there is none); when one joins, members above "
             "their new share give partitions back for it: balance wins over stickiness.").format(
        changed=changed, kept=kept)


def share_changes_section(ref: ScenarioRef, step: int) -> None:
    """What the share group's members gain and lose at ``step`` (against ``step - 1``)."""
    st.subheader(_("As a share group (KIP-932): what changes"))
    result = _result(ref)
    if result is None or step == 0:
        st.caption(_("Step 0 is the group's first assignment; choose a later step to see what changes."))
        return
    changes = share_changes(result.steps[step - 1].assignment, result.steps[step].assignment)
    state = scenario_of(ref).steps[step]
    kept = len([m for m in state.member_ids if m not in {c.member for c in changes}])
    st.caption(_sentences(_changes_text(len(changes), kept), sharing_line(ref, step)))
    rows = [{"member": c.member, "change": _("joined") if c.joined else (_("left") if c.left else _("changed")),
             "gained": ", ".join(map(str, c.gained)), "lost": ", ".join(map(str, c.lost))} for c in changes]
    st.dataframe(pd.DataFrame(rows, columns=["member", "change", "gained", "lost"]), hide_index=True,
                 width="stretch", key="share.changes")
    st.plotly_chart(share_change_figure(ref, step), key="share.changes_anim", width="stretch")
    release_caption("share-assign")


def _consumer_or_share() -> str:
    return _("A consumer group gives each partition to at most one consumer, so consumers beyond the partition "
             "count sit idle and records of a key stay in order. A share group lets every member read: its simple "
             "assignor puts D = ceil(members / partitions) members on each partition and locks records one by one, "
             "so members beyond the partition count work too, but a key's records may be processed out of order "
             "and are redelivered when a lock expires.")


def consumer_vs_share_section(ref: ScenarioRef, step: int, assignor: Assignor) -> None:
    """The same members and topics as a consumer group (``assignor``) and as a share group, side by side."""
    result, outcome = _result(ref), outcomes_or_error(ref, assignor)
    if result is None or isinstance(outcome, str):
        return
    consumer, share = outcome[step].assignment, result.steps[step].assignment
    rows = readers_side_by_side(consumer, share)
    state = scenario_of(ref).steps[step]
    left, right = st.columns(2)
    left.metric(_("Consumer group ({assignor}): idle consumers").format(assignor=tr(assignor.title)),
                len([m for m in state.member_ids if not consumer.get(m)]))
    right.metric(_("Share group (simple): most members on one partition"),
                 max((len(r.share_group) for r in rows), default=0))
    left.plotly_chart(grid_figure(ref, assignor, step, assignor.title), key="compare.share.consumer_grid",
                      width="stretch")
    right.plotly_chart(share_figures(ref, step, _("simple (share group)"))[0], key="compare.share.share_grid",
                       width="stretch")
    st.caption(_sentences(_consumer_or_share(), sharing_line(ref, step)))
    table = pd.DataFrame([{"partition": str(r.partition), "consumer group": r.consumer_group or "-",
                           "share group": ", ".join(r.share_group) or "-"} for r in rows],
                         columns=["partition", "consumer group", "share group"])
    st.dataframe(table, hide_index=True, width="stretch", key="compare.share.table")
