"""Validation of a timer configuration and its tasks against the stated limits.

Errors are one line naming the field; a task id may be any 1..64-character string, lone surrogates
included (it is only compared and echoed, and ``engine.inputs.encode_json`` escapes them on output).
"""


from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import LimitError, ScenarioError
from engine.server.timer.model import (
    MAX_DELAY_MS,
    MAX_START_MS,
    MAX_TASK_ID_LENGTH,
    MAX_TICK_MS,
    MAX_WHEEL_SIZE,
    MIN_WHEEL_SIZE,
    TaskSpec,
    WheelConfig,
)


def validate(config: WheelConfig, tasks: Sequence[TaskSpec], max_tasks: int) -> None:
    """Raise a one-line ScenarioError/LimitError naming the first bad field."""
    validate_config(config)
    if len(tasks) > max_tasks:
        raise LimitError(f"tasks: at most {max_tasks:,} tasks, got {len(tasks):,}")
    seen: set[str] = set()
    previous = config.start_ms
    for i, task in enumerate(tasks):
        _validate_task(i, task, seen, previous, config.start_ms)
        seen.add(task.task_id)
        previous = config.start_ms if task.add_at_ms is None else task.add_at_ms


def validate_config(config: WheelConfig) -> None:
    check_int_in("tick_ms", config.tick_ms, 1, MAX_TICK_MS)
    check_int_in("wheel_size", config.wheel_size, MIN_WHEEL_SIZE, MAX_WHEEL_SIZE,
            " (with 1 bucket every overflow wheel is as coarse as the one below and Kafka recurses forever)")
    check_int_in("start_ms", config.start_ms, 0, MAX_START_MS)


def _validate_task(i: int, task: TaskSpec, seen: set[str], previous_add_at: int, start_ms: int) -> None:
    if not isinstance(task.task_id, str) or not 1 <= len(task.task_id) <= MAX_TASK_ID_LENGTH:
        raise ScenarioError(f"tasks[{i}].id: a string of 1..{MAX_TASK_ID_LENGTH} characters, "
                            f"got {task.task_id!r:.80}")
    if task.task_id in seen:
        raise ScenarioError(f"tasks[{i}].id: duplicate {task.task_id!r}")
    check_int_in(f"tasks[{i}].delay_ms", task.delay_ms, 0, MAX_DELAY_MS)
    add_at = start_ms if task.add_at_ms is None else task.add_at_ms
    if task.add_at_ms is not None:
        check_int_in(f"tasks[{i}].add_at_ms", task.add_at_ms, 0, MAX_START_MS)
    if add_at < previous_add_at:
        raise ScenarioError(f"tasks[{i}].add_at_ms: time cannot go back (>= {previous_add_at}, "
                            f"the previous task's add time), got {add_at}")
    if task.cancel_at_ms is not None:
        check_int_in(f"tasks[{i}].cancel_at_ms", task.cancel_at_ms, add_at, MAX_START_MS + MAX_DELAY_MS,
                " (not before the task is added)")


def check_int_in(name: str, value: Any, low: int, high: int, why: str = "") -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(f"{name}: an integer is required, got {value!r:.80}")
    if not low <= value <= high:
        raise ScenarioError(f"{name}: must be in {low:,}..{high:,}{why}, got {value:,}")
