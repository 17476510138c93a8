"""Texts the Timing Wheel page shows: what a purgatory is, how to read the rings, what the cost runs count.

Pure data (no computation), kept beside the timer so the page reads as its sections.
"""

from __future__ import annotations

WHEEL_TEXTS: dict[str, str] = {
    "intro": (
        'A broker parks every request that has to wait — a produce with `acks=all` until the ISR has '
        "the data, a fetch until `fetch.min.bytes` arrive — in a `DelayedOperationPurgatory` (a member's "
        "session too until Kafka 4.0; since then the group coordinator sets its timeouts on a SystemTimer of "
        "its own, without a purgatory). Its timer is a **hierarchical timing wheel** "
        '(`SystemTimer`, tick 1 ms, 20 buckets): a task goes into the bucket of its expiration in '
        'O(1); tasks too far out go to an overflow wheel whose tick is the whole interval of the wheel '
        'below, created on demand. Only *buckets* enter the `DelayQueue`, so the clock jumps from one '
        'bucket expiration to the next, and when an overflow bucket expires its tasks drop into a '
        'finer wheel. 《深入理解 Kafka》 ends here; this page lets you watch it.'
    ),
    "rings": (
        "Level 0 is the inner ring. Colour = tasks in the bucket; black hand = the level's current "
        'time; red outline = bucket drained at this step; orange star = tasks placed at this step (a '
        'drop from a higher wheel shows as a red outer bucket and an orange inner one).'
    ),
    "cost": (
        'Insert and expire cost of this wheel against one binary heap of tasks (what a bare '
        '`java.util.concurrent.DelayQueue` would be), both in the same pure Python, delays uniform in '
        '1 ms..60 s, all added at time 0 and drained. **Wheel:** insert O(m) with m = levels (4 for 60 '
        's at 1 ms × 20), expire O(m) per task plus O(log b) per *bucket* (b = queued buckets, at most '
        'm × wheel_size); cancel O(1). **Heap:** insert O(log n) worst case (O(1) on average for '
        'random order), expire O(log n) per task, cancel O(n) (`remove(Object)` searches the array).'
    ),
    "cost.order": (
        "descending expirations are the heap's worst case for inserts (every task sifts to the root); "
        "ascending its best (Kafka's usual pattern: same timeout, arriving over time)."
    ),
    "cost.caption": (
        'Counted steps: wheel insert = levels visited + DelayQueue comparisons when a bucket is '
        'enqueued; wheel expire = DelayQueue comparisons + one per task flushed + levels visited when '
        "re-adding; heap = sift comparisons. Times are this machine's Python, not the JVM: compare the "
        "two columns, not the absolute numbers. With random order the heap's inserts are cheap on "
        'average; the wheel wins on expiry at scale and on cancellation, which is what a purgatory '
        'mostly does.'
    ),
}
