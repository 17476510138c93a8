"""The Assignments page's strategy views: one lazy tab per assignor, aggregated for big groups.

Only the open tab runs (``st.tabs(..., on_change="rerun")``), so a rerun draws the charts of one strategy,
not twelve.  A small group (``engine.charts.assignment.is_aggregated`` false) also gets a first tab with the
four client assignors side by side; their titles are inside the figures, so the columns stay aligned.  A big
group gets partitions per consumer and topic, the histogram of partitions per consumer, a drill-down to one
topic or one consumer and a searchable table per consumer; the exact numbers are in that table and the
downloads.
"""

from __future__ import annotations

import io
import json

import pandas as pd
import streamlit as st

from engine import WHY, Assignment, Assignor, assignment_to_json, callouts_for, records
from engine.articles import CONSUMER_CORRECTIONS, article_name, rows
from engine.charts.assignment import GRID_PARTITION_LIMIT, is_aggregated, sorted_topics
from engine.consumer.member_ids import MAX_LABEL
from ui.assignments.cached import bars_figure, grid_figure, member_table, metrics_of, topic_figure
from ui.assignments.handout import assignment_handout_button
from ui.frame.lazy import lazy_section
from ui.frame.state import ScenarioRef, current_preset
from ui.frame.tables import table
from ui.scenario.cached import outcomes_or_error, scenario_of
from ui.text.i18n import _, tr


def step_label(label: str) -> str:
    """A step's description from ``engine.step_labels`` ("C1 leaves; t0: 2 -> 4 partitions"), each part
    translated on its own (``tr``)."""
    parts = label.split("; ")
    return "; ".join(tr(p) for p in parts) if len(parts) > 1 else tr(label)


def _key(assignor: Assignor) -> str:
    return assignor.name if assignor.group_protocol == "classic" else f"server.{assignor.name}"


def _problem(assignor: Assignor, outcome: list | str, step: int) -> bool:
    """Show the assignor's refusal or non-convergence; True when there is nothing to draw."""
    if isinstance(outcome, str):
        st.error(f"{tr(assignor.label)}: {tr(outcome)}")
        return True
    if not outcome[step].converged:
        st.error(_("{assignor} did not converge: the group kept rebalancing ({rounds} rounds).").format(
            assignor=tr(assignor.title), rounds=outcome[step].rounds))
    return False


def _notes(ref: ScenarioRef, step: int, assignor: Assignor) -> None:
    idle = metrics_of(ref, assignor, step).idle_members
    if idle:
        st.caption(_("{n} idle consumer(s)").format(n=len(idle)))
    if assignor.group_protocol == "classic":
        with st.expander(_("Why it lands here")):
            st.write(tr(WHY[assignor.name]))


def _callouts(step: int, assignor: Assignor, named: bool = False) -> None:
    """Where the seed article disagrees with Kafka, drawn right above the grid it explains."""
    for c in callouts_for(current_preset(), assignor.name):
        if c.step == step:
            values = dict(article=article_name(c.article), verdict=tr(c.verdict), says=tr(c.says), kafka=c.kafka,
                          why=tr(c.why))
            if named:
                text = _("**{assignor}**: {article} ({verdict}) says: {says}\n\nKafka does: {kafka}\n\n{why}").format(
                    assignor=tr(assignor.title), **values)
            else:
                text = _("{article} ({verdict}) says: {says}\n\nKafka does: {kafka}\n\n{why}").format(**values)
            st.warning(text, icon=":material/menu_book:")


def side_by_side(ref: ScenarioRef, step: int, results: dict[Assignor, list | str]) -> None:
    classic = [a for a in results if a.group_protocol == "classic"]  # the chosen client's strategies
    for a in classic:  # above the row of grids, so the columns stay aligned
        _callouts(step, a, named=True)
    for col, a in zip(st.columns(len(classic)), classic, strict=True):
        with col:
            if not _problem(a, results[a], step):
                short = short_names()
                st.plotly_chart(grid_figure(ref, a, step, a.title, short), key=f"assign.grid.{_key(a)}",
                                width="stretch")
                st.plotly_chart(bars_figure(ref, a, step, short), key=f"assign.bars.{_key(a)}", width="stretch")
                _notes(ref, step, a)  # its metrics need an assignment (librdkafka may crash instead)


def drill_down(ref: ScenarioRef, step: int, assignor: Assignor) -> None:
    state = scenario_of(ref).steps[step]
    topics = sorted_topics(state.topics)
    left, right = st.columns(2)
    topic = left.selectbox(_("Drill into a topic"), topics, index=None, key=f"assign.topic.{_key(assignor)}",
                           placeholder=_("choose a topic"))
    member = right.selectbox(_("Drill into a consumer"), state.member_ids, index=None,
                             key=f"assign.member.{_key(assignor)}", placeholder=_("choose a consumer"))
    if topic is not None:
        st.plotly_chart(topic_figure(ref, assignor, step, topic), key=f"assign.topic_fig.{_key(assignor)}",
                        width="stretch")
    chosen = f"assign.member_shown.{_key(assignor)}"  # a newly chosen consumer opens the table (it can be closed)
    opened, st.session_state[chosen] = member is not None and st.session_state.get(chosen) != member, member
    lazy_section(_("Every consumer's partitions (table)"), f"assign.table_view.{_key(assignor)}", member_section,
                 ref, step, assignor, member, opened=opened)


