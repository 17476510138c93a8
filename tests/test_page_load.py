"""AppTest of pages/6_Load.py on the smallest bundled sample (runs Spark in-process)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.spark
PAGE = str(Path(__file__).resolve().parent.parent / "pages" / "6_Load.py")


def test_load_page_runs_the_job_and_shows_results() -> None:
    from streamlit.testing.v1 import AppTest

    from engine.producer.murmur2 import partition_for_key
    from engine.spark.sample import SampleSpec, generate_batches

    at = AppTest.from_file(PAGE, default_timeout=600).run()
    assert not at.exception
    at.text_input(key="load.partitions").set_value("3,12")
    at.text_input(key="load.consumers").set_value("2,3")
    at.multiselect(key="load.strategies").set_value(["range", "roundrobin"])
    at.button(key="load.run").click().run()
    assert not at.exception
    assert not at.error, [e.value for e in at.error]
    config, result = at.session_state["load.result"]
    assert config.partitions == (3, 12)
    # the data shown is Kafka's placement of the sample's keys
    keys = next(generate_batches(SampleSpec(rows=10_000))).column("key").to_pylist()
    keyed = [k for k in keys if k is not None]
    shown = result.summary["partitions"]["3"]
    assert [r["messages"] for r in shown] == [sum(partition_for_key(k, 3) == p for k in keyed) for p in range(3)]
    assert at.metric[0].value == "10,000"
    assert len(at.dataframe) >= 2 and not at.get("plotly_chart") == []
    assert any("Recommendation" in s.value for s in [*at.success, *at.warning])
    # switching the view does not rerun Spark and keeps showing the same run
    at.selectbox(key="load.view_partitions").set_value(3).run()
    assert not at.exception
    hottest = at.dataframe[0].value  # the hottest-partitions table comes first
    assert set(hottest["partition"]) <= {0, 1, 2}


def test_bad_counts_show_an_inline_error() -> None:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(PAGE, default_timeout=120).run()
    at.text_input(key="load.partitions").set_value("12,-1")
    at.button(key="load.run").click().run()
    assert not at.exception
    assert [e.value for e in at.error] == ["partition counts: each must be an integer 1..100,000, got '-1'"]
