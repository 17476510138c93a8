"""AppTest for pages/4_Sizing.py: inputs by key, the numbers shown checked against engine.sizing."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from engine import sizing
from helpers import open_page

PRODUCER_OUT = ("500000 records sent, 49985.0 records/sec (47.67 MB/sec), 373.25 ms avg latency, "
                "632.00 ms max latency, 355 ms 50th, 590 ms 95th, 623 ms 99th, 630 ms 99.9th.")
CONSUMER_OUT = ("start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec\n"
                "2016-01-01 10:00:00:000, 2016-01-01 10:00:05:000, 95.3674, 19.0735, 100000, 20000.0000")


@pytest.fixture
def app() -> AppTest:
    return open_page("4_Sizing.py")


def _metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def open_view(at: AppTest, key: str, value: str | bool) -> AppTest:
    """The page with a lazy tab (``sizing.view``: its label) or expander (``True``) open; only it runs."""
    at.session_state[key] = value
    return at.run()


def test_default_shows_rule_and_seed_mistake(app: AppTest) -> None:
    assert not app.error
    assert _metric(app, "Recommended partitions") == "20"
    assert _metric(app, "The article's Tt / max(Tp, Tc)") == "8"
    summary = app.code[0].value
    assert "max(8.00, 20.00) -> 20" in summary and "short by 120.0 MB/s" in summary
    table = app.table[0].value
    assert len(table) == len(sizing.constraints(20, sizing.SizingInputs()))


def test_the_first_view_draws_one_chart_and_a_static_table(app: AppTest) -> None:
    """The first tab alone runs; its constants' fields and its nine cost panels wait in closed expanders."""
    assert [c.key for c in app.get("plotly_chart")] == ["sizing.formula_chart"]
    assert len(app.table) == 1 and len(app.dataframe) == 0
    assert len(app.text_input) == 11 and len(app.metric) == 3
    open_view(app, "sizing.costs", True)
    assert [c.key for c in app.get("plotly_chart")] == ["sizing.formula_chart", "sizing.cost_chart"]
    open_view(app, "sizing.constants", True)
    assert len(app.text_input) == 11 + len(sizing.CONSTANTS)


def test_a_constant_keeps_its_value_while_its_expander_is_closed(app: AppTest) -> None:
    open_view(app, "sizing.constants", True)
    app.radio(key="sizing.era").set_value("zookeeper").run()
    app.text_input(key="sizing.const.election_ms_zk").set_value("50").run()
    shown = app.table[0].value.to_dict("list")
    open_view(app, "sizing.constants", False)
    assert "sizing.const.election_ms_zk" not in [t.key for t in app.text_input]
    assert app.table[0].value.to_dict("list") == shown
    open_view(app, "sizing.view", "Kafka Streams")
    open_view(app, "sizing.view", "Partitions for a topic")
    open_view(app, "sizing.constants", True)
    assert app.text_input(key="sizing.const.election_ms_zk").value == "50"
    assert app.radio(key="sizing.era").value == "zookeeper" and app.table[0].value.to_dict("list") == shown


def test_inputs_drive_the_recommendation(app: AppTest) -> None:
    app.text_input(key="sizing.target_mb_s").set_value("1000").run()
    app.text_input(key="sizing.headroom_pct").set_value("50").run()
    expected = sizing.partitions_needed(1000, 25, 10, 50)
    assert _metric(app, "Recommended partitions") == f"{expected:,}" == "150"
    app.checkbox(key="sizing.round").check().run()
    assert _metric(app, "Recommended partitions") == "150"  # already a multiple of 3
    app.text_input(key="sizing.brokers").set_value("4").run()
    assert _metric(app, "Recommended partitions") == "152"


def test_perf_pastes_fill_p_and_c(app: AppTest) -> None:
    app.text_area(key="sizing.producer_perf").set_value(PRODUCER_OUT).run()
    app.text_area(key="sizing.consumer_perf").set_value(CONSUMER_OUT).run()
    assert not app.error
    assert _metric(app, "Recommended partitions") == str(sizing.partitions_needed(200, 47.67, 19.0735))
    assert [s.value for s in app.success][:2] == [
        "Parsed 47.67 MB/s (49,985 records/s): now in the field above.",
        "Parsed 19.0735 MB/s (20,000 records/s): now in the field above."]
    # one visible source of truth: the field shows the value used
    assert app.text_input(key="sizing.producer_mb_s").value == "47.67"
    assert app.text_input(key="sizing.consumer_mb_s").value == "19.0735"
    app.text_input(key="sizing.consumer_mb_s").set_value("10").run()  # an edit after the paste wins, visibly
    assert _metric(app, "Recommended partitions") == str(sizing.partitions_needed(200, 47.67, 10))
    assert any("edited after the paste" in c.value for c in app.caption)


