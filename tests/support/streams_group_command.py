"""``kafka-streams-groups.sh --describe`` output built exactly as Kafka 4.2.0's StreamsGroupCommand prints it
(``printMembers``, ``getTasksForPrinting``/``prepareTaskType``, ``printOffsets``, ``maybePrintEmptyGroupState``):
the same ``printf`` formats and widths, so the parser's tests read what the tool writes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

Tasks = Sequence[tuple[str, Sequence[int]]]  # [(subtopology id, partitions)], in the order the admin client gives


@dataclass(frozen=True)
class Thread:
    member_id: str
    process_id: str
    client_id: str
    active: Tasks = ()
    standby: Tasks = ()
    warmup: Tasks = ()
    target_active: Tasks | None = None  # None: the same as the current tasks
    target_standby: Tasks | None = None
    member_epoch: int = 7
    classic: bool = False


@dataclass(frozen=True)
class Description:
    group_id: str
    members: Sequence[Thread]
    target_assignment_epoch: int = 7
    topology_epoch: int = 0
    offsets: Sequence[tuple[str, int, int]] = field(default_factory=tuple)  # (topic, partition, lag)


def _task_type(tasks: Tasks, task_type: str) -> str:
    if not tasks:
        return ""
    return task_type + ": " + "".join(f"{sub}:[{','.join(map(str, ps))}]; " for sub, ps in tasks)


def tasks_for_printing(t: Thread, verbose: bool) -> str:
    out = _task_type(t.active, "ACTIVE") + _task_type(t.standby, "STANDBY") + _task_type(t.warmup, "WARMUP")
    if verbose:
        active = t.active if t.target_active is None else t.target_active
        standby = t.standby if t.target_standby is None else t.target_standby
        out += _task_type(active, "TARGET-ACTIVE") + _task_type(standby, "TARGET-STANDBY")
    return out


def describe_members(d: Description, verbose: bool = False) -> str:
    """``--describe --members [--verbose]`` of one group (nothing for a group without members)."""
    if not d.members:
        return f"\nError: Streams group '{d.group_id}' has no active members.\n"
    group_len = max(15, len(d.group_id))
    member_len = max([15, *(len(m.member_id) for m in d.members)])
    host_len = max([15, *(len(m.process_id) for m in d.members)])
    client_len = max([15, *(len(m.client_id) for m in d.members)])
    if not verbose:
        fmt = f"%-{group_len}s %-{member_len}s %-{host_len}s %-{client_len}s %s\n"
        out = fmt % ("GROUP", "MEMBER", "PROCESS", "CLIENT-ID", "ASSIGNMENTS")
        for m in d.members:
            out += fmt % (d.group_id, m.member_id, m.process_id, m.client_id, tasks_for_printing(m, False))
        return out
    fmt = (f"%-{group_len}s %-25s %-15s%-{member_len}s %-15s %-15s %-{host_len}s %-{client_len}s %s\n")
    out = fmt % ("GROUP", "TARGET-ASSIGNMENT-EPOCH", "TOPOLOGY-EPOCH", "MEMBER", "MEMBER-PROTOCOL", "MEMBER-EPOCH",
                 "PROCESS", "CLIENT-ID", "ASSIGNMENTS")
    for m in d.members:
        out += fmt % (d.group_id, d.target_assignment_epoch, d.topology_epoch, m.member_id,
                      "classic" if m.classic else "streams", m.member_epoch, m.process_id, m.client_id,
                      tasks_for_printing(m, True))
    return out


def describe_offsets(d: Description, verbose: bool = False) -> str:
    """``--describe [--offsets] [--verbose]``: the source topics' partitions of the active tasks, with their lag."""
    group_len = max(15, len(d.group_id))
    topic_len = max([15, *(len(t) for t, _, _ in d.offsets)])
    if not verbose:
        fmt = f"%-{group_len}s %-{topic_len}s %-10s %s\n"
        out = fmt % ("GROUP", "TOPIC", "PARTITION", "OFFSET-LAG")
        return out + "".join(fmt % (d.group_id, t, p, lag) for t, p, lag in d.offsets)
    fmt = f"%-{group_len}s %-{topic_len}s %-10s %-15s %-15s %-15s %-15s\n"
    out = fmt % ("GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LEADER-EPOCH", "LOG-END-OFFSET", "OFFSET-LAG")
    return out + "".join(fmt % (d.group_id, t, p, 1000 - lag, 0, 1000, lag) for t, p, lag in d.offsets)
