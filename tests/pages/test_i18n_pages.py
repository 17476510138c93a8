"""Every page, in Chinese, shows no English prose: each text the page renders (bodies, labels, help,
options, table headers, chart titles and axis labels) either has Chinese in it or is made only of Kafka's own
terms, identifiers, numbers and the scenario's names; and nothing the page asked to translate was missing."""

from __future__ import annotations

import pytest

from support.i18n_pages import english_left, run_page
from ui.frame.layout import page_files
from ui.text import i18n


@pytest.mark.parametrize("path", page_files())
def test_a_page_in_chinese_shows_no_english_prose(path: str) -> None:
    i18n.MISSING.clear()
    at = run_page(path, "zh")
    assert english_left(at) == []
    assert sorted(m for lang, m in i18n.MISSING if lang == "zh") == []


def test_the_check_sees_english() -> None:
    at = run_page("pages/4_Sizing.py", "en")
    left = english_left(at)
    assert "Sizing" in left and any("partition" in t.lower() for t in left)


def test_the_check_reads_table_cells() -> None:
    """Dataframes are drawn on a canvas; the check reads the cell values the page sends."""
    left = english_left(run_page("pages/9_Producer.py", "en"))
    assert any(t.startswith("request 1: ") for t in left)  # a cell of the events table, not a header
