"""The Keys page's first tab: where each chosen partitioner puts the sample's keys, how skewed that is, and the
hottest keys.

The histogram is drawn for what a person can see: up to ``MAX_BARS`` bars it is ``engine.charts``' grouped bars;
beyond that (10,000 partitions x three partitioners would be 30,000 SVG bars) each partition is one WebGL point
(``go.Scattergl``) with the same counts.  The skew and hottest-key tables are a few rows: static tables
(``ui.frame.tables.table``).

>>> import numpy as np
>>> [t.type for t in histogram_figure({"java": np.array([3, 1])}).data]
['bar']
>>> [t.type for t in histogram_figure({"java": np.ones(MAX_BARS + 1, dtype=int)}).data]
['scattergl']
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pyarrow as pa
import streamlit as st

from engine import PARTITIONERS, hottest_rows, keysample, skew_rows
from engine.charts import partition_histogram
from ui.frame.door import door
from ui.frame.tables import table
from ui.inputs.client_choice import DEFAULT_PARTITIONER
from ui.keys.cached import placements
from ui.text.i18n import _, tr

MAX_BARS = 1_000  # bars drawn as SVG; more: one WebGL point per partition and partitioner


def histogram_figure(counts: Mapping[str, np.ndarray]) -> go.Figure:
    """Records per partition for each partitioner: bars, or WebGL points above ``MAX_BARS`` bars."""
    fig = partition_histogram(counts)
    if sum(len(values) for values in counts.values()) <= MAX_BARS:
        return fig
    points = [go.Scattergl(x=bar.x, y=bar.y, name=bar.name, mode="markers", marker_size=4) for bar in fig.data]
    return go.Figure(points, fig.layout)


def chosen_partitioners(client: str) -> list[str]:
    """The partitioners to compare (the client's default first), kept while another tab is open."""
    default = list(dict.fromkeys([DEFAULT_PARTITIONER[client], "java", "consistent_random"]))
    labels = {name: tr(label) for name, label in PARTITIONERS.items()}  # translated now, looked up later
    return st.multiselect(_("Partitioners"), list(PARTITIONERS), default=default, format_func=labels.__getitem__,
                          key="keys.partitioners" + ("" if client == "java" else f".{client}"),
                          persist_state="page")


def histogram_section(keys: pa.Array, sample_id: str, partitions: int, client: str) -> None:
    """The histogram, its skew table, the hottest keys and the per-partition counts' download."""
    chosen = chosen_partitioners(client)
    if not chosen:
        st.error(_("Partitioners: choose at least one."))
        return
    placed = {name: door(placements, keys, sample_id, partitions, name) for name in chosen}  # the cost model first
    counts = {name: keysample.partition_histogram(p, partitions) for name, p in placed.items()}
    st.plotly_chart(histogram_figure(counts), key="keys.histogram_chart")
    if partitions * len(counts) > MAX_BARS:
        st.caption(_("{bars} bars would be too many to read: each partition is a point (hover it for its "
                     "count).").format(bars=f"{partitions * len(counts):,}"))
    table(skew_rows(placed, counts), key="keys.skew_table")
    st.caption(_("Records the hash does not place (null keys; empty keys under consistent_random) go to the "
                 "sticky partitioner (see *Null keys over time*) and are left out of the histogram."))
    st.markdown(_("**Hottest keys**"))
    table(hottest_rows(keys, partitions), key="keys.hot_table")
    frame = pd.DataFrame({"partition": range(partitions), **counts})
    st.download_button(_("Download per-partition counts (CSV)"), frame.to_csv(index=False),
                       "partition_counts.csv", "text/csv", key="keys.download_counts")
