"""Lazy sections: tabs and expanders whose content runs only while open, so a fresh visit draws the first view
alone (``st.tabs`` / ``st.expander`` with ``on_change="rerun"``: the browser gets a closed section's charts and
tables only once it is opened).

A shared link or a lesson step that names a field of a closed section opens it: ``linked`` reads the URL before
``ui.frame.layout.page_setup`` applies it to the widgets, ``lazy_section(..., opened=True)`` opens the expander.
A widget inside a section keeps its value while the section is closed (``persist_state="page"``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import streamlit as st

from ui.frame.state import KEY_URL_WIDGETS


def linked(names: Iterable[str]) -> bool:
    """True when the URL names a value for one of the fields ``names`` that this session has not applied yet (a
    shared link or a lesson step opening the page on their section); call it before ``page_setup``."""
    seen = st.session_state.get(KEY_URL_WIDGETS, {})
    return any((text := st.query_params.get(name)) is not None and text != seen.get(name) for name in names)


def lazy_section(label: str, key: str, draw: Callable[..., object], *args: Any, opened: bool = False) -> None:
    """``draw(*args)`` inside an expander, closed by default, run only while it is open; ``opened`` opens it."""
    if opened:
        st.session_state[key] = True
    expander = st.expander(label, key=key, on_change="rerun")
    if expander.open:
        with expander:
            draw(*args)


def lazy_tabs(views: Mapping[str, Callable[[], object]], key: str, opened: str | None = None) -> None:
    """One tab per view (label -> what it draws), the first open by default (``opened``: that one, on a session's
    first visit, as a link naming its fields asks); only the open tab runs."""
    if opened is not None and key not in st.session_state:
        st.session_state[key] = opened
    for tab, draw in zip(st.tabs(list(views), key=key, on_change="rerun"), views.values(), strict=True):
        if tab.open:
            with tab:
                draw()
