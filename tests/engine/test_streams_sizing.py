"""Sizing a Kafka Streams application (engine/streams_sizing.py): the worked examples, Kafka's rules checked against
the assignor's own answer read here from its rows, the lab's estimates recomputed by hand, and the bounds refused in
one line naming the value."""

from __future__ import annotations

import doctest
import math

import pytest

from engine import streams_sizing as ss
from engine.coordinator.streams.group import StreamsGroup, StreamsProcess, Subtopology, assign_streams_group
from engine.errors import InputError

STATEFUL_JOIN = (ss.SourceSubtopology((6,), False), ss.SourceSubtopology((6, 6), True))


def _app(instances: int = 3, threads: int = 2, standbys: int = 1, **kw: float) -> ss.StreamsSizingInputs:
    return ss.StreamsSizingInputs(STATEFUL_JOIN, instances, threads, standbys, **kw)


def test_the_worked_examples_in_the_docstrings() -> None:
    result = doctest.testmod(ss)
    assert result.attempted >= 8 and result.failed == 0


def test_a_subtopology_has_as_many_tasks_as_its_largest_source_topic() -> None:
    subs = (ss.SourceSubtopology((6, 4), False), ss.SourceSubtopology((3,), True), ss.SourceSubtopology((2, 9), True))
    result = ss.size_streams(ss.StreamsSizingInputs(subs, 2, 2, 0))
    assert (result.tasks, result.stateful_tasks) == (6 + 3 + 9, 3 + 9)
    every = sorted(t for load in result.loads for t in load.active)
    assert every == sorted([f"0_{p}" for p in range(6)] + [f"1_{p}" for p in range(3)] + [f"2_{p}" for p in range(9)])


@pytest.mark.parametrize(("instances", "threads", "tasks"), [(5, 2, 6), (1, 4, 6), (2, 8, 12), (4, 4, 12)])
def test_threads_beyond_the_tasks_get_no_active_task(instances: int, threads: int, tasks: int) -> None:
    app = ss.StreamsSizingInputs((ss.SourceSubtopology((tasks,), False),), instances, threads, 0)
    result = ss.size_streams(app)
    assert result.useful_threads == min(instances * threads, tasks)
    assert result.busy_threads <= result.useful_threads
    assert all(len(load.active) <= math.ceil(tasks / (instances * threads)) for load in result.loads)


def test_the_spread_is_the_assignors_answer() -> None:
    """Each thread's tasks are the assignor's (called here directly, with the group written out by hand)."""
    result = ss.size_streams(_app())
    group = StreamsGroup((Subtopology("0", 6, False), Subtopology("1", 6, True)),
                         tuple(StreamsProcess(f"app-{i}", (f"app-{i}-t1", f"app-{i}-t2")) for i in (1, 2, 3)), 1)
    direct = assign_streams_group(group).members
    for load in result.loads:
        tasks = direct[load.member]
        assert load.active == tuple(f"{s}_{p}" for s, ps in sorted(tasks.active.items()) for p in ps)
        assert load.standby == tuple(f"{s}_{p}" for s, ps in sorted(tasks.standby.items()) for p in ps)
    per_instance = result.per_instance()
    for i in (1, 2, 3):
        mine = [direct[f"app-{i}-t{t}"] for t in (1, 2)]
        assert per_instance[f"app-{i}"] == (sum(len(ps) for m in mine for ps in m.active.values()),
                                            sum(len(ps) for m in mine for ps in m.standby.values()))
    assert sum(a for a, _ in per_instance.values()) == 12 and sum(s for _, s in per_instance.values()) == 6


def test_no_standby_shares_an_instance_with_its_task_and_only_stateful_tasks_get_one() -> None:
    result = ss.size_streams(_app(instances=4, threads=3, standbys=2))
    for instance in {load.instance for load in result.loads}:
        held = [t for load in result.loads if load.instance == instance for t in (*load.active, *load.standby)]
        assert len(held) == len(set(held)), instance
    standbys = [t for load in result.loads for t in load.standby]
    assert all(t.startswith("1_") for t in standbys) and len(standbys) == 6 * 2 == result.standby_copies


def test_standbys_need_instances_not_threads() -> None:
    alone = ss.size_streams(_app(instances=1, threads=12))
    assert (alone.standby_copies, alone.unplaced_standbys, alone.failovers) == (0, 6, ())
    two = ss.size_streams(_app(instances=2, threads=2, standbys=3))
    assert (two.standby_copies, two.unplaced_standbys) == (6, 12)  # one instance besides the active one


def test_disk_and_changelog_traffic_are_per_placed_standby() -> None:
    result = ss.size_streams(_app(instances=3, standbys=2, state_mb=100.0, changelog_mb_s=0.25))
    assert result.standby_copies == 12 and result.unplaced_standbys == 0
    assert (result.standby_disk_mb, result.changelog_read_mb_s) == (1_200.0, 3.0)


