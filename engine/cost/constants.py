"""Fitted constants of the cost model (first rough constants; ``python -m bench cost --write`` replaces them).

Per computation: ``seconds`` and ``bytes`` per unit of each shape feature (``"1"``: the constant term).
"""

from __future__ import annotations

RUN = "first rough constants, not yet measured"

UNMEASURED: frozenset[str] = frozenset({"share_assign", "share_delivery"})

MODELS: dict[str, dict[str, dict[str, float]]] = {
    "assign.java.range": {"seconds": {"1": 0.001, "partitions": 1.5e-6, "subscriptions": 1e-6},
                          "bytes": {"1": 0, "partitions": 200.0}},
    "assign.java.roundrobin": {"seconds": {"1": 0.001, "partitions": 1.5e-6, "scan": 1e-7, "subscriptions": 1e-6},
                               "bytes": {"1": 0, "partitions": 200.0}},
    "assign.java.sticky": {"seconds": {"1": 0.001, "partitions": 4e-6, "subscriptions": 1e-6, "general": 5e-8},
                           "bytes": {"1": 0, "partitions": 400.0, "general_peak": 8.0}},
    "assign.java.cooperative-sticky": {"seconds": {"1": 0.001, "partitions": 8e-6, "subscriptions": 2e-6,
                                                   "general": 1e-7},
                                       "bytes": {"1": 0, "partitions": 500.0, "general_peak": 8.0}},
    "assign.librdkafka.range": {"seconds": {"1": 0.001, "partitions": 2e-6, "subscriptions": 1e-6, "racked": 6e-7},
                                "bytes": {"1": 0, "partitions": 300.0}},
    "assign.librdkafka.roundrobin": {"seconds": {"1": 0.001, "partitions": 2e-6, "scan": 1e-7,
                                                 "subscriptions": 1e-6},
                                     "bytes": {"1": 0, "partitions": 300.0}},
    "assign.librdkafka.cooperative-sticky": {"seconds": {"1": 0.001, "partitions": 1e-5, "pm": 3e-6},
                                             "bytes": {"1": 0, "partitions": 500.0, "pm_peak": 16.0}},
    "server.uniform": {"seconds": {"1": 0.001, "partitions": 4.5e-6, "subscriptions": 1e-6},
                       "bytes": {"1": 0, "partitions": 400.0}},
    "server.range": {"seconds": {"1": 0.001, "partitions": 4e-6, "subscriptions": 1e-6},
                     "bytes": {"1": 0, "partitions": 400.0}},
    "protocol_timeline": {"seconds": {"1": 0.002, "members": 2e-5}, "bytes": {"1": 0, "members": 2000.0}},
    "replicas": {"seconds": {"1": 0.001, "replicas": 1e-6, "replica_scan": 5e-7}, "bytes": {"1": 0, "replicas": 150.0}},
    "wheel": {"seconds": {"1": 0.001, "tasks": 5e-6, "task_levels": 5e-6}, "bytes": {"1": 0, "tasks": 500.0}},
    "hash": {"seconds": {"1": 0.001, "keys": 2e-6, "cells": 3e-7}, "bytes": {"1": 0, "cells": 100.0}},
    "coordinator": {"seconds": {"1": 0.001, "units": 5e-8, "ids": 1e-6}, "bytes": {"1": 0, "ids": 200.0}},
    "produce": {"seconds": {"1": 0.002, "records": 5e-5, "faults": 1e-4}, "bytes": {"1": 0, "records": 5000.0}},
    "log": {"seconds": {"1": 0.002, "records": 5e-6, "batches": 2e-5, "compactions": 5e-6},
            "bytes": {"1": 0, "records": 300.0}},
    "import": {"seconds": {"1": 0.002, "text_bytes": 5e-7}, "bytes": {"1": 0, "text_bytes": 40.0}},
    "share_assign": {"seconds": {"1": 0.001, "partitions": 3e-6, "pm": 1e-8},
                     "bytes": {"1": 0, "partitions": 300.0}},
    "share_delivery": {"seconds": {"1": 0.001, "events": 1e-5, "event_locks": 1e-8},
                       "bytes": {"1": 0, "in_flight": 500.0, "events": 100.0}},
}
