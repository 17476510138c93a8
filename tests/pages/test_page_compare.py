"""The Compare page ("a compare view of any two choices side by side"): two assignors, Java vs
librdkafka, two partition counts, and the partitions whose owner differs, computed by the engine."""

from __future__ import annotations

import pytest

from engine import MAX_PARTITIONS_PER_TOPIC, ScenarioError
from engine.comparison import CLIENT, outcomes
from engine.presets import build_preset
from engine.side_by_side import Choice, owner_differences, scenario_for
from helpers import open_page, shown_tables


def owners_table(at):
    """The table of partitions whose owner differs (the share-group section below has its own): static up to 40
    rows, else the grid."""
    return next(t for t in shown_tables(at) if list(t.columns) == ["partition", "left", "right"])


def differing(at) -> int:
    return len(owners_table(at))


def test_defaults_compare_range_with_cooperative_sticky_on_the_default_group() -> None:
    at = open_page("12_Compare.py")
    assert not at.error
    scenario = build_preset("seed-d")
    step = 0
    expected = owner_differences(outcomes(scenario, CLIENT["range"])[step].assignment,
                                 outcomes(scenario, CLIENT["cooperative-sticky"])[step].assignment)
    assert differing(at) == len(expected)
    assert any(list(t.value.columns) == ["partition", "left", "right"] for t in at.table)  # a few rows: static
    assert f"Partitions whose owner differs: {len(expected)}" in [s.value for s in at.subheader]


def test_two_partition_counts_and_java_vs_librdkafka() -> None:
    at = open_page("12_Compare.py", preset="seed-a")
    at.selectbox(key="compare.right").set_value("java:range").run()
    assert differing(at) == 0  # the same choice twice: nothing differs
    at.text_input(key="compare.right_partitions").input("12").run()
    assert not at.exception and not at.error
    scenario = build_preset("seed-a")
    left = outcomes(scenario, CLIENT["range"])[0].assignment
    right = outcomes(scenario_for(scenario, Choice(CLIENT["range"], 12)), CLIENT["range"])[0].assignment
    assert differing(at) == len(owner_differences(left, right)) > 0
    assert "t0-11" in set(owners_table(at)["partition"])
    at.text_input(key="compare.right_partitions").input("0").run()
    at.selectbox(key="compare.right").set_value("librdkafka:range").run()
    assert not at.exception and not at.error
    assert differing(at) == 0  # librdkafka's range equals Java's on a single-topic group


def test_a_partition_count_out_of_range_is_refused_naming_it() -> None:
    scenario = build_preset("seed-a")
    with pytest.raises(ScenarioError, match="partitions per topic: between 1 and 100,000, got 100001"):
        scenario_for(scenario, Choice(CLIENT["range"], MAX_PARTITIONS_PER_TOPIC + 1))
    assert scenario_for(scenario, Choice(CLIENT["range"], 0)) is scenario


def test_both_sides_are_in_the_share_link() -> None:
    at = open_page("12_Compare.py")
    at.selectbox(key="compare.left").set_value("server:uniform").run()
    at.text_input(key="compare.right_partitions").input("6").run()
    assert "server:uniform" in str(at.query_params["compare.left"])
    assert "6" in str(at.query_params["compare.right_partitions"])
