"""The Group Protocol page's rolling restart: static (group.instance.id) against dynamic members, replayed."""

from __future__ import annotations

import pandas as pd
import streamlit as st

import engine
from engine.charts import restart_comparison, restart_timeline
from engine.consumer.membership import MAX_TIME_MS
from ui.assignments.cached import rolling_restarts
from ui.frame.state import ScenarioRef
from ui.frame.tables import table
from ui.inputs.numbers import whole_number_input
from ui.text.i18n import _, tr


def restart_section(ref: ScenarioRef) -> None:
    """Restart time, session timeout and gap; each chosen strategy's rolling restart, static and dynamic."""
    times = ((_("restart time per member (s)"), MAX_TIME_MS // 1000, 30, "restart_s"), ("session.timeout.ms",
             MAX_TIME_MS, 45_000, "restart_session"), (_("gap between restarts (s)"), MAX_TIME_MS // 1000, 10, "gap_s"))
    restart_s, session_ms, gap_s = (whole_number_input(label, 0, high, default, f"protocol.{key}", container=col)
                                    for col, (label, high, default, key) in zip(st.columns(3), times, strict=True))
    strategies = st.multiselect(_("strategies"), engine.STRATEGY_NAMES, default=["range", "cooperative-sticky"],
                                key="protocol.strategies", persist_state="page")
    if not strategies:
        return
    try:  # the engine refuses more than MAX_RESTART_MEMBERS members
        config = engine.RollingRestartConfig(restart_s * 1000, session_ms, gap_s * 1000)
        rows, timelines = rolling_restarts(ref, config, tuple(strategies))
    except engine.LimitError as exc:  # too big to replay here: said, not an error of the user's
        st.warning(_("{error}. Sections 1-4 above still cover this group.").format(error=tr(str(exc))))
        return
    except engine.EngineError as exc:
        st.error(tr(str(exc)))
        return
    frame = pd.DataFrame(engine.restart_comparison_rows(rows))
    table(frame)
    bars = restart_comparison(rows)
    bars.for_each_trace(lambda t: t.update(text=[tr(x) for x in t.text or ()]))  # "2 rebalances, 3 moved"
    st.plotly_chart(bars, key="protocol.restart_bars")
    st.plotly_chart(restart_timeline(timelines), key="protocol.restart_timeline")
    st.download_button(_("Download the comparison (CSV)"), frame.to_csv(index=False), "rolling_restart.csv",
                       "text/csv", key="protocol.restart_download")
    st.caption(tr(engine.CAPTIONS["protocol.restart"]))
