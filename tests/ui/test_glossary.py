"""One Chinese rendering per term. ``locales/GLOSSARY.md`` is the source: a forbidden rendering in any
translation of ``messages.po`` or ``runtime.po`` fails, and each gloss appears exactly once.  The same check reads
the lessons' texts as a lesson shows them (English and Chinese, the engine's facts filled in) and the share pages'
texts (``ui/share/*``, ``pages/13_Share_Delivery.py``); and a translation that names a page names it as the
sidebar does."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from babel.messages.pofile import read_po

from helpers import REPO
from ui.text import i18n

GLOSSARY = REPO / "locales" / "GLOSSARY.md"
CATALOGUES = sorted((REPO / "locales" / "zh" / "LC_MESSAGES").glob("*.po"))
CODE = re.compile(r"`[^`]*`|%?\{[^}]*\}|<[^>]+>|https?://\S+")  # code and placeholders are not checked


@dataclass(frozen=True)
class Term:
    english: str
    forbidden: tuple[str, ...]
    scope: re.Pattern[str] | None  # None: every entry


def _cells(line: str) -> list[str]:
    """A table row's cells; ``\\|`` is a ``|`` inside a cell (a regular expression's alternation)."""
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]


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


def _in(language: str, make: Any) -> Any:
    """``make()`` with ``_()`` answering in ``language`` (outside a script run it answers in the last run's)."""
    before = i18n._last_language
    i18n._last_language = language
    try:
        return make()
    finally:
        i18n._last_language = before


def _flat(name: str, value: Any) -> list[tuple[str, str]]:
    if isinstance(value, str):
        return [(name, value)]
    if isinstance(value, dict):
        return [pair for key, v in value.items() for pair in _flat(f"{name}.{key}", v)]
    if isinstance(value, (tuple, list)):
        return [pair for i, v in enumerate(value) for pair in _flat(f"{name}[{i}]", v)]
    return []


def lesson_entries() -> list[tuple[str, str, str]]:
    """(where, English, Chinese without code) of every lesson text as the Lessons page shows it: titles,
    questions and explanations with the engine's facts, production lines and the trainer's guide."""
    from engine.lessons import course
    from ui.lessons import texts

    def shown() -> list[tuple[str, str]]:
        steps = [s for lesson in course() for s in lesson.steps]
        return (_flat("title", texts.lesson_titles()) + _flat("production", texts.production())
                + _flat("guide", texts.guide())
                + [(f"question.{s.id}", texts.question(s.id, s.facts)) for s in steps]
                + [(f"explanation.{s.id}", texts.explanation(s.id, s.facts)) for s in steps])

    english, chinese = _in("en", shown), _in("zh", shown)
    assert [n for n, _ in english] == [n for n, _ in chinese]
    return [(f"lessons: {n}", en, CODE.sub(" ", zh)) for (n, en), (_, zh) in zip(english, chinese)]


SHARE_SOURCES = sorted((REPO / "ui" / "share").glob("*.py")) + [REPO / "pages" / "13_Share_Delivery.py"]


def share_entries() -> list[tuple[str, str, str]]:
    """(file, msgid, Chinese without code) of every ``_()`` literal of the share pages."""
    from babel.messages.extract import extract_from_file

    found = []
    for path in SHARE_SOURCES:
        for _line, message, _comments, _context in extract_from_file("python", path, keywords={"_": None}):
            if isinstance(message, str):
                found.append((path.name, message, CODE.sub(" ", i18n.translate(message, "zh"))))
    return found


@pytest.mark.parametrize("term", terms(), ids=lambda t: t.english)
def test_the_lessons_and_the_share_pages_use_the_glossary(term: Term) -> None:
    assert offences(term, lesson_entries() + share_entries(), glosses()) == []


def test_the_lessons_and_share_texts_are_read() -> None:
    lessons, share = lesson_entries(), share_entries()
    assert any(n == "lessons: question.share.readers" and "共享组" in zh for n, _, zh in lessons)
    assert {"delivery.py", "capacity.py", "13_Share_Delivery.py"} <= {name for name, _, _ in share}
    assert all(zh for _, _, zh in share), "a share-page text with no Chinese"


def _page_names() -> dict[str, str]:
    from ui.frame.layout import page_files, page_label

    return {page_label(p): i18n.translate(page_label(p), "zh") for p in page_files() if p != "app.py"}


def named_pages(msgid: str) -> list[str]:
    """The pages an English text names: "the Sizing page", "the Assignments, Rebalance and Compare pages",
    "(as on Sizing)"."""
    names = "|".join(re.escape(n) for n in sorted(_page_names(), key=len, reverse=True))
    found = []
    for listing in re.findall(rf"((?:(?:{names})(?:, | and | or ))*(?:{names})) pages?\b", msgid):
        found += re.findall(rf"\b(?:{names})\b", listing)
    found += re.findall(rf"\bas on ({names})\b", msgid)
    return found


def test_a_translation_names_a_page_as_the_sidebar_does() -> None:
    zh = _page_names()
    bad = [f"{name}: {page} -> {zh[page]} missing in {text[:60]!r}"
           for name, msgid, text in entries() + lesson_entries() + share_entries()
           for page in named_pages(msgid) if f"“{zh[page]}”" not in text]
    assert bad == []


def test_named_pages_reads_the_english() -> None:
    assert named_pages("the Assignments, Rebalance and Compare pages then show") == ["Assignments", "Rebalance",
                                                                                     "Compare"]
    assert named_pages("a whole number, as the Sizing page gives it") == ["Sizing"]
    assert named_pages("topic MiB/s (as on Sizing)") == ["Sizing"]
    assert named_pages("the Share Delivery page") == ["Share Delivery"]


def test_the_check_fails_on_a_forbidden_rendering() -> None:
    group = next(t for t in terms() if t.english == "consumer group")
    lag = next(t for t in terms() if t.english.startswith("lag"))
    assert offences(group, [("x.po", "a consumer group", "一个消费组")], []) != []
    assert offences(lag, [("x.po", "the group's lag", "消费延迟")], []) != []
    assert offences(lag, [("x.po", "one-way latency", "单向延迟")], []) == []  # latency is 延迟
    record = next(t for t in terms() if t.english.startswith("record"))
    order = next(t for t in terms() if t.english.startswith("per-key order"))
    share = next(t for t in terms() if t.english.startswith("share group, never"))
    assert offences(record, [("x.po", "records per fetch", "每次拉取的记录数")], []) != []
    assert offences(order, [("x.po", "where per-key order matters", "需要按 key 保序")], []) != []
    assert offences(share, [("x.po", "a share group of 3", "3 个成员的消费者组")], []) != []
    assert offences(share, [("x.po", "a consumer group, or a share group", "消费者组或共享组")], []) == []
