"""The capacity pages' cached work: the Sizing page's cost curves and the Load page's one SparkSession starter."""

from __future__ import annotations

from typing import Any

from engine.sizing import SizingInputs, cost_curves
from ui.runtime.memo import memo


@memo("Computing costs…", copy=True)
def sizing_curves(inputs: SizingInputs, counts: tuple[int, ...]) -> dict[str, list[float]]:
    return cost_curves(inputs, counts)


@memo(size=lambda starter: 0)  # one object per process, holding a JVM's handle: not data
def spark_starter() -> Any:
    """The one ``SessionStarter`` of this process (starts the dashboard's SparkSession in a thread)."""
    from engine.spark.session import SessionOptions, SessionStarter

    return SessionStarter(SessionOptions())
