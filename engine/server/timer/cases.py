"""A timer case and its JSON form: ``python -m engine wheel``.

``case_to_dict`` is the inverse of ``parse_case``: the input that reproduces a run, e.g.
``case_to_dict(WheelConfig(1, 20, 0), [TaskSpec("a", 25), TaskSpec("b", 7, 3)])`` is
``{"tick_ms": 1, "wheel_size": 20, "start_ms": 0, "tasks": [{"id": "a", "delay_ms": 25},
{"id": "b", "delay_ms": 7, "add_at_ms": 3}]}`` and ``parse_case`` of it gives the config and tasks back.
"""


from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cost import CLI_CEILING, admit, estimate_wheel
from engine.cost.computations import wheel_levels
from engine.errors import LimitError, ScenarioError
from engine.server.timer.driver import simulate
from engine.server.timer.model import (
    KAFKA_TICK_MS,
    KAFKA_WHEEL_SIZE,
    MAX_TRACED_TASKS,
    Placement,
    TaskSpec,
    WheelConfig,
    WheelTrace,
)
from engine.server.timer.validation import validate, validate_config


def parse_case(payload: Any) -> tuple[WheelConfig, list[TaskSpec]]:
    """The CLI input (spec section 4) as a config and task list; bad input raises ScenarioError."""
    if not isinstance(payload, dict):
        raise ScenarioError(f"input: a JSON object is required, got {type(payload).__name__}")
    config = WheelConfig(payload.get("tick_ms", KAFKA_TICK_MS), payload.get("wheel_size", KAFKA_WHEEL_SIZE),
                         payload.get("start_ms", 0))
    validate_config(config)
    raw_tasks = payload.get("tasks")
    if not isinstance(raw_tasks, list):
        raise ScenarioError(f"tasks: a list is required, got {raw_tasks!r:.80}")
    if len(raw_tasks) > MAX_TRACED_TASKS:
        raise LimitError(f"tasks: at most {MAX_TRACED_TASKS:,} tasks, got {len(raw_tasks):,}")
    tasks = [_parse_task(i, raw) for i, raw in enumerate(raw_tasks)]
    validate(config, tasks, MAX_TRACED_TASKS)
    return config, tasks


def case_to_dict(config: WheelConfig, tasks: Sequence[TaskSpec]) -> dict[str, Any]:
    """Inverse of ``parse_case``: the ``wheel`` input for a run (optional task fields only when set)."""
    return {"tick_ms": config.tick_ms, "wheel_size": config.wheel_size, "start_ms": config.start_ms,
            "tasks": [_task_dict(t) for t in tasks]}


def _task_dict(task: TaskSpec) -> dict[str, Any]:
    out: dict[str, Any] = {"id": task.task_id, "delay_ms": task.delay_ms}
    if task.add_at_ms is not None:
        out["add_at_ms"] = task.add_at_ms
    if task.cancel_at_ms is not None:
        out["cancel_at_ms"] = task.cancel_at_ms
    return out


def _parse_task(i: int, raw: Any) -> TaskSpec:
    if not isinstance(raw, dict):
        raise ScenarioError(f"tasks[{i}]: an object with id and delay_ms is required, got {raw!r:.80}")
    if "id" not in raw or "delay_ms" not in raw:
        raise ScenarioError(f"tasks[{i}]: id and delay_ms are required, got keys {sorted(raw)!r:.80}")
    return TaskSpec(raw["id"], raw["delay_ms"], raw.get("add_at_ms"), raw.get("cancel_at_ms"))


def placement_dict(placement: Placement, with_fired_key: bool = False) -> dict[str, Any]:
    if placement.fired:
        return {"fired_immediately": True}
    out: dict[str, Any] = {"fired": False} if with_fired_key else {"fired_immediately": False}
    out.update(level=placement.level, bucket=placement.bucket,
               bucket_expiration_ms=placement.bucket_expiration_ms)
    return out


def trace_to_dict(trace: WheelTrace) -> dict[str, Any]:
    """The ``expected`` shape of ../shared/vectors/timing_wheel.json."""
    tasks = [{"task": t.task_id, "delay_ms": t.delay_ms, "added_at_ms": t.added_at_ms,
              "expiration_ms": t.expiration_ms, "inserted": placement_dict(t.inserted),
              "wheel_times_at_insert": t.wheel_times_at_insert, "fired_at_ms": t.fired_at_ms}
             for t in trace.tasks]
    for out, t in zip(tasks, trace.tasks):
        if t.cancelled_at_ms is not None:
            out["cancelled_at_ms"] = t.cancelled_at_ms
    advances = [{"time_ms": a.time_ms, "wheel_times_after": a.wheel_times_after,
                 "buckets": [{"level": b.level, "bucket": b.bucket, "expiration_ms": b.expiration_ms,
                              "wheel_times_after_advance": b.wheel_times_after_advance,
                              "reinserted": [{"task": task_id, **placement_dict(p, with_fired_key=True)}
                                             for task_id, p in b.reinserted],
                              "fired": b.fired} for b in a.buckets]}
                for a in trace.advances]
    return {"tasks": tasks, "advances": advances,
            "levels": [{"tick_ms": tick, "interval_ms": interval} for tick, interval in trace.levels],
            "final_size": trace.final_size}


def cli_wheel(payload: Any) -> dict[str, Any]:
    """``python -m engine wheel``: one case in, the vectors' ``expected`` shape out."""
    config, tasks = parse_case(payload)
    levels = wheel_levels(config.tick_ms, config.wheel_size, max((t.delay_ms for t in tasks), default=0))
    admit(estimate_wheel(len(tasks), levels), CLI_CEILING, "wheel")
    return trace_to_dict(simulate(config, tasks))
