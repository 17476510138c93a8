"""Unit and property tests of engine.server.timer: the javadoc walk-through, the DelayQueue order,
every task fires exactly once, inside its tick window, and like a plain heap would."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable

import pytest
from hypothesis import given, seed, settings
from hypothesis import strategies as st

from engine.errors import EngineError, LimitError, ScenarioError
from engine.java.priority_queue import JavaPriorityQueue
from engine.server.timer.cases import cli_wheel
from engine.server.timer.cost import measure_costs
from engine.server.timer.driver import fire_times, simulate
from engine.server.timer.frames import bucket_windows, wheel_frames
from engine.server.timer.model import MAX_TRACED_TASKS, TaskSpec, WheelConfig
from engine.server.timer.system_timer import HeapTimer, WheelTimer
from engine.server.timer.workloads import kafka_preset, random_tasks
from helpers import REPO

HYPOTHESIS_SEED = 20240928


# --------------------------------------------------------------------------- worked examples


def test_module_docstring_example() -> None:
    trace = simulate(WheelConfig(tick_ms=1, wheel_size=3, start_ms=0), [TaskSpec("a", 3), TaskSpec("b", 9)])
    assert [(a.time_ms, a.wheel_times_after) for a in trace.advances] == [(3, [3, 3, 0]), (9, [9, 9, 9])]
    a, b = trace.tasks
    assert (a.inserted.level, a.inserted.bucket, a.inserted.bucket_expiration_ms) == (1, 1, 3)
    assert (b.inserted.level, b.inserted.bucket, b.inserted.bucket_expiration_ms) == (2, 1, 9)
    assert (a.fired_at_ms, b.fired_at_ms) == (3, 9)


@pytest.mark.parametrize("c", [0, 900])
def test_timing_wheel_javadoc_walkthrough(c: int) -> None:
    """TimingWheel.java's example: u = 1, n = 3, start c; javadoc level k is our level k-1."""
    timer = WheelTimer(WheelConfig(tick_ms=1, wheel_size=3, start_ms=c), trace=True)
    for name, delay in (("d1", 1), ("d2", 2), ("d3", 3), ("d9", 9)):
        timer.add(name, delay)
    assert timer.wheel_times() == [c, c, c]
    assert bucket_windows(timer.wheel_times(), 1, 3) == [
        [(c, c), (c + 1, c + 1), (c + 2, c + 2)],
        [(c, c + 2), (c + 3, c + 5), (c + 6, c + 8)],
        [(c, c + 8), (c + 9, c + 17), (c + 18, c + 26)],
    ]

    def step() -> list[int]:
        timer.now_ms = timer.next_expiration()
        timer.advance_clock()
        return timer.wheel_times()

    # "at time = c+1 ... Level 1's clock moves to c+1, and [c+3,c+3] is created. Level 2 and level 3's
    # clock stay at c"
    assert step() == [c + 1, c, c]
    assert bucket_windows(timer.wheel_times(), 1, 3)[0] == [(c + 1, c + 1), (c + 2, c + 2), (c + 3, c + 3)]
    assert bucket_windows(timer.wheel_times(), 1, 3)[1] == [(c, c + 2), (c + 3, c + 5), (c + 6, c + 8)]
    # "At time = c+2, [c+1,c+1] is newly expired. Level 1 moves to c+2, and [c+4,c+4] is created"
    assert step() == [c + 2, c, c]
    assert bucket_windows(timer.wheel_times(), 1, 3)[0][-1] == (c + 4, c + 4)
    # "At time = c+3 ... Level 2 moves to c+3, and [c+5,c+5] and [c+9,c+11] are created. Level 3 stay at c."
    assert step() == [c + 3, c + 3, c]
    windows = bucket_windows(timer.wheel_times(), 1, 3)
    assert windows[0] == [(c + 3, c + 3), (c + 4, c + 4), (c + 5, c + 5)]
    assert windows[1] == [(c + 3, c + 5), (c + 6, c + 8), (c + 9, c + 11)]
    assert windows[2] == [(c, c + 8), (c + 9, c + 17), (c + 18, c + 26)]
    assert [t.fired_at_ms for t in timer.records] == [c + 1, c + 2, c + 3, None]


