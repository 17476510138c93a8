"""Kafka Partition Lab engine: pure, typed Python that computes what real Apache Kafka computes.

Never imports streamlit; pyspark only inside ``engine.spark`` (imported lazily).  The public API
below is loaded on first use, so ``python -m engine hash`` never pays for the assignors' imports.

    from engine import parse_scenario, replay
    result = replay(parse_scenario({...}), "cooperative-sticky")
"""

from __future__ import annotations

import importlib
from typing import Any

_PUBLIC = {
    # scenario model
    "Scenario": "engine.scenario", "GroupState": "engine.scenario", "Member": "engine.scenario",
    "TopicPartition": "engine.scenario", "parse_scenario": "engine.scenario", "loads_scenario": "engine.scenario",
    "dumps_scenario": "engine.scenario", "scenario_to_json": "engine.scenario", "STRATEGIES": "engine.scenario",
    # errors
    "EngineError": "engine.errors", "ScenarioError": "engine.errors", "LimitError": "engine.errors",
    # client assignment over rebalances
    "replay": "engine.consumer.group", "assign_once": "engine.consumer.group", "ReplayResult": "engine.consumer.group",
    "StepResult": "engine.consumer.group", "violations": "engine.consumer.invariants",
    # KIP-848 server assignors, replicas
    "server_assign": "engine.coordinator.target_assignment", "assign_replicas_to_brokers": "engine.server.replicas",
    # keys
    "murmur2": "engine.producer.murmur2", "partition_for_key": "engine.producer.murmur2",
    "partitions_for_arrow": "engine.producer.arrow",
    "coordinator_partition": "engine.coordinator.offsets_partition",
}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
