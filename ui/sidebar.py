"""The sidebar every scenario page shows: load a preset, and what the current scenario is."""

from __future__ import annotations

import streamlit as st

from engine.errors import ScenarioError
from engine.presets import PRESETS, blank_scenario, build_preset
from ui.state import current_preset, current_scenario, init_state, preset_title, set_scenario, url_error

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
    with st.sidebar:
        st.selectbox(
            "Load a preset scenario",
            [PRESET_PLACEHOLDER, *PRESETS],
            format_func=lambda k: "choose a preset..." if not k else PRESETS[k].title,
            key=PRESET_KEY,
            on_change=load_preset_callback,
            help="The seed articles' four examples and realistic groups. Edit it on the home page.",
        )
        first = scenario.first
        title = preset_title(current_preset()) if current_preset() else (scenario.name or "custom scenario")
        st.caption("Current scenario")
        st.text(
            f"{title}\n"
            f"{len(first.topics)} topic(s), {first.total_partitions} partition(s)\n"
            f"{len(first.members)} consumer(s), {len(scenario.steps)} step(s)"
        )
        st.button("New blank scenario", key="sidebar.blank", on_click=new_blank_callback,
                  icon=":material/note_add:",
                  help="Start from one topic (t0, 3 partitions) and one consumer (C0), with no rebalance steps; "
                       "build the group on the home page.")
        if url_error():
            st.error(f"The shared link could not be loaded: {url_error()}")
        if st.session_state.get("sidebar.error"):
            st.error(st.session_state["sidebar.error"])
        from ui.presenter import render_toggle

        render_toggle()
