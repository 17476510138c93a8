"""One local SparkSession for every Spark test (starting Spark costs seconds; do it once)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    pytest.importorskip("pyspark")
    from engine.spark.session import SessionOptions, get_session

    session = get_session(SessionOptions(master="local[2]", shuffle_partitions=4, driver_memory="1g"))
    yield session
    session.stop()
