"""Share Delivery: records inside one share partition of a share group (KIP-932), as Kafka's broker delivers
them: acquisition under a lock, acknowledgements, a crash, redelivery and archiving at the delivery limit."""

from __future__ import annotations

import streamlit as st

from ui.frame.door import door
from ui.frame.layout import page_setup
from ui.frame.lazy import lazy_tabs
from ui.frame.release_note import release_caption
from ui.share.cached import share_delivery_figure, share_timeline
from ui.share.delivery import downloads, releases_note, summary_metrics, workload_inputs
from ui.text.i18n import _

page_setup(_("Share Delivery"), "📬", _("Several consumers of a share group read one share partition: each "
                                          "record is acquired under a time-limited lock, acknowledged one by "
                                          "one, redelivered when a lock runs out and archived at the delivery "
                                          "limit, computed as Kafka's SharePartition does it."))


def timeline_section(workload) -> None:
    st.plotly_chart(share_delivery_figure(workload), width="stretch", key="share.timeline")
    st.caption(_("Each square is a record; its number is how many times it has been delivered. Press Play or "
                 "drag the slider: a consumer's colour marks the records it holds under its lock."))


workload = workload_inputs()  # the keys, offsets and broker settings in a lazy expander, closed at first
timeline = door(share_timeline, workload)  # a refusal is one line and the page stops
summary_metrics(timeline.summary, workload.failure)
lazy_tabs({_("Timeline"): lambda: timeline_section(workload),  # only the open tab runs and is drawn
           _("Events and downloads"): lambda: downloads(timeline.run, timeline.summary),
           _("Kafka release"): releases_note}, "deliver.view")
release_caption("share-deliver")