def test_bucket_windows_docstring() -> None:
    assert bucket_windows([1, 0, 0], 1, 3) == [[(1, 1), (2, 2), (3, 3)], [(0, 2), (3, 5), (6, 8)],
                                               [(0, 8), (9, 17), (18, 26)]]


def test_start_not_a_multiple_of_tick_fires_early() -> None:
    """Vectors README "Surprises" 5: (tick 10, start 5): delay 1 fires at once at 5; delays 9-11 at 10."""
    trace = simulate(WheelConfig(10, 60, 5), [TaskSpec(f"d{d}", d) for d in (1, 9, 10, 11)])
    fired = {t.task_id: (t.inserted.fired, t.fired_at_ms) for t in trace.tasks}
    assert fired == {"d1": (True, 5), "d9": (False, 10), "d10": (False, 10), "d11": (False, 10)}


def test_tasks_added_at_the_same_instant_see_the_same_wheel() -> None:
    """The reaper runs only when time moves: a lagging bucket is not drained between two adds at t."""
    trace = simulate(WheelConfig(1, 8, 0), [TaskSpec("a", 20, 100), TaskSpec("b", 20, 100), TaskSpec("c", 0, 101)])
    assert trace.tasks[0].wheel_times_at_insert == trace.tasks[1].wheel_times_at_insert
    assert [adv.time_ms for adv in trace.advances][:1] == [100]


# --------------------------------------------------------------------------- the DelayQueue heap


class _Item:
    def __init__(self, name: str, expiration_ms: int) -> None:
        self.name = name
        self.expiration_ms = expiration_ms


def test_priority_queue_equal_keys_follow_the_jdk_heap_not_offer_order() -> None:
    queue = JavaPriorityQueue()
    for name, key in (("a", 1), ("b", 3), ("c", 2), ("d", 3)):
        queue.offer(_Item(name, key))
    assert [queue.poll().name for _ in range(4)] == ["a", "c", "d", "b"]
    assert queue.poll() is None


def test_priority_queue_docstring_example() -> None:
    queue = JavaPriorityQueue()
    items = [_Item("five", 5), _Item("three-1", 3), _Item("three-2", 3)]
    for item in items:
        queue.offer(item)
    assert queue.peek() is items[1]
    assert [queue.poll().name for _ in range(3)] == ["three-1", "three-2", "five"]


@seed(HYPOTHESIS_SEED)
@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 50), max_size=60), st.data())
def test_priority_queue_polls_in_key_order_and_remove_keeps_the_heap(keys: list[int], data: st.DataObject) -> None:
    queue = JavaPriorityQueue()
    items = [_Item(str(i), k) for i, k in enumerate(keys)]
    for item in items:
        queue.offer(item)
    removed = data.draw(st.lists(st.sampled_from(items), unique=True)) if items else []
    for item in removed:
        assert queue.remove(item)
    out = [queue.poll().expiration_ms for _ in range(len(items) - len(removed))]
    gone = {id(item) for item in removed}
    assert out == sorted(item.expiration_ms for item in items if id(item) not in gone)
    assert len(queue) == 0


# --------------------------------------------------------------------------- properties

configs = st.builds(WheelConfig, st.integers(1, 20), st.integers(2, 12), st.integers(0, 1_000))


@st.composite
def task_lists(draw: st.DrawFn, with_cancels: bool = False) -> tuple[WheelConfig, list[TaskSpec]]:
    config = draw(configs)
    count = draw(st.integers(0, 40))
    staggered = draw(st.booleans())
    tasks, at = [], config.start_ms
    for i in range(count):
        if staggered:
            at += draw(st.integers(0, 300))
        delay = draw(st.integers(0, 6_000))
        cancel = at + draw(st.integers(0, delay + 50)) if with_cancels and draw(st.booleans()) else None
        tasks.append(TaskSpec(f"t{i}", delay, at if staggered else None, cancel))
    return config, tasks


def _wheel(config: WheelConfig) -> Callable[[Callable[[str, int], None]], WheelTimer]:
    return lambda on_fire: WheelTimer(config, on_fire=on_fire)


def _heap(config: WheelConfig) -> Callable[[Callable[[str, int], None]], HeapTimer]:
    return lambda on_fire: HeapTimer(config.start_ms, on_fire=on_fire)


