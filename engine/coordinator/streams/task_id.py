"""``TaskId``: a task is one partition of one subtopology, written ``<subtopology>_<partition>``.

The assignor sorts tasks three ways, each a ``Comparator`` over ``(subtopologyId, partition)`` with subtopology
ids compared by ``String.compareTo`` (UTF-16 code units, ``engine.java.strings.string_compare_key``).
``SubtopologyRanks`` turns every id into its rank in that order once, so a sort key is two integers:

    >>> ranks = SubtopologyRanks(["b", "a", "c10", "c2"])
    >>> tasks = [TaskId("b", 0), TaskId("a", 1), TaskId("c2", 0), TaskId("c10", 0)]
    >>> [str(t) for t in sorted(tasks, key=ranks.partition_first)]
    ['b_0', 'c10_0', 'c2_0', 'a_1']
    >>> [str(t) for t in sorted(tasks, key=ranks.subtopology_first)]
    ['a_1', 'b_0', 'c10_0', 'c2_0']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from engine.java.strings import string_compare_key


class TaskId(NamedTuple):
    """``TaskId(subtopologyId, partition)``, a Java record: equal when both fields are."""

    subtopology: str
    partition: int

    def __str__(self) -> str:
        """``TaskId.toString``: ``subtopologyId + '_' + partition``."""
        return f"{self.subtopology}_{self.partition}"


class SubtopologyRanks:
    """Each subtopology id's rank in ``String.compareTo`` order, and the assignor's sort keys built on it."""

    __slots__ = ("_rank",)

    def __init__(self, subtopology_ids: Iterable[str]) -> None:
        ordered = sorted(set(subtopology_ids), key=string_compare_key)
        self._rank = {sid: i for i, sid in enumerate(ordered)}

    def partition_first(self, task: TaskId) -> tuple[int, int]:
        """``comparing(TaskId::partition).thenComparing(TaskId::subtopologyId)``."""
        return task.partition, self._rank[task.subtopology]

    def subtopology_first(self, task: TaskId) -> tuple[int, int]:
        """``comparing(TaskId::subtopologyId).thenComparing(TaskId::partition)`` (``TaskId.compareTo``)."""
        return self._rank[task.subtopology], task.partition