@pytest.mark.parametrize(("key", "value", "message"), [
    ("sizing.consumer_perf", "no numbers here", "perf output"),
    ("sizing.producer_perf", CONSUMER_OUT, "kafka-consumer-perf-test"),
])
def test_bad_paste_is_an_inline_error(app: AppTest, key: str, value: str, message: str) -> None:
    app.text_area(key=key).set_value(value).run()
    assert not app.exception
    assert any(message in e.value for e in app.error)
    assert _metric(app, "Recommended partitions") == "20"  # falls back to the typed value


def test_zero_throughput_and_enormous_counts(app: AppTest) -> None:
    app.text_input(key="sizing.producer_mb_s").set_value("0").run()
    assert not app.exception
    assert any("producer_mb_s: must be greater than 0" in e.value for e in app.error)
    app.text_input(key="sizing.producer_mb_s").set_value("0.0001").run()
    app.text_input(key="sizing.target_mb_s").set_value("9000000").run()
    assert any("limit" in e.value for e in app.error)


def test_replication_factor_above_brokers(app: AppTest) -> None:
    app.text_input(key="sizing.rf").set_value("5").run()
    assert not app.exception
    assert any("replication_factor" in e.value for e in app.error)


def test_chosen_override_and_zookeeper_limits(app: AppTest) -> None:
    app.radio(key="sizing.era").set_value("zookeeper").run()
    app.text_input(key="sizing.chosen").set_value("5000").run()
    table = app.table[0].value
    row = table[table["check"] == "partition replicas per broker"].iloc[0]
    assert row["verdict"] == "misses" and row["value"] == "5,000" and row["limit"] == "4,000"
    assert "OVER" in app.code[0].value


def test_constant_override_changes_the_cost(app: AppTest) -> None:
    open_view(app, "sizing.constants", True)
    app.radio(key="sizing.era").set_value("zookeeper").run()
    app.text_input(key="sizing.const.election_ms_zk").set_value("50").run()
    table = app.table[0].value
    row = table[table["check"] == "unavailability after an unclean broker failure"].iloc[0]
    assert row["value"] == "0.35"  # 7 leaders x 50 ms


def test_download_holds_what_is_shown(app: AppTest) -> None:
    result = sizing.size(sizing.SizingInputs())
    assert json.loads(json.dumps(result.to_dict()))["recommended"] == 20
    assert len(app.get("download_button")) == 2  # inputs and results, cost curves
    open_view(app, "sizing.view", "Consumer group or share group?")
    assert [b.key for b in app.get("download_button")] == ["sizing.share.download"]  # the comparison


def test_a_refused_number_is_named_beside_its_field(app: AppTest) -> None:
    """-5 is not read as 5, a decimal batch size is not read as a whole one."""
    app.text_input(key="sizing.target_mb_s").set_value("-5").run()
    assert any("Target throughput T (MB/s): must be a number in 0..1e+07, got '-5'" in e.value for e in app.error)
    assert _metric(app, "Recommended partitions") == "20"  # the last accepted 200 MB/s
    app.text_input(key="sizing.batch_size").set_value("2.5").run()
    assert any("batch.size (bytes)" in e.value and "decimal is not rounded" in e.value for e in app.error)


def test_share_group_tab_is_measured_on_share_partition(app: AppTest) -> None:
    """2,000 records/s at 50 ms needs 100 busy consumers; 3 share partitions hold 34 each, but
    2,000 locks / 500 per fetch keep about 4 busy per partition: the tab says so, from the engine's numbers."""
    from engine.share.capacity import CapacityInputs, compare

    result = compare(CapacityInputs(2_000.0, 50.0, 3, 500))
    open_view(app, "sizing.view", "Consumer group or share group?")
    table = next(df.value for df in app.table if "Share group" in df.value.columns)
    cells = dict(zip(table["What"], table["Share group"]))
    assert cells["Partitions"].startswith("3 (at least 25")
    assert cells["Throughput (records/s)"] == f"{result.share.measured_rps:,.0f} measured"
    assert result.consumers_needed == 100 and result.share.concurrency_limit == 4 and result.share.capped
    assert any("add share partitions (at least 25)" in w.value for w in app.warning)
