"""Tables drawn the cheap way when they are small: ``st.table`` (static HTML) instead of ``st.dataframe``.

``st.dataframe`` draws an interactive canvas grid whose code a fresh browser loads and runs before the page is
still: measured in Chromium on the 2-core machine, three small grids add about 0.8 s to a page's time to idle,
three static tables about 0.3 s (``python -m bench browser``).  A table of a few dozen rows needs no scrolling,
search or sorting, so ``table`` draws it static and keeps the grid for large ones.

The numbers stay as the grid shows them: ``grid_text`` writes a float column the way the grid does (at most
four decimals, trailing zeros dropped), whole numbers and texts unchanged.

>>> import pandas as pd
>>> grid_text(pd.DataFrame({"ratio": [1.0, 1 / 3, 2.5, None], "n": [1, 2, 3, 4]})).to_dict("list")
{'ratio': ['1', '0.3333', '2.5', None], 'n': [1, 2, 3, 4]}
>>> is_static(pd.DataFrame({"n": range(STATIC_ROWS)})), is_static(pd.DataFrame({"n": range(STATIC_ROWS + 1)}))
(True, False)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from ui.frame.lazy import lazy_section

STATIC_ROWS = 40  # rows drawn as a static table; more: the interactive grid (scrolling, search, sort)
STATIC_CELLS = 2_000  # and at most this many cells


def is_static(frame: pd.DataFrame) -> bool:
    """True when ``frame`` is small enough to draw as a static table."""
    return len(frame) <= STATIC_ROWS and frame.size <= STATIC_CELLS


def _grid_number(value: Any) -> Any:
    """One float as the grid writes it: at most four decimals, trailing zeros dropped; a missing one None."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def grid_text(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its float columns written as ``st.dataframe`` shows them (see the module)."""
    out = frame.copy()
    for name in out.columns:
        if pd.api.types.is_float_dtype(out[name].dtype):
            out[name] = pd.Series([_grid_number(v) for v in out[name]], index=out.index, dtype=object)
    return out


def table(data: pd.DataFrame | Sequence[Mapping[str, Any]], *, key: str | None = None,
          large: str | None = None) -> None:
    """``data`` (a frame, or rows as mappings) without its index: static when small (``is_static``), else
    the interactive grid, as wide as the page; with ``large`` (a label), a grid waits behind a lazy expander
    of that label (``<key>.view``) until it is opened."""
    frame = data if isinstance(data, pd.DataFrame) else pd.DataFrame(list(data))
    if is_static(frame):
        st.table(grid_text(frame), hide_index=True)
    elif large is not None:
        lazy_section(large, f"{key or large}.view", _grid, frame, key)
    else:
        _grid(frame, key)


def _grid(frame: pd.DataFrame, key: str | None) -> None:
    """The interactive grid, as wide as the page."""
    st.dataframe(frame, hide_index=True, width="stretch", key=key)
