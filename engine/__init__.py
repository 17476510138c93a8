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
    "replay": "engine.group", "assign_once": "engine.group", "ReplayResult": "engine.group",
    "StepResult": "engine.group", "violations": "engine.assignors.invariants",
    # KIP-848 server assignors, replicas
    "server_assign": "engine.assignors.server", "assign_replicas_to_brokers": "engine.replicas",
    # keys
    "murmur2": "engine.hashing", "partition_for_key": "engine.hashing", "partitions_for_arrow": "engine.hashing",
    "coordinator_partition": "engine.hashing",
}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
