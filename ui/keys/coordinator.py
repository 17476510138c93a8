"""The Keys page's "Group coordinator" tab: which ``__consumer_offsets`` partition coordinates each group.

A few ids are a static table; a long pasted list (up to 100,000 ids) the searchable grid
(``ui.frame.tables.table``)."""

from __future__ import annotations

import streamlit as st

from engine import EngineError, find_coordinators
from engine.common.config_def import INT_MAX
from ui.frame.tables import table
from ui.inputs.numbers import whole_number_input
from ui.text.i18n import _, tr


def coordinator_section() -> None:
    """Group ids and ``offsets.topic.num.partitions`` in, each group's coordinator partition out."""
    st.markdown(_("A consumer group's coordinator is the leader of partition "
                  "`Utils.abs(groupId.hashCode()) % offsets.topic.num.partitions` of `__consumer_offsets` "
                  "(Java `String.hashCode` over UTF-16; `Utils.abs(Integer.MIN_VALUE)` is 0)."))
    c1, c2 = st.columns([3, 1])
    text = c1.text_area(_("Group ids, one per line"), "my-group\nconsole-consumer-12345\npolygenelubricants",
                        key="keys.group_ids", max_chars=2_000_000, persist_state="page",
                        help=_("At most 100,000 ids, 2,000,000 characters"))
    n = whole_number_input("offsets.topic.num.partitions", 1, INT_MAX, 50, "keys.offsets_partitions", container=c2,
                           help=_("Kafka declares it an INT of at least 1."))
    try:
        found = find_coordinators([line.rstrip("\r") for line in text.split("\n") if line.strip()], n)
    except EngineError as exc:
        st.error(tr(str(exc)))
        return
    table([{"group_id": c.group_id, "String.hashCode()": c.java_hashcode, "__consumer_offsets partition": c.partition}
           for c in found], key="keys.coordinator_table")
