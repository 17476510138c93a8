"""English and Simplified Chinese for every user-visible string: gettext catalogues maintained with Babel.

Strings are written in English in the code, wrapped in ``_()`` (counts as ``{n} consumer(s)`` with ``.format``); Babel extracts them
into ``locales/messages.pot`` and ``locales/zh/LC_MESSAGES/messages.po`` carries the Chinese (``make messages``
refreshes both; ``tests/test_i18n.py`` fails when a wrapped string has no Chinese).  The ``.po`` file is read at
run time (no compiled ``.mo`` to keep in step).  Kafka's own terms (``partition.assignment.strategy``, class names,
config keys) stay as they are inside translated text.

The language comes from ``?lang=zh`` / ``?lang=en`` in the URL (kept there, so share links and page switches keep
it) or the sidebar switch; English is the default::

    >>> translate("Rebalance step", "zh") == catalog("zh").get("Rebalance step", "Rebalance step")
    True
    >>> translate("Rebalance step", "en")
    'Rebalance step'
"""

from __future__ import annotations

import functools
from pathlib import Path

LOCALES = Path(__file__).resolve().parent.parent / "locales"
DOMAIN = "messages"
LANGUAGES: dict[str, str] = {"en": "English", "zh": "简体中文"}
DEFAULT_LANGUAGE = "en"
QUERY_KEY = "lang"
STATE_KEY = "i18n.lang"

MISSING: set[tuple[str, str]] = set()  # (language, msgid) asked for but not translated; read by the tests


@functools.cache
def catalog(language: str) -> dict[str, str]:
    """msgid -> translation of one language (fuzzy and empty entries left out)."""
    if language == DEFAULT_LANGUAGE:
        return {}
    from babel.messages.pofile import read_po

    path = LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.is_file():
        return {}
    with path.open("rb") as f:
        po = read_po(f, locale=language)
    return {m.id: m.string for m in po if m.id and isinstance(m.id, str) and isinstance(m.string, str)
            and m.string and not m.fuzzy}


def translate(message: str, language: str) -> str:
    """``message`` in ``language``; the English text itself when there is no translation (and it is recorded)."""
    if language == DEFAULT_LANGUAGE:
        return message
    translated = catalog(language).get(message)
    if translated is None:
        MISSING.add((language, message))
        return message
    return translated


def normalise(language: object) -> str:
    """A supported language code from user input (``zh-CN`` -> ``zh``); anything else is the default."""
    code = str(language or "").strip().lower().split("-")[0].split("_")[0]
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


def current_language() -> str:
    """The session's language: the sidebar switch, else ``?lang=``, else English; kept in the URL."""
    import streamlit as st

    if STATE_KEY not in st.session_state:
        st.session_state[STATE_KEY] = normalise(st.query_params.get(QUERY_KEY))
    language = normalise(st.session_state[STATE_KEY])
    if language != DEFAULT_LANGUAGE and st.query_params.get(QUERY_KEY) != language:
        st.query_params[QUERY_KEY] = language
    elif language == DEFAULT_LANGUAGE and QUERY_KEY in st.query_params:
        del st.query_params[QUERY_KEY]
    return language


def _(message: str) -> str:
    """Translate a literal for the current session (the name Babel extracts)."""
    return translate(message, current_language())

