"""Plotly renders a subset of HTML in labels (``<b>``, ``<a href>``...): user text is escaped first."""

from __future__ import annotations

import html
from collections.abc import Iterable


def plain(text: str) -> str:
    """``plain("<b>C0</b>") == "&lt;b&gt;C0&lt;/b&gt;"``: Plotly shows the characters, never the markup."""
    return html.escape(str(text), quote=False)


def plain_all(texts: Iterable[str]) -> list[str]:
    return [plain(t) for t in texts]
