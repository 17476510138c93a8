"""A scenario that starts from a running group (``current_assignment``, e.g. an imported one)."""

from __future__ import annotations

import pytest

from engine.comparison import CLIENT, SERVER, outcomes
from engine.errors import ScenarioError
from engine.scenario import TopicPartition, parse_scenario, scenario_to_json

# range would give C0 t-0..t-2 and C1 t-3..t-5; the running group has them the other way round
RUNNING = {
    "topics": {"t": 6},
    "members": [{"id": "C0", "topics": ["t"]}, {"id": "C1", "topics": ["t"]}],
    "current_assignment": {"C0": ["t-3", "t-4", "t-5"], "C1": ["t-0", "t-1", "t-2"]},
}


def owned(outcome, member: str) -> list[str]:
    return sorted(str(tp) for tp in outcome.assignment[member])


def test_round_trip_and_the_model_keeps_it() -> None:
    scenario = parse_scenario(RUNNING)
    assert scenario.current_assignment["C1"] == (TopicPartition("t", 0), TopicPartition("t", 1), TopicPartition("t", 2))
    assert parse_scenario(scenario_to_json(scenario)) == scenario


@pytest.mark.parametrize("strategy", ["sticky", "cooperative-sticky"])
def test_sticky_strategies_keep_what_the_running_group_owns(strategy: str) -> None:
    first = outcomes(parse_scenario(RUNNING), CLIENT[strategy])[0]
    assert owned(first, "C0") == ["t-3", "t-4", "t-5"] and first.moved == 0
    revoked = sum(len(tps) for tps in first.revoked.values())
    assert revoked == (0 if strategy == "cooperative-sticky" else 6)  # eager sticky revokes all, gets it back


def test_range_reassigns_and_counts_the_moves_against_the_running_group() -> None:
    first = outcomes(parse_scenario(RUNNING), CLIENT["range"])[0]
    assert owned(first, "C0") == ["t-0", "t-1", "t-2"] and first.moved == 6
    assert sorted(str(tp) for tp in first.revoked["C0"]) == ["t-3", "t-4", "t-5"]  # eager revokes all


def test_kip848_starts_from_the_members_current_assignment() -> None:
    first = outcomes(parse_scenario(RUNNING), SERVER["uniform"])[0]
    assert owned(first, "C0") == ["t-3", "t-4", "t-5"] and first.moved == 0


def test_a_new_group_is_unchanged() -> None:
    fresh = {k: v for k, v in RUNNING.items() if k != "current_assignment"}
    first = outcomes(parse_scenario(fresh), CLIENT["sticky"])[0]
    assert owned(first, "C0") == ["t-0", "t-2", "t-4"] and first.moved == 0  # nothing was owned before


@pytest.mark.parametrize(
    ("current", "message"),
    [
        ({"C9": ["t-0"]}, "current_assignment['C9']: not a member of the first step"),
        ({"C0": ["t-6"]}, "current_assignment['C0'][0]: no partition 't-6'"),
        ({"C0": ["t-0"], "C1": ["t-0"]}, "current_assignment['C1'][0]: 't-0' is already owned by 'C0'"),
        ({"C0": ["t0"]}, "current_assignment['C0'][0]: partition 't0': expected '<topic>-<partition>'"),
    ],
)
def test_bad_current_assignments_name_the_entry(current: dict, message: str) -> None:
    with pytest.raises(ScenarioError, match=message.replace("[", r"\[").replace("]", r"\]")):
        parse_scenario({**RUNNING, "current_assignment": current})
