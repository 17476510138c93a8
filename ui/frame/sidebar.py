"""The sidebar every scenario page shows: load a preset, and what the current scenario is."""

from __future__ import annotations

import streamlit as st

from engine.errors import ScenarioError
from engine.presets import PRESETS, blank_scenario, build_preset
from ui.frame.state import current_preset, current_scenario, init_state, preset_title, set_scenario, url_error
from ui.text.i18n import _, tr

PRESET_KEY = "sidebar.preset"
PRESET_PLACEHOLDER = ""


def load_preset_callback() -> None:
    """on_change of the preset selectbox: load the preset, then show the placeholder again."""
    key = st.session_state.get(PRESET_KEY, PRESET_PLACEHOLDER)
    if key and key in PRESETS:
        try:
            set_scenario(build_preset(key), key)
        except ScenarioError as exc:  # presets are tested; this is defence in depth
            st.session_state["sidebar.error"] = str(exc)
    st.session_state[PRESET_KEY] = PRESET_PLACEHOLDER


def new_blank_callback() -> None:
    """on_click of "New blank scenario": one topic, one consumer, no later steps, no preset."""
    set_scenario(blank_scenario())


def render_sidebar() -> None:
    init_state()
    scenario = current_scenario()
    labels = {PRESET_PLACEHOLDER: _("choose a preset..."), **{k: tr(p.title) for k, p in PRESETS.items()}}
    with st.sidebar:
        st.selectbox(
            _("Load a preset scenario"),
            [PRESET_PLACEHOLDER, *PRESETS],
            format_func=labels.__getitem__,  # translated now: AppTest formats values outside the script run
            key=PRESET_KEY,
            on_change=load_preset_callback,
            help=_("The seed articles' four examples and realistic groups. Edit it on the home page."),
        )
        first = scenario.first
        title = preset_title(current_preset()) if current_preset() else (scenario.name or "custom scenario")
        st.caption(_("Current scenario"))
        st.text(_("{title}\n{topics} topic(s), {partitions} partition(s)\n{consumers} consumer(s), {steps} step(s)")
                .format(title=tr(title), topics=len(first.topics), partitions=first.total_partitions,
                        consumers=len(first.members), steps=len(scenario.steps)))
        st.button(_("New blank scenario"), key="sidebar.blank", on_click=new_blank_callback,
                  icon=":material/note_add:",
                  help=_("Start from one topic (t0, 3 partitions) and one consumer (C0), with no rebalance steps; "
                         "build the group on the home page."))
        if url_error():
            st.error(_("The shared link could not be loaded: {error}").format(error=tr(url_error() or "")))
        if st.session_state.get("sidebar.error"):
            st.error(tr(st.session_state["sidebar.error"]))
        from ui.frame.presenter import render_toggle

        render_toggle()
