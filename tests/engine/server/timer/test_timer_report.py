"""The wheel case's inverse (cases.case_to_dict), the page's tables (timer/report.py) and page limits."""

from __future__ import annotations

import pytest

from engine.errors import ScenarioError
from engine.server.timer.cases import case_to_dict, cli_wheel, parse_case
from engine.server.timer.cost import CostRow
from engine.server.timer.driver import simulate
from engine.server.timer.model import TaskSpec, WheelConfig
from engine.server.timer.report import cost_rows, task_rows
from engine.server.timer.workloads import (
    kafka_preset,
    parse_task_lines,
)


def test_case_to_dict_docstring_example_is_the_inverse_of_parse_case() -> None:
    config, tasks = WheelConfig(1, 20, 0), [TaskSpec("a", 25), TaskSpec("b", 7, 3)]
    case = case_to_dict(config, tasks)
    assert case == {"tick_ms": 1, "wheel_size": 20, "start_ms": 0,
                    "tasks": [{"id": "a", "delay_ms": 25}, {"id": "b", "delay_ms": 7, "add_at_ms": 3}]}
    assert parse_case(case) == (config, tasks)


def test_round_trip_of_typed_tasks_with_cancels_and_the_cli_agrees() -> None:
    config = WheelConfig(2, 8, 10)
    tasks = parse_task_lines("d, 3, -, 11\na, 25\nb, 7, 12\nc, 400, 12, 50")
    assert parse_case(case_to_dict(config, tasks)) == (config, tasks)
    assert cli_wheel(case_to_dict(config, tasks))["final_size"] == 0


def test_task_rows_docstring_example() -> None:
    rows = task_rows(simulate(WheelConfig(1, 3, 0), [TaskSpec("x", 11), TaskSpec("y", 0)]))
    assert (rows[0]["inserted"], rows[0]["fired_at_ms"]) == ("L2 #1 @ 9", 11)
    assert rows[1]["inserted"] == "at once"


def test_cost_rows_are_per_task() -> None:
    row = cost_rows([CostRow("timing wheel", 1_000, 0.002, 0.004, 3_000, 5_000, 4, 12)])[0]
    assert (row["insert µs/task"], row["expire µs/task"], row["insert steps/task"], row["queue polls"]) == (
        2.0, 4.0, 3.0, 12)


def test_page_limits_and_preset_bounds() -> None:
    with pytest.raises(ScenarioError, match="preset: duration must be 1,000..60,000 ms and members 1..10"):
        kafka_preset(1, 500, 3)
    with pytest.raises(ScenarioError, match="got 20,000 ms and 11"):
        kafka_preset(1, 20_000, 11)
