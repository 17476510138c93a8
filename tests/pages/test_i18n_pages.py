"""Every page, in Chinese, shows no English prose: each text the page renders (bodies, labels, help,
options, table headers, chart titles and axis labels) either has Chinese in it or is made only of Kafka's own
terms, identifiers, numbers and the scenario's names; and nothing the page asked to translate was missing."""

from __future__ import annotations

import pytest

from support.i18n_pages import english_left, run_page
from support.rendered_text import rendered_texts
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
    at = run_page("pages/9_Producer.py", "en")
    at.text_input(key="producer.records").set_value("200")  # more than 40 events: the grid, not a static table
    at.session_state["producer.view"] = "Events"  # the events table, in its lazy tab
    left = english_left(at.run())
    assert len(at.dataframe) == 1
    assert any(t.startswith("request 1: ") for t in left)  # a cell of the events table, not a header


def test_protocol_values_stay_kafkas_names_in_chinese() -> None:
    """``group.protocol=consumer`` is a protocol's name: the Assignments table's group.protocol column and the
    Rebalance table's protocol column keep ``consumer`` (never 消费者), and the caption under the Rebalance table
    names its rounds column as the table does."""
    at = run_page("pages/1_Assignments.py", "zh")
    table = next(d.value for d in at.table if "group.protocol" in d.value.columns)
    assert set(table["group.protocol"]) == {"classic", "consumer"}
    at = run_page("pages/2_Rebalance.py", "zh")
    texts = rendered_texts(at)
    assert "consumer（KIP-848）" in texts and "消费者（KIP-848）" not in texts
    assert "轮数" in texts and any(c.value.startswith("轮数：classic 协议") for c in at.caption)
