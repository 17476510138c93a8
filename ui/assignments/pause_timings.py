"""The Rebalance page's protocol timings for the pause model (``engine.ProtocolTimings``) and the members of a
step that crashed instead of leaving, read from the widgets under ``rebalance.<field>``."""

from __future__ import annotations

import zlib
from typing import Any

import streamlit as st

from engine import MAX_TIMING_MS, ProtocolTimings, Timeline
from ui.inputs.numbers import whole_number_input
from ui.text.i18n import _


def _ms(column: Any, label: str, default: int, key: str, help: str = "") -> int:
    """A timing input of 0..MAX_TIMING_MS ms."""
    return whole_number_input(label, 0, MAX_TIMING_MS, default, f"rebalance.{key}", container=column, help=help)


def timings_section(timeline: Timeline, step: int) -> tuple[ProtocolTimings, tuple[str, ...]]:
    """The timings and the crashed members of ``step``, in a collapsed expander."""
    steps = timeline.scenario.steps
    with st.expander(_("Protocol timings (for the pause model)"), expanded=False):
        t1, t2, t3, t4 = st.columns(4)
        session = _ms(t1, "session.timeout.ms", 45_000, "session_timeout_ms")
        rejoin = _ms(t2, _("time to rejoin (ms)"), 3_000, "rejoin_ms")
        sync = _ms(t3, _("SyncGroup (ms)"), 500, "sync_ms")
        batch = _ms(t4, _("finish in-flight batch (ms)"), 1_000, "processing_ms")
        heartbeat = _ms(t1, "heartbeat.interval.ms (KIP-848)", 5_000, "heartbeat_interval_ms",
                        help=_("New consumer protocol only: the broker's group.consumer.heartbeat.interval.ms "
                               "(default 5000). A member learns a change on its next heartbeat: half an "
                               "interval expected (the table's partition-seconds), a full one at most (the "
                               "bound). 0..{max} ms.").format(max=f"{MAX_TIMING_MS:,}"))
        gone = [m for m in steps[step - 1].member_ids if m not in steps[step].member_ids]
        label = timeline.labels[step].encode("utf-8", "surrogatepass")  # a member id may hold a lone surrogate
        crashed = st.multiselect(_("members that crashed (no LeaveGroup: detected after session.timeout.ms)"),
                                 gone, default=[m for m in timeline.crashed[step] if m in gone],
                                 key=f"rebalance.crashed.{step}.{zlib.crc32(label):08x}")
    return ProtocolTimings(session, rejoin, sync, batch, heartbeat), tuple(crashed)
