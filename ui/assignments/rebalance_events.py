"""The Rebalance page's timeline of events in ``st.session_state``: the events, their form's callbacks.

The events live under ``rebalance.events``; the form's widgets under ``rebalance.<field>`` for each field
an event kind reads (``engine.consumer.events.EVENT_FIELDS``).  An event is kept only if the timeline still
builds with it; otherwise its one-line reason is shown under the form.
"""

from __future__ import annotations

import zlib

import streamlit as st

from engine import (
    EVENT_FIELDS,
    EVENT_KINDS,
    EngineError,
    Scenario,
    ScenarioError,
    Timeline,
    append_event,
    build_timeline,
    default_events,
    free_member_id,
    make_event,
)
from ui.frame.state import ScenarioRef, current_ref, current_scenario
from ui.inputs.numbers import whole_number, whole_number_input
from ui.runtime.memo import cached_call
from ui.text.i18n import _, tr

EVENTS = "rebalance.events"
ERROR = "rebalance.event_error"
MAX_ADD_PARTITIONS = 10_000
FIELD_KEYS = {"member": "rebalance.member", "new_id": "rebalance.new_id", "topic": "rebalance.topic",
              "count": "rebalance.count", "topics": "rebalance.sub_topics"}


def timeline_key(prefix: str, timeline: Timeline) -> str:
    """A widget key that names the timeline it was drawn for (a digest of its step labels).

    A keyed selectbox keeps the label it showed in the browser when only its options' labels change (the
    key is its identity), so "step 1: C2 leaves" stayed on screen over the data of "C1 leaves": a widget
    whose labels come from the timeline takes its key from the same timeline.
    """
    return f"{prefix}.{zlib.crc32(chr(31).join(timeline.labels).encode('utf-8', 'surrogatepass')):08x}"


def step_text(label: str) -> str:
    """A step's label (``engine.step_labels``: "C1 leaves; t0: 2 -> 4 partitions") in the session's language,
    each part translated on its own (``tr`` and the catalogue's templates)."""
    return "; ".join(tr(part) for part in label.split("; "))


def step_choice(timeline: Timeline) -> int:
    """The rebalance (step 1..) to show, chosen by the labels of this very timeline."""
    steps = range(1, len(timeline.scenario.steps))
    # labels made now, not in format_func: AppTest calls format_func outside the run (no session language)
    labels = {i: _("step {n}: {label}").format(n=i, label=step_text(timeline.labels[i])) for i in steps}
    return int(st.selectbox(_("Rebalance"), steps, key=timeline_key("rebalance.step", timeline),
                            format_func=labels.__getitem__))


def events() -> list:
    return st.session_state.setdefault(EVENTS, [])


def add_event_callback() -> None:
    """on_click of "Add event": the event the form describes, appended if the timeline still builds."""
    ss = st.session_state
    fields = {name: ss.get(key) for name, key in FIELD_KEYS.items() if ss.get(key) is not None}
    try:
        if "count" in fields:  # typed text: refused, never reinterpreted (ui.inputs.numbers)
            fields["count"] = whole_number(str(fields["count"]), "partitions to add", 1, MAX_ADD_PARTITIONS)
        event = make_event(ss.get("rebalance.kind", ""), **fields)
        ss[EVENTS] = append_event(current_scenario(), events(), event)
        ss.pop(ERROR, None)
    except EngineError as exc:
        ss[ERROR] = str(exc)


def clear_events_callback() -> None:
    st.session_state[EVENTS] = []
    st.session_state.pop(ERROR, None)


def event_timeline(scenario: Scenario) -> tuple[Timeline, Timeline, ScenarioRef]:
    """(the timeline to show, the timeline of the chosen events alone, the shown one's ``ScenarioRef``);
    without events the default is shown.  Built once per scenario and events for the whole server (a room
    opening one link shares it): the ref's JSON and digest are not made again on every run.

    A timeline that no longer fits the scenario (it was edited meanwhile) stops the page with a way out.
    """
    chosen = tuple(events())

    def build() -> tuple[Timeline, Timeline, ScenarioRef]:
        built = build_timeline(scenario, chosen)
        shown = built if chosen else build_timeline(scenario, default_events(scenario))
        return shown, built, ScenarioRef.of(shown.scenario)

    try:
        return cached_call(("timeline", current_ref().key, chosen), build)
    except ScenarioError as exc:
        st.error(_("The event timeline no longer fits the scenario: {error}").format(error=tr(str(exc))))
        st.button(_("Clear the timeline"), key="rebalance.clear_broken", on_click=clear_events_callback)
        st.stop()


def event_form(timeline: Timeline) -> None:
    """Add an event (one or two rebalances) to the timeline built on this page."""
    last = timeline.scenario.steps[-1]
    with st.container(border=True):
        st.markdown(_("**Build a timeline of events** (each event is one or two rebalances)"))
        c1, c2, c3 = st.columns(3)
        kinds = {kind: tr(text) for kind, text in EVENT_KINDS.items()}  # the values stay the kinds
        fields = EVENT_FIELDS[c1.selectbox(_("event"), list(EVENT_KINDS), format_func=kinds.__getitem__,
                                           key="rebalance.kind")]
        if "member" in fields:
            c2.selectbox(_("consumer"), last.member_ids, key=FIELD_KEYS["member"])
        if "new_id" in fields:
            c2.text_input(_("new member id"), free_member_id(timeline.scenario), key=FIELD_KEYS["new_id"])
        if "topic" in fields:
            c2.selectbox(_("topic"), list(last.topics), key=FIELD_KEYS["topic"])
            whole_number_input(_("partitions to add"), 1, MAX_ADD_PARTITIONS, 2, FIELD_KEYS["count"], container=c3)
        if "topics" in fields:
            c3.multiselect(_("new subscription"), list(last.topics), key=FIELD_KEYS["topics"])
        b1, b2 = st.columns(2)
        b1.button(_("Add event to the timeline"), key="rebalance.add_event", on_click=add_event_callback)
        b2.button(_("Clear the timeline"), key="rebalance.clear", on_click=clear_events_callback)
        if st.session_state.get(ERROR):
            st.error(tr(st.session_state[ERROR]))
        if not events():
            st.caption(_("No events yet: showing the default, the last consumer leaves."))
