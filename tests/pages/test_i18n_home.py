"""On the home page: in Chinese, another preset, the import preview of pasted tool output and a refused
scenario JSON show no English prose, and nothing asked of ``_()`` / ``tr()`` was missing."""

from __future__ import annotations

from helpers import TESTS
from support.i18n_pages import english_left, run_page
from ui.text import i18n

BUNDLE = (TESTS / "fixtures" / "kafka_tools" / "cluster_bundle.txt").read_text()


def test_home_in_chinese_with_a_preset_an_import_and_an_error() -> None:
    i18n.MISSING.clear()
    at = run_page("app.py", "zh")
    at.selectbox(key="sidebar.preset").set_value("large").run()
    assert not at.exception and english_left(at) == []
    assert "大规模" in at.sidebar.text[0].value

    at.text_area(key="import.paste").set_value(BUNDLE)
    at.button(key="import.recognise").click().run()
    assert not at.exception and at.metric and english_left(at) == []
    assert len(at.metric) == 4 and not any(i18n.untranslated(m.label) for m in at.metric)

    at.text_area(key="builder.json").set_value('{"topics": {"t0": 2}, "members": [{"id": "C0", "topics": ["t0"]}, '
                                               '{"id": "C0", "topics": ["t0"]}]}')
    at.button(key="builder.load_json").click().run()
    assert len(at.error) == 1 and "重复" in at.error[0].value  # member 2, id: duplicate 'C0'
    assert english_left(at) == []
    assert sorted(m for lang, m in i18n.MISSING if lang == "zh") == []
