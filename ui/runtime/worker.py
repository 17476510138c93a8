"""What a worker process runs (``ui.runtime.offload``): one engine call, its result sent back pickled.  No
Streamlit here: the worker imports only the engine.

>>> import multiprocessing
>>> parent, child = multiprocessing.Pipe()
>>> work(child, divmod, (7, 2))
>>> import pickle; pickle.loads(parent.recv_bytes())
('ok', (3, 1))
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from engine.errors import LimitError
from ui.runtime.memo import MIB, deep_size


def work(conn: Connection, fn: Callable[..., Any], args: tuple[Any, ...], largest: int | None = None) -> None:
    """``fn(*args)`` sent as ``("ok", value)``, or ``("error", exception)`` for an error the page reports
    (``LimitError`` when the value holds more than ``largest`` bytes)."""
    try:
        message: tuple[str, Any] = ("ok", fn(*args))
        if largest is not None and (size := deep_size(message[1])) > largest:
            message = ("error", LimitError(
                f"the answer holds about {-(-size // MIB):,} MiB, more than the {largest // MIB:,} MiB the "
                f"dashboard keeps of one answer: the command line computes it (docs/command-line.md)"))
    except Exception as exc:  # noqa: BLE001 - any refusal is reported on the page, as inline work's would be
        message = ("error", exc if _picklable(exc) else RuntimeError(f"{type(exc).__name__}: {exc}"))
    conn.send_bytes(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))
    conn.close()


def rolling_restarts(first: Any, config: Any, strategies: tuple[str, ...]) -> tuple[list[Any], list[Any]]:
    """The Group Protocol page's comparison rows and timelines: one replay per strategy and membership kind."""
    from engine.consumer.membership import comparison_of, rolling_restart

    timelines = [rolling_restart(first, s, config, static) for s in strategies for static in (False, True)]
    return [comparison_of(t) for t in timelines], timelines


def first_assignment(state: Any, strategy: str) -> dict[str, list[str]]:
    """The assignment a new group gets, as ``"t0-2"`` strings (the Group Protocol walkthrough's text)."""
    from engine.consumer.group import assign_once

    return {m: [str(tp) for tp in tps] for m, tps in assign_once(state, strategy).items()}


def placements(keys: Any, partitions: int, partitioner: str) -> Any:
    """The Keys page: each key's partition under ``partitioner``."""
    from engine.producer.partitioners import client_partitions

    return client_partitions(keys, partitions, partitioner)


def remap(keys: Any, from_partitions: int, counts: tuple[int, ...]) -> list[tuple[int, float]]:
    """The Keys page's remap curve."""
    from engine.producer.remap import remap_curve

    return remap_curve(keys, from_partitions, counts)


def wheel_costs(count: int, tick_ms: int, wheel_size: int, order: str) -> list[Any]:
    """The Timing Wheel page's measurement of ``count`` tasks on the wheel and on a heap (its own seconds are
    measured inside, so a worker process measures the same)."""
    from engine.server.timer.cost import measure_costs
    from engine.server.timer.model import WheelConfig

    return measure_costs(count, seed=1, config=WheelConfig(tick_ms, wheel_size, 0), order=order)


def wheel_run(config: Any, tasks: tuple[Any, ...]) -> tuple[Any, list[Any]]:
    """The Timing Wheel page's traced run of ``tasks`` and its animation frames."""
    from engine.server.timer.driver import simulate
    from engine.server.timer.frames import wheel_frames

    trace = simulate(config, list(tasks))
    return trace, wheel_frames(trace)


def partition_log(document: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``python -m engine log`` on ``document`` (with frames) and the records before/after each cleaning."""
    import json

    from engine.storage.partition_log import simulate

    run, out = simulate(json.loads(document), with_frames=True)
    return out, run.compactions


def replica_placement(brokers: list[Any], partitions: int, rf: int, start: int, seed: int) -> Any:
    """``AdminUtils.assignReplicasToBrokers`` for the Replicas page (a fixed start, or Random(seed))."""
    import random

    from engine.server.replicas import assign_replicas_to_brokers

    return assign_replicas_to_brokers(brokers, partitions, rf, start, -1, random.Random(seed))


def _picklable(exc: BaseException) -> bool:
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:  # noqa: BLE001
        return False
    return True