def member_section(ref: ScenarioRef, step: int, assignor: Assignor, member: str | None) -> None:
    """The table of every consumer's partitions (one consumer's when one is chosen), searchable."""
    rows = member_table(ref, assignor, step)
    if member is not None:
        rows = rows[rows["consumer"] == member]
    st.dataframe(rows, hide_index=True, width="stretch", key=f"assign.table.{_key(assignor)}")
    st.caption(_("Search the table with its toolbar; every partition is in the CSV/JSON downloads below."))


def strategy_view(ref: ScenarioRef, step: int, assignor: Assignor, outcome: list | str) -> None:
    if _problem(assignor, outcome, step):
        return
    state = scenario_of(ref).steps[step]
    if is_aggregated(state.topics, state.member_ids):
        st.info(_("{partitions} partitions x {consumers} consumers: a consumer x partition grid is unreadable "
                  "above {limit} partitions, so this view shows partitions per consumer and topic. Drill into a "
                  "topic or a consumer below.").format(partitions=f"{state.total_partitions:,}",
                                                       consumers=f"{len(state.member_ids):,}",
                                                       limit=GRID_PARTITION_LIMIT))
    _callouts(step, assignor)
    short = short_names()
    st.plotly_chart(grid_figure(ref, assignor, step, assignor.title, short), key=f"assign.grid.{_key(assignor)}",
                    width="stretch")
    st.plotly_chart(bars_figure(ref, assignor, step, short), key=f"assign.bars.{_key(assignor)}", width="stretch")
    if is_aggregated(state.topics, state.member_ids):
        drill_down(ref, step, assignor)
    _notes(ref, step, assignor)


LABELS_KEY = "assign.labels"


def short_names() -> bool:
    """The label option's choice: short labels (client.id) on the charts' consumer axes."""
    return st.session_state.get(LABELS_KEY, "short") == "short"


def label_choice(member_ids: list[str]) -> None:
    """Offered when a member id is too long for a chart axis (real ids are ``client.id-UUID``, 60 characters):
    short labels on the axes, the full id on hover and in the tables."""
    if max((len(m) for m in member_ids), default=0) <= MAX_LABEL:
        return
    names = {"short": _("client.id (short)"), "full": _("full member id")}
    st.radio(_("Consumer labels on the charts"), list(names), format_func=names.__getitem__, horizontal=True,
             key=LABELS_KEY, help=_("Hover a row or a bar for the full member id; the tables and downloads keep "
                                    "the full ids."))


def strategy_tabs(ref: ScenarioRef, step: int, results: dict[Assignor, list | str]) -> None:
    """One tab per assignor (plus side by side for small groups); only the open tab runs."""
    state = scenario_of(ref).steps[step]
    label_choice(state.member_ids)
    small = not is_aggregated(state.topics, state.member_ids)
    labels = ([_("Side by side (client assignors)")] if small else []) + [tr(a.title) for a in results]
    tabs = st.tabs(labels, key="assign.view", on_change="rerun")
    if small and tabs[0].open:
        with tabs[0]:
            side_by_side(ref, step, results)
    for tab, (assignor, outcome) in zip(tabs[1:] if small else tabs, results.items(), strict=True):
        if tab.open:
            with tab:
                strategy_view(ref, step, assignor, outcome)


def article_corrections(key: str) -> None:
    """Where the reference articles' consumer-group claims no longer hold (a typo, out of date since a named
    release, or wrong), each article named by its title."""
    lazy_section(_("Where the reference articles are out of date"), f"{key}_view",
                 lambda: table(rows(CONSUMER_CORRECTIONS), key=key))


def downloads_section(ref: ScenarioRef, step: int, assignors: tuple[Assignor, ...]) -> None:
    """CSV, JSON and the offline handout of the step's assignments, built on click from the server's cache.

    The buttons' callables are this module's: a closure made in a page script would keep that run's globals
    (every result the page drew) alive as long as Streamlit keeps the session, two minutes after it closes."""
    st.subheader(_("Downloads"))

    def done() -> dict[Assignor, Assignment]:
        return {a: r[step].assignment for a in assignors if not isinstance(r := outcomes_or_error(ref, a), str)}

    def as_csv() -> str:  # built on click (a 100,000-partition group: 600,000 rows), not on every rerun
        rows = [row for a, assignment in done().items() for row in records(assignment, strategy=a.label)]
        csv = io.StringIO()
        pd.DataFrame(rows, columns=["strategy", "member", "topic", "partition"]).to_csv(csv, index=False)
        return csv.getvalue()

    def as_json() -> str:
        return json.dumps({a.label: assignment_to_json(x) for a, x in done().items()}, ensure_ascii=False, indent=2)

    c1, c2 = st.columns(2)
    c1.download_button(_("Assignments (CSV)"), as_csv, "assignments.csv", "text/csv", key="assign.download_csv")
    c2.download_button(_("Assignments (JSON)"), as_json, "assignments.json", "application/json",
                       key="assign.download_json")
    assignment_handout_button(ref, step, assignors)
