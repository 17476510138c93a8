"""What the Timing Wheel page tabulates, as rows: each task's life, and the wheel-vs-heap cost runs.

Worked example (asserted in tests/engine/server/timer/test_timer_report.py): a task with delay 11 on a wheel of tick 1
and size 3 goes to level 2, bucket 1 (expiring at 9) and fires at 11::

    >>> from engine.server.timer.driver import simulate
    >>> from engine.server.timer.model import TaskSpec, WheelConfig
    >>> task_rows(simulate(WheelConfig(1, 3, 0), [TaskSpec("x", 11)]))[0]["inserted"]
    'L2 #1 @ 9'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.server.timer.cost import CostRow
from engine.server.timer.model import Placement, WheelTrace


def _placement(p: Placement) -> str:
    return "at once" if p.fired else f"L{p.level} #{p.bucket} @ {p.bucket_expiration_ms}"


def task_rows(trace: WheelTrace) -> list[dict[str, Any]]:
    """One row per task: delay, add and expiration times, where it went, when it fired or was cancelled."""
    return [{"task": t.task_id, "delay_ms": t.delay_ms, "added_at_ms": t.added_at_ms,
             "expiration_ms": t.expiration_ms, "inserted": _placement(t.inserted),
             "fired_at_ms": t.fired_at_ms, "cancelled_at_ms": t.cancelled_at_ms} for t in trace.tasks]


def cost_rows(rows: Sequence[CostRow]) -> list[dict[str, Any]]:
    """Per timer and size: microseconds and counted steps per task for inserts and expiries, queue polls."""
    return [{"timer": r.timer, "tasks": r.tasks, "levels": r.levels,
             "insert µs/task": round(r.insert_seconds / r.tasks * 1e6, 3),
             "expire µs/task": round(r.expire_seconds / r.tasks * 1e6, 3),
             "insert steps/task": round(r.insert_steps / r.tasks, 2),
             "expire steps/task": round(r.expire_steps / r.tasks, 2),
             "queue polls": r.buckets_polled} for r in rows]
