"""Shared fixtures: a seeded RNG that prints its seed, and one session-scoped SparkSession.  Helpers live in
``tests/helpers.py``.

Tiers are directories: ``tests/spark`` needs Spark (Java), ``tests/browser`` Chromium, ``tests/pages`` runs
every page under AppTest; ``make check`` runs the rest without ``-m slow``.  Under pytest-xdist
(``-n auto --dist loadscope``) each module, or class, is a unit of work; session fixtures (the SparkSession,
clusters and Connect server; the Streamlit server and Chromium) start once per worker that needs them, and
the longest units are handed out first (``pytest_collection_modifyitems``)."""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import open_page  # (helpers puts the repo on sys.path)

# Every JVM the tests start (the local SparkSession, `python -m engine load`, spark-submit, the standalone master
# and worker, the Connect server): C1 only and the serial collector.  The test jobs are small, so a JVM spent most
# of its CPU compiling with C2 and collecting in parallel threads: an 800-row load took 86 s of wall time beside
# other work, 51 s with these (2 cores).  Compiler tiers and collectors change how fast, never what, Spark computes.
TEST_JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
for _variable in ("SPARK_SUBMIT_OPTS", "SPARK_DAEMON_JAVA_OPTS"):
    os.environ.setdefault(_variable, TEST_JVM_OPTIONS)
os.environ.setdefault("SPARK_CONF_DIR", str(Path(__file__).parent / "spark" / "conf"))  # executors: the same options

FIRST_TIERS = ("browser", "spark", "pages")  # tests/<tier>/: the longest units of work, handed out first


def tier_rank(nodeid: str) -> int:
    parts = nodeid.split("::")[0].split("/")
    tier = parts[1] if len(parts) > 2 and parts[0] == "tests" else ""
    return FIRST_TIERS.index(tier) if tier in FIRST_TIERS else len(FIRST_TIERS)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Longest first: under ``--dist loadscope --no-loadscope-reorder`` (the Makefile) every module, or class
    of a module, is a unit of work handed to the next free worker in this order, so the units marked
    ``minutes`` start first, then the browser, Spark and page tiers, then the other modules, those with more
    tests first (xdist's own order); units marked ``quiet`` (real clients' timers, which race on a loaded
    machine) are handed out last."""
    tests_in = Counter(item.nodeid.split("::")[0] for item in items)

    def order(item: pytest.Item) -> tuple[int, int, int]:
        first = 0 if item.get_closest_marker("minutes") else 2 if item.get_closest_marker("quiet") else 1
        return first, tier_rank(item.nodeid), -tests_in[item.nodeid.split("::")[0]]

    items.sort(key=order)


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


@pytest.fixture(scope="session")
def first_run() -> Callable[..., Any]:
    """``first_run(page_file, preset=None)``: a page's AppTest after its first run, rendered once per worker for
    the tests that only READ it (widgets, tables, limits).  A test that clicks, types or selects opens its own
    page with ``helpers.open_page``, so no test sees another's state."""
    rendered: dict[tuple[str, str | None], Any] = {}

    def page(page_file: str, preset: str | None = None) -> Any:
        if (page_file, preset) not in rendered:
            rendered[page_file, preset] = open_page(page_file, preset)
        return rendered[page_file, preset]

    return page
