"""Plotly renders a subset of HTML in labels (``<b>``, ``<a href>``...): user text is escaped first."""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Any


def plain(text: str) -> str:
    """``plain("<b>C0</b>") == "&lt;b&gt;C0&lt;/b&gt;"``: Plotly shows the characters, never the markup."""
    return html.escape(str(text), quote=False)


def plain_all(texts: Iterable[str]) -> list[str]:
    return [plain(t) for t in texts]


MIN_TICK_PX = 12  # readable at projector distance


def readable(fig: Any) -> Any:
    """Every axis's tick labels at least ``MIN_TICK_PX`` px (a larger size set by the figure is kept)."""
    for axis in [*fig.select_xaxes(), *fig.select_yaxes()]:
        if axis.tickfont.size is None or axis.tickfont.size < MIN_TICK_PX:
            axis.tickfont.size = MIN_TICK_PX
    return fig
