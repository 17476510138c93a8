"""Share groups (KIP-932) on the scenario pages: the ``simple`` assignor's answer beside the consumer-group
assignors (Assignments), what changes when a member leaves or joins (Rebalance), and the facts every view
repeats (several members per partition; a partition with none after a subscription change).

Pages call one function each; the numbers come from ``engine.coordinator.share_assignment`` through
``ui.cached``.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from engine.comparison import Assignor
from engine.coordinator.share_assignment import ShareAssignResult, share_changes
from engine.scenario import Scenario
from engine.side_by_side import readers_side_by_side
from ui.cached import (
    grid_figure,
    outcomes_or_error,
    scenario_of,
    share_change_figure,
    share_figures,
    share_result_of,
    share_view_of,
)
from ui.i18n import _, tr
from ui.state import ScenarioRef


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
                 "partitions. The coordinator's simple assignor gives each member one partition by the hash of "
                 "its member id, spreads the partitions nobody holds round-robin, and lets members keep what they "
                 "hold. A partition held only by members that stopped subscribing to its topic is not given to "
                 "anyone else: it is left with no member (Kafka's behaviour).") + " " +
               _("Kafka 4.2 made share groups production-ready; the assignment follows the group coordinator's "
                 "SimpleAssignor at apache/kafka 00ad45b (exact on 150/150 real-Kafka cases)."))


def share_section(ref: ScenarioRef, step: int) -> None:
    """The share group's assignment at ``step``: grid, members per partition, counts and the partition table."""
    st.subheader(_("As a share group (KIP-932): the simple assignor"))
    explain()
    if _result(ref) is None:
        return
    view = share_view_of(ref, step)
    grid, bars = share_figures(ref, step, _("simple (share group)"))
    c1, c2, c3 = st.columns(3)
    c1.metric(_("Partitions read by several members"), len(view.shared))
    c2.metric(_("Partitions with no member"), len(view.unread))
    c3.metric(_("Members with no partition"), len(view.idle_members))
    if view.unread:
        st.warning(_("{n} partition(s) have no member: they were held by members that no longer subscribe to "
                     "their topic, and the simple assignor gives out only partitions nobody holds. Kafka behaves "
                     "this way; the records wait until the next assignment change.").format(n=len(view.unread)))
    st.plotly_chart(grid, key="share.grid", width="stretch")
    st.plotly_chart(bars, key="share.bars", width="stretch")
    rows = [{"partition": str(tp), "members": len(ms), "member ids": ", ".join(ms)}
            for tp, ms in view.members_of.items()]
    st.dataframe(pd.DataFrame(rows, columns=["partition", "members", "member ids"]), hide_index=True,
                 width="stretch", key="share.table")


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
    st.caption(_("{changed} member(s) change, {kept} keep exactly what they had. A share group never revokes a "
                 "partition to give it to someone else: a joining member adds a reader (its hashed partition) and "
                 "the others keep theirs; a partition only the leaving member read is given out again.").format(
                     changed=len(changes), kept=kept))
    rows = [{"member": c.member, "change": _("joined") if c.joined else (_("left") if c.left else _("changed")),
             "gained": ", ".join(map(str, c.gained)), "lost": ", ".join(map(str, c.lost))} for c in changes]
    st.dataframe(pd.DataFrame(rows, columns=["member", "change", "gained", "lost"]), hide_index=True,
                 width="stretch", key="share.changes")
    st.plotly_chart(share_change_figure(ref, step), key="share.changes_anim", width="stretch")


def consumer_vs_share_section(ref: ScenarioRef, step: int, assignor: Assignor) -> None:
    """The same members and topics as a consumer group (``assignor``) and as a share group, side by side."""
    st.subheader(_("Consumer group or share group, on the same topics"))
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
    st.caption(_("A consumer group gives each partition to at most one consumer, so consumers beyond the partition "
                 "count sit idle and records of a key stay in order. A share group lets every member read: "
                 "records are locked one by one, so members beyond the partition count work too, but a key's "
                 "records may be processed out of order and are redelivered when a lock expires."))
    table = pd.DataFrame([{"partition": str(r.partition), "consumer group": r.consumer_group or "-",
                           "share group": ", ".join(r.share_group) or "-"} for r in rows],
                         columns=["partition", "consumer group", "share group"])
    st.dataframe(table, hide_index=True, width="stretch", key="compare.share.table")
