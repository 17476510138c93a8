"""The one shape an assignment has: member id -> ``TopicPartition`` list, and what is counted between two.

Every assignor answers in this shape: the four client assignors (``engine.consumer.assignors``), the
KIP-848 server assignors (``engine.coordinator``) and the group replays that drive them.  Figures,
metrics, pause models and events take it as it is.  Strings such as ``"t0-2"`` exist only at the
CLI/JSON edge (``assignment_to_json`` / ``assignment_from_json``).

Worked example (asserted in tests/engine/consumer/test_assignment.py): C1 leaves a group of three; its two partitions
go to C0 and C2, and C2 also takes one of C0's (``tp = TopicPartition``)::

    >>> from engine.scenario import TopicPartition as tp
    >>> before = {"C0": [tp("t0", 0)], "C1": [tp("t0", 1), tp("t0", 2)], "C2": [tp("t0", 3)]}
    >>> after = {"C0": [tp("t0", 1)], "C2": [tp("t0", 3), tp("t0", 2), tp("t0", 0)]}
    >>> count_moves(before, after)          # (moved, moved_from_remaining)
    (3, 1)
    >>> revoked_count(before, {"C0": [], "C2": []})   # eager: remaining members give up everything
    2
    >>> revoked_count(before, after)        # keeping the new target: C0 gives up t0-0
    1
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.scenario import TopicPartition

Assignment = dict[str, list[TopicPartition]]
AssignmentView = Mapping[str, Sequence[TopicPartition]]  # what read-only functions accept


def owners(assignment: AssignmentView) -> dict[TopicPartition, str]:
    """Partition -> its member."""
    return {tp: member for member, tps in assignment.items() for tp in tps}


@dataclass(frozen=True)
class Move:
    """A partition whose owner changed between two consecutive assignments."""

    tp: TopicPartition
    before: str
    after: str


def moves(before: AssignmentView, after: AssignmentView) -> list[Move]:
    """Partitions owned in both assignments whose owner differs (``after``'s order)."""
    old = owners(before)
    return [Move(tp, old[tp], m) for m, tps in after.items() for tp in tps if tp in old and old[tp] != m]


def count_moves(previous: AssignmentView | None, current: AssignmentView) -> tuple[int, int]:
    """``(moved, moved_from_remaining)`` as ../shared/vectors/README.md counts them; ``(0, 0)`` first.

    ``moved_from_remaining`` counts the moves whose old owner is still in the group.
    """
    if previous is None:
        return 0, 0
    old = owners(previous)
    moved = remaining = 0
    for member, tps in current.items():
        for tp in tps:
            before = old.get(tp)
            if before is not None and before != member:
                moved += 1
                remaining += before in current
    return moved, remaining


def revoked(owned: AssignmentView, kept: AssignmentView) -> Assignment:
    """What each member of ``kept`` owned and is not allowed to keep (members that left are not counted).

    Eager protocols keep nothing (``kept`` maps every remaining member to ``[]``); cooperative-sticky
    keeps its first round's assignment; a KIP-848 member keeps its new target.
    """
    out: Assignment = {}
    for member, keep in kept.items():
        keep_set = set(keep)
        out[member] = [tp for tp in owned.get(member, ()) if tp not in keep_set]
    return out


def revoked_count(owned: AssignmentView, kept: AssignmentView) -> int:
    return sum(len(tps) for tps in revoked(owned, kept).values())


def merged(*parts: AssignmentView | None) -> Assignment:
    """The per-member union of several assignments, in order (``None`` parts skipped)."""
    out: Assignment = {}
    for part in parts:
        for member, tps in (part or {}).items():
            out.setdefault(member, []).extend(tps)
    return out


def partitions(assignment: AssignmentView) -> list[TopicPartition]:
    """Every partition of the assignment, member by member."""
    return [tp for tps in assignment.values() for tp in tps]


def assignment_to_json(assignment: AssignmentView | None) -> dict[str, list[str]] | None:
    """The CLI/JSON edge: ``{"C0": ["t0-2"]}``."""
    if assignment is None:
        return None
    return {m: [str(tp) for tp in tps] for m, tps in assignment.items()}


def assignment_from_json(data: Mapping[str, Iterable[str]]) -> Assignment:
    """Inverse of ``assignment_to_json`` (``ScenarioError`` for a malformed ``"<topic>-<partition>"``)."""
    return {m: [TopicPartition.parse(text) for text in tps] for m, tps in data.items()}


def records(assignment: AssignmentView, **columns: Any) -> list[dict[str, Any]]:
    """One row per partition, for tables and CSV: ``columns`` first, then member, topic, partition."""
    return [{**columns, "member": m, "topic": tp.topic, "partition": tp.partition}
            for m, tps in assignment.items() for tp in tps]
