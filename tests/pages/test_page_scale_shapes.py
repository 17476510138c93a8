"""Kafka-scale groups as scenarios on Assignments and Rebalance (share links), within the dashboard's
ceiling: each page computes off its script thread (a worker process) and draws the engine's answer.

(a) 100 topics x 500 partitions, 500 members each on a random half of the topics; (b) 100 topics x 2,000
partitions, 2,000 members on every topic.  Both as two steps: the group, then one member leaves.  About 40 s
in all on the 2-core machine (Assignments 13 s and 21 s: six assignors in a worker, their results pickled back).
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from engine.scenario import parse_scenario
from helpers import REPO, kafka_scale_shape
from ui.frame.state import encode_scenario

pytestmark = [pytest.mark.slow, pytest.mark.minutes]  # handed out first: its unit is long


def run(page: str, link: str) -> AppTest:
    at = AppTest.from_file(str(REPO / "pages" / page), default_timeout=300)
    at.query_params["s"] = link
    at.run()
    assert not at.exception and not at.error, (at.exception, [e.value for e in at.error])
    return at


@pytest.mark.parametrize(("args", "balanced"), [((100, 500, 500, 0.5), None), ((100, 2_000, 2_000, 1.0), 100)],
                         ids=["50000x500-half", "200000x2000"])
def test_kafka_scale_groups_draw_on_assignments_and_rebalance(args: tuple[int, int, int, float],
                                                               balanced: int | None) -> None:
    link = encode_scenario(parse_scenario(kafka_scale_shape(*args)))
    at = run("1_Assignments.py", link)
    table = next(t.value for t in at.table if "strategy" in t.value.columns).set_index("strategy")  # static
    assert len(table) == 6  # four client strategies and the two KIP-848 assignors
    if balanced:  # 200,000 partitions over 2,000 members on every topic: 100 each, whoever assigns
        assert set(table["min partitions"]) == set(table["max partitions"]) == {balanced}
    rebalance = run("2_Rebalance.py", link)
    assert rebalance.get("plotly_chart")
