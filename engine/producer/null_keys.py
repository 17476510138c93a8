"""Where a producer sends records with a null key, over time: three eras of Kafka's Java producer.

* ``round_robin`` (DefaultPartitioner before 2.4): ``toPositive(counter++) % available``, one record
  per partition in turn, so every partition's batch fills slowly.
* ``sticky`` (KIP-480, 2.4 - 3.2, ``StickyPartitionCache``): stay on one partition until the
  accumulator needs a new batch for it (its open batch was filled *or sent*), then pick another at
  random.  A partition whose broker is slow keeps its batch open until it is full, so it gets
  ``batch.size`` bytes per visit while fast partitions get ``linger.ms`` worth: the slow broker
  receives *more* data (KAFKA-10888).
* ``uniform_sticky`` (KIP-794, 3.3+, ``BuiltInPartitioner``): switch after ``batch.size`` bytes
  (when the batch is full, at most 2x), and pick the next partition with weights
  ``max_queue + 1 - queue`` from the accumulator's per-partition batch queues.

The simulation runs in 1 ms virtual steps: records arrive at a constant rate, the accumulator
batches them per partition (``batch.size``, ``linger.ms``), and each broker (leader of partitions
``p % brokers``) accepts at most ``max.in.flight.requests.per.connection`` requests, each taking
that broker's latency.  Randomness is a seeded ``numpy`` generator, so a run is reproducible.

Worked example (asserted in ``tests/engine/producer/test_null_keys_producer.py``): the defaults of ``ProducerConfig`` —
6 partitions on 3 brokers, broker 2 slow (100 ms per request, the others 2 ms), ``batch.size``
16384, ``linger.ms`` 0 (the default before Kafka 4.0), 1,000-byte records at 3,000/s for 4 s,
seed 1.  ``round_robin`` gives each broker exactly 1/3; ``sticky`` sends about 77% of the records
to the slow broker; ``uniform_sticky`` brings that back under 40%.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Final, Literal

import numpy as np

from engine.errors import LimitError, ScenarioError

Strategy = Literal["round_robin", "sticky", "uniform_sticky"]
STRATEGIES: Final[dict[str, str]] = {
    "round_robin": "round-robin (DefaultPartitioner, before 2.4)",
    "sticky": "sticky (KIP-480, 2.4 - 3.2)",
    "uniform_sticky": "uniform sticky (KIP-794, 3.3+)",
}

MAX_PARTITIONS: Final = 200
MAX_BROKERS: Final = 20
MAX_DURATION_MS: Final = 20_000
MAX_RECORDS: Final = 400_000
MAX_WORK: Final = 2_000_000  # partitions x duration_ms (sender checks)


@dataclass(frozen=True)
class ProducerConfig:
    """Inputs of the null-key simulation (Kafka names in the comments)."""

    partitions: int = 6
    brokers: int = 3
    batch_size: int = 16_384  # batch.size
    linger_ms: int = 0  # linger.ms (default 0 before Kafka 4.0, 5 since KIP-1030)
    message_bytes: int = 1_000  # serialized record size incl. overhead
    messages_per_sec: int = 3_000
    duration_ms: int = 4_000
    broker_latency_ms: tuple[float, ...] = (2.0, 2.0, 100.0)  # produce request round trip per broker
    max_in_flight: int = 5  # max.in.flight.requests.per.connection
    bucket_ms: int = 100  # chart resolution
    seed: int = 1

    def validate(self) -> ProducerConfig:
        _range("partitions", self.partitions, 1, MAX_PARTITIONS)
        _range("brokers", self.brokers, 1, MAX_BROKERS)
        _range("batch_size", self.batch_size, 1, 16 * 2**20)
        _range("linger_ms", self.linger_ms, 0, 10_000)
        _range("message_bytes", self.message_bytes, 1, 16 * 2**20)
        _range("messages_per_sec", self.messages_per_sec, 1, 1_000_000)
        _range("duration_ms", self.duration_ms, 10, MAX_DURATION_MS)
        _range("max_in_flight", self.max_in_flight, 1, 100)
        _range("bucket_ms", self.bucket_ms, 1, self.duration_ms)
        if len(self.broker_latency_ms) != self.brokers:
            raise ScenarioError(
                f"broker_latency_ms: expected one latency per broker ({self.brokers}), "
                f"got {len(self.broker_latency_ms)}"
            )
        for b, latency in enumerate(self.broker_latency_ms):
            if not 0 <= latency <= 60_000:
                raise ScenarioError(f"broker_latency_ms[{b}]: must be between 0 and 60000, got {latency}")
        records = self.messages_per_sec * self.duration_ms // 1000
        if records > MAX_RECORDS:
            raise LimitError(f"messages_per_sec x duration: at most {MAX_RECORDS} records, got {records}")
        if self.partitions * self.duration_ms > MAX_WORK:
            raise LimitError(
                f"partitions x duration_ms: at most {MAX_WORK}, got {self.partitions * self.duration_ms}"
            )
        return self


def _range(name: str, value: float, low: float, high: float) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ScenarioError(f"{name}: expected a number, got {value!r}")
    if not low <= value <= high:
        raise ScenarioError(f"{name}: must be between {low} and {high}, got {value}")


@dataclass
class ProducerRun:
    """What one strategy did: records per partition per time bucket, batches sent."""

    strategy: str
    bucket_ms: int
    records: np.ndarray  # shape (buckets, partitions): records appended per bucket
    batches_sent: np.ndarray  # per partition
    bytes_sent: np.ndarray  # per partition
    leaders: np.ndarray  # broker of each partition
    switches: int = 0

    @property
    def records_per_partition(self) -> np.ndarray:
        return self.records.sum(axis=0)

    def broker_share(self) -> np.ndarray:
        size = int(self.leaders.max()) + 1
        per_broker = np.bincount(self.leaders, weights=self.records_per_partition, minlength=size)
        total = per_broker.sum()
        return per_broker / total if total else per_broker

    def mean_batch_bytes(self) -> float:
        sent = int(self.batches_sent.sum())
        return float(self.bytes_sent.sum() / sent) if sent else 0.0

    def skew(self) -> float:
        """max / mean of records per partition (1.0 = perfectly even)."""
        per = self.records_per_partition
        return float(per.max() / per.mean()) if per.sum() else 1.0


@dataclass
class _Batch:
    created_ms: int
    batch_size: int
    bytes: int = 0

    @property
    def full(self) -> bool:
        """``ProducerBatch.isFull``: the write limit (``batch.size``) is reached."""
        return self.bytes >= self.batch_size


@dataclass
class _State:
    config: ProducerConfig
    rng: np.random.Generator
    queues: list[deque[_Batch]] = field(default_factory=list)
    sticky: int = -1
    produced_bytes: int = 0
    counter: int = 0
    weights: np.ndarray | None = None  # KIP-794 cumulative frequency table, None = uniform
    switches: int = 0


def leaders_for(partitions: int, brokers: int) -> np.ndarray:
    """Leader broker of each partition (``p % brokers``, as a fresh topic's placement spreads them)."""
    return np.arange(partitions) % brokers


def simulate(config: ProducerConfig, strategy: str) -> ProducerRun:
    """Run one strategy over ``config.duration_ms`` of virtual time."""
    config.validate()
    if strategy not in STRATEGIES:
        raise ScenarioError(f"strategy: unknown {strategy!r}; expected one of {', '.join(STRATEGIES)}")
    n, cfg = config.partitions, config
    state = _State(cfg, np.random.default_rng(cfg.seed), [deque() for _ in range(n)])
    state.counter = int(state.rng.integers(0, 2**31))
    leaders = leaders_for(n, cfg.brokers)
    by_broker = [np.flatnonzero(leaders == b).tolist() for b in range(cfg.brokers)]
    buckets = -(-cfg.duration_ms // cfg.bucket_ms)
    records = np.zeros((buckets, n), dtype=np.int64)
    batches_sent = np.zeros(n, dtype=np.int64)
    bytes_sent = np.zeros(n, dtype=np.int64)
    in_flight: list[list[float]] = [[] for _ in range(cfg.brokers)]
    due = 0.0
    for now in range(cfg.duration_ms):
        due += cfg.messages_per_sec / 1000.0
        arriving = int(due)
        due -= arriving
        row = records[now // cfg.bucket_ms]
        for _ in range(arriving):
            row[_append(state, strategy, now)] += 1
        _send(state, now, by_broker, in_flight, batches_sent, bytes_sent)
        if strategy == "uniform_sticky":
            state.weights = _load_stats([len(q) for q in state.queues])
    return ProducerRun(strategy, cfg.bucket_ms, records, batches_sent, bytes_sent, leaders, state.switches)


def simulate_all(config: ProducerConfig) -> dict[str, ProducerRun]:
    """Every strategy on the same inputs (same seed)."""
    return {name: simulate(config, name) for name in STRATEGIES}


# --------------------------------------------------------------------------- accumulator


def _has_room(queue: deque[_Batch], record_bytes: int) -> bool:
    """``tryAppend`` succeeds: the open batch exists and the record fits (``hasRoomFor``)."""
    return bool(queue) and queue[-1].bytes + record_bytes <= queue[-1].batch_size


def _all_batches_full(queue: deque[_Batch]) -> bool:
    """``RecordAccumulator.allBatchesFull``: no batch, or the last one is full."""
    return not queue or queue[-1].full


def _add_record(state: _State, partition: int, now: int) -> None:
    cfg, queue = state.config, state.queues[partition]
    if not _has_room(queue, cfg.message_bytes):
        queue.append(_Batch(now, cfg.batch_size))  # a first record always fits a new batch
    queue[-1].bytes += cfg.message_bytes


def _append(state: _State, strategy: str, now: int) -> int:
    if strategy == "round_robin":
        return _append_round_robin(state, now)
    if strategy == "sticky":
        return _append_sticky(state, now)
    return _append_uniform_sticky(state, now)


def _append_round_robin(state: _State, now: int) -> int:
    partition = (state.counter & 0x7FFFFFFF) % state.config.partitions
    state.counter += 1
    _add_record(state, partition, now)
    return partition


def _append_sticky(state: _State, now: int) -> int:
    """KIP-480: ``abortOnNewBatch`` -> ``onNewBatch`` picks another partition, then append there."""
    if state.sticky < 0:
        state.sticky = _random_other(state, -1)
    elif not _has_room(state.queues[state.sticky], state.config.message_bytes):
        state.sticky = _random_other(state, state.sticky)
        state.switches += 1
    _add_record(state, state.sticky, now)
    return state.sticky


def _random_other(state: _State, previous: int) -> int:
    """``StickyPartitionCache.nextPartition``: random, different from the previous when possible."""
    n = state.config.partitions
    if n == 1:
        return 0
    while True:
        choice = int(state.rng.integers(0, n))
        if choice != previous:
            return choice


def _append_uniform_sticky(state: _State, now: int) -> int:
    """KIP-794: switch once ``batch.size`` bytes went to the partition and its batch is full (cap 2x)."""
    cfg = state.config
    if state.sticky < 0:
        state.sticky = _weighted_next(state)
    elif state.produced_bytes >= cfg.batch_size and _all_batches_full(state.queues[state.sticky]):
        _switch(state)  # RecordAccumulator.append: the switch deferred while the batch was open
    partition = state.sticky
    _add_record(state, partition, now)
    state.produced_bytes += cfg.message_bytes
    batches_full = _all_batches_full(state.queues[partition])
    if (state.produced_bytes >= cfg.batch_size and batches_full) or state.produced_bytes >= 2 * cfg.batch_size:
        _switch(state)
    return partition


def _switch(state: _State) -> None:
    state.sticky = _weighted_next(state)
    state.produced_bytes = 0
    state.switches += 1


def _weighted_next(state: _State) -> int:
    """``BuiltInPartitioner.nextPartition``: uniform, or weighted by the inverted queue sizes."""
    random = int(state.rng.integers(0, 2**31))
    if state.weights is None:
        return random % state.config.partitions
    table = state.weights
    return int(np.searchsorted(table, random % int(table[-1]), side="right"))


def _load_stats(queue_sizes: list[int]) -> np.ndarray | None:
    """``updatePartitionLoadStats``: cumulative ``max+1 - size`` table, None when all equal."""
    if len(queue_sizes) < 2 or len(set(queue_sizes)) == 1:
        return None
    sizes = np.asarray(queue_sizes, dtype=np.int64)
    return np.cumsum(sizes.max() + 1 - sizes)


# --------------------------------------------------------------------------- sender


def _ready(batch: _Batch, queue_len: int, now: int, linger_ms: int) -> bool:
    return batch.full or queue_len > 1 or now - batch.created_ms >= linger_ms


def _send(
    state: _State,
    now: int,
    by_broker: list[list[int]],
    in_flight: list[list[float]],
    batches_sent: np.ndarray,
    bytes_sent: np.ndarray,
) -> None:
    """One sender loop: complete requests, then drain one ready batch per partition per request."""
    cfg = state.config
    for broker, partitions in enumerate(by_broker):
        pending = [t for t in in_flight[broker] if t > now]
        in_flight[broker] = pending
        if len(pending) >= cfg.max_in_flight:
            continue
        drained = False
        for p in partitions:
            queue = state.queues[p]
            if queue and _ready(queue[0], len(queue), now, cfg.linger_ms):
                batch = queue.popleft()
                batches_sent[p] += 1
                bytes_sent[p] += batch.bytes
                drained = True
        if drained:
            pending.append(now + cfg.broker_latency_ms[broker])
