"""Shared fixtures: a seeded RNG that prints its seed, and one session-scoped SparkSession.  Helpers live in
``tests/helpers.py``.

Tiers are directories: ``tests/spark`` needs Spark (Java), ``tests/browser`` Chromium, ``tests/pages`` runs
every page under AppTest; ``make check`` runs the rest without ``-m slow``.  Under pytest-xdist
(``-n auto --dist loadscope``) each of the Spark and browser directories is one unit of work, so its session
fixtures (SparkSession, clusters, Connect server; Streamlit server, Chromium) start once, on one worker, and
those two units are scheduled first: they are the longest."""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from helpers import open_page  # (helpers puts the repo on sys.path)

ONE_WORKER_GROUPS = ("spark", "browser")  # tests/<group>/: longest first


def one_worker_group(nodeid: str) -> str:
    parts = nodeid.split("::")[0].split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "tests" and parts[1] in ONE_WORKER_GROUPS else ""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        name = one_worker_group(item.nodeid)
        return ONE_WORKER_GROUPS.index(name) if name else len(ONE_WORKER_GROUPS)

    items.sort(key=rank)


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadscope`` with a tier folder as one scope: every module elsewhere is a unit of work (its
    module fixtures set up once), and all of ``tests/spark`` or ``tests/browser`` goes to one worker, so
    Spark's JVMs or Streamlit + Chromium start once.  (xdist's ``loadgroup`` would do it with marks, but it
    silently stopped grouping under pytest 9.2: pytest-dev/pytest-xdist#1386.)"""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class TierScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return one_worker_group(nodeid) or super()._split_scope(nodeid)

    return TierScheduling(config, log)


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
