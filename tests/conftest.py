"""Shared fixtures: a seeded RNG that prints its seed, and one session-scoped SparkSession.  Helpers live in
``tests/helpers.py``.

Tiers are directories: ``tests/spark`` needs Spark (Java), ``tests/browser`` Chromium, ``tests/pages`` runs
every page under AppTest; ``make check`` runs the rest without ``-m slow``.  Under pytest-xdist
(``make test``: ``-n auto --dist loadgroup``) each of the Spark and browser directories is one xdist group, so its
session fixtures (SparkSession, clusters, Connect server; Streamlit server, Chromium) start once on one worker,
and those two groups are scheduled first: they are the longest units of work."""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from helpers import TESTS, open_page  # (helpers puts the repo on sys.path)

ONE_WORKER_GROUPS = ("spark", "browser")  # tests/<group>/: longest first


@pytest.hookimpl(tryfirst=True)  # before xdist reads the xdist_group marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def group(item: pytest.Item) -> str:
        parts = item.path.relative_to(TESTS).parts if item.path.is_relative_to(TESTS) else ()
        return parts[0] if len(parts) > 1 and parts[0] in ONE_WORKER_GROUPS else ""

    for item in items:
        if name := group(item):
            item.add_marker(pytest.mark.xdist_group(name))
    items.sort(key=lambda item: ONE_WORKER_GROUPS.index(name) if (name := group(item)) else len(ONE_WORKER_GROUPS))


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
