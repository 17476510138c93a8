"""Streams groups (KIP-1071) on the scenario pages: the task assignment per application instance and stream thread
(Assignments), what a leaving, joining or restarting instance changes (Rebalance), and any scenario as a consumer
group, a share group and a streams group side by side (Compare).

The numbers are ``engine.coordinator.streams.scenario``'s (``streams_steps``: Kafka 4.2.0's ``StickyTaskAssignor``
step by step) through ``ui.assignments.cached.streams_steps_for`` (by its estimate: inline, a worker, or refused);
the engine's explanations are shown through their translated templates.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import pandas as pd
import streamlit as st

from engine.comparison import Assignor
from engine.coordinator.streams.group_assignment import MemberTasks
from engine.coordinator.streams.scenario import (
    REASON_TEMPLATES,
    UNPLACED_TEMPLATE,
    Change,
    Restore,
    StreamsStep,
    TaskStep,
    UnplacedStandbys,
)
from engine.scenario import Scenario, TopicPartition
from ui.assignments.cached import (
    StreamsChartText,
    streams_animation_figure,
    streams_load_figure,
    streams_steps_for,
)
from ui.frame.door import refusal
from ui.frame.release_note import release_caption
from ui.frame.state import ScenarioRef
from ui.scenario.cached import outcomes_or_error, scenario_of, share_result_of
from ui.text.i18n import _, tr


def is_streams(scenario: Scenario) -> bool:
    return scenario.group_type == "streams"


def change_labels() -> dict[Change, str]:
    return {Change.NEW: _("new task"), Change.KEPT: _("kept on its thread"),
            Change.OTHER_THREAD: _("another thread of the same instance"), Change.PROMOTED: _("standby promoted"),
            Change.MOVED: _("moved from another instance")}


def restore_labels() -> dict[Restore, str]:
    return {Restore.NONE: _("no restore"), Restore.WARM: _("warm: from its standby replica"),
            Restore.FULL: _("full: the whole store from the changelog")}


def chart_text(title: str) -> StreamsChartText:
    return StreamsChartText(title, _("application instance"), _("tasks"), _("active tasks"), _("standby tasks"),
                            _("stream threads"), _("step {n}"))


def _steps(ref: ScenarioRef) -> list[StreamsStep] | None:
    steps = streams_steps_for(ref)
    if isinstance(steps, str):
        refusal(steps)
        return None
    return steps


def _unplaced_reason(unplaced: UnplacedStandbys, step: StreamsStep) -> str:
    return tr(UNPLACED_TEMPLATE).format(task=unplaced.task, missing=unplaced.missing,
                                        replicas=step.group.num_standby_replicas, processes=len(step.group.processes))


def _labels(tasks: MemberTasks) -> str:
    return ", ".join(f"{s}_{p}" for s, ps in tasks.items() for p in ps)


def task_table(step: StreamsStep) -> pd.DataFrame:
    """One row per task: who runs it, its standby replicas, where it came from, what it restores, why."""
    changes, restores, tasks = change_labels(), restore_labels(), step.tasks
    return pd.DataFrame({
        _("task"): [t.task for t in tasks], _("subtopology"): [t.subtopology for t in tasks],
        _("stateful"): [t.stateful for t in tasks], _("active thread"): [t.active.member_id for t in tasks],
        _("instance"): [t.active.process_id for t in tasks],
        _("standby replicas"): [", ".join(f"{s.member_id} ({s.process_id})" for s in t.standbys) for t in tasks],
        _("previous instance"): [t.previous_process or "" for t in tasks],
        _("change"): [changes[t.change] for t in tasks], _("restore"): [restores[t.restore] for t in tasks],
        _("why"): _reasons(tasks)})


def _reasons(tasks: Sequence[TaskStep]) -> list[str]:
    """The engine's explanations (``TaskStep.explanation``) in the session's language: each template translated
    once, then filled as the engine fills it."""
    templates = {reason: tr(text) for reason, text in REASON_TEMPLATES.items()}
    return [templates[t.active.reason].format(task=t.task, member=t.active.member_id, process=t.active.process_id)
            for t in tasks]


def thread_table(step: StreamsStep) -> pd.DataFrame:
    """One row per stream thread: its instance, its active and its standby tasks."""
    members, threads = step.result.members, step.threads
    return pd.DataFrame({
        _("instance"): [t.process_id for t in threads], _("stream thread"): [t.member_id for t in threads],
        _("active"): [t.active for t in threads], _("standby"): [t.standby for t in threads],
        _("active tasks"): [_labels(members[t.member_id].active) if t.member_id in members else "" for t in threads],
        _("standby tasks"): [_labels(members[t.member_id].standby) if t.member_id in members else ""
                             for t in threads]})


def _spread(counts: Sequence[int]) -> tuple[int, int, int]:
    low, high = min(counts, default=0), max(counts, default=0)
    return low, high, high - low


def balance_table(step: StreamsStep) -> pd.DataFrame:
    """Active and standby tasks per application instance and per stream thread: min, max and spread."""
    rows = []
    for over, loads in ((_("per application instance"), step.processes), (_("per stream thread"), step.threads)):
        active, standby = _spread([x.active for x in loads]), _spread([x.standby for x in loads])
        rows.append({_("balance"): over, _("active: min"): active[0], _("active: max"): active[1],
                     _("active: spread"): active[2], _("standby: min"): standby[0], _("standby: max"): standby[1],
                     _("standby: spread"): standby[2]})
    return pd.DataFrame(rows)


def searched(frame: pd.DataFrame, query: str) -> pd.DataFrame:
    """The rows where any cell contains ``query`` (case-insensitive); every row for an empty query."""
    if not query.strip() or frame.empty:
        return frame
    text = frame.astype(str).apply(lambda column: column.str.contains(query.strip(), case=False, regex=False))
    return frame[text.any(axis=1)]


def explain() -> None:
    st.caption(_("A streams group (KIP-1071) lets the group coordinator assign a Kafka Streams application's tasks: "
                 "a subtopology has one task per partition of its source topics, and each active task runs on one "
                 "stream thread (a member of the group); the threads of one application instance (process.id) "
                 "share its state directory. Kafka 4.2's StickyTaskAssignor gives an active task back to its "
                 "previous thread, else to a thread of an instance that kept a standby replica of it, else to the "
                 "least-loaded instance; then it places num.standby.replicas standby replicas of every stateful "
                 "task, each on another instance."))


def _change_metrics(step: StreamsStep) -> None:
    for column, (change, label) in zip(st.columns(len(Change)), change_labels().items(), strict=True):
        column.metric(label, f"{step.count(change):,}")


def _unplaced_section(step: StreamsStep) -> None:
    if not step.group.num_standby_replicas:
        st.caption(_("num.standby.replicas = 0: no standby replicas."))
    elif not step.unplaced:
        st.caption(_("Every standby replica found an instance."))
    else:
        st.warning(_("{n} task(s) miss standby replicas.").format(n=f"{len(step.unplaced):,}"))
        rows = [{_("task"): u.task, _("missing"): u.missing, _("why"): _unplaced_reason(u, step)}
                for u in step.unplaced]
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="assignments.streams.unplaced")


def _unassigned(step: StreamsStep) -> None:
    if step.unassigned:
        st.warning(_("No stream thread in this step: {n} tasks run nowhere.").format(n=f"{len(step.unassigned):,}"))


def _downloads(step: StreamsStep, tasks: pd.DataFrame) -> None:
    left, right = st.columns(2)
    left.download_button(_("Tasks (CSV)"), tasks.to_csv(index=False), f"streams-tasks-step-{step.index}.csv",
                         "text/csv", key="assignments.streams.download_csv")
    right.download_button(_("Assignment (JSON, streams-assign)"), json.dumps(step.result.assignment.to_json(),
                                                                             indent=1),
                          f"streams-assign-step-{step.index}.json", "application/json",
                          key="assignments.streams.download_json")


def streams_section(ref: ScenarioRef, step: int) -> None:
    """A streams group's assignment at ``step``: per instance and thread, what moved, the balance, the standbys
    not placed, and why each task went where."""
    st.subheader(_("Streams group (KIP-1071): the sticky task assignor"))
    explain()
    steps = _steps(ref)
    if steps is None:
        return
    now = steps[step]
    c1, c2, c3, c4 = st.columns(4)
    c1.metric(_("Tasks"), f"{len(now.tasks) + len(now.unassigned):,}")
    c2.metric(_("Application instances"), f"{len(now.processes):,}")
    c3.metric(_("Stream threads"), f"{len(now.threads):,}")
    c4.metric(_("Standby replicas placed"), f"{sum(p.standby for p in now.processes):,}")
    _unassigned(now)
    st.plotly_chart(streams_load_figure(ref, step, chart_text(_("Tasks per application instance"))),
                    key="assignments.streams.load", width="stretch")
    st.markdown("**" + _("Since the previous step") + "**")
    if step == 0:
        st.caption(_("Step 0 is the group's first assignment: every task is new."))
    _change_metrics(now)
    st.markdown("**" + _("Balance") + "**")
    st.dataframe(balance_table(now), hide_index=True, width="stretch", key="assignments.streams.balance")
    _unplaced_section(now)
    query = st.text_input(_("Find a task, thread or instance"), key="assignments.streams.search")
    threads, tasks = thread_table(now), task_table(now)
    st.markdown("**" + _("Tasks per stream thread") + "**")
    st.dataframe(searched(threads, query), hide_index=True, width="stretch", key="assignments.streams.threads")
    st.markdown("**" + _("Why each task went where") + "**")
    shown = searched(tasks, query)
    st.caption(_("{shown} of {total} tasks shown.").format(shown=f"{len(shown):,}", total=f"{len(tasks):,}"))
    st.dataframe(shown, hide_index=True, width="stretch", key="assignments.streams.tasks")
    _downloads(now, tasks)
    release_caption("streams-assign")


def _membership_line(step: StreamsStep) -> str:
    def names(ids: tuple[str, ...]) -> str:
        return ", ".join(ids) or "–"

    return _("Instances that left: {left}; joined: {joined}. Stream threads that left: {threads_left}; joined: "
             "{threads_joined}.").format(left=names(step.processes_left), joined=names(step.processes_joined),
                                         threads_left=names(step.members_left),
                                         threads_joined=names(step.members_joined))


def _rebalance_numbers(step: StreamsStep) -> None:
    st.metric(_("Tasks moved to another instance"), f"{step.count(Change.PROMOTED) + step.count(Change.MOVED):,}")
    st.metric(_("Standbys promoted (warm restores)"), f"{step.restores(Restore.WARM):,}")
    st.metric(_("Full restores from the changelog"), f"{step.restores(Restore.FULL):,}")
    st.metric(_("Kept on their thread"), f"{step.count(Change.KEPT):,}")
    st.metric(_("To another thread of the same instance"), f"{step.count(Change.OTHER_THREAD):,}")


def streams_changes_section(ref: ScenarioRef, step: int) -> None:
    """What the streams group's rebalance at ``step`` (against ``step - 1``) moves, promotes and restores."""
    st.subheader(_("Streams group (KIP-1071): what changes"))
    steps = _steps(ref)
    if steps is None:
        return
    now = steps[step]
    st.caption(_membership_line(now))
    _unassigned(now)
    left, right = st.columns([3, 1])
    left.plotly_chart(streams_animation_figure(ref, step, chart_text(
        _("Tasks per application instance, step by step"))), key="rebalance.streams.anim", width="stretch")
    with right:
        _rebalance_numbers(now)
    full = [t.task for t in now.tasks if t.restore is Restore.FULL]
    st.caption(_("Full restores ({n}): {tasks}. A standby replica kept elsewhere turns such a restore into a warm "
                 "one.").format(n=f"{len(full):,}", tasks=", ".join(full)) if full else
               _("No task restores its whole store from the changelog at this step."))
    changed = task_table(now)
    changed = changed[[t.change is not Change.KEPT for t in now.tasks]]
    st.dataframe(changed, hide_index=True, width="stretch", key="rebalance.streams.changed")
    release_caption("streams-assign")


