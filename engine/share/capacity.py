"""Capacity: a consumer group with N partitions, or a share group with fewer partitions and more consumers?

For a target throughput ``T`` (records/s) and a processing time ``p`` (ms per record) the work needs
``C = ceil(T x p / 1000)`` consumers busy at once.  A **consumer group** gives each partition to one
consumer, so it needs ``N >= C`` partitions; each key stays in order.  A **share group** lets the ``C``
consumers share ``P < N`` partitions; what that costs is measured on the engine's own ``SharePartition``
(one share partition with its share of the consumers, one of them crashing part-way):

- the **in-flight limit** (``group.share.partition.max.record.locks``): no fetch is tried while the window
  holds that many records and none is AVAILABLE, and a fetch takes at most what the limit leaves, so about
  ``locks / max_records`` consumers can hold batches at once on one partition; consumers beyond that wait;
- a **crash**: the records the consumer held stay locked until ``share.record.lock.duration.ms`` runs out,
  then are delivered again (the records it had processed are processed twice);
- **order per key** is lost: records of one key are processed by several consumers at once.

>>> c = compare(CapacityInputs(target_rps=200, processing_ms=20, share_partitions=1, max_records=10))
>>> c.consumers_needed, c.consumer_group_partitions, c.share.consumers_per_partition
(4, 4, 4)
>>> c.share.concurrency_limit, c.share.measured.duplicates > 0, c.share.keys_out_of_order > 0
(200, True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from math import ceil
from typing import Final

from engine.errors import InputError
from engine.release import follows
from engine.share.consumers import SimulationRun, Workload, simulate
from engine.share.record_state import RecordState
from engine.share.settings import ShareSettings
from engine.share.summary import DeliverySummary, summarize

MAX_TARGET_RPS: Final = 10_000_000
MAX_SIMULATED_RECORDS: Final = 4_000
BATCHES_PER_CONSUMER: Final = 4  # the measured run gives each consumer about this many fetches
KEYS: Final = 100


@dataclass(frozen=True)
class CapacityInputs:
    target_rps: float
    processing_ms: float
    share_partitions: int
    max_records: int = 500
    settings: ShareSettings = field(default_factory=ShareSettings)

    def check(self) -> None:
        if not 0 < self.target_rps <= MAX_TARGET_RPS:
            raise InputError(f"target throughput: {self.target_rps:g} records/s is outside (0, {MAX_TARGET_RPS:,}]")
        if not 0 < self.processing_ms <= 600_000:
            raise InputError(f"processing time: {self.processing_ms:g} ms is outside (0, 600,000]")
        if not 1 <= self.share_partitions <= 10_000:
            raise InputError(f"share group partitions: {self.share_partitions} is outside 1..10,000")
        if not 1 <= self.max_records <= 10_000:
            raise InputError(f"max_records: {self.max_records} is outside 1..10,000")


@dataclass(frozen=True)
class ShareOption:
    partitions: int
    consumers_per_partition: int
    concurrency_limit: int  # consumers one share partition keeps busy at once under the in-flight limit
    partitions_needed: int  # fewest share partitions whose in-flight limits let all the consumers work
    capped: bool  # more consumers per partition than the in-flight limit lets work
    measured_rps: float  # the whole group: partitions x one partition's measured throughput
    lock_longer_than_batch: bool  # False when a fetched batch takes longer to process than its lock
    keys_out_of_order: int
    measured: DeliverySummary  # one share partition, one consumer crashing part-way


@dataclass(frozen=True)
class CapacityComparison:
    inputs: CapacityInputs
    consumers_needed: int
    consumer_group_partitions: int
    share: ShareOption
    kafka: str = follows("share-deliver")


def compare(inputs: CapacityInputs) -> CapacityComparison:
    inputs.check()
    consumers = consumers_needed(inputs)
    return CapacityComparison(inputs, consumers, consumers, _share_option(inputs, consumers))


def consumers_needed(inputs: CapacityInputs) -> int:
    """``ceil(T x p / 1000)``: the consumers the work keeps busy at once (at least one)."""
    return max(1, ceil(inputs.target_rps * inputs.processing_ms / 1000 - 1e-9))


def _in_flight_limit(inputs: CapacityInputs) -> int:
    return max(1, ceil(inputs.settings.max_record_locks / inputs.max_records))


def measured_workload(inputs: CapacityInputs) -> Workload:
    """The share partition ``compare`` simulates, undisturbed: its share of the consumers (those past the in-flight
    limit only poll, so one of them is simulated, at most 200 in all), enough records for a few fetches each."""
    per_partition = ceil(consumers_needed(inputs) / inputs.share_partitions)
    limit = _in_flight_limit(inputs)
    simulated = min(per_partition, limit + 1, 200)
    records = min(MAX_SIMULATED_RECORDS, simulated * inputs.max_records * BATCHES_PER_CONSUMER)
    processing = max(1, round(inputs.processing_ms))
    expected_ms = records * processing // min(simulated, limit)
    horizon = 3 * expected_ms + 4 * inputs.settings.lock_duration_ms
    return Workload(records=records, log_batch=1, keys=KEYS, consumers=simulated, max_records=inputs.max_records,
                    processing_ms=processing, failure=None, settings=inputs.settings, horizon_ms=horizon)


def _share_option(inputs: CapacityInputs, consumers: int) -> ShareOption:
    """One share partition with its share of the consumers, simulated twice: undisturbed (its throughput),
    then with C1 crashing a third of the way through (what the crash costs)."""
    per_partition = ceil(consumers / inputs.share_partitions)
    limit = _in_flight_limit(inputs)
    base = measured_workload(inputs)
    simulated = base.consumers
    steady = simulate(base)
    rate = steady_rate(steady)
    crashed = summarize(simulate(replace(base, failure="crash", failing_member="C1",
                                         failure_ms=max(1, steady.end_ms // 3))))
    return ShareOption(
        partitions=inputs.share_partitions, consumers_per_partition=per_partition, concurrency_limit=limit,
        partitions_needed=ceil(consumers / limit),
        capped=per_partition > limit,
        measured_rps=rate * inputs.share_partitions * _scale(per_partition, simulated, limit),
        lock_longer_than_batch=inputs.max_records * inputs.processing_ms < inputs.settings.lock_duration_ms,
        keys_out_of_order=crashed.keys_out_of_order, measured=crashed)


def _scale(per_partition: int, simulated: int, limit: int) -> float:
    """A partition's measured rate to its real consumer count: only consumers under the limit add work."""
    return min(per_partition, limit) / min(simulated, limit)


def steady_rate(run: SimulationRun) -> float:
    """Records/s acknowledged while every consumer still had work: those accepted by the last fetch that
    acquired anything, over its time (the run's tail, where consumers run dry, is left out)."""
    if not run.deliveries:
        return 0.0
    cutoff = run.deliveries[-1][0]
    if cutoff <= 0:
        return summarize(run).processed / max(run.end_ms, 1) * 1000
    accepted = {o.first: o for o in run.outcomes}
    done = sum(o.last - o.first + 1 for o in accepted.values()
               if o.state is RecordState.ACKNOWLEDGED and o.at_ms <= cutoff)
    return done / cutoff * 1000
