"""Number fields that never change a value silently.

Streamlit's ``st.number_input`` edits what is typed in the browser before Python sees it: ``2.5`` in an
integer field arrives as ``25``, ``-5`` as ``5``, a value below the minimum is dropped and one above the
maximum is clamped, all without a word.  These fields take the text as typed, pass it through the input
boundary (``engine.inputs.parse_whole_number`` / ``parse_decimal``) and, when they refuse it, say so next
to the field and keep the last accepted value::

    >>> whole_number("2.5", "partitions", 1, 100)
    Traceback (most recent call last):
    ...
    engine.errors.InputError: partitions: must be a whole number 1..100, got '2.5' (a decimal is not rounded)
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from engine.errors import InputError
from engine.inputs import parse_decimal, parse_whole_number
from ui.i18n import _, tr


def whole_number(text: str, what: str, low: int, high: int) -> int:
    """``text`` as a whole number in ``low..high``; anything else is one ``InputError`` line saying why."""
    token = text.strip()
    if token.lstrip("+-").replace(".", "", 1).isdigit() and not token.isdigit():
        why = " (a decimal is not rounded)" if "." in token else ""
        raise InputError(f"{what}: must be a whole number {low:,}..{high:,}, got {token[:40]!r}{why}")
    value = parse_whole_number(token, what)
    if not low <= value <= high:
        raise InputError(f"{what}: must be {low:,}..{high:,}, got {value:,} (not clamped)")
    return value


def decimal(text: str, what: str, low: float, high: float) -> float:
    """``text`` as a number in ``low..high`` (refused, not clamped, outside it)."""
    return parse_decimal(text.strip(), what, low, high)


def _field(container: Any, label: str, default: Any, key: str, help: str, parse) -> Any:
    ss = st.session_state
    accepted = f"{key}.accepted"
    text = container.text_input(label, str(default), key=key, help=help)
    try:
        value = parse(text)
    except InputError as exc:
        kept = ss.get(accepted, default)
        container.error(_("{error}. Still using {kept}.").format(error=tr(str(exc)), kept=f"{kept:,}"),
                        icon=":material/block:")
        return kept
    ss[accepted] = value
    return value


def whole_number_input(label: str, low: int, high: int, default: int, key: str, help: str = "",
                       container: Any = None) -> int:
    """A text field for a whole number in ``low..high``; a refused value is named under the field."""
    rule = _("A whole number {low}..{high}.").format(low=f"{low:,}", high=f"{high:,}")
    return int(_field(container or st, label, default, key, f"{help} {rule}".strip(),
                      lambda text: whole_number(text, label, low, high)))


def decimal_input(label: str, low: float, high: float, default: float, key: str, help: str = "",
                  container: Any = None) -> float:
    """A text field for a number in ``low..high``; a refused value is named under the field."""
    rule = _("A number {low}..{high}.").format(low=f"{low:g}", high=f"{high:g}")
    return float(_field(container or st, label, default, key, f"{help} {rule}".strip(),
                        lambda text: decimal(text, label, low, high)))
