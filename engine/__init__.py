"""Kafka Partition Lab engine: pure, typed Python that computes what real Apache Kafka computes.

Never imports streamlit; pyspark only inside ``engine.spark`` (imported lazily).  This is the public API
the pages (and notebooks) import from: ``from engine import parse_scenario, replay``.  Names are loaded
on first use, so ``python -m engine hash`` never pays for the assignors' imports.  Figures are in
``engine.charts``, with the same kind of map.

    from engine import parse_scenario, replay
    result = replay(parse_scenario({...}), "cooperative-sticky")

The map below is also the table of contents: each name says where its concept lives.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS: dict[str, str] = {  # module -> the names it exports here; the map is also a table of contents
    # the scenario model and errors
    "engine.scenario": "Scenario GroupState Member TopicPartition parse_scenario loads_scenario "
                       "dumps_scenario scenario_to_json check_topic_name is_legal_topic_name "
                       "MAX_PARTITIONS_PER_TOPIC MAX_MEMBERS",
    "engine.errors": "EngineError ScenarioError LimitError",
    # client strategies (the registry), the assignment shape, the classic group protocol replayed
    "engine.consumer.strategies": "Strategy strategies strategy_of find_strategy STRATEGY_NAMES "
                                  "REBALANCE_PROTOCOLS",
    "engine.consumer.assignment": "Assignment owners moves count_moves revoked revoked_count records "
                                  "assignment_to_json assignment_from_json",
    "engine.consumer.group": "replay assign_once revocations ReplayResult StepResult",
    "engine.consumer.invariants": "violations",
    "engine.consumer.metrics": "BalanceMetrics balance_metrics",
    "engine.consumer.pause": "ProtocolTimings PauseReport pause_report MAX_TIMING_MS",
    "engine.consumer.events": "Timeline EVENT_KINDS EVENT_FIELDS make_event append_event default_events "
                              "free_member_id build_timeline step_labels",
    "engine.consumer.explain": "WHY CAPTIONS callouts_for config_line",
    "engine.consumer.protocol": "MemberProtocols Election Timeouts REBALANCE_TRIGGERS walkthrough "
                                "rolling_upgrade parse_strategy_lines find_coordinators sync_group_state "
                                "vote_rows walkthrough_rows upgrade_rows",
    "engine.consumer.membership": "RollingRestartConfig MAX_RESTART_MEMBERS restart_comparison_rows",
    # every assignor side by side: client strategies and KIP-848 server assignors
    "engine.comparison": "Assignor StepOutcome CLIENT SERVER ASSIGNORS ASSIGNMENT_ERRORS outcomes "
                         "balance_row rebalance_row",
    # the group coordinator: KIP-848 server assignors, the __consumer_offsets partition of a group
    "engine.coordinator.assignors": "ServerAssignor server_assignors server_assignor",
    "engine.coordinator.target_assignment": "server_assign",
    "engine.coordinator.offsets_partition": "coordinator_partition",
    # replicas and reassignment
    "engine.server.replicas": "Broker ReplicaPlacement KafkaAdminError assign_replicas_to_brokers "
                              "brokers_on_racks leadership_rows preferred_leaders elect_after_failure "
                              "preferred_leader_election leader_counts leader_skew leader_imbalance_ratio",
    "engine.server.reassignment": "check_decommission decommission_generate decommission_minimal "
                                  "reassignment_plan reassignment_json plan_summary",
    # the purgatory timer
    "engine.server.timer.model": "WheelConfig TaskSpec WheelTrace MAX_PAGE_TASKS MAX_PAGE_WHEEL_SIZE "
                                 "MAX_TICK_MS MAX_TRACED_TASKS MAX_WHEEL_SIZE MIN_WHEEL_SIZE",
    "engine.server.timer.cases": "case_to_dict trace_to_dict",
    "engine.server.timer.report": "task_rows cost_rows",
    "engine.server.timer.explain": "WHEEL_TEXTS",
    "engine.server.timer.workloads": "kafka_preset random_tasks parse_task_lines "
                                     "REQUEST_TIMEOUT_MS "
                                     "FETCH_MAX_WAIT_MS HEARTBEAT_INTERVAL_MS SESSION_TIMEOUT_MS",
    # keys
    "engine.producer.murmur2": "murmur2 partition_for_key",
    "engine.producer.arrow": "partitions_for_arrow",
    "engine.producer.partitioners": "PARTITIONERS UNHASHED client_partitions",
    "engine.producer.remap": "remap_share remap_curve client_disagreement expected_stay_share",
    "engine.producer.summary": "skew_rows hottest_rows null_key_rows",
}
_PUBLIC = {name: module for module, names in _EXPORTS.items() for name in names.split()}
_ALIASES = {  # public name -> (module, name in it) where the module's own name would be ambiguous here
    "validate_wheel": ("engine.server.timer.validation", "validate"),
    "validate_wheel_config": ("engine.server.timer.validation", "validate_config"),
}
_MODULES = {  # modules whose many small names are used together: ``from engine import sizing``
    "sizing": "engine.sizing",
    "keysample": "engine.producer.keysample",
    "null_keys": "engine.producer.null_keys",
    "presets": "engine.presets",
}

__all__ = sorted([*_PUBLIC, *_ALIASES, *_MODULES])


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        return importlib.import_module(_MODULES[name])
    if name in _ALIASES:
        module, attr = _ALIASES[name]
        return getattr(importlib.import_module(module), attr)
    if name not in _PUBLIC:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    return getattr(importlib.import_module(_PUBLIC[name]), name)
