"""The engine against real Kafka: every timing_wheel.json scenario, compared field by field."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from engine.server.timer.cases import cli_wheel
from helpers import REPO, load_vectors

INPUT_KEYS = ("tick_ms", "wheel_size", "start_ms", "tasks")


def _cases() -> list[dict[str, Any]]:
    return load_vectors("timing_wheel.json")["cases"]


def _input(case: dict[str, Any]) -> dict[str, Any]:
    return {key: case[key] for key in INPUT_KEYS}


def test_vector_file_has_the_ten_scenarios() -> None:
    assert len(_cases()) == 10


@pytest.mark.parametrize("index", range(10))
def test_scenario_matches_kafka_exactly(index: int) -> None:
    case = _cases()[index]
    got = cli_wheel(_input(case))
    expected = case["expected"]
    for exp_task, got_task in zip(expected["tasks"], got["tasks"], strict=True):
        assert got_task == exp_task, f"{case['name']}: task {exp_task['task']}"
    assert len(got["advances"]) == len(expected["advances"]), case["name"]
    for i, (exp_adv, got_adv) in enumerate(zip(expected["advances"], got["advances"])):
        # bucket order (DelayQueue poll order) and the order of fired/reinserted tasks are Kafka's too
        assert got_adv == exp_adv, f"{case['name']}: advance {i} at {exp_adv['time_ms']}"
    assert got["levels"] == expected["levels"]
    assert got["final_size"] == expected["final_size"] == 0


def test_cli_batch_answers_every_scenario_in_order() -> None:
    cases = _cases()
    batch = [_input(c) for c in cases] + [{"tick_ms": 0, "tasks": []}]
    proc = subprocess.run([sys.executable, "-m", "engine", "wheel", "-"], input=json.dumps(batch),
                          capture_output=True, text=True, cwd=REPO, timeout=120)
    assert proc.returncode == 0, proc.stderr
    answers = json.loads(proc.stdout)
    assert [a["tasks"] for a in answers[:-1]] == [c["expected"]["tasks"] for c in cases]
    assert answers[-1] == {"error": "tick_ms: must be in 1..4,294,967,296, got 0"}


def test_equal_expirations_leave_in_delay_queue_order() -> None:
    """Vectors drain two buckets with the same expiration in one advance (README "Surprises" 5)."""
    pairs = 0
    for case in _cases():
        for adv in cli_wheel(_input(case))["advances"]:
            exps = [b["expiration_ms"] for b in adv["buckets"]]
            pairs += sum(1 for a, b in zip(exps, exps[1:]) if a == b)
    assert pairs >= 1
