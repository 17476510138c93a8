"""Estimates of the computations without a scenario, from the counts that drive them.

Each ``*_features`` function names the counts its model (``engine.cost.terms``) reads; the shape helpers
(``wheel_levels``, ``replica_scan``, ``utf16_length``) turn an input into those counts.

>>> estimate_hash(keys=1_000, partition_counts=3).drivers
'1,000 keys x 3 partition counts'
>>> wheel_levels(1, 2, 2**40), wheel_levels(1, 20, 25)
(41, 2)
>>> replica_scan(["a"] * 3 + ["b"] * 10), utf16_length("\U0001f600a")
(7, 3)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cost.constants import MODELS
from engine.cost.model import Estimate, evaluate


def wheel_levels(tick_ms: int, wheel_size: int, max_delay_ms: int) -> int:
    """Wheels Kafka's ``TimingWheel`` may create for a delay: level ``k`` ticks every ``tick x size^k`` ms
    and spans ``tick x size^(k+1)``; its current time lags the clock by less than one of its ticks, so a
    delay ``d`` surely fits level ``k`` once ``d + tick_k - 1 < span_k`` (an upper bound, exceeding the
    levels a run creates by at most one).
    """
    levels, tick, span = 1, tick_ms, tick_ms * wheel_size
    while max_delay_ms + tick - 1 >= span:
        tick, span = span, span * wheel_size
        levels += 1
    return levels


def replica_scan(racks: Sequence[str | None]) -> int:
    """Brokers the rack-aware placement may walk past per replica: those beyond the smallest rack's share
    (``brokers - racks x smallest rack``); 0 when any broker has no rack (rack-unaware placement)."""
    if not racks or any(r is None for r in racks):
        return 0
    sizes = Counter(racks).values()
    return len(racks) - len(sizes) * min(sizes)


def utf16_length(text: str) -> int:
    """``String.length()`` in Java: UTF-16 code units (a character beyond U+FFFF counts 2)."""
    return len(text) if text.isascii() else len(text.encode("utf-16-le", "surrogatepass")) // 2


def protocol_features(members: int) -> dict[str, float]:
    return {"members": members}


def replicas_features(partitions: int, replication_factor: int, scan: int) -> dict[str, float]:
    replicas = max(partitions, 0) * max(replication_factor, 0)
    return {"replicas": replicas, "replica_scan": replicas * scan}


def wheel_features(tasks: int, levels: int) -> dict[str, float]:
    return {"tasks": tasks, "task_levels": tasks * levels, "task_levels2": tasks * levels * levels}


def wheel_costs_features(tasks: int, levels: int) -> dict[str, float]:
    return {"tasks": tasks, "task_levels": tasks * levels}


def hash_features(keys: int, partition_counts: int) -> dict[str, float]:
    return {"keys": keys, "cells": keys * partition_counts}


def coordinator_features(group_ids: int, utf16_units: int) -> dict[str, float]:
    return {"ids": group_ids, "units": utf16_units}


def produce_features(records: int, faults: int) -> dict[str, float]:
    return {"records": records, "faults": faults}


def log_features(records: int, batches: int, compactions: int) -> dict[str, float]:
    return {"records": records, "batches": batches, "compactions": compactions * records}


def import_features(text_bytes: int) -> dict[str, float]:
    return {"text_bytes": text_bytes}


def load_features(input_bytes: int, fmt: str, partition_counts: Sequence[int], assigned: int,
                  start: bool = True) -> dict[str, float]:
    """``start``: Spark's session start and its first job's warm-up (Python workers, numba's kernel), 1 when
    Spark is not running yet; the input's bytes by format (a Parquet byte holds about five times the records a
    CSV or JSON byte does); each partition count after the first reads those bytes' keys again
    (``extra_count_bytes``); ``assigned``: the rows of the consumers' assignments (partitions x consumer counts
    x strategies) sent to Spark."""
    text = 0 if fmt == "parquet" else input_bytes
    return {"start": float(start), "parquet_bytes": input_bytes - text, "text_bytes": text,
            "extra_count_bytes": input_bytes * max(len(partition_counts) - 1, 0), "assigned": assigned}


def share_delivery_features(events: int, in_flight: int) -> dict[str, float]:
    return {"events": events, "event_locks": events * in_flight, "in_flight": in_flight}


def share_answer_features(events: int, in_flight: int) -> dict[str, float]:
    return {"cells": events * in_flight}


@dataclass(frozen=True)
class ShareStepShape:
    """One share-assign step as its cost sees it: partitions, members, subscriptions (member-topic pairs, at
    least one per member), whether subscriptions differ (the heterogeneous path), the partitions its members are
    given as held, and whether members hold what the previous step answered them (``chained``: not known before
    work)."""

    partitions: int
    members: int
    subscriptions: int
    differ: bool = False
    held: int = 0
    chained: bool = True


def share_assignment_features(steps: Sequence[ShareStepShape]) -> dict[str, float]:
    """Summed over the steps: ``partitions``, ``subscriptions``, ``differing`` (subscriptions on the
    heterogeneous path) and ``held``; a chained step holds what the previous step answered, at most about its
    partitions + members (each member's hashed partition beside the partitions given out once)."""
    total = {"partitions": 0.0, "subscriptions": 0.0, "differing": 0.0, "held": 0.0}
    previous: ShareStepShape | None = None
    for step in steps:
        chained = 0 if previous is None or not step.chained else previous.partitions + previous.members
        total["partitions"] += step.partitions
        total["subscriptions"] += step.subscriptions
        total["differing"] += step.subscriptions if step.differ else 0
        total["held"] += step.held + chained
        previous = step
    return total


def estimate_protocol_walkthrough(members: int) -> Estimate:
    """The JoinGroup/SyncGroup walkthrough of ``members`` (the Group Protocol page's table)."""
    return evaluate(MODELS["protocol_timeline"], protocol_features(members),
                    f"{members:,} members' JoinGroup and SyncGroup")


def estimate_replicas(partitions: int, replication_factor: int, scan: int = 0) -> Estimate:
    """``AdminUtils`` placement: one unit per replica, plus ``scan`` brokers walked past per replica on
    uneven racks (``replica_scan``)."""
    return evaluate(MODELS["replicas"], replicas_features(partitions, replication_factor, scan),
                    f"{partitions:,} partitions x replication factor {replication_factor}"
                    + (f", {scan:,} brokers scanned per replica" if scan else ""))


def estimate_wheel(tasks: int, levels: int) -> Estimate:
    """The timing wheel in virtual time: each task cascades through at most ``levels`` wheels."""
    return evaluate(MODELS["wheel"], wheel_features(tasks, levels), f"{tasks:,} timer tasks x {levels} wheel levels")


def estimate_wheel_costs(tasks: int, levels: int) -> Estimate:
    """The Timing Wheel page's cost measurement: ``tasks`` inserted and drained on the untraced wheel (at most
    ``levels`` wheels) and on a binary heap."""
    return evaluate(MODELS["wheel_costs"], wheel_costs_features(tasks, levels),
                    f"{tasks:,} tasks on a timing wheel of {levels} levels and a heap")


def estimate_hash(keys: int, partition_counts: int) -> Estimate:
    """murmur2 of each key, then one answer cell per key and partition count."""
    return evaluate(MODELS["hash"], hash_features(keys, partition_counts),
                    f"{keys:,} keys x {partition_counts:,} partition counts")


def estimate_placements(keys: int) -> Estimate:
    """The Keys page: one partitioner's partitions of ``keys`` (vectorised murmur2 over Arrow buffers)."""
    return evaluate(MODELS["placements"], {"keys": keys}, f"{keys:,} keys placed")


def estimate_remap(keys: int, partition_counts: int) -> Estimate:
    """The Keys page's remap curve: the share of ``keys`` moving to each of ``partition_counts`` counts."""
    return evaluate(MODELS["remap"], hash_features(keys, partition_counts),
                    f"{keys:,} keys x {partition_counts:,} partition counts (remap curve)")


def estimate_coordinator(group_ids: int, utf16_units: int) -> Estimate:
    """``__consumer_offsets`` partitions of group ids: Java's ``hashCode`` over every character."""
    return evaluate(MODELS["coordinator"], coordinator_features(group_ids, utf16_units),
                    f"{group_ids:,} group ids, {utf16_units:,} characters")


def estimate_produce(records: int, faults: int) -> Estimate:
    """The idempotent producer's replay: sends, retries and responses of ``records`` under ``faults``."""
    return evaluate(MODELS["produce"], produce_features(records, faults),
                    f"{records:,} records with {faults:,} faults")


def estimate_partition_log(records: int, batches: int, compactions: int = 0) -> Estimate:
    """A partition's log: appends, rolls, indexes; each cleaner action reads the log again."""
    return evaluate(MODELS["log"], log_features(records, batches, compactions),
                    f"{records:,} records in {batches:,} batches, {compactions} cleaner actions")


def estimate_import(text_bytes: int) -> Estimate:
    """Parsing a Kafka tool's output (a paste or a file) into a scenario."""
    return evaluate(MODELS["import"], import_features(text_bytes), f"{text_bytes:,} bytes of tool output")


def estimate_share_assignment(steps: Sequence[ShareStepShape]) -> Estimate:
    """KIP-932's share-group ``SimpleAssignor`` over every step (``share_assignment_features``)."""
    largest = max(steps, key=lambda s: (s.partitions, s.members), default=ShareStepShape(0, 0, 0))
    return evaluate(MODELS["share_assign"], share_assignment_features(steps),
                    f"{largest.partitions:,} partitions x {largest.members:,} members (share group"
                    + (", differing subscriptions" if largest.differ else "")
                    + f"), {len(steps):,} step{'s' if len(steps) != 1 else ''}")


def estimate_share_delivery(events: int, in_flight: int) -> Estimate:
    """A share partition's record delivery (``SharePartition`` under ``events`` events), its in-flight window
    at most ``in_flight`` records (``window_cap``)."""
    return evaluate(MODELS["share_delivery"], share_delivery_features(events, in_flight),
                    f"{events:,} delivery events over {in_flight:,} in-flight records")


def estimate_share_deliver_answer(events: int, in_flight: int) -> Estimate:
    """``share-deliver``'s answer, which writes the partition's state after every event: at most one run per
    record of the window, so ``events x in_flight`` cells at worst.  Fitted on that worst case (every other
    offset released: one run per record), it is an upper bound; a typical run's state merges into far fewer
    runs (measured: 4 to 80 times cheaper)."""
    return evaluate(MODELS["share_deliver_answer"], share_answer_features(events, in_flight),
                    f"{events:,} delivery events x {in_flight:,} in-flight records, each step's state written")


def estimate_load(input_bytes: int | None, fmt: str, partition_counts: Sequence[int], consumer_counts: int = 0,
                  strategies: int = 0, start: bool = True) -> Estimate:
    """The Spark load pipeline on this machine (``python -m engine load``, the Load page) from what is known
    before Spark starts: the input's size in bytes and format (``None``: read by Spark elsewhere, a cluster or
    Spark Connect: only this machine's part is estimated), the partition counts, the consumer counts x
    strategies assigned (on the driver), and ``start`` when Spark must start first.

    Measured (``python -m bench cost``, local[2], 2026-11-27 on the quiet 2-core machine): a run is linear in
    the input's bytes with a large constant.  Spark's start and its first job's warm-up cost about 13 s and
    1.8 GiB, every job about 3 s more, then about 0.14 s per MB of Parquet and 0.08 s per MB of CSV or JSON: a
    1 MB Parquet file (about 100,000 records) is about 17 s cold, 3 s once Spark runs.

    >>> a, b, c = (estimate_load(n * 10**6, "parquet", [12]).seconds for n in (1, 2, 3))
    >>> abs(round((c - b) - (b - a), 6))  # linear in the bytes
    0.0
    >>> warm = estimate_load(10**6, "parquet", [12], start=False)
    >>> round(a - warm.seconds, 6) == round(MODELS["load"]["seconds"].get("start", 0.0), 6)  # the start: a constant
    True
    >>> estimate_load(10**6, "csv", [12, 24]).drivers
    "1,000,000 bytes of csv, partition counts 12, 24, Spark's start"
    """
    size = input_bytes or 0
    assigned = sum(partition_counts) * consumer_counts * strategies
    where = f"{size:,} bytes of {fmt}" if input_bytes is not None else f"{fmt} read by Spark elsewhere"
    counts = ", ".join(map(str, partition_counts))
    return evaluate(MODELS["load"], load_features(size, fmt, partition_counts, assigned, start),
                    f"{where}, partition counts {counts}" + (", Spark's start" if start else ""))
