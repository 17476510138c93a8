"""A streams scenario step by step (``engine.coordinator.streams.scenario``): each step chained on the one before,
and what moved, what is restored, the balance and the unplaced standbys -- the expectations computed here from
Kafka's answers (each member's tasks) by the rules, not read from the view."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from engine.coordinator.streams.group import StreamsGroup, assign_streams_group
from engine.coordinator.streams.scenario import (
    REASON_TEMPLATES,
    Change,
    Restore,
    StreamsStep,
    estimate_streams_scenario,
    streams_steps,
)
from engine.cost.streams import estimate_streams_assignment
from engine.errors import ScenarioError
from engine.presets import build_preset
from engine.scenario import Scenario, parse_scenario, scenario_to_json

Holdings = dict[str, tuple[str | None, set[str]]]  # task -> (active process, processes holding a standby)


def holdings(step: StreamsStep) -> Holdings:
    """Each task's active process and standby processes, read from Kafka's answer (member -> tasks)."""
    process = {m: p.process_id for p in step.group.processes for m in p.member_ids}
    out: Holdings = {}
    for member, tasks in step.result.members.items():
        for sub, partitions in tasks.active.items():
            for p in partitions:
                out[f"{sub}_{p}"] = (process[member], out.get(f"{sub}_{p}", (None, set()))[1])
        for sub, partitions in tasks.standby.items():
            for p in partitions:
                out.setdefault(f"{sub}_{p}", (None, set()))[1].add(process[member])
    return out


def expected(before: StreamsStep | None, step: StreamsStep, stateful: set[str]) -> tuple[Counter, Counter]:
    """Changes and restores by the rules: promoted = the new process held a standby, moved = another process
    without one, full restore = a stateful task of the previous step whose new process held no copy."""
    changes: Counter = Counter()
    restores: Counter = Counter()
    old = holdings(before) if before else {}
    old_members = {} if before is None else {
        f"{sub}_{p}": member for member, tasks in before.result.members.items()
        for sub, ps in tasks.active.items() for p in ps}
    new_members = {f"{sub}_{p}": member for member, tasks in step.result.members.items()
                   for sub, ps in tasks.active.items() for p in ps}
    existed = set() if before is None else {
        f"{s.id}_{p}" for s in before.group.subtopologies for p in range(s.partitions)}
    for task, (process, _) in holdings(step).items():
        was_active, was_standby = old.get(task, (None, set()))
        if was_active is None:
            changes["new"] += 1
        elif old_members[task] == new_members[task]:
            changes["kept"] += 1
        elif was_active == process:
            changes["other thread"] += 1
        else:
            changes["promoted" if process in was_standby else "moved"] += 1
        if task.rpartition("_")[0] in stateful and task in existed and was_active != process:
            restores["warm" if process in was_standby else "full"] += 1
        else:
            restores["none"] += 1
    return changes, restores


def check_every_step(scenario: Scenario) -> list[StreamsStep]:
    steps = streams_steps(scenario)
    stateful = {s.id for s in scenario.topology.subtopologies if s.stateful}
    for before, step in zip([None, *steps], steps, strict=False):
        changes, restores = expected(before, step, stateful)
        assert {c.value: step.count(c) for c in Change if step.count(c)} == dict(changes), step.index
        assert {r.value: step.restores(r) for r in Restore if step.restores(r)} == dict(restores), step.index
        for task in step.tasks:
            assert task.active.process_id not in {s.process_id for s in task.standbys}
            assert task.explanation == REASON_TEMPLATES[task.active.reason].format(
                task=task.task, member=task.active.member_id, process=task.active.process_id)
        counted = Counter(t.active.process_id for t in step.tasks)
        assert {p.process_id: p.active for p in step.processes if p.active} == dict(counted)
        assert sum(t.active + t.standby for t in step.threads) == sum(
            1 + len(t.standbys) for t in step.tasks)
    return steps


def test_the_rolling_restart_promotes_standbys_then_owes_the_restarted_instance_nothing() -> None:
    scenario = build_preset("streams-rolling-restart")
    up, down, back = check_every_step(scenario)
    assert up.count(Change.NEW) == 9 and up.restores(Restore.NONE) == 9
    # app-2 leaves: each of its stateful active tasks goes where a standby of it was (one standby each, and a
    # standby never shares the active's instance), a warm restore; its stateless ones simply move
    lost = [t for t in up.tasks if t.active.process_id == "app-2"]
    assert down.count(Change.PROMOTED) == down.restores(Restore.WARM) == sum(t.stateful for t in lost)
    assert down.count(Change.MOVED) == sum(not t.stateful for t in lost)
    assert down.restores(Restore.FULL) == 0
    assert down.members_left == ("app-2-t1", "app-2-t2") and down.processes_left == ("app-2",)
    # app-2 is back with new member ids: the assignor owes it nothing, it starts empty
    assert back.members_joined == ("app-2-t1-restarted", "app-2-t2-restarted")
    assert back.processes_joined == ("app-2",) and not back.members_left
    assert all(back.group.previous.get(m) is None for m in back.members_joined)
    restarted = [t for t in back.tasks if t.active.process_id == "app-2"]
    assert restarted and all(t.change is Change.MOVED for t in restarted)


def test_each_step_is_assigned_with_the_previous_answer_as_kafka_sees_it() -> None:
    steps = streams_steps(build_preset("streams-rolling-restart"))
    for before, step in zip(steps, steps[1:], strict=False):
        members = {m for p in step.group.processes for m in p.member_ids}
        assert dict(step.group.previous) == {m: a for m, a in before.result.members.items() if m in members}
        again = assign_streams_group(StreamsGroup(step.group.subtopologies, step.group.processes,
                                                  step.group.num_standby_replicas, step.group.previous))
        assert again.members == step.result.members


def threads(*processes: str, suffix: str = "") -> list[dict[str, Any]]:
    return [{"id": f"{p}-t{t}{suffix}", "process": p} for p in processes for t in (1, 2)]


def scenario_of(steps: list[list[dict[str, Any]]], standby: int = 1, partitions: int = 6) -> Scenario:
    return parse_scenario({
        "group_type": "streams", "num_standby_replicas": standby,
        "subtopologies": [{"id": "0", "source_topics": ["orders"], "stateful": True},
                          {"id": "1", "source_topics": ["clicks"]}],
        "steps": [{"topics": {"orders": partitions, "clicks": 2}, "members": m} for m in steps]})


def test_a_restart_within_one_step_keeps_state_on_the_instance() -> None:
    steps = check_every_step(scenario_of([threads("a", "b", "c"), threads("a", "c") + threads("b", suffix="-new")]))
    same = [t for t in steps[1].tasks if t.previous_process == "b" and t.active.process_id == "b"]
    assert same and all(t.change is Change.OTHER_THREAD and t.restore is Restore.NONE for t in same)


def test_standbys_that_no_instance_can_take_are_named_with_the_reason() -> None:
    step = check_every_step(scenario_of([threads("a")], standby=2))[0]
    assert [(u.task, u.missing) for u in step.unplaced] == [(f"0_{p}", 2) for p in range(6)]
    assert step.unplaced[0].explanation == ("0_0: 2 of 2 standby replica(s) not placed: 1 instance(s), and no "
                                            "instance holds two copies of a task")
    two = check_every_step(scenario_of([threads("a", "b")], standby=2))[0]
    assert {u.missing for u in two.unplaced} == {1}


def test_a_step_without_members_runs_nothing_and_the_next_restores_in_full() -> None:
    empty, = [s for s in check_every_step(scenario_of([threads("a", "b"), [], threads("a", "b")])) if not s.tasks]
    assert len(empty.unassigned) == 8 and not empty.threads
    after = streams_steps(scenario_of([threads("a", "b"), [], threads("a", "b")]))[2]
    assert after.count(Change.NEW) == 8 and after.restores(Restore.FULL) == 6


def test_added_partitions_are_new_tasks_with_nothing_to_restore() -> None:
    grown = parse_scenario({**scenario_to_json(scenario_of([threads("a", "b")])), "steps": [
        {"topics": {"orders": 6, "clicks": 2}, "members": threads("a", "b")},
        {"topics": {"orders": 8, "clicks": 2}, "members": threads("a", "b")}]})
    second = check_every_step(grown)[1]
    added = [t for t in second.tasks if t.task in ("0_6", "0_7")]
    assert [(t.change, t.restore) for t in added] == [(Change.NEW, Restore.NONE)] * 2


def test_the_estimate_covers_every_step() -> None:
    scenario = build_preset("streams-rolling-restart")
    total = estimate_streams_scenario(scenario)
    one = estimate_streams_assignment(streams_steps(scenario)[0].group.shape())
    assert total.seconds > 2 * one.seconds and "9 tasks" in total.drivers


def test_only_a_streams_group_has_streams_steps() -> None:
    with pytest.raises(ScenarioError, match="group_type: streams_steps needs a streams group, got 'consumer'"):
        streams_steps(build_preset("seed-d"))


def test_step_0_of_a_running_group_starts_from_its_current_tasks() -> None:
    """app-a runs all four tasks, app-b keeps a standby of each: Kafka's assignor, given these as the previous
    assignment, balances by handing app-b tasks it holds a standby of (promoted, warm) and keeps the rest."""
    scenario = parse_scenario({
        "group_type": "streams", "num_standby_replicas": 1,
        "subtopologies": [{"id": "0", "source_topics": ["orders"], "stateful": True}],
        "topics": {"orders": 4}, "members": [{"id": "a1", "process": "app-a"}, {"id": "b1", "process": "app-b"}],
        "current_tasks": {"a1": {"active": {"0": [0, 1, 2, 3]}}, "b1": {"standby": {"0": [0, 1, 2, 3]}}}})
    step = streams_steps(scenario)[0]
    assert step.group.previous["a1"].active == {"0": (0, 1, 2, 3)}
    answer = {f"0_{p}": m for m, tasks in step.result.members.items() for p in tasks.active.get("0", ())}
    for task in step.tasks:
        kept = answer[task.task] == "a1"
        assert (task.change, task.restore, task.previous_process) == (
            (Change.KEPT, Restore.NONE, "app-a") if kept else (Change.PROMOTED, Restore.WARM, "app-a"))
    assert step.count(Change.KEPT) == step.count(Change.PROMOTED) == 2
    assert step.count(Change.NEW) == 0
    new_group = streams_steps(replace(scenario, current_tasks={}))[0]
    assert new_group.count(Change.NEW) == 4 and not new_group.group.previous
    # the estimate counts the current tasks as step 0's previous ones, as the assignor call's own shape does
    assert estimate_streams_scenario(scenario) == estimate_streams_assignment(step.group.shape())
