"""The Replicas page's replication section: one partition's ISR, its high watermark, acks against
``min.insync.replicas`` and the leader elected when brokers die, clean or unclean (``engine.server.replication``).

Its fields are in the share link (``replicas.isr.*``, ``FIELDS``), so a lesson step opens the page on its own
partition: the page draws the section in a lazy expander that such a link opens, and the fields keep their values
while it is closed (``persist_state="page"``)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from engine.server.replication import (
    ACKS,
    MAX_REPLICAS,
    ReplicaState,
    fail_broker,
    high_watermark,
    lost_records,
    produce_error,
)
from ui.inputs.numbers import whole_number_input
from ui.text.i18n import _

K = "replicas.isr."
FIELDS = tuple(K + name for name in ("leo", "isr", "min_insync", "fail", "unclean"))
DEFAULT_LEO = "10, 4, 8"


def _log_end_offsets(text: str) -> tuple[int, ...] | None:
    """One LEO per replica, brokers 0, 1, 2, …; None when the text is not 1..MAX_REPLICAS whole numbers."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not 1 <= len(parts) <= MAX_REPLICAS or not all(p.isascii() and p.isdigit() and len(p) < 16 for p in parts):
        return None
    return tuple(int(p) for p in parts)


def _keep_options(key: str, options: list[str]) -> None:
    """A choice from a link that names no replica of this partition is dropped (the field keeps the rest)."""
    if isinstance(st.session_state.get(key), list):
        st.session_state[key] = [b for b in dict.fromkeys(st.session_state[key]) if b in options]


def _rows(state: ReplicaState) -> pd.DataFrame:
    return pd.DataFrame([{_("broker"): b, _("alive"): "✗" if b in state.dead else "✓", "LEO": state.leo[b],
                          _("in the ISR"): "✓" if b in state.isr else "✗",
                          _("leader"): "✓" if b == state.leader else ""} for b in state.replicas])


def replication_section() -> None:
    """One partition's replicas before and after brokers die: the ISR, the high watermark, acks, the leader."""
    c1, c2, c3 = st.columns(3)
    st.session_state.setdefault(K + "leo", DEFAULT_LEO)  # a link's value, else the lesson's partition
    text = c1.text_input(_("Log end offset (LEO) of brokers 0, 1, 2, …"), key=K + "leo", max_chars=500,
                         persist_state="page")
    leo = _log_end_offsets(text)
    if leo is None:
        st.error(_("The LEOs: 1..{most} whole numbers separated by commas.").format(most=MAX_REPLICAS))
        return
    brokers = [str(b) for b in range(len(leo))]
    st.session_state.setdefault(K + "isr", ["0", "2"])
    _keep_options(K + "isr", brokers)
    _keep_options(K + "fail", brokers)
    isr = c2.multiselect(_("In-sync replicas (ISR); the first in broker order leads"), brokers, key=K + "isr",
                         persist_state="page")
    min_insync = whole_number_input("min.insync.replicas", 1, MAX_REPLICAS, 2, K + "min_insync", container=c3)
    c4, c5 = st.columns(2)
    fail = c4.multiselect(_("Brokers that die, in this order"), brokers, key=K + "fail", persist_state="page")
    unclean = c5.radio("unclean.leader.election.enable", ["false", "true"], key=K + "unclean", horizontal=True,
                       persist_state="page")
    if not isr:
        st.error(_("The ISR holds at least the leader."))
        return
    in_sync = tuple(sorted(int(b) for b in isr))
    before = ReplicaState(tuple(range(len(leo))), in_sync, in_sync[0], dict(enumerate(leo)))
    hw = high_watermark(before, min_insync)
    after = before
    for broker in fail:
        after = fail_broker(after, int(broker), unclean == "true")
    errors = {acks: produce_error(after, acks, min_insync) for acks in ACKS}
    left, right = st.columns(2)
    left.caption(_("Before"))
    left.table(_rows(before), hide_index=True)
    right.caption(_("After the brokers die") if fail else _("No broker dies"))
    right.table(_rows(after), hide_index=True)
    m = st.columns(4)
    m[0].metric(_("high watermark before the brokers die"), hw)
    m[1].metric(_("leader"), _("none (offline)") if after.leader is None else after.leader)
    m[2].metric(_("writes accepted of acks=0, 1, all"), sum(1 for e in errors.values() if e == "NONE"))
    m[3].metric(_("readable records lost"), lost_records(after, hw))
    st.caption(" · ".join(f"acks={'all' if acks == -1 else acks}: {error}" for acks, error in errors.items()))
    st.caption(_("Partition#appendRecordsToLeader refuses acks=all while the ISR is smaller than "
                 "min.insync.replicas, and the high watermark (the smallest LEO in the ISR) stops moving; "
                 "PartitionChangeBuilder#electLeader takes the first live ISR replica in broker order, else, with "
                 "unclean.leader.election.enable, the first live replica: records above its LEO are lost. Eligible "
                 "leader replicas (KIP-966) are not modelled."))
