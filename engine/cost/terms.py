"""Which shape features drive each computation's seconds and peak bytes: one registry, read by the model
(``engine.cost.model.evaluate`` through the fitted constants) and by the fit (``python -m bench cost``).

The assignors are keyed by the names their own registries give them: ``CLIENT_STRATEGIES`` by client and
``partition.assignment.strategy`` name (``engine.consumer.strategies``, librdkafka's ``STRATEGIES``),
``SERVER_ASSIGNORS`` by KIP-848 assignor (``engine.coordinator.assignors``) and ``SHARE_ASSIGNORS`` by share-group
assignor; tests/engine/cost/test_cost_model.py checks that every registered name has a model here and that
``COOPERATIVE`` holds exactly the cooperative strategies.  A model name is ``assign.<client>.<strategy>``,
``server.<assignor>``, ``share_assign`` or the computation's name; ``"1"`` is the constant term.  The features
are those ``engine.cost.shape`` (scenarios) and ``engine.cost.computations`` (counts) compute:

>>> TERMS["assign.java.sticky"][0]
['1', 'partitions', 'subscriptions', 'general']
>>> assignment_model("sticky", "librdkafka")
Traceback (most recent call last):
...
engine.errors.EngineError: strategy: the cost model has no librdkafka strategy 'sticky' (it costs range, \
roundrobin, cooperative-sticky)
"""

from __future__ import annotations

from typing import Final

from engine.errors import EngineError

Terms = tuple[list[str], list[str]]  # the seconds' features, the peak bytes' features

_RANGE: Terms = (["1", "partitions", "subscriptions"], ["1", "partitions"])
_ROUNDROBIN: Terms = (["1", "partitions", "subscriptions", "scan"], ["1", "partitions"])
_STICKY: Terms = (["1", "partitions", "subscriptions", "general"], ["1", "partitions", "general_peak"])
_SERVER: Terms = (["1", "partitions", "subscriptions", "general"], ["1", "partitions"])

CLIENT_STRATEGIES: Final[dict[str, dict[str, Terms]]] = {
    "java": {"range": _RANGE, "roundrobin": _ROUNDROBIN, "sticky": _STICKY, "cooperative-sticky": _STICKY},
    "librdkafka": {
        "range": (["1", "partitions", "subscriptions", "racked"], ["1", "partitions"]),
        "roundrobin": _ROUNDROBIN,
        "cooperative-sticky": (["1", "partitions", "pm", "pairs"], ["1", "partitions", "pm_peak", "pairs_peak"]),
    },
}
COOPERATIVE: Final = frozenset({("java", "cooperative-sticky"), ("librdkafka", "cooperative-sticky")})
SERVER_ASSIGNORS: Final[dict[str, Terms]] = {"uniform": _SERVER, "range": _SERVER}
SHARE_ASSIGNORS: Final[dict[str, str]] = {"simple": "share_assign"}  # share-group assignor -> its model

_SHARE_ASSIGN: Terms = (["1", "partitions", "topics", "members", "subscriptions", "differing", "held", "held_topics",
                         "answered", "answered_topics"],
                        ["1", "partitions", "subscriptions", "peak"])

TERMS: Final[dict[str, Terms]] = {
    **{f"assign.{client}.{name}": terms
       for client, named in CLIENT_STRATEGIES.items() for name, terms in named.items()},
    **{f"server.{name}": terms for name, terms in SERVER_ASSIGNORS.items()},
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
    "share_assign": _SHARE_ASSIGN,
    "share_delivery": (["1", "events", "event_locks", "batches"], ["1", "in_flight", "events", "batches"]),
    "share_deliver_answer": (["1", "events", "cells"], ["1", "events", "cells"]),
    "streams_assign": (["1", "members", "previous", "placements", "heap_steps", "standby_scans"],
                       ["1", "members", "previous", "placements"]),
    "load": (["1", "start", "parquet_bytes", "text_bytes", "extra_count_bytes", "assigned"],
             ["1", "start", "parquet_bytes", "text_bytes"]),
}


def client_strategies(client: str) -> tuple[str, ...]:
    """The strategies the model costs for ``client``, in its registry's order; an unknown client is an error."""
    named = CLIENT_STRATEGIES.get(client)
    if named is None:
        raise EngineError(f"client: the cost model has no client {client!r} (it costs {', '.join(CLIENT_STRATEGIES)})")
    return tuple(named)


def assignment_model(strategy: str, client: str = "java") -> str:
    """``assign.<client>.<strategy>``; a strategy the model does not cost is an ``EngineError`` naming it."""
    names = client_strategies(client)
    if strategy not in names:
        raise EngineError(f"strategy: the cost model has no {client} strategy {strategy!r} (it costs "
                          f"{', '.join(names)})")
    return f"assign.{client}.{strategy}"


def server_model(assignor: str) -> str:
    """``server.<assignor>``; a KIP-848 assignor the model does not cost is an ``EngineError`` naming it."""
    if assignor not in SERVER_ASSIGNORS:
        raise EngineError(f"assignor: the cost model has no KIP-848 assignor {assignor!r} (it costs "
                          f"{', '.join(SERVER_ASSIGNORS)})")
    return f"server.{assignor}"


def share_model(assignor: str) -> str:
    """The model of a share-group assignor; one the model does not cost is an ``EngineError`` naming it."""
    model = SHARE_ASSIGNORS.get(assignor)
    if model is None:
        raise EngineError(f"assignor: the cost model has no share-group assignor {assignor!r} (it costs "
                          f"{', '.join(SHARE_ASSIGNORS)})")
    return model


def cooperative(strategy: str, client: str = "java") -> bool:
    """Whether the strategy runs the cooperative protocol: a step that revokes partitions has a follow-up round."""
    return (client, strategy) in COOPERATIVE
