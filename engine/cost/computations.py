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

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from engine.cost.constants import MODELS
from engine.cost.model import Estimate, evaluate
from engine.cost.terms import share_model


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


def share_delivery_features(events: int, in_flight: int, batches: int = 0) -> dict[str, float]:
    """Reading a ``share-deliver`` case and running it: each event (read, then applied), each event x the
    window's records (the walks over the in-flight batches), each log batch (read, then put in the log)."""
    return {"events": events, "event_locks": events * in_flight, "in_flight": in_flight, "batches": batches}


def share_answer_features(events: int, in_flight: int) -> dict[str, float]:
    """``share-deliver``'s answer: each step's result and state however small (``events``), and one run per
    record of the window at worst (``cells``).  The log's batches are the reading and running of the case
    (``share_delivery_features``), done once by the command."""
    return {"events": events, "cells": events * in_flight}


def streams_assignment_features(members: int, processes: int, tasks: int, stateful_tasks: int, standby_replicas: int,
                                previous_active: int = 0, previous_standby: int = 0) -> dict[str, float]:
    """One ``StickyTaskAssignor`` call (``streams-assign``) as its model reads it, ``P`` processes and ``R`` the
    standby replicas a stateful task can get (``min(standby_replicas, P - 1)``: never two copies on a process):

    - ``members``: each member read, ordered (a ``String.hashCode`` of its id) and answered;
    - ``previous``: each previous active or standby task listed, read and put in the previous owners' maps;
    - ``placements``: each active task and placed standby replica (``tasks + stateful_tasks x R``);
    - ``heap_steps``: the process heap's polls, ``log2(P + 1)`` levels each: one per active task, and for the
      replicas of a stateful task the polls until a process without the task comes up.  Counted as if each
      poll drew a process at random: the ``i``-th replica (``i`` holders) expects ``(P + 1) / (P + 1 - i)``
      polls, ``(P + 1) x ln((P + 1/2) / (P - R + 1/2))`` for the task's ``R`` replicas (counted in fresh and
      chained groups: 0.8 to 1.2 times that; the worst case, ``R²/2`` a task, is 10 to 35 times too many);
      a replica that finds no process (``standby_replicas >= P``) polls all ``P``;
    - ``standby_scans``: the previous standby owners each replica tried walks (``findPrevMemberWithLeastLoad``):
      every listed standby, once per replica, at most ``previous_standby x min(standby_replicas, P)``.

    >>> f = streams_assignment_features(members=200, processes=200, tasks=200, stateful_tasks=100,
    ...                                 standby_replicas=150)
    >>> f["placements"], round(f["heap_steps"] / math.log2(201))
    (15200.0, 27915)
    >>> streams_assignment_features(2, 1, 4, 4, 3)["heap_steps"]  # one process: every replica finds none
    8.0
    """
    p = max(processes, 1)
    reach = min(standby_replicas, p - 1)
    failing = p if standby_replicas > reach else 0  # the replica that finds no process polls them all
    polls = stateful_tasks * ((p + 1) * math.log((p + 0.5) / (p - reach + 0.5)) + failing)
    return {"members": float(members), "previous": float(previous_active + previous_standby),
            "placements": float(tasks + stateful_tasks * reach), "heap_steps": (tasks + polls) * math.log2(p + 1),
            "standby_scans": float(previous_standby * min(standby_replicas, p))}


@dataclass(frozen=True)
class ShareStepShape:
    """One share-assign step as its cost sees it (``engine.cost.share.share_step_shapes`` counts it): partitions,
    members, subscriptions (member-topic pairs, at least one per member), whether it takes the heterogeneous
    path, what its members carry in (``held``: member-partitions, given or answered by the previous step;
    ``held_topics``: member-topic pairs) and what they are answered (``answered``, ``answered_topics``)."""

    partitions: int
    members: int
    subscriptions: int
    differ: bool = False
    topics: int = 0
    held: float = 0.0
    held_topics: float = 0.0
    answered: float = 0.0
    answered_topics: float = 0.0


SHARE_FEATURES = ("partitions", "topics", "members", "subscriptions", "differing", "held", "held_topics", "answered",
                  "answered_topics", "peak")

# Relative weights of what a share assignment holds (bytes as tracemalloc counts them): each step keeps a
# member-partition it was given (a TopicPartition and its list entries) and one it answers; while a step runs, each
# member-topic pair it holds or answers has its sets, maps and working copies; the JSON answer writes a string
# per member-partition answered.  The fit scales their sum to the resident set (``peak``'s constant).
SHARE_KEPT_HELD: Final = 64.0
SHARE_KEPT_ANSWERED: Final = 72.0
SHARE_STEP_HELD_TOPIC: Final = 400.0
SHARE_STEP_ANSWERED_TOPIC: Final = 100.0
SHARE_JSON_ANSWERED: Final = 70.0


