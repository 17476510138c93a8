"""The virtual-time driver of ../shared/vectors/README.md: adds at their times, then jump from bucket to bucket."""


from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.server.timer.model import MAX_TRACED_TASKS, TaskSpec, WheelConfig, WheelTrace
from engine.server.timer.system_timer import VirtualTimer, WheelTimer
from engine.server.timer.validation import validate

# --------------------------------------------------------------------------- the virtual-time driver


def advance_to(timer: VirtualTimer, time_ms: int) -> None:
    """The always-on-time reaper: when time moves on, process every expiration up to ``time_ms``.

    Virtual now jumps to the earliest expiration (never backwards) and ``advance_clock`` drains
    everything due by then; this repeats while the earliest expiration is ``<= time_ms``.  When
    ``time_ms`` is the current now nothing runs (the reaper only acts when the clock moves), as in
    the vectors' driver: two tasks added at the same instant see the same wheel.
    """
    if time_ms <= timer.now_ms:
        return
    while (head := timer.next_expiration()) is not None and head <= time_ms:
        timer.now_ms = max(timer.now_ms, head)
        timer.advance_clock()
    timer.now_ms = max(timer.now_ms, time_ms)


def drain(timer: VirtualTimer) -> None:
    """Run until the timer is empty, jumping from one expiration to the next."""
    while (head := timer.next_expiration()) is not None:
        timer.now_ms = max(timer.now_ms, head)
        timer.advance_clock()


def operations(tasks: Sequence[TaskSpec], start_ms: int) -> list[tuple[int, int, int, TaskSpec]]:
    """Adds (list order) and cancels merged by time: ``(time, 0 add | 1 cancel, seq, task)``.

    At equal times adds come first, so a task cancelled at its own add time is added, then cancelled.
    """
    ops = [(start_ms if t.add_at_ms is None else t.add_at_ms, 0, i, t) for i, t in enumerate(tasks)]
    ops += [(t.cancel_at_ms, 1, i, t) for i, t in enumerate(tasks) if t.cancel_at_ms is not None]
    return sorted(ops, key=lambda op: op[:3])


def run_tasks(timer: VirtualTimer, tasks: Sequence[TaskSpec], start_ms: int) -> None:
    """Add the tasks in order (each at its ``add_at_ms``, default ``start_ms``), cancel those with a
    ``cancel_at_ms`` at that time (if still waiting), then drain."""
    if all(t.cancel_at_ms is None for t in tasks):
        for task in tasks:
            advance_to(timer, start_ms if task.add_at_ms is None else task.add_at_ms)
            timer.add(task.task_id, task.delay_ms)
    else:
        for time_ms, kind, _, task in operations(tasks, start_ms):
            advance_to(timer, time_ms)
            if kind == 0:
                timer.add(task.task_id, task.delay_ms)
            else:
                timer.cancel(task.task_id)
    drain(timer)


def simulate(config: WheelConfig, tasks: Sequence[TaskSpec]) -> WheelTrace:
    """Run the wheel over the tasks with the full trace (validated input, at most MAX_TRACED_TASKS)."""
    validate(config, tasks, MAX_TRACED_TASKS)
    timer = WheelTimer(config, trace=True)
    run_tasks(timer, tasks, config.start_ms)
    return timer.to_trace()


def fire_times(timer_factory: Callable[[Callable[[str, int], None]], VirtualTimer], tasks: Sequence[TaskSpec],
               start_ms: int) -> dict[str, list[int]]:
    """Every firing of every task (a list, so a double firing would show) under either timer."""
    fired: dict[str, list[int]] = {}
    timer = timer_factory(lambda task_id, at: fired.setdefault(task_id, []).append(at))
    run_tasks(timer, tasks, start_ms)
    return fired
