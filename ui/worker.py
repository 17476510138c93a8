"""What a worker process runs (``ui.offload``): one engine call, its result sent back pickled.  No Streamlit here:
the worker imports only the engine.

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


def work(conn: Connection, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
    """``fn(*args)`` sent as ``("ok", value)``, or ``("error", exception)`` for an error the page reports."""
    try:
        message: tuple[str, Any] = ("ok", fn(*args))
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


def _picklable(exc: BaseException) -> bool:
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:  # noqa: BLE001
        return False
    return True
