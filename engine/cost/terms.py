"""Which shape features drive each computation's seconds and peak bytes: one registry, read by the model
(``engine.cost.model.evaluate`` through the fitted constants) and by the fit (``python -m bench cost``).

A model name is ``assign.<client>.<strategy>``, ``server.<assignor>`` or the computation's name; ``"1"`` is
the constant term.  The features are those ``engine.cost.shape`` (scenarios) and
``engine.cost.computations`` (counts) compute:

>>> TERMS["assign.java.sticky"][0]
['1', 'partitions', 'subscriptions', 'general']
"""

from __future__ import annotations

from typing import Final

_RANGE = (["1", "partitions", "subscriptions"], ["1", "partitions"])
_ROUNDROBIN = (["1", "partitions", "subscriptions", "scan"], ["1", "partitions"])
_STICKY = (["1", "partitions", "subscriptions", "general"], ["1", "partitions", "general_peak"])
_SERVER = (["1", "partitions", "subscriptions", "general"], ["1", "partitions"])

TERMS: Final[dict[str, tuple[list[str], list[str]]]] = {
    "assign.java.range": _RANGE,
    "assign.java.roundrobin": _ROUNDROBIN,
    "assign.java.sticky": _STICKY,
    "assign.java.cooperative-sticky": _STICKY,
    "assign.librdkafka.range": (["1", "partitions", "subscriptions", "racked"], ["1", "partitions"]),
    "assign.librdkafka.roundrobin": _ROUNDROBIN,
    "assign.librdkafka.cooperative-sticky": (["1", "partitions", "pm", "pairs"],
                                             ["1", "partitions", "pm_peak", "pairs_peak"]),
    "server.uniform": _SERVER,
    "server.range": _SERVER,
    "cli_io": (["1", "subscriptions", "output_partitions"], ["1", "output_partitions"]),
    "rolling_restart": (["1", "replays", "pauses"], ["1", "replays"]),
    "protocol_timeline": (["1", "members"], ["1", "members"]),
    "replicas": (["1", "replicas", "replica_scan"], ["1", "replicas"]),
    "wheel": (["1", "tasks", "task_levels", "task_levels2"], ["1", "tasks", "task_levels"]),
    "wheel_costs": (["1", "tasks", "task_levels"], ["1", "tasks"]),
    "hash": (["1", "keys", "cells"], ["1", "keys", "cells"]),
    "placements": (["1", "keys"], ["1", "keys"]),
    "remap": (["1", "keys", "cells"], ["1", "keys"]),
    "coordinator": (["1", "ids", "units"], ["1", "ids"]),
    "produce": (["1", "records", "faults"], ["1", "records"]),
    "log": (["1", "records", "batches", "compactions"], ["1", "records"]),
    "import": (["1", "text_bytes"], ["1", "text_bytes"]),
    "share_assign": (["1", "partitions", "topics", "members", "subscriptions", "differing", "held", "held_topics",
                      "answered", "answered_topics", "rescans"],
                     ["1", "partitions", "subscriptions", "peak"]),
    "share_delivery": (["1", "events", "event_locks", "batches"], ["1", "in_flight", "events", "batches"]),
    "share_deliver_answer": (["1", "events", "cells"], ["1", "events", "cells"]),
    "load": (["1", "start", "parquet_bytes", "text_bytes", "extra_count_bytes", "assigned"],
             ["1", "start", "parquet_bytes", "text_bytes"]),
}
