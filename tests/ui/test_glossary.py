"""One Chinese rendering per term. ``locales/GLOSSARY.md`` is the source: a forbidden rendering in any
translation of ``messages.po`` or ``runtime.po`` fails, and each gloss appears exactly once."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from babel.messages.pofile import read_po

from helpers import REPO

GLOSSARY = REPO / "locales" / "GLOSSARY.md"
CATALOGUES = sorted((REPO / "locales" / "zh" / "LC_MESSAGES").glob("*.po"))
CODE = re.compile(r"`[^`]*`|%?\{[^}]*\}|<[^>]+>|https?://\S+")  # code and placeholders are not checked


@dataclass(frozen=True)
class Term:
    english: str
    forbidden: tuple[str, ...]
    scope: re.Pattern[str] | None  # None: every entry


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _tables() -> list[list[list[str]]]:
    tables: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines() + [""]:
        if line.startswith("|"):
            current.append(_cells(line))
        elif current:
            tables.append([row for row in current[2:]])  # header and rule dropped
            current = []
    return tables


def terms() -> list[Term]:
    found = []
    for english, _zh, forbidden, scope in _tables()[0]:
        words = tuple(w.strip() for w in re.sub(r"\(.*?\)", "", forbidden).split(",") if w.strip())
        pattern = scope.strip("`")
        found.append(Term(english, words, None if pattern == "*" else re.compile(pattern, re.IGNORECASE)))
    return found


def glosses() -> list[str]:
    return [row[0] for row in _tables()[1]]


def entries() -> list[tuple[str, str, str]]:
    """(catalogue, msgid, translation without code) of every translated entry."""
    found = []
    for path in CATALOGUES:
        with path.open("rb") as f:
            for m in read_po(f, locale="zh"):
                if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string:
                    found.append((path.name, m.id, CODE.sub(" ", m.string)))
    return found


def offences(term: Term, catalogue: list[tuple[str, str, str]], gloss: list[str]) -> list[str]:
    bad = []
    for name, msgid, text in catalogue:
        if term.scope is not None and not term.scope.search(msgid):
            continue
        for g in gloss:
            text = text.replace(g, " ")
        for word in term.forbidden:
            if re.search(rf"(?<![\w.\-'/]){re.escape(word)}(?![\w.\-,])" if word.isascii() else re.escape(word), text):
                bad.append(f"{name}: {word!r} in {msgid[:70]!r}")
    return bad


def test_the_glossary_parses() -> None:
    names = {t.english.split(" (")[0] for t in terms()}
    assert {"consumer group", "assignor", "broker", "lag", "compaction", "seed article / seed example"} <= names
    assert all(t.forbidden for t in terms())
    assert "再均衡（rebalance，亦称重平衡）" in glosses()


@pytest.mark.parametrize("term", terms(), ids=lambda t: t.english)
def test_no_translation_uses_a_forbidden_rendering(term: Term) -> None:
    assert offences(term, entries(), glosses()) == []


@pytest.mark.parametrize("gloss", glosses())
def test_each_gloss_appears_once(gloss: str) -> None:
    assert sum(text.count(gloss) for _, _, text in entries()) == 1, gloss


def test_the_check_fails_on_a_forbidden_rendering() -> None:
    group = next(t for t in terms() if t.english == "consumer group")
    lag = next(t for t in terms() if t.english.startswith("lag"))
    assert offences(group, [("x.po", "a consumer group", "一个消费组")], []) != []
    assert offences(lag, [("x.po", "the group's lag", "消费延迟")], []) != []
    assert offences(lag, [("x.po", "one-way latency", "单向延迟")], []) == []  # latency is 延迟
