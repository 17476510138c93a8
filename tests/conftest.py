"""Shared fixtures: where the real-Kafka vectors live, and a seeded RNG that prints its seed."""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
VECTORS = Path(os.environ.get("KPL_VECTORS", REPO.parent / "shared" / "vectors"))
sys.path.insert(0, str(REPO))


def load_vectors(name: str) -> dict[str, Any]:
    """Load ../shared/vectors/<name>, or skip with a clear message when the folder is absent."""
    path = VECTORS / name
    if not path.is_file():
        pytest.skip(f"real-Kafka vectors not found at {path} (expected ../shared/vectors beside the repo)",
                    allow_module_level=True)
    return json.loads(path.read_text(encoding="utf-8"))


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


def open_page(page_file: str, preset: str | None = None) -> Any:
    """AppTest of ``pages/<page_file>`` after a first run, optionally with a sidebar preset loaded."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(REPO / "pages" / page_file), default_timeout=120).run()
    assert not at.exception, at.exception
    if preset:
        at.selectbox(key="sidebar.preset").set_value(preset).run()
        assert not at.exception, at.exception
    return at
