"""The catalogues: every string the code wraps in ``_()`` has Chinese; every entry keeps its placeholders;
runtime templates match what they are for; the ``ui.text.i18n`` worked examples hold."""

from __future__ import annotations

import re
import string

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from helpers import REPO
from ui.text import i18n

PO_FILES = sorted((REPO / "locales" / "zh" / "LC_MESSAGES").glob("*.po"))


def extracted() -> set[str]:
    method_map = [("app.py", "python"), ("pages/**.py", "python"), ("ui/**.py", "python")]
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(str(REPO), method_map, keywords={"_": None}):
        if isinstance(message, str) and message:
            found.add(message)
    return found


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_wrapped_string_has_chinese() -> None:
    found = extracted()
    assert len(found) > 100
    assert sorted(m for m in found if m not in i18n.catalog("zh")) == []


@pytest.mark.parametrize("path", PO_FILES, ids=lambda p: p.name)
def test_every_entry_keeps_its_placeholders(path) -> None:
    with path.open("rb") as f:
        po = read_po(f, locale="zh")
    wrong = [m.id for m in po if isinstance(m.id, str) and m.string and "{" in m.id and "}" in m.id
             and re.search(r"\{\w*[:!}]", m.id) and fields(m.id) != fields(str(m.string))]
    assert wrong == []


def test_templates_match_runtime_text_and_translate_the_values() -> None:
    assert i18n.lookup("step 3: C1 leaves", "zh") is not None
    assert i18n.lookup("Range (librdkafka)", "zh") == "Range（范围） · librdkafka"
    assert i18n.lookup("no such text at all", "zh") is None


def test_untranslated_sees_prose_and_spares_kafka_terms() -> None:
    assert i18n.untranslated("Partitions per consumer")
    assert not i18n.untranslated("`partition.assignment.strategy` = range, C0, t0-2, KIP-848, JSON")
    assert not i18n.untranslated("RangeAssignor CooperativeStickyAssignor")
    assert not i18n.untranslated("steps[2].members[0].id --describe --members <b>C0</b>")
    assert not i18n.untranslated("每个消费者 partitions")
    assert not i18n.untranslated("orders payments", frozenset({"orders", "payments"}))


def test_the_switch_changes_the_language_and_it_survives_a_page_change() -> None:
    from streamlit.testing.v1 import AppTest

    from ui.frame.layout import SWITCH_KEY

    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=120).run()
    at.selectbox(key=SWITCH_KEY).set_value("zh").run()
    assert not at.exception
    assert at.subheader[0].value == i18n.catalog("zh")["Pages"]
    assert at.query_params["lang"] in ("zh", ["zh"])
    at.switch_page("pages/2_Rebalance.py").run()
    assert not at.exception
    assert at.title[0].value == i18n.catalog("zh")["Rebalance"]
    assert at.selectbox(key=SWITCH_KEY).value == "zh"
