"""AppTests of a streams group (KIP-1071) on the scenario pages: Assignments draws the task assignment per instance
and thread, Rebalance what a restart moves and restores, Compare any scenario as a consumer, a share and a streams
group; every number is the engine's (``streams_steps``), computed here, not typed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from engine.coordinator.streams.scenario import Change, Restore, StreamsStep, streams_steps
from engine.presets import build_preset
from helpers import REPO, shown_table, shown_tables

PRESET = "streams-rolling-restart"
CHANGES = {Change.NEW: "new task", Change.KEPT: "kept on its thread",
           Change.OTHER_THREAD: "another thread of the same instance", Change.PROMOTED: "standby promoted",
           Change.MOVED: "moved from another instance"}


def linked(page: str, **params: str) -> AppTest:
    """AppTest of a page opened from a link with these URL parameters (``?preset=``, ``?s=``, a step)."""
    at = AppTest.from_file(str(REPO / "pages" / page), default_timeout=180)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def steps() -> list[StreamsStep]:
    return streams_steps(build_preset(PRESET))


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def table(at: AppTest, column: str) -> Any:
    """The table with this column, static or a grid (AppTest does not expose a dataframe's key)."""
    return shown_table(at, column)


def chart(at: AppTest, key: str) -> dict[str, Any]:
    return json.loads(next(c for c in at.get("plotly_chart") if c.key == key).proto.spec)


def assignments_at(step: int) -> AppTest:
    at = AppTest.from_file(str(REPO / "pages" / "1_Assignments.py"), default_timeout=180)
    at.query_params["preset"] = PRESET
    at.session_state["assign.step"] = step
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("step", [0, 1, 2])
def test_assignments_draws_the_engines_task_assignment(step: int) -> None:
    at, expected = assignments_at(step), steps()[step]
    assert "Streams group (KIP-1071): the sticky task assignor" in [s.value for s in at.subheader]
    assert not any(t.label == "Range" for t in at.tabs)  # the consumer-group assignors are not drawn
    assert metric(at, "Tasks") == f"{len(expected.tasks)}"
    assert metric(at, "Application instances") == f"{len(expected.processes)}"
    assert metric(at, "Stream threads") == f"{len(expected.threads)}"
    assert metric(at, "Standby replicas placed") == f"{sum(p.standby for p in expected.processes)}"
    for change, label in CHANGES.items():
        assert metric(at, label) == f"{expected.count(change)}", label
    threads = table(at, "stream thread")
    assert list(threads["stream thread"]) == [t.member_id for t in expected.threads]
    assert list(threads["instance"]) == [t.process_id for t in expected.threads]
    assert list(threads["active"]) == [t.active for t in expected.threads]
    assert list(threads["standby"]) == [t.standby for t in expected.threads]
    tasks = table(at, "active thread")
    assert list(tasks["task"]) == [t.task for t in expected.tasks]
    assert list(tasks["active thread"]) == [t.active.member_id for t in expected.tasks]
    assert list(tasks["why"]) == [t.explanation for t in expected.tasks]
    assert [sum(tasks["change"] == label) for label in CHANGES.values()] == [expected.count(c) for c in CHANGES]
    balance = table(at, "balance")
    per_instance = [p.active for p in expected.processes]
    assert list(balance.iloc[0][["active: min", "active: max", "active: spread"]]) == [
        min(per_instance), max(per_instance), max(per_instance) - min(per_instance)]
    figure = chart(at, "assignments.streams.load")
    assert [sum(trace["y"]) for trace in figure["data"]] == [len(expected.tasks),
                                                            sum(p.standby for p in expected.processes)]
    assert any("StickyTaskAssignor" in c.value and "4.2.0" in c.value for c in at.caption)


def test_assignments_search_and_downloads() -> None:
    at = assignments_at(1)
    expected = steps()[1]
    at.text_input(key="assignments.streams.search").set_value("app-3-t1").run()
    threads, tasks = table(at, "stream thread"), table(at, "active thread")
    assert list(threads["stream thread"]) == ["app-3-t1"]
    assert set(tasks["task"]) == {t.task for t in expected.tasks
                                  if "app-3-t1" in {t.active.member_id, *(s.member_id for s in t.standbys)}}
    assert any(c.value == f"{len(tasks)} of {len(expected.tasks)} tasks shown." for c in at.caption)
    buttons = {b.proto.label for b in at.get("download_button")}
    assert {"Tasks (CSV)", "Assignment (JSON, streams-assign)"} <= buttons


def test_assignments_names_the_standbys_it_cannot_place() -> None:
    from engine.scenario import parse_scenario
    from ui.frame.state import encode_scenario

    scenario = parse_scenario({"group_type": "streams", "num_standby_replicas": 2, "topics": {"orders": 3},
                               "subtopologies": [{"id": "0", "source_topics": ["orders"], "stateful": True}],
                               "members": [{"id": "a1", "process": "a"}, {"id": "b1", "process": "b"}]})
    expected = streams_steps(scenario)[0]
    at = linked("1_Assignments.py", s=encode_scenario(scenario))
    unplaced = table(at, "missing")
    assert list(unplaced["task"]) == [u.task for u in expected.unplaced]
    assert list(unplaced["why"]) == [u.explanation for u in expected.unplaced]
    assert at.warning[0].value == f"{len(expected.unplaced)} task(s) miss standby replicas."


def test_a_large_streams_group_goes_through_the_door_and_draws() -> None:
    """1,000 stream threads (250 instances of 4) and 5,000 tasks: estimated first, computed inline or in a worker,
    drawn per instance; the tables stay searchable."""
    from engine.coordinator.streams.scenario import estimate_streams_scenario
    from engine.scenario import parse_scenario
    from ui.frame.state import encode_scenario
    from ui.runtime.offload import mode

    threads = [{"id": f"app-{p}-t{t}", "process": f"app-{p}"} for p in range(250) for t in range(4)]
    scenario = parse_scenario({"group_type": "streams", "num_standby_replicas": 1,
                               "subtopologies": [{"id": "0", "source_topics": ["orders"], "stateful": True},
                                                 {"id": "1", "source_topics": ["clicks"]}],
                               "topics": {"orders": 2_500, "clicks": 2_500}, "members": threads})
    assert mode(estimate_streams_scenario(scenario)) in ("inline", "worker")
    at = linked("1_Assignments.py", s=encode_scenario(scenario))
    assert not at.error
    assert metric(at, "Tasks") == "5,000" and metric(at, "Stream threads") == "1,000"
    assert metric(at, "Application instances") == "250"
    figure = chart(at, "assignments.streams.load")
    assert [len(trace["x"]) for trace in figure["data"]] == [250, 250]  # one bar pair per instance
    assert [sum(trace["y"]) for trace in figure["data"]] == [5_000, 2_500]
    at.text_input(key="assignments.streams.search").set_value("app-7-t2").run()
    assert list(table(at, "stream thread")["stream thread"]) == ["app-7-t2"]


@pytest.mark.parametrize("step", [1, 2])
def test_rebalance_shows_what_the_restart_moves_and_restores(step: int) -> None:
    at, expected = linked("2_Rebalance.py", preset=PRESET, **{"rebalance.step": str(step)}), steps()[step]
    assert "Streams group (KIP-1071): what changes" in [s.value for s in at.subheader]
    assert not any("strategy" in t.columns for t in shown_tables(at))  # no consumer-group assignors
    moved = expected.count(Change.PROMOTED) + expected.count(Change.MOVED)
    assert metric(at, "Tasks moved to another instance") == f"{moved}"
    assert metric(at, "Standbys promoted (warm restores)") == f"{expected.restores(Restore.WARM)}"
    assert metric(at, "Full restores from the changelog") == f"{expected.restores(Restore.FULL)}"
    assert metric(at, "Kept on their thread") == f"{expected.count(Change.KEPT)}"
    assert metric(at, "To another thread of the same instance") == f"{expected.count(Change.OTHER_THREAD)}"
    changed = table(at, "why")
    assert list(changed["task"]) == [t.task for t in expected.tasks if t.change is not Change.KEPT]
    assert any(", ".join(expected.processes_left or expected.processes_joined) in c.value for c in at.caption)
    animation = chart(at, "rebalance.streams.anim")
    assert [f["name"] for f in animation["frames"]] == [str(s.index) for s in steps()]
    assert [sum(f["data"][0]["y"]) for f in animation["frames"]] == [len(s.tasks) for s in steps()]
    assert [sum(f["data"][1]["y"]) for f in animation["frames"]] == [sum(p.standby for p in s.processes)
                                                                      for s in steps()]
    assert animation["layout"]["sliders"][0]["active"] == step


def test_rebalance_names_the_full_restores() -> None:
    """Without standby replicas, the stateful tasks of an instance that leaves restore their whole store."""
    from engine.scenario import parse_scenario
    from ui.frame.state import encode_scenario

    threads = [{"id": f"{p}-t1", "process": p} for p in ("a", "b", "c")]
    scenario = parse_scenario({"group_type": "streams", "subtopologies": [
        {"id": "0", "source_topics": ["orders"], "stateful": True}], "steps": [
        {"topics": {"orders": 6}, "members": threads}, {"topics": {"orders": 6}, "members": threads[:2]}]})
    expected = streams_steps(scenario)[1]
    full = [t.task for t in expected.tasks if t.restore is Restore.FULL]
    at = linked("2_Rebalance.py", s=encode_scenario(scenario))
    assert full and metric(at, "Full restores from the changelog") == f"{len(full)}"
    assert any(c.value.startswith(f"Full restores ({len(full)}): {', '.join(full)}.") for c in at.caption)


def _labels(tasks: Any) -> str:
    return ", ".join(f"{s}_{p}" for s, ps in tasks.items() for p in ps)


@pytest.mark.parametrize("preset", [PRESET, "seed-d"])
def test_compare_puts_a_consumer_a_share_and_a_streams_group_side_by_side(preset: str) -> None:
    from engine.comparison import CLIENT, outcomes
    from engine.coordinator.share_assignment import share_assign
    from engine.coordinator.streams.scenario import as_streams_group

    scenario = build_preset(preset)
    at = linked("12_Compare.py", preset=preset)
    section = "Consumer group, share group or streams group, on the same topics"
    assert section in [e.label for e in at.expander] and section not in [s.value for s in at.subheader]
    at.session_state["compare.streams_view"] = True  # its lazy expander, opened
    at.run()
    assert not at.exception, at.exception
    assert section in [e.label for e in at.expander] and section not in [s.value for s in at.subheader]  # once
    members = scenario.first.member_ids
    consumer = outcomes(scenario, CLIENT["range"])[0].assignment  # the left choice: java:range
    shared = share_assign(scenario).steps[0].assignment
    group = as_streams_group(scenario)
    held = streams_steps(group)[0].result.members
    rows = table(at, "streams group: active tasks")
    assert list(rows["member"]) == members
    assert list(rows["consumer group"]) == [", ".join(map(str, consumer.get(m, ()))) for m in members]
    assert list(rows["share group"]) == [", ".join(map(str, shared.get(m, ()))) for m in members]
    assert list(rows["streams group: active tasks"]) == [_labels(held[m].active) for m in members]
    assert list(rows["streams group: standby tasks"]) == [_labels(held[m].standby) for m in members]
    labels = [m.label for m in at.metric]
    assert any(label.startswith("Consumer group (") and label.endswith("partitions per consumer") for label in labels)
    assert {"Share group (simple): partitions per member", "Streams group: active tasks per thread"} <= set(labels)
