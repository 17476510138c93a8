"""Text areas for pastes, bounded in the browser and checked before anything parses them.

Streamlit sends a whole paste to Python, and a parser reading a 10 MB one holds the tab for half a minute.
``paste_area`` sets ``max_chars`` (the browser itself stops the paste there) and
says the limit in the help text; ``checked_paste`` refuses an over-long text at once, before parsing (for
a text that reached Python another way), and names a paste the browser cut at the limit::

    >>> checked_paste("x" * 11, 10, "scenario JSON")
    Traceback (most recent call last):
    ...
    engine.errors.LimitError: scenario JSON: at most 10 characters, got 11; load a file instead
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from engine.errors import LimitError
from ui.text.i18n import _


def checked_paste(text: str, max_chars: int, what: str) -> str:
    """``text`` if shorter than ``max_chars``; else one ``LimitError`` line (a text exactly at the limit was
    cut there by the browser)."""
    if len(text) > max_chars:
        raise LimitError(f"{what}: at most {max_chars:,} characters, got {len(text):,}; load a file instead")
    if len(text) == max_chars:
        raise LimitError(f"{what}: the paste reached the {max_chars:,}-character limit and was cut there; "
                         "load a file instead")
    return text


def paste_area(label: str, key: str, max_chars: int, help: str = "", container: Any = None, **kw: Any) -> str:
    """A text area limited to ``max_chars`` in the browser, with the limit in its help text."""
    limit = _("At most {n} characters (the browser stops a longer paste).").format(n=f"{max_chars:,}")
    return str((container or st).text_area(label, key=key, max_chars=max_chars, help=f"{help} {limit}".strip(),
                                           **kw))
