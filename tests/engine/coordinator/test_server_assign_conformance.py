"""KIP-848 server-side assignors against ../shared/vectors/server_assign.json (real Kafka output).

Lists are compared in EXACT order: the port models Java's HashMap/HashSet iteration order.
"""

from __future__ import annotations

import copy

import pytest

from engine.coordinator.target_assignment import cli_server_assign
from helpers import load_vectors

DROP = ("expected", "origin", "note", "step_ops", "id_style", "subscription_mode", "static_members")


@pytest.fixture(scope="module")
def cases() -> list[dict]:
    return load_vectors("server_assign.json")["cases"]


def _inputs(case: dict) -> dict:
    return {k: v for k, v in case.items() if k not in DROP}


def test_every_case_matches_kafka_exactly(cases: list[dict]) -> None:
    failures = []
    for case in cases:
        got = cli_server_assign(_inputs(case))["steps"]
        if got != case["expected"]:
            failures.append(case["name"])
    assert len(cases) == 200
    assert not failures, f"{len(failures)} cases differ, first: {failures[:5]}"


def test_chaining_without_current_assignment_reproduces_kafka(cases: list[dict]) -> None:
    """Dropping current_assignment and subscription_type: chaining must rebuild them."""
    failures = []
    for case in cases:
        data = copy.deepcopy(_inputs(case))
        for step in data["steps"]:
            step.pop("subscription_type", None)
            for member in step["members"]:
                member.pop("current_assignment", None)
        if cli_server_assign(data)["steps"] != case["expected"]:
            failures.append(case["name"])
    assert not failures, f"{len(failures)} chained cases differ, first: {failures[:5]}"


def test_vectors_exercise_both_builders_and_static_restarts(cases: list[dict]) -> None:
    kinds = {(c["assignor"], s["subscription_type"]) for c in cases for s in c["steps"]}
    assert {("uniform", "HOMOGENEOUS"), ("uniform", "HETEROGENEOUS"), ("range", "HETEROGENEOUS")} <= kinds
    restart = next(c for c in cases if c["name"] == "edge-static-restart-uniform")
    assert cli_server_assign(_inputs(restart))["steps"][1]["moved"] == 3
