"""The Sizing page's per-partition throughput fields: typed, or filled from a pasted perf-test run."""

from __future__ import annotations

from typing import Literal

import streamlit as st

from engine import EngineError, sizing
from ui.inputs.numbers import decimal_input
from ui.text.i18n import _, tr


def use_paste(tool: Literal["producer", "consumer"]) -> None:
    """on_change of a perf-test paste: its throughput goes INTO the field above (one value, visible)."""
    ss = st.session_state
    ss.pop(f"sizing.{tool}_paste_error", None)
    paste = ss.get(f"sizing.{tool}_perf", "")
    if not paste.strip():
        return
    try:
        parsed = sizing.measured_throughput(paste, tool)
    except EngineError as exc:
        ss[f"sizing.{tool}_paste_error"] = str(exc)
        return
    ss[f"sizing.{tool}_mb_s"] = f"{parsed.mb_per_sec:g}"
    ss[f"sizing.{tool}_pasted"] = parsed


def measured(label: str, tool: Literal["producer", "consumer"], default: float) -> float:
    """A per-partition throughput: the field is the one source of truth; a pasted perf-test run fills it.
    ``label`` is the field's whole label, already translated."""
    value = decimal_input(label, 0.0, sizing.MAX_THROUGHPUT, default,
                          f"sizing.{tool}_mb_s", help=_("Measure on a topic with ONE partition. Must be > 0."))
    st.text_area(_("…or paste kafka-{tool}-perf-test.sh output").format(tool=tool), "", height=80,
                 key=f"sizing.{tool}_perf", max_chars=sizing.MAX_PERF_TEXT, on_change=use_paste, args=(tool,),
                 persist_state="page",  # kept while another tab is open
                 help=_("The summary line(s), at most {chars} characters; the throughput it reports replaces the "
                        "field above.").format(chars=f"{sizing.MAX_PERF_TEXT:,}"))
    pasted = st.session_state.get(f"sizing.{tool}_pasted")
    if st.session_state.get(f"sizing.{tool}_paste_error"):
        st.error(_("{error} (the field above is unchanged)").format(
            error=tr(st.session_state[f"sizing.{tool}_paste_error"])))
    elif pasted is not None and pasted.mb_per_sec == value:
        st.success(_("Parsed {mb_s} MB/s ({records_s} records/s): now in the field above.").format(
            mb_s=f"{pasted.mb_per_sec:g}", records_s=f"{pasted.records_per_sec:,.0f}"))
    elif pasted is not None:
        st.caption(_("The field was edited after the paste ({mb_s} MB/s): the field is used.").format(
            mb_s=f"{pasted.mb_per_sec:g}"))
    return value
