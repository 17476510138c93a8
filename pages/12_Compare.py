"""Any two choices side by side on the current group: two assignors (Java or librdkafka client strategies,
KIP-848 server assignors), each optionally at its own partition count, and the partitions whose owner differs."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from engine import MAX_PARTITIONS_PER_TOPIC, Assignor, EngineError, step_labels
from engine.comparison import CLIENT, SERVER
from engine.consumer.librdkafka import STRATEGIES as LIBRDKAFKA
from engine.side_by_side import Choice, owner_differences
from ui.assignments.cached import grid_figure, metrics_of, side_ref
from ui.assignments.share_group import consumer_vs_share_section
from ui.assignments.streams_group import group_types_section
from ui.frame.layout import page_setup
from ui.frame.lazy import lazy_section
from ui.frame.release_note import release_caption
from ui.frame.sidebar import render_sidebar
from ui.frame.state import current_ref, current_scenario
from ui.frame.tables import table as differences_table
from ui.inputs.numbers import whole_number_input
from ui.scenario.cached import outcomes_or_error
from ui.text.i18n import _, tr

page_setup(_("Compare"), ":material/compare_arrows:",
           _("Two choices side by side on the current group: two strategies, Java vs librdkafka, or two "
             "partition counts, and every partition whose owner differs."))
render_sidebar()

CHOICES: dict[str, Assignor] = {
    **{f"java:{n}": a for n, a in CLIENT.items()},
    **{f"librdkafka:{n}": Assignor("classic", n, "librdkafka") for n in LIBRDKAFKA},
    **{f"server:{n}": a for n, a in SERVER.items()},
}
DEFAULTS = {"left": "java:range", "right": "java:cooperative-sticky"}


def choose_step() -> int:
    labels = step_labels(current_scenario())
    if len(labels) == 1:
        return 0
    return int(st.selectbox(_("Rebalance step"), range(len(labels)), key="compare.step",
                            format_func=lambda i: _("step {n}: {label}").format(n=i, label=tr(labels[i]))))


def choose(side: str, column: st.delta_generator.DeltaGenerator) -> Choice:
    key = column.selectbox(_("Assignor"), list(CHOICES), index=list(CHOICES).index(DEFAULTS[side]),
                           key=f"compare.{side}", format_func=lambda k: tr(CHOICES[k].title))
    partitions = whole_number_input(_("Partitions per topic (0: the scenario's own)"), 0, MAX_PARTITIONS_PER_TOPIC, 0,
                                    f"compare.{side}_partitions", container=column)
    return Choice(CHOICES[key], partitions)


def draw(side: str, column: st.delta_generator.DeltaGenerator, choice: Choice, step: int) -> list | None:
    try:
        ref = side_ref(current_ref(), choice.partitions)
    except EngineError as exc:
        column.error(tr(str(exc)))
        return None
    outcome = outcomes_or_error(ref, choice.assignor)
    if isinstance(outcome, str):
        column.error(tr(outcome))
        return None
    metrics = metrics_of(ref, choice.assignor, step)
    a, b, c = column.columns(3)
    a.metric(_("Partitions per consumer"), f"{metrics.min_partitions:,}..{metrics.max_partitions:,}")
    b.metric(_("Moved at this step"), f"{outcome[step].moved:,}")  # 19,872, not 19872
    c.metric(_("Idle consumers"), f"{len(metrics.idle_members):,}")
    column.plotly_chart(grid_figure(ref, choice.assignor, step, choice.assignor.title), key=f"compare.grid.{side}",
                        width="stretch")
    return outcome


step = choose_step()
left_col, right_col = st.columns(2)
sides = {side: choose(side, col) for side, col in (("left", left_col), ("right", right_col))}
outcomes = {side: draw(side, col, sides[side], step) for side, col in (("left", left_col), ("right", right_col))}
if outcomes["left"] is not None and outcomes["right"] is not None:
    rows = owner_differences(outcomes["left"][step].assignment, outcomes["right"][step].assignment)
    st.subheader(_("Partitions whose owner differs: {n}").format(n=len(rows)))
    table = pd.DataFrame([{"partition": str(d.partition), "left": d.left or "-", "right": d.right or "-"}
                          for d in rows], columns=["partition", "left", "right"])
    st.caption(_("left: {left}; right: {right}. '-': the partition does not exist on that side.").format(
        left=tr(sides["left"].assignor.title), right=tr(sides["right"].assignor.title)))
    differences_table(table, key="compare.table", large=_("Every partition whose owner differs (table)"))
    st.download_button(_("Differences (CSV)"), table.to_csv(index=False), "differences.csv", "text/csv",
                       key="compare.download")
lazy_section(_("Consumer group or share group, on the same topics"), "compare.share_view",  # the left choice
             consumer_vs_share_section, current_ref(), step, sides["left"].assignor)  # against a share group
lazy_section(_("Consumer group, share group or streams group, on the same topics"), "compare.streams_view",
             group_types_section, current_ref(), step, sides["left"].assignor)  # ...and a streams group
release_caption("assign", "server-assign", "share-assign", "streams-assign")
