"""Cost runs: the wheel against the binary heap, counted steps and wall time."""


from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import LimitError, ScenarioError
from engine.server.timer.driver import drain
from engine.server.timer.model import MAX_UNTRACED_TASKS, WheelConfig
from engine.server.timer.system_timer import HeapTimer, VirtualTimer, WheelTimer
from engine.server.timer.validation import validate_config

# --------------------------------------------------------------------------- cost measurement


@dataclass(frozen=True)
class CostRow:
    """One timer's measured cost for ``tasks`` inserts and a full drain (counted steps and seconds)."""

    timer: str
    tasks: int
    insert_seconds: float
    expire_seconds: float
    insert_steps: int
    expire_steps: int
    levels: int
    buckets_polled: int


def cost_delays(count: int, seed: int, max_delay_ms: int = 60_000, order: str = "random") -> list[int]:
    """Delays uniform in 1..max_delay_ms, in random, ascending or descending (the heap's worst) order."""
    rng = random.Random(seed)
    delays = [rng.randint(1, max_delay_ms) for _ in range(count)]
    if order == "ascending":
        delays.sort()
    elif order == "descending":
        delays.sort(reverse=True)
    elif order != "random":
        raise ScenarioError(f"order: one of random, ascending, descending, got {order!r}")
    return delays


COST_MAX_DELAY_MS = 60_000  # the page's tasks: delays up to a minute (a request timeout's order)


def measure_costs(count: int, seed: int = 1, max_delay_ms: int = COST_MAX_DELAY_MS,
                  config: WheelConfig = WheelConfig(), order: str = "random") -> list[CostRow]:
    """Insert ``count`` tasks at the start time, then drain, on the (untraced) wheel and on the heap."""
    if not 1 <= count <= MAX_UNTRACED_TASKS:
        raise LimitError(f"tasks: must be in 1..{MAX_UNTRACED_TASKS:,}, got {count:,}")
    validate_config(config)
    delays = cost_delays(count, seed, max_delay_ms, order)
    ids = [f"t{i}" for i in range(count)]
    wheel = WheelTimer(config)
    heap = HeapTimer(config.start_ms)
    rows = []
    for name, timer in (("timing wheel", wheel), ("binary heap (DelayQueue)", heap)):
        insert_s, expire_s = _timed_run(timer, ids, delays)
        levels = len(wheel.levels()) if timer is wheel else 1
        polled = timer.counters.buckets_polled if timer is wheel else timer.counters.expirations
        rows.append(CostRow(name, count, insert_s, expire_s, timer.counters.insert_steps,
                            timer.counters.expire_steps, levels, polled))
    return rows


def _timed_run(timer: VirtualTimer, ids: Sequence[str], delays: Sequence[int]) -> tuple[float, float]:
    add = timer.add
    t0 = time.perf_counter()
    for task_id, delay in zip(ids, delays):
        add(task_id, delay)
    t1 = time.perf_counter()
    drain(timer)
    return t1 - t0, time.perf_counter() - t1