def share_assignment_features(steps: Sequence[ShareStepShape]) -> dict[str, float]:
    """Summed over the steps: ``partitions``, ``topics`` (visited), ``members``, ``subscriptions``, ``differing``
    (subscriptions on the heterogeneous path), ``held`` and ``held_topics`` (what members carry in),
    ``answered`` and ``answered_topics`` (what they are answered); and ``peak`` (``share_peak``).

    >>> f = share_assignment_features([ShareStepShape(100, 10, 20, True, answered=100, answered_topics=10),
    ...                                ShareStepShape(100, 9, 18, held=90, held_topics=9, answered=100)])
    >>> f["partitions"], f["differing"], f["held"], f["answered"]
    (200.0, 20.0, 90.0, 200.0)
    """
    total = dict.fromkeys(SHARE_FEATURES, 0.0)
    for step in steps:
        total["partitions"] += step.partitions
        total["topics"] += step.topics
        total["members"] += step.members
        total["subscriptions"] += step.subscriptions
        total["differing"] += step.subscriptions if step.differ else 0
        total["held"] += step.held
        total["held_topics"] += step.held_topics
        total["answered"] += step.answered
        total["answered_topics"] += step.answered_topics
    total["peak"] = share_peak(steps)
    return total


def share_peak(steps: Sequence[ShareStepShape]) -> float:
    """The most a share assignment holds at once, in the weights above: every step keeps its results until the
    answer is written, so the peak is, at the step where it is largest, what the earlier steps kept plus what
    that step works on, or at the end everything kept plus the JSON answer.

    >>> share_peak([ShareStepShape(10, 2, 2, answered=10, answered_topics=2)])
    1420.0
    """
    kept = peak = 0.0
    for s in steps:
        peak = max(peak, kept + SHARE_STEP_HELD_TOPIC * s.held_topics + SHARE_STEP_ANSWERED_TOPIC * s.answered_topics)
        kept += SHARE_KEPT_HELD * s.held + SHARE_KEPT_ANSWERED * s.answered
    return max(peak, kept + SHARE_JSON_ANSWERED * sum(s.answered for s in steps))


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


def estimate_striped(partitions: int, replication_factor: int, racks_walked: int = 0) -> Estimate:
    """A KRaft controller's ``StripedReplicaPlacer``: the replicas' estimate, each rack it may walk past per
    partition (``racks_walked`` in ``engine.metadata.placement.striped``) adding a replica's seconds (measured at
    about a seventh of that: an upper bound) and no memory.

    >>> estimate_striped(1_000, 3, 2).drivers
    '1,000 partitions x replication factor 3, up to 2 racks walked past per partition'
    """
    seconds = estimate_replicas(partitions, max(replication_factor, 0) + racks_walked).seconds
    drivers = f"{partitions:,} partitions x replication factor {replication_factor}"
    return replace(estimate_replicas(partitions, replication_factor), seconds=seconds,
                   drivers=drivers + (f", up to {racks_walked:,} racks walked past per partition"
                                      if racks_walked else ""))


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


def estimate_share_assignment(steps: Sequence[ShareStepShape], assignor: str = "simple") -> Estimate:
    """A share-group assignor (KIP-932's ``SimpleAssignor``, ``simple``) over every step
    (``share_assignment_features``), the drivers naming the largest step and, when they outweigh the partitions,
    what members hold and are answered.

    >>> estimate_share_assignment([ShareStepShape(10, 300, 300, True, held=3_000_000, answered=3_000_000)]).drivers
    '10 partitions x 300 members (share group, differing subscriptions), 1 step, 3,000,000 partitions held'
    """
    largest = max(steps, key=lambda s: (s.partitions, s.members), default=ShareStepShape(0, 0, 0))
    features = share_assignment_features(steps)
    held = (f", {features['held']:,.0f} partitions held" if features["held"] > 2 * features["partitions"]
            else f", {features['answered']:,.0f} member-partitions answered"
            if features["answered"] > 2 * features["partitions"] else "")
    return evaluate(MODELS[share_model(assignor)], features,
                    f"{largest.partitions:,} partitions x {largest.members:,} members (share group"
                    + (", differing subscriptions" if largest.differ else "")
                    + f"), {len(steps):,} step{'s' if len(steps) != 1 else ''}" + held)


def estimate_share_delivery(events: int, in_flight: int, batches: int = 0) -> Estimate:
    """A share partition's record delivery: the case read and run (``SharePartition`` under ``events`` events),
    its in-flight window at most ``in_flight`` records (``window_cap``), its log ``batches`` log batches (the
    log's and the produced ones)."""
    return evaluate(MODELS["share_delivery"], share_delivery_features(events, in_flight, batches),
                    f"{events:,} delivery events over {in_flight:,} in-flight records"
                    + (f", {batches:,} log batches" if batches else ""))


def estimate_share_deliver_command(events: int, in_flight: int, batches: int = 0) -> Estimate:
    """``python -m engine share-deliver``: the case read and run (``estimate_share_delivery``) and its answer
    (``estimate_share_deliver_answer``) built while the run's steps are held, the drivers of the dearer part.

    >>> estimate_share_deliver_command(3_000_000, 0).drivers
    "3,000,000 delivery events x 0 in-flight records, each step's state written"
    """
    run, answer = estimate_share_delivery(events, in_flight, batches), estimate_share_deliver_answer(events, in_flight)
    both = run.holding(answer)
    return both if run.seconds >= answer.seconds else replace(both, drivers=answer.drivers)


def estimate_share_deliver_answer(events: int, in_flight: int) -> Estimate:
    """``share-deliver``'s answer, which writes the partition's state after every event: each step's result and
    state (``events``) and at most one run per record of the window, so ``events x in_flight`` cells at worst.
    Fitted on that worst case (every other offset released: one run per record) and on steps with an empty
    window (ticks), it is an upper bound; a typical run's state merges into far fewer runs.  The peak holds every
    step's state and the JSON text twice (the encoder's pieces and the joined text)."""
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
