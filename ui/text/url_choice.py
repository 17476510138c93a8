"""A session-wide choice that lives in the URL too (the language ``?lang=``, the client ``?client=``).

The first run of a session takes it from the URL (through ``normalise``); afterwards the session's value
wins and is written back, and the default is left out of the URL so plain links stay plain.
"""

from __future__ import annotations

from collections.abc import Callable


def url_backed(state_key: str, query_key: str, default: str, normalise: Callable[[object], str]) -> str:
    """The session's value of the choice, seeded from ``?query_key=`` and kept in the URL."""
    import streamlit as st

    if state_key not in st.session_state:
        st.session_state[state_key] = normalise(st.query_params.get(query_key))
    value = normalise(st.session_state[state_key])
    if value != default and st.query_params.get(query_key) != value:
        st.query_params[query_key] = value
    elif value == default and query_key in st.query_params:
        del st.query_params[query_key]
    return value
