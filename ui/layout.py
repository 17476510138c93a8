"""Page chrome every page shares: config, title, a one-line caption."""

from __future__ import annotations

import streamlit as st


def page_setup(title: str, icon: str, caption: str) -> None:
    """Set the page config and draw the title; call first on every page."""
    st.set_page_config(page_title=f"{title} · Kafka Partition Lab", page_icon=icon, layout="wide")
    st.title(title)  # the icon stays in the tab: headless browsers without an emoji font draw a box
    st.caption(caption)