def _recomputed_restore(app: ss.StreamsSizingInputs, standbys: int, instance: str) -> float:
    """The failover written out here: the assignment, then again without ``instance``'s members, previous tasks
    kept; a moved stateful task is cold unless its new instance held a standby of it."""
    group = app.group(standby_replicas=standbys)
    first = assign_streams_group(group)
    stay = tuple(p for p in group.processes if p.process_id != instance)
    kept = {m for p in stay for m in p.member_ids}
    after = assign_streams_group(StreamsGroup(group.subtopologies, stay, standbys,
                                              {m: a for m, a in first.members.items() if m in kept}))
    was = {r.task: (r.active.process_id, {s.process_id for s in r.standbys}) for r in first.rows}
    cold: dict[str, int] = {}
    for row in after.rows:
        old, warm = was[row.task]
        if row.task.startswith("1_") and row.active.process_id != old and row.active.process_id not in warm:
            cold[row.active.process_id] = cold.get(row.active.process_id, 0) + 1
    return max(cold.values(), default=0) * app.state_mb / app.restore_mb_s


@pytest.mark.parametrize(("instances", "threads", "standbys"), [(3, 2, 1), (4, 1, 1), (5, 3, 2), (2, 4, 1)])
def test_restore_after_a_failure_with_and_without_standbys(instances: int, threads: int, standbys: int) -> None:
    app = _app(instances, threads, standbys, state_mb=1_000.0, restore_mb_s=20.0)
    result = ss.size_streams(app)
    assert [f.instance for f in result.failovers] == [f"app-{i}" for i in range(1, instances + 1)]
    for with_, without in zip(result.failovers, result.failovers_without, strict=True):
        assert with_.restore_s == _recomputed_restore(app, standbys, with_.instance)
        assert without.restore_s == _recomputed_restore(app, 0, without.instance)
        assert without.warm == () and all(t.startswith("1_") for t in (*with_.warm, *with_.cold))
        assert all(t.startswith("0_") for t in (*with_.stateless, *without.stateless))
    assert result.worst_restore_without_s > 0 and result.worst_restore_s <= result.worst_restore_without_s


def test_the_estimate_covers_every_assignor_call() -> None:
    small, big = ss.estimate(_app()), ss.estimate(_app(instances=30, threads=16, standbys=5))
    assert small.seconds < big.seconds and "standby" in big.drivers


@pytest.mark.parametrize(("change", "message"), [
    ({"instances": 0}, "instances: must be a whole number 1..30, got 0"),
    ({"instances": 31}, "instances: must be a whole number 1..30, got 31"),
    ({"threads": 17}, "stream threads per instance: must be a whole number 1..16, got 17"),
    ({"standby_replicas": -1}, "num.standby.replicas: must be a whole number 0..5, got -1"),
    ({"standby_replicas": 6}, "num.standby.replicas: must be a whole number 0..5, got 6"),
    ({"state_mb": -1.0}, "state per task (MB): must be a number in 0..1e+07, got -1.0"),
    ({"changelog_mb_s": float("nan")}, "changelog writes per task (MB/s): must be a number in 0..100000, got nan"),
    ({"restore_mb_s": 0.0}, "restore rate per instance (MB/s): must be above 0 and at most 100000, got 0.0"),
    ({"subtopologies": ()}, "subtopologies: must be 1..8, got 0"),
    ({"subtopologies": (ss.SourceSubtopology((), True),)}, "subtopology 1: at least one source topic"),
    ({"subtopologies": (ss.SourceSubtopology((6, 1_001), True),)},
     "subtopology 1: must be a whole number 1..1,000, got 1001"),
    ({"subtopologies": (ss.SourceSubtopology((1_000,), True), ss.SourceSubtopology((1,), False))},
     "tasks: at most 1,000 in all, got 1,001"),
])
def test_inputs_out_of_bounds_are_refused_in_one_line(change: dict, message: str) -> None:
    fields = {"subtopologies": STATEFUL_JOIN, **change}
    with pytest.raises(InputError) as caught:
        ss.size_streams(ss.StreamsSizingInputs(**fields))
    assert str(caught.value) == message and "\n" not in message


@pytest.mark.parametrize(("text", "message"), [
    ("", "subtopology 0: must be a whole number, got ''"),
    ("6, -2", "subtopology 0: must be a whole number, got '-2'"),
    ("6; 4", "subtopology 0: must be a whole number, got '6; 4'"),
    ("1, 2, 3, 4, 5, 6, 7, 8, 9", "subtopology 0: at most 8 source topics, got 9"),
    ("6,0", "subtopology 0: must be a whole number 1..1,000, got 0"),
])
def test_typed_source_partitions_are_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        ss.parse_source_partitions(text, "subtopology 0")
    assert str(caught.value) == message
    assert ss.parse_source_partitions("12 ,6", "subtopology 0") == (12, 6)
