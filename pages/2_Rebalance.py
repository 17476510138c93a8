"""Animate a rebalance: which partitions travel, how many are revoked, and how long consumers pause."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from engine import CAPTIONS, ProtocolTimings, Timeline, rebalance_row, step_labels
from engine.charts.rebalance import SPEEDS
from ui.assignments.cached import animations_figure, pause_figure, pause_of
from ui.assignments.pause_timings import timings_section
from ui.assignments.rebalance_events import event_form, event_timeline, step_choice, timeline_key
from ui.assignments.share_group import is_share, share_changes_section
from ui.assignments.streams_group import is_streams, streams_changes_section
from ui.frame.door import door
from ui.frame.layout import page_setup
from ui.frame.presenter import step_buttons
from ui.frame.release_note import client_model, release_caption
from ui.frame.sidebar import render_sidebar
from ui.frame.state import ScenarioRef, current_ref, current_scenario, share_widget
from ui.frame.tables import table
from ui.inputs.client_choice import assignors_of, client_choice, offer_note
from ui.scenario.cached import outcomes_or_error, prepare_comparison
from ui.text.i18n import _, tr

ANIMATE_ALL_LIMIT = 1_000

page_setup(_("Rebalance"), "🔄", _("What moves when the group changes: eager protocols stop the world, "
                                   "cooperative moves only what must move."))
render_sidebar()


def choose_timeline() -> tuple[Timeline, ScenarioRef]:
    scenario = current_scenario()
    sources = ["events", "scenario steps"] if len(scenario.steps) > 1 else ["events"]
    names = {"events": _("events"), "scenario steps": _("scenario steps")}  # the values stay English
    source = st.radio(_("Rebalances to show"), sources, index=len(sources) - 1, horizontal=True,
                      key="rebalance.source", format_func=lambda s: names.get(s, s),
                      help=_("The scenario's own steps (from a preset or a saved file), or a timeline of events "
                             "you build here."))
    if source == "scenario steps":
        return Timeline(scenario, step_labels(scenario), (), tuple(() for _ in scenario.steps)), current_ref()
    timeline, built, ref = event_timeline(scenario)
    event_form(built)
    for note in timeline.notes:
        st.info(tr(note))
    return timeline, ref


def numbers_section(ref: ScenarioRef, step: int, timings: ProtocolTimings, crashed: tuple[str, ...],
                    client: str) -> None:
    rows = []
    for a in assignors_of(client):
        result = outcomes_or_error(ref, a)
        if isinstance(result, str):
            st.error(f"{tr(a.label)}: {tr(result)}")
            continue
        if not result[step].converged:
            st.error(_("{assignor}: the group did not converge in this step (stopped after {rounds} rounds).")
                     .format(assignor=tr(a.title), rounds=result[step].rounds))
        rows.append(rebalance_row(a, result[step], pause_of(ref, a, step, timings, crashed)))
    numbers = pd.DataFrame(rows)
    numbers["rounds"] = ["–" if pd.isna(r) else f"{int(r)}" for r in numbers["rounds"]]  # not "None"
    st.subheader(_("What the engine counts"))
    table(numbers)
    st.caption(_("rounds: the classic protocol's JoinGroup/SyncGroup rounds; – where it does not apply "
                 "(KIP-848 has no rounds)."))
    st.caption(tr(CAPTIONS["rebalance.revoked"]))


def animations_section(ref: ScenarioRef, timeline: Timeline, step: int, client: str) -> None:
    chosen = {a.name: a for a in assignors_of(client) if a.group_protocol == "classic"}
    st.subheader(_("Partitions on the move"))
    st.caption(tr(CAPTIONS["rebalance.animation"]))
    big = max(s.total_partitions for s in timeline.scenario.steps[step - 1:step + 1]) > ANIMATE_ALL_LIMIT
    default = [n for n in ("sticky", "cooperative-sticky") if n in chosen] if big else list(chosen)
    titles = {name: tr(a.title) for name, a in chosen.items()}  # made now: AppTest formats outside the run
    left, right = st.columns([3, 1])
    shown = left.multiselect(_("Animate"), list(chosen), default=default, format_func=titles.__getitem__,
                             key="rebalance.animate" + ("" if client == "java" else f".{client}"),
                             help=_("Above {limit} partitions only the sticky pair is animated by default.")
                             .format(limit=f"{ANIMATE_ALL_LIMIT:,}"))
    speeds = {"slow": _("slow"), "normal": _("normal"), "fast": _("fast")}  # the values stay English
    speed = right.segmented_control(_("Speed"), list(SPEEDS), default="normal", key="rebalance.speed",
                                    format_func=lambda s: speeds.get(s, s)) or "normal"
    drawable = tuple(chosen[n] for n in shown if not isinstance(outcomes_or_error(ref, chosen[n]), str))
    if len(drawable) < len(shown):
        st.warning(_("Some strategies have nothing to animate: see the message above."))
    if drawable:  # one figure: one Play moves every strategy together
        st.plotly_chart(animations_figure(ref, drawable, step, SPEEDS[speed]), key="rebalance.anim", width="stretch")


def pause_section(ref: ScenarioRef, step: int, timings: ProtocolTimings, crashed: tuple[str, ...]) -> None:
    st.subheader(_("Eager vs cooperative vs KIP-848: who stops, and for how long"))
    st.plotly_chart(pause_figure(ref, step, timings, crashed), key="rebalance.pause", width="stretch")
    st.caption(tr(CAPTIONS["rebalance.pause"]))


timeline, ref = choose_timeline()
if len(timeline.scenario.steps) < 2:
    st.info(_("This timeline has no rebalance to show (for example a static member restarting within "
              "session.timeout.ms)."))
    st.stop()
step_key = timeline_key("rebalance.step", timeline)
share_widget("rebalance.step", step_key, int)  # a shared link's step seeds the selector...
step = step_choice(timeline)
step_buttons(step_key, range(1, len(timeline.scenario.steps)), "rebalance")  # presenter mode's arrow keys
share_widget("rebalance.step", step_key, int)  # ...and the chosen step is written back to the URL
if is_streams(timeline.scenario):  # a streams group: its tasks instead of the consumer-group assignors
    streams_changes_section(ref, step)
    st.stop()
timings, crashed = timings_section(timeline, step)
client = client_choice("rebalance")
door(prepare_comparison, ref, client)  # the cost model first (a share group's too): one line, or off this thread
if is_share(timeline.scenario):  # a share group: what its members gain and lose, then the consumer groups
    share_changes_section(ref, step)
offer_note(client)
numbers_section(ref, step, timings, crashed, client)
animations_section(ref, timeline, step, client)
pause_section(ref, step, timings, crashed)
release_caption(client_model(client), "server-assign")
