"""Every lesson step's "Open this scenario on the full page" opens the step's own scenario: the link is opened in
AppTest, each of its parameters must reach the page (a preset, a ``?s=`` scenario, a widget of ``URL_WIDGETS``),
and where the page shows the number the step asks for, the page shows the step's answer."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from engine.lessons import LessonStep, course
from engine.scenario import dumps_scenario
from helpers import REPO, shown_table
from ui.frame.state import URL_WIDGETS, encode_scenario

STEPS = {s.id: s for lesson in course() for s in lesson.steps}
NO_PAGE = {"log.index"}  # seed article 002's hand-made offset index: no page builds that index
PAGE_ONLY_PARAMS = {"preset", "s", "rebalance.step"}  # the scenario, and Rebalance's step (its widget key varies)


def _link_params(step: LessonStep) -> dict[str, str]:
    assert step.link is not None
    params = dict(step.link.params)
    if step.link.scenario is not None:
        params["s"] = encode_scenario(step.link.scenario)
    return params


LINKS: dict[tuple[str, tuple[tuple[str, str], ...]], list[str]] = {}
for _step in STEPS.values():
    if _step.link is not None:
        LINKS.setdefault((_step.link.page, tuple(sorted(_link_params(_step).items()))), []).append(_step.id)


def _metric(at: Any, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def _markdown(at: Any, pattern: str) -> re.Match[str]:
    return next(found for m in at.markdown if (found := re.search(pattern, m.value)))


def _wheel_placement(at: Any) -> re.Match[str]:
    """Where the step's task went (``L<level> #<bucket>``): the Timing Wheel's task table, in its lazy "Tasks and
    trace" tab (opened here), static for a few tasks."""
    at.session_state["wheel.view"] = "Tasks and trace"
    at.run()
    return re.match(r"L(\d+) #(\d+)", shown_table(at, "inserted")["inserted"][0])  # type: ignore[return-value]


def _hottest_share(at: Any) -> float:
    skew = shown_table(at, "hottest partitions").set_index("partitioner")
    busiest = int(re.search(r"\(([\d,]+)\)", skew.loc["java", "hottest partitions"])[1].replace(",", ""))
    return 100 * busiest / STEPS["hot.share12"].facts["records"]


def _replay_order(at: Any) -> str:
    """The records in offset order: the Producer page's batches table, in its lazy "Batches" tab (opened here)."""
    at.session_state["producer.view"] = "Batches"
    at.run()
    batches = shown_table(at, "base_offset").sort_values("base_offset")
    return ", ".join(str(r) for records in batches["records"] for r in records)


def _warm(at: Any) -> int:
    row = shown_table(at, "warm (promoted standbys)").set_index("the instance that fails").loc["app-2"]
    return len(row["warm (promoted standbys)"].split(", "))


def _restart_rebalances(membership: str) -> Callable[[Any], int]:
    return lambda at: int(shown_table(at, "membership").query(
        f"strategy == 'range' and membership == '{membership}'")["rebalances"].iloc[0])


SHOWN: dict[str, Callable[[Any], Any]] = {  # step id -> the number (or text) the opened page shows
    "keys.partition": lambda at: int(shown_table(at, "Java partition").set_index("key").loc["21", "Java partition"]),
    "keys.remap": lambda at: float(_metric(at, "Keys that move 12 -> 16").rstrip("%")),
    "static.dynamic": _restart_rebalances("dynamic"),
    "static.static": _restart_rebalances("static"),
    "sizing.partitions": lambda at: int(_metric(at, "Recommended partitions")),
    "wheel.level": lambda at: int(_wheel_placement(at)[1]),
    "wheel.bucket": lambda at: int(_wheel_placement(at)[2]),
    "producer.order": _replay_order,
    "producer.duplicates": lambda at: 3 + int(_metric(at, "duplicated records")),  # 3 records, each once more
    "producer.acks0": lambda at: "false" if any("Idempotence will be disabled" in i.value for i in at.info) else "?",
    "producer.expire": lambda at: 3 - int(_metric(at, "failed batches")),  # 3 records, one batch each
    "log.segment": lambda at: int(shown_table(at, "segment")["segment"][1].removesuffix(".log")),
    "log.retention": lambda at: int(_markdown(at, r"log start offset -> ([\d,]+)")[1].replace(",", "")),
    "replication.hw": lambda at: int(_metric(at, "high watermark before the brokers die")),
    "replication.acks": lambda at: int(_metric(at, "writes accepted of acks=0, 1, all")),
    "replication.failover": lambda at: int(_metric(at, "leader")),
    "replication.unclean": lambda at: int(_metric(at, "readable records lost")),
    "lag.coordinator": lambda at: int(shown_table(at, "group_id").set_index("group_id").loc[
        "orders-service", "__consumer_offsets partition"]),
    "eos.committed": lambda at: len(_markdown(at, r"\*\*p0\*\*.*read_committed gets offsets \[([^\]]*)\]")[1]
                                    .split(", ")),
    "eos.lso": lambda at: int(_markdown(at, r"\*\*p1\*\*: high watermark \d+, last stable offset (\d+)")[1]),
    "hot.share12": _hottest_share,
    "hot.share96": _hottest_share,
    "streams.tasks": lambda at: int(_metric(at, "Tasks")),
    "streams.threads": lambda at: int(_metric(at, "Threads with an active task").split(" / ")[0]),
    "streams.standbys": lambda at: int(_metric(at, "Standby copies")),
    "streams.alone": lambda at: int(_metric(at, "Standby copies")),
    "streams.restart": _warm,
}


def test_every_step_links_its_scenario_but_a_step_no_page_builds() -> None:
    assert {s.id for s in STEPS.values() if s.link is None} == NO_PAGE
    for step in STEPS.values():
        if step.link is not None:
            assert (REPO / step.link.page).is_file(), step.link.page
            unknown = set(_link_params(step)) - set(URL_WIDGETS) - PAGE_ONLY_PARAMS
            assert not unknown, f"{step.id}: {unknown} is not a parameter the page reads"
            assert len(_link_params(step)) >= 1, f"{step.id} opens a page without its scenario"


@pytest.mark.parametrize("link", list(LINKS), ids=[",".join(ids) for ids in LINKS.values()])
def test_opening_the_link_shows_the_steps_own_numbers(link: tuple[str, tuple[tuple[str, str], ...]]) -> None:
    from streamlit.testing.v1 import AppTest

    page, params = link
    at = AppTest.from_file(str(REPO / page), default_timeout=180)
    for key, value in params:
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    step = STEPS[LINKS[link][0]]
    for key, value in params:
        if key == "preset":
            assert at.session_state["scenario.preset"] == value
        elif key == "s":
            assert at.session_state["scenario.json"] == dumps_scenario(step.link.scenario)  # type: ignore[union-attr]
        elif key == "rebalance.step":
            assert at.query_params[key] in (value, [value])
        else:
            shown = at.session_state[key]
            assert (",".join(shown) if isinstance(shown, list) else str(shown)) == value, key
    for step_id in LINKS[link]:
        shown = STEPS[step_id]
        if step_id in SHOWN:
            value = SHOWN[step_id](at)
            if shown.tolerance:
                assert abs(value - shown.answer) <= shown.tolerance, (step_id, value, shown.answer)
            else:
                assert value == shown.answer, (step_id, value, shown.answer)
