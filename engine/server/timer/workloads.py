"""Task sources: typed lines, random batches and a Kafka purgatory preset; the dashboard's limits on them.

``parse_task_lines("a, 25\nb, 7, 3")`` gives ``[TaskSpec("a", 25), TaskSpec("b", 7, 3)]``; the inverse of
the CLI's case parser is ``engine.server.timer.cases.case_to_dict``.
"""


from __future__ import annotations

import random

from engine.errors import LimitError, ScenarioError
from engine.server.timer.model import (
    MAX_DELAY_MS,
    MAX_PAGE_TASKS,
    MAX_UNTRACED_TASKS,
    TaskSpec,
)
from engine.server.timer.validation import check_int_in

PRESET_DURATION_MS = (1_000, 60_000)
PRESET_MEMBERS = (1, 10)

# --------------------------------------------------------------------------- task sources


def parse_task_lines(text: str, max_tasks: int = MAX_PAGE_TASKS) -> list[TaskSpec]:
    """Tasks typed by hand, one per line: ``id, delay_ms[, add_at_ms[, cancel_at_ms]]``.

    Blank lines and ``#`` comments are skipped; ``-`` leaves an optional field empty.
    ``"a, 25\nb, 7, 3"`` gives ``[TaskSpec("a", 25), TaskSpec("b", 7, 3)]``.
    """
    tasks: list[TaskSpec] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if len(tasks) >= max_tasks:
            raise LimitError(f"tasks: at most {max_tasks:,} tasks, line {number} is one too many")
        fields = [f.strip() for f in line.split(",")]
        if not 2 <= len(fields) <= 4:
            raise ScenarioError(f"line {number}: expected 'id, delay_ms[, add_at_ms[, cancel_at_ms]]', "
                                f"got {line!r:.80}")
        numbers = [_line_int(number, name, value) for name, value in
                   zip(("delay_ms", "add_at_ms", "cancel_at_ms"), fields[1:])]
        numbers += [None] * (3 - len(numbers))
        if numbers[0] is None:
            raise ScenarioError(f"line {number}: delay_ms is required")
        tasks.append(TaskSpec(fields[0], numbers[0], numbers[1], numbers[2]))
    return tasks


def _line_int(number: int, name: str, value: str) -> int | None:
    if value in ("", "-"):
        return None
    try:
        return int(value)
    except ValueError:
        raise ScenarioError(f"line {number}: {name} must be an integer, got {value!r:.40}") from None


def random_tasks(count: int, seed: int, max_delay_ms: int, spread_ms: int = 0, start_ms: int = 0,
                 prefix: str = "t") -> list[TaskSpec]:
    """``count`` tasks with delays uniform in 0..max_delay_ms, added uniformly over ``spread_ms``."""
    if not 0 <= count <= MAX_UNTRACED_TASKS:
        raise LimitError(f"count: must be in 0..{MAX_UNTRACED_TASKS:,}, got {count:,}")
    check_int_in("max_delay_ms", max_delay_ms, 0, MAX_DELAY_MS)
    check_int_in("spread_ms", spread_ms, 0, MAX_DELAY_MS)
    rng = random.Random(seed)
    adds = sorted(start_ms + rng.randint(0, spread_ms) for _ in range(count)) if spread_ms else [None] * count
    return [TaskSpec(f"{prefix}{i}", rng.randint(0, max_delay_ms), add) for i, add in enumerate(adds)]


REQUEST_TIMEOUT_MS = 30_000  # producer request.timeout.ms: the broker's DelayedProduce timeout (acks=all)
FETCH_MAX_WAIT_MS = 500  # consumer fetch.max.wait.ms: DelayedFetch timeout
HEARTBEAT_INTERVAL_MS = 3_000  # consumer heartbeat.interval.ms
SESSION_TIMEOUT_MS = 10_000  # session.timeout.ms (classic group protocol: DelayedHeartbeat timeout)


def kafka_preset(seed: int, duration_ms: int = 20_000, members: int = 3, produce_every_ms: int = 250,
                 fetch_every_ms: int = 400, start_ms: int = 0) -> list[TaskSpec]:
    """Delayed operations modelled on a broker's purgatories, ordered by add time.

    * produce (acks=all) waits up to request.timeout.ms = 30 s for the ISR; 95% complete after
      2..60 ms of replication (cancelled), 5% time out (a follower is stuck);
    * fetch waits up to fetch.max.wait.ms = 500 ms for fetch.min.bytes; 60% are completed early by
      new data, the rest time out and return what there is;
    * classic-protocol heartbeats every 3 s each schedule the member's expiration at
      session.timeout.ms = 10 s and complete the previous one; the last member stops
      heartbeating halfway, so its expiration fires 10 s after its last heartbeat.
    Raises ``ScenarioError`` outside ``PRESET_DURATION_MS`` and ``PRESET_MEMBERS``.
    """
    (shortest, longest), (fewest, most) = PRESET_DURATION_MS, PRESET_MEMBERS
    if not shortest <= duration_ms <= longest or not fewest <= members <= most:
        raise ScenarioError(f"preset: duration must be 1,000..60,000 ms and members 1..10, got "
                            f"{duration_ms:,} ms and {members}")
    rng = random.Random(seed)
    ops: list[tuple[int, str, int, int | None]] = []
    for i, t in enumerate(range(0, duration_ms, produce_every_ms)):
        at = t + rng.randint(0, produce_every_ms - 1)
        done = at + rng.randint(2, 60) if rng.random() < 0.95 else None
        ops.append((at, f"produce-{i}", REQUEST_TIMEOUT_MS, done))
    for i, t in enumerate(range(0, duration_ms, fetch_every_ms)):
        at = t + rng.randint(0, fetch_every_ms - 1)
        done = at + rng.randint(0, FETCH_MAX_WAIT_MS - 1) if rng.random() < 0.6 else None
        ops.append((at, f"fetch-{i}", FETCH_MAX_WAIT_MS, done))
    for m in range(members):
        stops = duration_ms // 2 if m == members - 1 else duration_ms
        beats = list(range(rng.randint(0, HEARTBEAT_INTERVAL_MS - 1), stops, HEARTBEAT_INTERVAL_MS))
        crashed = m == members - 1
        for k, at in enumerate(beats):
            last = k + 1 == len(beats)
            nxt = None if last and crashed else at + HEARTBEAT_INTERVAL_MS  # the next heartbeat completes it
            ops.append((at, f"session-m{m}-{k}", SESSION_TIMEOUT_MS, nxt))
    ops.sort(key=lambda op: op[0])
    return [TaskSpec(name, delay, start_ms + at, None if done is None else start_ms + done)
            for at, name, delay, done in ops]
