"""``TimerTaskEntry`` and ``TimerTaskList``: a bucket of the wheel (tasks in insertion order, one expiration)."""


from __future__ import annotations

# --------------------------------------------------------------------------- entries and buckets


class TimerTaskEntry:
    """One scheduled task (``TimerTaskEntry`` + its ``TimerTask``): id, delay and absolute expiration."""

    __slots__ = ("task_id", "delay_ms", "added_at_ms", "expiration_ms", "list")

    def __init__(self, task_id: str, delay_ms: int, added_at_ms: int) -> None:
        self.task_id = task_id
        self.delay_ms = delay_ms
        self.added_at_ms = added_at_ms
        self.expiration_ms = added_at_ms + delay_ms
        self.list: TimerTaskList | None = None


class TimerTaskList:
    """A bucket: tasks in insertion order and an expiration (-1 while unused), as Kafka's ``TimerTaskList``.

    The insertion-ordered dict plays the doubly linked list: O(1) append, O(1) removal (cancel),
    and ``flush`` hands the tasks out head first.
    """

    __slots__ = ("level", "index", "expiration_ms", "entries")

    def __init__(self, level: int, index: int) -> None:
        self.level = level
        self.index = index
        self.expiration_ms = -1
        self.entries: dict[TimerTaskEntry, None] = {}

    def add(self, entry: TimerTaskEntry) -> None:
        if entry.list is not None:
            entry.list.remove(entry)
        self.entries[entry] = None
        entry.list = self

    def remove(self, entry: TimerTaskEntry) -> None:
        if entry.list is self:
            del self.entries[entry]
            entry.list = None

    def set_expiration(self, expiration_ms: int) -> bool:
        """Set the expiration; True when it changed (then the bucket must be enqueued again)."""
        changed = self.expiration_ms != expiration_ms
        self.expiration_ms = expiration_ms
        return changed

    def flush(self) -> list[TimerTaskEntry]:
        """Remove every task (head first) and reset the expiration to -1."""
        entries = list(self.entries)
        self.entries = {}
        for entry in entries:
            entry.list = None
        self.expiration_ms = -1
        return entries