@seed(HYPOTHESIS_SEED)
@settings(max_examples=300, deadline=None)
@given(task_lists())
def test_every_task_fires_once_inside_its_tick_window_and_the_heap_agrees(
        case: tuple[WheelConfig, list[TaskSpec]]) -> None:
    config, tasks = case
    trace = simulate(config, tasks)
    fired = fire_times(_wheel(config), tasks, config.start_ms)
    assert sorted(fired) == sorted(t.task_id for t in tasks)
    assert all(len(times) == 1 for times in fired.values()), fired
    # the same tasks through java.util.PriorityQueue (the DelayQueue the wheel replaced): exact, the wheel is up to
    # one tick early, never late
    heap = fire_times(_heap(config), tasks, config.start_ms)
    assert fired.keys() == heap.keys()
    for task in tasks:
        (w,), (h,) = fired[task.task_id], heap[task.task_id]
        add_at = config.start_ms if task.add_at_ms is None else task.add_at_ms
        assert h == add_at + task.delay_ms
        assert h - config.tick_ms < w <= h
    assert trace.final_size == 0
    last_bucket = {}
    for adv in trace.advances:
        for drain in adv.buckets:
            for task in drain.fired:
                last_bucket[task] = drain.expiration_ms
    for record in trace.tasks:
        at = record.fired_at_ms
        assert at == fired[record.task_id][0]
        # never before expiration - one tick, never after the expiration
        assert record.expiration_ms - config.tick_ms < at <= record.expiration_ms, record
        if record.task_id in last_bucket:
            assert at >= last_bucket[record.task_id]  # not before its bucket expires
            if all(t.add_at_ms is None for t in tasks):
                assert at == last_bucket[record.task_id]  # and, with no clock lag, exactly then


@seed(HYPOTHESIS_SEED)
@settings(max_examples=200, deadline=None)
@given(task_lists(with_cancels=True))
def test_cancelled_tasks_never_fire_and_the_rest_fire_once(case: tuple[WheelConfig, list[TaskSpec]]) -> None:
    config, tasks = case
    trace = simulate(config, tasks)
    assert trace.final_size == 0
    for record in trace.tasks:
        assert (record.fired_at_ms is None) != (record.cancelled_at_ms is None), record
        if record.cancelled_at_ms is not None:
            assert record.cancelled_at_ms <= record.expiration_ms
    heap = fire_times(_heap(config), tasks, config.start_ms)
    for task, record in zip(tasks, trace.tasks):
        if task.cancel_at_ms is not None and task.cancel_at_ms < record.expiration_ms - config.tick_ms:
            assert record.fired_at_ms is None and task.task_id not in heap
        if task.cancel_at_ms is None:
            assert task.task_id in heap and record.fired_at_ms is not None


def test_random_batch_fires_everything_once(seeded_rng) -> None:
    tasks = random_tasks(500, seeded_rng.randrange(2**31), max_delay_ms=30_000, spread_ms=5_000)
    config = WheelConfig(seeded_rng.randint(1, 10), seeded_rng.randint(2, 64), 0)
    fired = fire_times(_wheel(config), tasks, 0)
    assert len(fired) == 500 and all(len(v) == 1 for v in fired.values())


# --------------------------------------------------------------------------- frames, presets, costs


def test_frames_track_occupancy_and_drops() -> None:
    trace = simulate(WheelConfig(1, 3, 0), [TaskSpec("a", 3), TaskSpec("b", 9), TaskSpec("c", 0)])
    frames = wheel_frames(trace)
    assert frames[0].kind == "start" and frames[0].buckets == {}
    added = frames[1]
    assert added.kind == "add" and added.fired == ["c"]
    assert {k: v.sample for k, v in added.buckets.items()} == {(1, 1): ("a",), (2, 1): ("b",)}
    assert [f.time_ms for f in frames[2:]] == [3, 9]
    assert frames[2].fired == ["a"] and frames[2].drained == [(1, 1)]
    assert frames[3].drained == [(2, 1)] and frames[3].fired == ["b"] and frames[3].pending == 0
    assert [line.event for line in frames[3].log] == ["expire bucket", "fire"]


def test_frames_show_a_task_dropping_to_a_lower_wheel() -> None:
    trace = simulate(WheelConfig(1, 3, 0), [TaskSpec("x", 11)])
    frames = wheel_frames(trace)
    drop = next(f for f in frames if f.kind == "advance")
    assert drop.drained == [(2, 1)] and drop.arrived == {(0, 2): ["x"]}
    assert "drops from level 2 to level 0 bucket 2" in drop.log[1].detail


