"""AppTest of pages/6_Load.py on the smallest bundled sample (runs Spark in-process).

The target's default comes from the data and says what it means; the busiest-consumer
chart hides no series) and item 10 (the first run says "starting Spark (first run only)" with progress).
"""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import pytest

from helpers import open_page

pytestmark = pytest.mark.spark
PAGE = "6_Load.py"


@pytest.fixture(scope="module")
def ran() -> Any:
    """The page after one run of the job on the 10,000-row sample (Spark starts here if it is not running)."""
    at = open_page(PAGE)
    at.text_input(key="load.partitions").set_value("3,12")
    at.text_input(key="load.consumers").set_value("2,3")
    at.multiselect(key="load.strategies").set_value(["range", "roundrobin"])
    at.button(key="load.run").click().run(timeout=600)
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    return at


def sample() -> pd.DataFrame:
    from engine.spark.sample import SampleSpec, generate_batches

    return next(generate_batches(SampleSpec(rows=10_000))).to_pandas()


def test_load_page_runs_the_job_and_shows_results(ran: Any) -> None:
    from engine.producer.murmur2 import partition_for_key

    config, result = ran.session_state["load.result"]
    assert config.partitions == (3, 12)
    # the data shown is Kafka's placement of the sample's keys
    keyed = [k for k in sample()["key"] if k is not None]
    shown = result.summary["partitions"]["3"]
    assert [r["messages"] for r in shown] == [sum(partition_for_key(k, 3) == p for k in keyed) for p in range(3)]
    assert ran.metric[0].value == "10,000"
    assert len(ran.dataframe) >= 2 and ran.get("plotly_chart") != []
    assert any("Recommendation" in s.value for s in [*ran.success, *ran.warning])
    # switching the view does not rerun Spark and keeps showing the same run
    ran.selectbox(key="load.view_partitions").set_value(3).run()
    assert not ran.exception
    hottest = ran.dataframe[0].value  # the hottest-partitions table comes first
    assert set(hottest["partition"]) <= {0, 1, 2}


def test_target_default_is_the_topic_peak_split_over_the_smallest_group(ran: Any) -> None:
    """Not 1.0 msg/s, but the busiest minute of the sample over 2 consumers."""
    frame = sample()
    minutes = pd.to_datetime(frame["timestamp"], utc=True).dt.floor("60s")
    peak = minutes.value_counts().max() / 60  # every record, null keys included (sticky: all are placed)
    _, result = ran.session_state["load.result"]
    assert result.report["topic_peak_messages_per_s"] == pytest.approx(peak)
    target = float(ran.text_input(key="load.target").value)
    assert peak / 2 <= target <= peak / 2 * 1.01 and target != 1.0
    assert any("one consumer can process per second" in c.value and "split over 2 consumers" in c.value
               for c in ran.caption)


def test_busiest_consumer_chart_hides_no_series(ran: Any) -> None:
    """Range and roundrobin give equal loads here; lines would lie on top of each other."""
    charts = [json.loads(c.proto.spec) for c in ran.get("plotly_chart")]
    busiest = next(c for c in charts if "Busiest consumer" in json.dumps(c["layout"].get("title", "")))
    traces = busiest["data"]
    assert {(t["name"], t.get("xaxis", "x")) for t in traces} == {
        (s, axis) for s in ("range", "roundrobin") for axis in ("x", "x2")}
    assert all(t["type"] == "bar" and t.get("visible", True) is True for t in traces)
    assert busiest["layout"]["barmode"] == "group"


def test_first_run_says_starting_spark_with_progress(ran: Any) -> None:
    """The run that started Spark says so (and how long it took)."""
    from ui.load.spark_load import STARTING, startup_progress

    assert any(c.value.startswith("Spark started in") and "first run only" in c.value for c in ran.caption)
    fills = [startup_progress(t) for t in (0.0, 10.0, 30.0, 300.0)]
    assert all(text.startswith(STARTING) for _, text in fills)
    assert [f for f, _ in fills] == sorted(f for f, _ in fills) and fills[-1][0] < 1 / 6


def test_bad_counts_show_an_inline_error() -> None:
    at = open_page(PAGE)
    at.text_input(key="load.partitions").set_value("12,-1")
    at.button(key="load.run").click().run()
    assert not at.exception
    assert [e.value for e in at.error] == ["partitions: each must be an integer 1..100,000, got '-1'"]


def test_the_recommendation_shows_three_significant_digits_and_names_ties() -> None:
    """0.183 against 0.184 is not "0.2 against 0.2", and when every strategy gives the same busiest
    load the recommendation says they tie instead of naming one."""
    from engine.spark.report import recommend, significant

    rows = [{"strategy": s, "consumers": 3, "num_partitions": 6, "peak_messages_per_s": 0.1834}
            for s in ("range", "roundrobin", "sticky", "cooperative-sticky")]
    best = recommend(rows, 0.1841)
    assert best is not None and best.meets_target
    assert (significant(best.max_load), significant(best.target)) == ("0.183", "0.184")
    assert set(best.ties) == {"range", "roundrobin", "sticky", "cooperative-sticky"}
    assert "range = roundrobin = sticky = cooperative-sticky" in best.sentence()
    rows[0]["peak_messages_per_s"] = 0.2
    assert recommend(rows, 0.1841).ties == ("roundrobin", "sticky", "cooperative-sticky")
