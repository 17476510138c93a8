"""Home: what the lab is, the scenario builder, and links to every page."""

from __future__ import annotations

import streamlit as st

from ui.frame.layout import page_links, page_setup
from ui.frame.presenter import presenting
from ui.frame.sidebar import render_sidebar
from ui.frame.state import init_state
from ui.scenario.builder import render_builder
from ui.text.i18n import _

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
