"""``JavaPriorityQueue`` under a comparator key (orders and counts printed by Java 17's ``PriorityQueue`` with
``Comparator.comparingInt``)."""

from __future__ import annotations

from engine.java.priority_queue import JavaPriorityQueue

LOADS = [4, 1, 3, 1, 2, 4, 0, 2, 3, 1]


def test_a_key_orders_the_heap_as_a_java_comparator_does() -> None:
    items = [(f"i{i}", load) for i, load in enumerate(LOADS)]
    queue: JavaPriorityQueue[tuple[str, int]] = JavaPriorityQueue(key=lambda item: item[1])
    for item in items:
        queue.offer(item)
    assert queue.comparisons == 13
    assert queue.remove(items[1]) and queue.remove(items[6])
    polled = []
    while (item := queue.poll()) is not None:
        polled.append(item[0])
    assert polled == ["i3", "i9", "i7", "i4", "i8", "i2", "i5", "i0"]


def test_the_key_is_read_at_each_comparison() -> None:
    """Java calls its comparator on the elements as they are then; a key reading a mutable field does too."""
    loads = {"a": 0, "b": 0, "c": 0}
    queue: JavaPriorityQueue[str] = JavaPriorityQueue(key=loads.__getitem__)
    for name in loads:
        queue.offer(name)
    head = queue.poll()
    loads["a"] = 1  # the polled element comes back heavier
    assert head == "a"
    queue.offer("a")
    assert [queue.poll() for _ in range(3)] == ["c", "b", "a"]
