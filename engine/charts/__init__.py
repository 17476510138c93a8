"""Plotly figure builders: pure functions, data in, ``go.Figure`` out (no Streamlit).

The figures pages draw, importable from here (loaded on first use, like ``engine``'s API)::

    from engine.charts import remap_chart, wheel_rings
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS: dict[str, str] = {  # module -> the figures (and helpers) it exports here
    "engine.charts.assignment": "assignment_grid load_bars",
    "engine.charts.rebalance": "rebalance_animations Panel pause_timeline_figure",
    "engine.charts.keys": "partition_histogram remap_chart producer_timeline",
    "engine.charts.protocol": "sequence_figure restart_comparison restart_timeline",
    "engine.charts.replicas": "replica_matrix leader_counts_figure",
    "engine.charts.sizing": "formula_comparison cost_grid",
    "engine.charts.share_delivery": "delivery_animation",
    "engine.charts.timing_wheel": "wheel_rings wheel_animation animation_window cost_panels",
}
_PUBLIC = {name: module for module, names in _EXPORTS.items() for name in names.split()}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> Any:
    if name not in _PUBLIC:
        raise AttributeError(f"module 'engine.charts' has no attribute {name!r}")
    return getattr(importlib.import_module(_PUBLIC[name]), name)
