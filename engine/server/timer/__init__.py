"""Kafka's hierarchical timing wheel (the purgatory timer) in virtual time, and a binary-heap baseline.

A faithful port of ``org.apache.kafka.server.util.timer``: ``TimingWheel`` (one level, overflow
wheels created on demand), ``TimerTaskList`` (a bucket: tasks in insertion order plus an
expiration that is enqueued in a ``DelayQueue`` only when it changes), ``SystemTimer`` (add: run at
once when "already expired"; advanceClock: poll every expired bucket, advance the wheels to the
bucket's expiration, flush the bucket by re-adding its tasks).  The ``DelayQueue`` is modelled as
the ``java.util.PriorityQueue`` behind it (same sift-up / sift-down), so buckets with equal
expirations come out in exactly Kafka's order.

Virtual time (the vectors' driver, ../shared/vectors/README.md): tasks are added in list order at
``add_at_ms`` (default ``start_ms``); when ``add_at_ms`` is later than the current virtual now,
every bucket expiring up to it is processed first by an always-on-time reaper (two adds at the same
instant see the same wheel); optional ``cancel_at_ms`` (not in the vectors) cancels a waiting task;
after the last add, time jumps from one bucket expiration to the next (never tick by tick) until
the timer is empty.  Virtual ``now`` never goes backwards: a bucket that expired before the current
``now`` (the wheel clock lags the add times) is drained at ``now``.

Worked example (the ``TimingWheel`` javadoc, tick u=1, wheel size n=3, start c=0): a task with
delay 3 goes to level 1 (tick 3) bucket 1 [3, 5]; a task with delay 9 to level 2 (tick 9) bucket 1
[9, 17].  In the javadoc's walk-through level 0 alone moves at times 1 and 2; at time 3 level 1
moves too (``[3, 3, 0]``); the delay-3 task fires at 3 straight out of the level-1 bucket, and the delay-9 task
is reinserted from level 2 at time 9 and fires there::

    >>> from engine.server.timer.driver import simulate
    >>> from engine.server.timer.model import TaskSpec, WheelConfig
    >>> trace = simulate(WheelConfig(tick_ms=1, wheel_size=3, start_ms=0),
    ...                  [TaskSpec("a", 3), TaskSpec("b", 9)])
    >>> [(a.time_ms, a.wheel_times_after) for a in trace.advances]
    [(3, [3, 3, 0]), (9, [9, 9, 9])]

``tests/engine/server/timer/test_timing_wheel.py`` asserts this and the whole javadoc walk-through.

Limits (stated in the UI and docs/command-line.md): tick_ms 1..2^32, wheel_size 2..65,536, start_ms 0..2^42,
delay_ms 0..2^40, add_at_ms start_ms..2^42 and non-decreasing, task ids 1..64 characters and unique,
at most 100,000 tasks per traced run (the CLI), 1,000,000 for the untraced cost runs; the page
draws at most 2,000 tasks and wheel sizes up to 512.  With these
bounds every expiration and every level's interval fits a Java ``long`` as in Kafka.
"""
