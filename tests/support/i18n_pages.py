"""Running a page in a language under AppTest and listing the English prose it still shows (the i18n page tests
in tests/pages/ and tests/spark/ share these)."""

from __future__ import annotations

import json
import re
from typing import Any

from streamlit.testing.v1 import AppTest

from engine.presets import PRESETS, build_preset
from engine.scenario import dumps_scenario
from helpers import REPO
from support.rendered_text import rendered_texts
from ui.text import i18n


def _names(node: Any) -> set[str]:
    if isinstance(node, dict):
        return set().union(*(_names(v) for v in node.values())) if node else set()
    if isinstance(node, list):
        return set().union(*(_names(v) for v in node)) if node else set()
    return {node} if isinstance(node, str) else set()


SCENARIO_NAMES = frozenset(word for key in PRESETS for name in _names(json.loads(dumps_scenario(build_preset(key))))
                           for word in name.replace("-", " ").split())


def run_page(path: str, language: str) -> AppTest:
    at = AppTest.from_file(str(REPO / path), default_timeout=180)
    at.session_state[i18n.STATE_KEY] = language
    at.run()
    assert not at.exception, at.exception
    return at


def typed(at: AppTest) -> frozenset[str]:
    """The words of what is typed into the page's text boxes: shown back in tables, they are data."""
    values = [str(w.value or "") for w in [*at.text_area, *at.text_input]]
    return frozenset(word for value in values for word in re.findall(r"\w+", value))


def english_left(at: AppTest) -> list[str]:
    keep = SCENARIO_NAMES | typed(at)
    return sorted({t for t in rendered_texts(at) if i18n.untranslated(t, keep)})


_LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[._/:#'-][A-Za-z0-9]+)*")
_CJK_SPLIT = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef\x00]+")
SENTENCE_WORDS = 3  # prose words in a row, between two Chinese characters, that read as an English sentence


def english_sentences(text: str) -> list[str]:
    """The English phrases left inside a translated text: runs of ``SENTENCE_WORDS`` or more prose words (see
    ``i18n.untranslated``) with no Chinese between them, outside code, identifiers and Kafka's own names.
    ``english_left`` sees only texts with no Chinese at all; this sees an English sentence inside a Chinese one::

        >>> english_sentences("分区 1 的 LSO（last stable offset）是多少？"), english_sentences("Jun Rao 2015 年")
        (['last stable offset'], [])
    """
    found = []
    for segment in _CJK_SPLIT.split(i18n._CODE.sub("\x00", text)):
        words = [w for w in _LATIN_RUN.findall(segment) if i18n._prose(w)]
        if len(words) >= SENTENCE_WORDS:
            found.append(segment.strip())
    return found


def sentences_left(at: AppTest) -> list[str]:
    """Every English phrase inside the page's Chinese texts (``english_sentences``)."""
    return sorted({s for t in rendered_texts(at) if i18n._CJK.search(t) for s in english_sentences(t)})
