"""A streams group's current tasks: what each stream thread runs now, before step 0 (a running group, imported).

In a streams document, ``current_tasks`` maps a member of step 0 to its tasks, as ``kafka-streams-groups.sh
--describe --members`` lists them: ``{"active": {subtopology id: [partitions]}, "standby": {...}}``.  Step 0 is then
the next rebalance of that group: Kafka's assignor gets these tasks as the members' previous assignment.  Checked
against step 0: its members, the topology's subtopologies and their task counts; a task is active on one thread at
most, and a thread holds a task once (not as an active task and a standby replica both):

    >>> check_current_tasks({"t1": {"active": {"0": [1, 0]}}, "t2": {"standby": {"0": [0]}}}, ["t1", "t2"], {"0": 2})
    {'t1': ThreadTasks(active={'0': (0, 1)}, standby={}), 't2': ThreadTasks(active={}, standby={'0': (0,)})}
    >>> check_current_tasks({"t1": {"active": {"0": [0]}}, "t2": {"active": {"0": [0]}}}, ["t1", "t2"], {"0": 2})
    Traceback (most recent call last):
    ...
    engine.errors.ScenarioError: current_tasks['t2'].active['0'][0]: task 0_0 is already active on 't1'

The other group types never read or write the field.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import ScenarioError

KINDS = ("active", "standby")


@dataclass(frozen=True)
class ThreadTasks:
    """A stream thread's tasks now: subtopology id -> partitions (ascending), active and standby replicas."""

    active: dict[str, tuple[int, ...]]
    standby: dict[str, tuple[int, ...]]


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _partitions(where: str, value: Any, tasks: int) -> list[int]:
    if not isinstance(value, list):
        raise ScenarioError(f"{where}: must be a list of partitions, got {_shown(value)}")
    for j, p in enumerate(value):
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < tasks:
            raise ScenarioError(f"{where}[{j}]: must be a partition 0..{tasks - 1} (the subtopology has {tasks} "
                                f"task(s)), got {_shown(p)}")
    return value


def _thread(where: str, value: Any, counts: Mapping[str, int], member: str,
            owners: dict[tuple[str, int], str]) -> ThreadTasks:
    if not isinstance(value, dict) or set(value) - set(KINDS):
        raise ScenarioError(f"{where}: must map active and standby to tasks by subtopology, got {_shown(value)}")
    out: dict[str, dict[str, tuple[int, ...]]] = {}
    held: set[tuple[str, int]] = set()
    for kind in KINDS:
        by_sub = value.get(kind, {})
        if not isinstance(by_sub, dict):
            raise ScenarioError(f"{where}.{kind}: must map subtopology ids to partitions, got {_shown(by_sub)}")
        out[kind] = {}
        for sub, partitions in by_sub.items():
            at = f"{where}.{kind}[{_shown(sub)}]"
            if sub not in counts:
                raise ScenarioError(f"{at}: not a subtopology of the topology ({', '.join(counts)})")
            for j, p in enumerate(_partitions(at, partitions, counts[sub])):
                if (sub, p) in held:
                    raise ScenarioError(f"{at}[{j}]: {member!r} already holds task {sub}_{p}")
                held.add((sub, p))
                if kind == "active" and owners.setdefault((sub, p), member) != member:
                    raise ScenarioError(f"{at}[{j}]: task {sub}_{p} is already active on {owners[(sub, p)]!r}")
            if partitions:
                out[kind][sub] = tuple(sorted(partitions))
    return ThreadTasks(out["active"], out["standby"])


def check_current_tasks(value: Any, members: Iterable[str], task_counts: Mapping[str, int]) -> dict[str, ThreadTasks]:
    """``current_tasks`` checked against step 0's member ids and its subtopologies' task counts; members without
    any task are left out."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ScenarioError(f"current_tasks: must map member ids to their tasks, got {_shown(value)}")
    known = set(members)
    owners: dict[tuple[str, int], str] = {}
    out = {}
    for member, tasks in value.items():
        where = f"current_tasks[{_shown(member)}]"
        if member not in known:
            raise ScenarioError(f"{where}: not a member of the first step")
        thread = _thread(where, tasks, task_counts, member, owners)
        if thread.active or thread.standby:
            out[member] = thread
    return out


def current_tasks_json(current: Mapping[str, ThreadTasks]) -> dict[str, Any]:
    """The save format of ``current_tasks`` (``check_current_tasks`` of it gives it back)."""
    return {member: {"active": {s: list(ps) for s, ps in tasks.active.items()},
                     "standby": {s: list(ps) for s, ps in tasks.standby.items()}}
            for member, tasks in current.items()}
