"""Issue 11 item 4: a refused or out-of-range number says so next to the field; a decimal in an integer field
is refused with a message, never reinterpreted (Streamlit's number_input made 2.5 into 25 and -5 into 5,
ignored 0 and clamped 200000 to 100,000, each without a word)."""

from __future__ import annotations

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from engine.errors import InputError
from engine.presets import build_preset
from helpers import REPO
from ui.builder import members_frame, tables_to_scenario, topics_frame
from ui.numbers import decimal, whole_number


@pytest.mark.parametrize("typed,message", [
    ("2.5", "got '2.5' (a decimal is not rounded)"),
    ("-5", "must be a whole number 1..100,000, got '-5'"),
    ("0", "must be 1..100,000, got 0 (not clamped)"),
    ("200000", "must be 1..100,000, got 200,000 (not clamped)"),
    ("²", "must be a whole number"),
])
def test_whole_numbers_are_refused_with_the_reason(typed: str, message: str) -> None:
    with pytest.raises(InputError, match=None) as caught:
        whole_number(typed, "partitions", 1, 100_000)
    assert message in str(caught.value)
    assert whole_number(" 12 ", "partitions", 1, 100_000) == 12
    with pytest.raises(InputError, match="0..10"):
        decimal("-5", "T", 0.0, 10.0)


@pytest.mark.parametrize("cell,message", [
    ("2.5", "partitions must be a whole number 1..100,000, got 2.5 (a decimal is not rounded)"),
    ("200000", "got 200000"), ("-5", "got -5"), ("0", "got 0"),
])
def test_a_partition_cell_is_refused_not_rounded_or_clamped(cell: str, message: str) -> None:
    seed_a = build_preset("seed-a")
    topics = topics_frame(seed_a)
    assert str(topics["partitions"].dtype) == "string"  # a text column: the browser cannot rewrite it
    topics.loc[0, "partitions"] = cell
    scenario, errors = tables_to_scenario(topics, members_frame(seed_a), seed_a)
    assert scenario is None
    assert any(message in e for e in errors.errors["topics"]), errors.errors


def test_home_page_quick_action_counts_say_what_they_refuse() -> None:
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60).run()
    at.text_input(key="builder.add_n").set_value("2.5").run()
    assert not at.exception
    assert any("consumers to add" in e.value and "decimal is not rounded" in e.value for e in at.error)
    members = len(at.session_state["scenario.current"].first.members)
    at.button(key="builder.add").click().run()  # the last accepted value (1), not 25
    assert len(at.session_state["scenario.current"].first.members) == members + 1
    at.text_input(key="builder.rf").set_value("200000").run()
    assert any("replication factor" in e.value and "not clamped" in e.value for e in at.error)


def test_topics_frame_round_trips_as_text() -> None:
    s = build_preset("large")
    frame = topics_frame(s)
    assert list(frame["partitions"]) == ["500"] * 4 and isinstance(frame, pd.DataFrame)
