"""Shared fixtures: a seeded RNG that prints its seed, and one session-scoped SparkSession.  Helpers live in
``tests/helpers.py``."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

import pytest

from helpers import REPO  # noqa: F401  (puts the repo on sys.path)


@pytest.fixture
def seeded_rng(request: pytest.FixtureRequest) -> random.Random:
    seed = int(os.environ.get("KPL_SEED", random.randrange(2**31)))
    print(f"{request.node.name}: seed {seed} (rerun with KPL_SEED={seed})")
    return random.Random(seed)


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    """One local SparkSession for every Spark test (starting Spark costs seconds; do it once)."""
    pytest.importorskip("pyspark")
    from engine.spark.session import SessionOptions, get_session

    session = get_session(SessionOptions(master="local[2]", shuffle_partitions=4, driver_memory="1g"))
    yield session
    session.stop()
