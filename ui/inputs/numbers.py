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

from collections.abc import Callable
from typing import Any

import streamlit as st

from engine.errors import InputError
from engine.inputs import parse_decimal, parse_whole_number
from ui.text.i18n import _, tr


def whole_number(text: str, what: str, low: int, high: int) -> int:
    """``text`` as a whole number in ``low..high`` (a leading ``-`` where ``low`` is negative); anything else is
    one ``InputError`` line saying why."""
    token = text.strip()
    negative = low < 0 and token.startswith("-")
    digits = token[1:] if negative else token
    if digits.lstrip("+-").replace(".", "", 1).isdigit() and not digits.isdigit():
        why = " (a decimal is not rounded)" if "." in token else ""
        raise InputError(f"{what}: must be a whole number {low:,}..{high:,}, got {token[:40]!r}{why}")
    value = -parse_whole_number(digits, what) if negative else parse_whole_number(digits, what)
    if not low <= value <= high:
        raise InputError(f"{what}: must be {low:,}..{high:,}, got {value:,} (not clamped)")
    return value


def decimal(text: str, what: str, low: float, high: float) -> float:
    """``text`` as a number in ``low..high`` (refused, not clamped, outside it)."""
    return parse_decimal(text.strip(), what, low, high)


def _start_text(key: str, default: Any) -> str | None:
    """The text a field starts from: ``default``'s, unless the session holds ``key`` already (``None``: the
    session's text stands); a number a page put there (a preset) is turned into its text."""
    ss = st.session_state
    if key not in ss:
        return "" if default is None else str(default)
    if ss[key] is not None and not isinstance(ss[key], str):
        ss[key] = str(ss[key])
    return None


def _refused(error: str, kept: Any) -> str:
    """The line under a refused field: why, and the value still in use (or that the field is still empty)."""
    if kept is None:
        return _("{error}. Still empty.").format(error=error)
    return _("{error}. Still using {kept}.").format(error=error, kept=f"{kept:,}")


def _whole_rule(low: int, high: int) -> str:
    return _("A whole number {low}..{high}.").format(low=f"{low:,}", high=f"{high:,}")


def _accepted(key: str) -> str:
    return f"{key}.accepted"


def kept_value(key: str, default: Any) -> Any:
    """The value the field ``key`` last accepted, for when a closed lazy tab or expander does not draw it (its
    text is kept by ``persist_state="page"``); ``default`` when the field has not been drawn on this visit."""
    ss = st.session_state
    return ss.get(_accepted(key), default) if key in ss else default


def _field(container: Any, label: str, default: Any, key: str, help: str, parse: Callable[[str], Any],
           disabled: bool = False) -> Any:
    ss = st.session_state
    accepted = _accepted(key)
    text = container.text_input(label, _start_text(key, default), key=key, help=help, disabled=disabled,
                                persist_state="page")  # kept while a closed lazy tab or expander hides it
    try:
        value = parse(text or "")
    except InputError as exc:
        kept = ss.get(accepted, default)
        container.error(_refused(tr(str(exc)), kept), icon=":material/block:")
        return kept
    ss[accepted] = value
    return value


def whole_number_input(label: str, low: int, high: int, default: int, key: str, help: str = "",
                       container: Any = None, disabled: bool = False) -> int:
    """A text field for a whole number in ``low..high``; a refused value is named under the field."""
    return int(_field(container or st, label, default, key, f"{help} {_whole_rule(low, high)}".strip(),
                      lambda text: whole_number(text, label, low, high), disabled))


def decimal_input(label: str, low: float, high: float, default: float, key: str, help: str = "",
                  container: Any = None) -> float:
    """A text field for a number in ``low..high``; a refused value is named under the field."""
    rule = _("A number {low}..{high}.").format(low=f"{low:g}", high=f"{high:g}")
    return float(_field(container or st, label, default, key, f"{help} {rule}".strip(),
                        lambda text: decimal(text, label, low, high)))


def optional_whole_number_input(label: str, low: int, high: int, key: str, help: str = "",
                                container: Any = None) -> int | None:
    """A text field for a whole number in ``low..high`` that may stay empty (``None``: no value yet)."""
    return _field(container or st, label, None, key, f"{help} {_whole_rule(low, high)}".strip(),
                  lambda text: whole_number(text, label, low, high) if text.strip() else None)
