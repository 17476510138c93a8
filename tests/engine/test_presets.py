"""Presets: valid, round-trip through the save format, and the seed presets are exactly the vectors' groups."""

from __future__ import annotations

import pytest

from engine.errors import ScenarioError
from engine.presets import PRESETS, build_preset, detect_skew, skew_weights, spread_replica_racks
from engine.scenario import dumps_scenario, loads_scenario, parse_scenario
from helpers import load_vectors

SEED_CASES = {"seed-a": "seed-a-range", "seed-b-4p": "seed-b-4p-range", "seed-b-3p": "seed-b-3p-roundrobin",
              "seed-c": "seed-c-roundrobin", "seed-d": "seed-d-sticky"}


@pytest.mark.parametrize("key", list(PRESETS))
def test_preset_round_trips_through_the_save_format(key: str) -> None:
    scenario = build_preset(key)
    assert loads_scenario(dumps_scenario(scenario)) == scenario


@pytest.mark.parametrize("key,case_name", sorted(SEED_CASES.items()))
def test_seed_presets_are_the_vector_groups(key: str, case_name: str) -> None:
    case = next(c for c in load_vectors("assign.json")["cases"] if c["name"] == case_name)
    expected = parse_scenario({"steps": case["steps"]})
    assert build_preset(key).steps == expected.steps


def test_seed_d_docstring_example() -> None:
    assert [m.id for m in PRESETS["seed-d"].build().steps[1].members] == ["C0", "C2"]


def test_realistic_presets_have_the_advertised_shape() -> None:
    order = build_preset("order-service").first
    assert (order.total_partitions, len(order.members)) == (12, 5)
    more = build_preset("more-consumers").first
    assert len(more.members) > more.total_partitions
    large = build_preset("large").first
    assert (len(large.members), large.total_partitions) == (50, 2000)
    az = build_preset("three-az").first
    assert {m.rack for m in az.members} == {"az1", "az2", "az3"} and az.partition_racks
    het = build_preset("heterogeneous").first
    assert len({m.topics for m in het.members}) > 1


def test_skew_weights_example_and_mean() -> None:
    assert skew_weights(4, "one-hot") == (3.076923, 0.307692, 0.307692, 0.307692)
    for skew in ("uniform", "one-hot", "zipf"):
        w = skew_weights(12, skew)
        assert sum(w) / len(w) == pytest.approx(1.0, abs=1e-5)
        assert detect_skew(w) == skew if skew != "uniform" else detect_skew(w) == "uniform"
    assert detect_skew((1.0, 2.0)) == "custom"
    assert detect_skew(None) == "uniform"


def test_skew_and_rack_errors_name_the_value() -> None:
    with pytest.raises(ScenarioError, match="'pareto'"):
        skew_weights(3, "pareto")
    with pytest.raises(ScenarioError, match="got 4"):
        spread_replica_racks(3, ["a", "b"], 4)
    assert spread_replica_racks(3, ["a", "b", "c"], 2) == (("a", "b"), ("b", "c"), ("c", "a"))


def test_unknown_preset() -> None:
    with pytest.raises(ScenarioError, match="'nope'"):
        build_preset("nope")
