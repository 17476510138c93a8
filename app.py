"""Home: what the lab is, the scenario builder, and links to every page."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from ui.builder import render_builder
from ui.layout import page_setup
from ui.sidebar import render_sidebar
from ui.state import init_state

PAGES = Path(__file__).resolve().parent / "pages"

page_setup(
    "Kafka Partition Lab",
    "🧪",
    "Apache Kafka's partitioning behaviour, computed exactly as real Kafka computes it and drawn so you can "
    "see it.",
)
init_state()
st.markdown(
    "Build a consumer group below (topics, partitions, consumers and what they subscribe to), or load a "
    "preset from the sidebar. Every page uses this scenario: compare the four client assignors side by "
    "side, watch a rebalance move partitions, and more. The answers are checked against vectors produced by "
    "Kafka's own Java code."
)

st.subheader("Pages")
for path in sorted(PAGES.glob("*.py"), key=lambda p: int(p.stem.split("_", 1)[0])):
    label = path.stem.split("_", 1)[-1].replace("_", " ")
    st.page_link(f"pages/{path.name}", label=label)

st.header("Scenario builder")
render_builder()
render_sidebar()