def _held(assignment: Mapping[str, Sequence[TopicPartition]], member: str) -> str:
    return ", ".join(map(str, assignment.get(member, ())))


def _range(counts: Sequence[int]) -> str:
    low, high, _gap = _spread(counts)
    return f"{low:,}" if low == high else f"{low:,}..{high:,}"


def _differences() -> str:
    return _("A consumer group gives each partition to one consumer, so consumers beyond the partition count sit "
             "idle. A share group lets several members read one partition, its records locked and acknowledged "
             "one by one. A streams group assigns tasks, not partitions: a task reads the same-numbered partition "
             "of every source topic of its subtopology, runs on one stream thread, and a stateful task keeps a "
             "store that standby replicas copy on other instances, so a task that moves without a copy must "
             "restore its state first.")


def group_types_section(ref: ScenarioRef, step: int, assignor: Assignor) -> None:
    """The same members and topics as a consumer group (``assignor``), a share group and a streams group."""
    scenario = scenario_of(ref)
    outcome, share, streams = outcomes_or_error(ref, assignor), share_result_of(ref), _steps(ref)
    if isinstance(outcome, str) or isinstance(share, str):
        refusal(outcome if isinstance(outcome, str) else str(share))
        return
    if streams is None:
        return
    consumer, shared, now = outcome[step].assignment, share.steps[step].assignment, streams[step]
    members = scenario.steps[step].member_ids
    c1, c2, c3 = st.columns(3)
    c1.metric(_("Consumer group ({assignor}): partitions per consumer").format(assignor=tr(assignor.title)),
              _range([len(consumer.get(m, ())) for m in members]))
    c2.metric(_("Share group (simple): partitions per member"), _range([len(shared.get(m, ())) for m in members]))
    c3.metric(_("Streams group: active tasks per thread"), _range([t.active for t in now.threads]))
    if not is_streams(scenario):
        st.caption(_("As a streams group: one stateless subtopology per topic ({n}), every member a stream thread "
                     "of its own instance, no standby replicas.").format(n=f"{len(now.group.subtopologies):,}"))
    st.caption(_differences())
    process = {t.member_id: t.process_id for t in now.threads}
    held = now.result.members
    rows = pd.DataFrame({
        _("member"): members, _("consumer group"): [_held(consumer, m) for m in members],
        _("share group"): [_held(shared, m) for m in members],
        _("streams group: active tasks"): [_labels(held[m].active) if m in held else "" for m in members],
        _("streams group: standby tasks"): [_labels(held[m].standby) if m in held else "" for m in members],
        _("instance"): [process.get(m, "") for m in members]})
    st.dataframe(rows, hide_index=True, width="stretch", key="compare.streams.table")
