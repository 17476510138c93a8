"""Estimates of the computations without a scenario, from the counts that drive them.

>>> estimate_hash(keys=1_000, partition_counts=3).drivers
'1,000 keys x 3 partition counts'
>>> estimate_share_delivery(events=10, in_flight=2_000).drivers
'10 delivery events over 2,000 in-flight records'
"""

from __future__ import annotations

from engine.cost.constants import MODELS
from engine.cost.model import Estimate, evaluate


def estimate_replicas(partitions: int, replication_factor: int, scan: int = 0) -> Estimate:
    """``AdminUtils`` placement: one unit per replica, plus ``scan`` brokers walked past per replica on
    uneven racks (``engine.budgets.replica_scan``)."""
    replicas = max(partitions, 0) * max(replication_factor, 0)
    return evaluate(MODELS["replicas"], {"replicas": replicas, "replica_scan": replicas * scan},
                    f"{partitions:,} partitions x replication factor {replication_factor}"
                    + (f", {scan:,} brokers scanned per replica" if scan else ""))


def estimate_wheel(tasks: int, levels: int) -> Estimate:
    """The timing wheel in virtual time: each task cascades through at most ``levels`` wheels."""
    return evaluate(MODELS["wheel"], {"tasks": tasks, "task_levels": tasks * levels},
                    f"{tasks:,} timer tasks x {levels} wheel levels")


def estimate_hash(keys: int, partition_counts: int) -> Estimate:
    """murmur2 of each key, then one answer cell per key and partition count."""
    return evaluate(MODELS["hash"], {"keys": keys, "cells": keys * partition_counts},
                    f"{keys:,} keys x {partition_counts:,} partition counts")


def estimate_coordinator(group_ids: int, utf16_units: int) -> Estimate:
    """``__consumer_offsets`` partitions of group ids: Java's ``hashCode`` over every character."""
    return evaluate(MODELS["coordinator"], {"ids": group_ids, "units": utf16_units},
                    f"{group_ids:,} group ids, {utf16_units:,} characters")


def estimate_produce(records: int, faults: int) -> Estimate:
    """The idempotent producer's replay: sends, retries and responses of ``records`` under ``faults``."""
    return evaluate(MODELS["produce"], {"records": records, "faults": faults},
                    f"{records:,} records with {faults:,} faults")


def estimate_partition_log(records: int, batches: int, compactions: int = 0) -> Estimate:
    """A partition's log: appends, rolls, indexes; each compaction or retention action reads the log again."""
    return evaluate(MODELS["log"], {"records": records, "batches": batches, "compactions": compactions * records},
                    f"{records:,} records in {batches:,} batches, {compactions} cleaner actions")


def estimate_import(text_bytes: int) -> Estimate:
    """Parsing a Kafka tool's output (a paste or a file) into a scenario."""
    return evaluate(MODELS["import"], {"text_bytes": text_bytes}, f"{text_bytes:,} bytes of tool output")


def estimate_share_assignment(members: int, partitions: int, steps: int) -> Estimate:
    """KIP-932's share-group assignor over ``steps`` steps."""
    return evaluate(MODELS["share_assign"], {"partitions": partitions * steps, "pm": partitions * members * steps},
                    f"{partitions:,} partitions x {members:,} share consumers, {steps:,} steps")


def estimate_share_delivery(events: int, in_flight: int) -> Estimate:
    """A share partition's acquisition locks under ``events`` deliveries with ``in_flight`` records locked."""
    return evaluate(MODELS["share_delivery"], {"events": events, "event_locks": events * in_flight,
                                               "in_flight": in_flight},
                    f"{events:,} delivery events over {in_flight:,} in-flight records")
