"""glibc's ``qsort``: a top-down merge sort, which is what librdkafka's ``rd_list_sort`` really runs.

C ``qsort`` promises no order for elements that compare equal, so the order librdkafka produces
for ties is whatever the C library does.  glibc (2.36 on Debian 12, and every release since: the
2023 switch to introsort was reverted before 2.39) sorts with ``msort_with_tmp``: split at
``n // 2``, sort both halves, merge taking from the left half while ``cmp(left, right) <= 0``.
For a comparator that is a total order this equals ``sorted``; it matters where librdkafka's
comparator is not one.  ``rd_kafka_group_member_cmp`` compares two members by
``group.instance.id`` only when *both* are static and by member id otherwise, which is not
transitive once static and dynamic members mix, so the merge order decides the result.
(Arrays of elements larger than 32 bytes are sorted indirectly, through an array of pointers
merged the same way, which yields the same sequence.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def glibc_qsort(items: Sequence[T], cmp: Callable[[T, T], int]) -> list[T]:
    """The list glibc's ``qsort(items, cmp)`` leaves behind.

    >>> glibc_qsort([3, 1, 2], lambda a, b: a - b)
    [1, 2, 3]

    With a comparator that is not transitive the answer depends on the merge order:

    >>> rps = {("rock", "scissors"), ("scissors", "paper"), ("paper", "rock")}
    >>> def beats(a: str, b: str) -> int:
    ...     return -1 if (a, b) in rps else (1 if (b, a) in rps else 0)
    >>> glibc_qsort(["rock", "paper", "scissors"], beats)
    ['rock', 'scissors', 'paper']
    """
    items = list(items)
    if len(items) <= 1:
        return items
    half = len(items) // 2
    left = glibc_qsort(items[:half], cmp)
    right = glibc_qsort(items[half:], cmp)
    merged: list[T] = []
    i = j = 0
    while i < len(left) and j < len(right):
        if cmp(left[i], right[j]) <= 0:
            merged.append(left[i])
            i += 1
        else:
            merged.append(right[j])
            j += 1
    merged.extend(left[i:])
    merged.extend(right[j:])
    return merged