def test_kafka_preset_is_valid_and_mostly_cancelled() -> None:
    tasks = kafka_preset(7)
    trace = simulate(WheelConfig(), tasks)
    cancelled = sum(t.cancelled_at_ms is not None for t in trace.tasks)
    fired = {t.task_id for t in trace.tasks if t.fired_at_ms is not None}
    assert cancelled > len(tasks) // 2
    assert any(name.startswith("session-m2-") for name in fired)  # the member that stopped heartbeating
    assert not any(name.startswith("session-m0-") for name in fired)


def test_measure_costs_counts_both_timers() -> None:
    wheel, heap = measure_costs(2_000, seed=3)
    assert wheel.timer == "timing wheel" and heap.timer.startswith("binary heap")
    assert wheel.levels == 4  # 60 s of delays with tick 1 ms x 20 buckets: 20, 400, 8000, 160000 ms
    assert wheel.insert_steps <= 4 * 2_000 + wheel.buckets_polled * 20
    assert heap.expire_steps > wheel.expire_steps // 10


def test_descending_delays_are_the_heaps_worst_case() -> None:
    _, heap_random = measure_costs(4_096, seed=1)
    _, heap_desc = measure_costs(4_096, seed=1, order="descending")
    assert heap_desc.insert_steps > 4 * heap_random.insert_steps  # ~log2(n) per insert vs O(1) average


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(("payload", "message"), [
    ({"tick_ms": 0, "tasks": []}, "tick_ms: must be in 1.."),
    ({"wheel_size": 0, "tasks": []}, "wheel_size: must be in 2.."),
    ({"wheel_size": 1, "tasks": []}, "wheel_size: must be in 2.."),
    ({"start_ms": -1, "tasks": []}, "start_ms: must be in 0.."),
    ({"tick_ms": "1", "tasks": []}, "tick_ms: an integer is required"),
    ({"tasks": [{"id": "a", "delay_ms": -5}]}, "tasks[0].delay_ms: must be in 0.."),
    ({"tasks": [{"id": "a", "delay_ms": 1.5}]}, "tasks[0].delay_ms: an integer is required"),
    ({"tasks": [{"id": "a", "delay_ms": 1}, {"id": "a", "delay_ms": 2}]}, "tasks[1].id: duplicate 'a'"),
    ({"tasks": [{"id": "", "delay_ms": 1}]}, "tasks[0].id: a string of 1..64"),
    ({"tasks": [{"delay_ms": 1}]}, "tasks[0]: id and delay_ms are required"),
    ({"tasks": [{"id": "a", "delay_ms": 1, "add_at_ms": 9}, {"id": "b", "delay_ms": 1, "add_at_ms": 3}]},
     "tasks[1].add_at_ms: time cannot go back"),
    ({"tasks": [{"id": "a", "delay_ms": 1, "add_at_ms": 9, "cancel_at_ms": 3}]}, "tasks[0].cancel_at_ms"),
    ({"tasks": "nope"}, "tasks: a list is required"),
    ([], "input: a JSON object is required"),
])
def test_bad_input_is_one_line_naming_the_field(payload: object, message: str) -> None:
    with pytest.raises(ScenarioError) as info:
        cli_wheel(payload)
    assert str(info.value).startswith(message)
    assert "\n" not in str(info.value)


def test_too_many_tasks_is_a_limit_error() -> None:
    tasks = [{"id": f"t{i}", "delay_ms": 1} for i in range(MAX_TRACED_TASKS + 1)]
    with pytest.raises(LimitError, match="at most 100,000 tasks"):
        cli_wheel({"tasks": tasks})


def test_cli_exit_code_2_with_one_line() -> None:
    proc = subprocess.run([sys.executable, "-m", "engine", "wheel", "-"], input=json.dumps({"tick_ms": -1,
                          "tasks": []}), capture_output=True, text=True, cwd=REPO, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == ["error: tick_ms: must be in 1..4,294,967,296, got -1"]
    assert proc.stdout == ""


def test_engine_errors_are_value_errors() -> None:
    assert issubclass(ScenarioError, EngineError) and issubclass(LimitError, EngineError)
