"""Home: what the lab is, the scenario builder, and links to every page."""

from __future__ import annotations

import streamlit as st

from ui.builder import render_builder
from ui.i18n import _
from ui.layout import page_links, page_setup
from ui.presenter import presenting
from ui.sidebar import render_sidebar
from ui.state import init_state

page_setup(
    _("Kafka Partition Lab"),
    ":material/science:",
    _("Apache Kafka's partitioning behaviour, computed exactly as real Kafka computes it and drawn so you can "
      "see it."),
)
init_state()
st.markdown(_(
    "Build a consumer group below (topics, partitions, consumers and what they subscribe to), or load a "
    "preset from the sidebar. Every page uses this scenario: compare the four client assignors side by "
    "side, watch a rebalance move partitions, and more. The answers are checked against vectors produced by "
    "Kafka's own Java code."
))

st.subheader(_("Pages"))
page_links(home=False)

if not presenting():  # presenter mode shows the pages, not the builder
    st.header(_("Scenario builder"))
    render_builder()
render_sidebar()
