"""AppTest for pages/3_Keys.py: drives widgets by key and checks the numbers shown against the engine."""

from __future__ import annotations

import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from engine.producer.murmur2 import partition_for_key
from engine.producer.remap import remap_share
from helpers import open_page


@pytest.fixture
def app() -> AppTest:
    return open_page("3_Keys.py")


def test_default_page_renders_everything(app: AppTest) -> None:
    assert not app.error
    labels = [m.label for m in app.metric]
    assert "Keys that move 12 -> 24" in labels
    share = float(next(m.value for m in app.metric if m.label == "Keys that move 12 -> 24").rstrip("%"))
    assert 45 < share < 55  # doubling keeps half
    assert len(app.dataframe) == 4  # skew, hottest keys, simulation, coordinator


def test_pasted_keys_match_the_engine(app: AppTest) -> None:
    app.radio(key="keys.source").set_value("paste").run()
    keys = ["21", "foobar", "user-1", "user-2", "<null>"]
    app.text_area(key="keys.paste").set_value("\n".join(keys)).run()
    app.text_input(key="keys.partitions").input("50").run()
    app.multiselect(key="keys.partitioners").set_value(["java"]).run()
    assert not app.exception and not app.error
    skew_table = app.dataframe[0].value
    assert skew_table.loc[0, "records left to sticky/random"] == 1  # the null key
    hot = app.dataframe[1].value
    expected = {k: str(partition_for_key(k, 50)) for k in keys if k != "<null>"}
    for key, partition in zip(hot["key"], hot["Java partition"]):
        if key != "<null>":
            assert partition == expected[key], key
    assert expected["21"] == "40"  # Kafka's UtilsTest key


def test_bad_paste_shows_inline_error(app: AppTest) -> None:
    app.radio(key="keys.source").set_value("paste").run()
    app.text_area(key="keys.paste").set_value("\n\n\n").run()
    assert not app.exception
    assert any("no keys found" in e.value for e in app.error)
    app.text_area(key="keys.paste").set_value("k" * 20_000).run()
    assert any("longer than" in e.value for e in app.error)


def test_no_partitioner_chosen(app: AppTest) -> None:
    app.multiselect(key="keys.partitioners").set_value([]).run()
    assert not app.exception
    assert any("choose at least one" in e.value for e in app.error)


def test_simulation_limit_is_reported_inline(app: AppTest) -> None:
    app.text_input(key="keys.sim_rate").set_value("1000000").run()
    app.slider(key="keys.sim_duration").set_value(20_000).run()
    assert not app.exception
    assert any("records" in e.value for e in app.error)


def test_coordinator_tab_uses_java_hashcode(app: AppTest) -> None:
    app.text_area(key="keys.group_ids").set_value("my-group\n\npolygenelubricants").run()
    app.text_input(key="keys.offsets_partitions").input("50").run()
    frame = app.dataframe[-1].value
    assert frame["__consumer_offsets partition"].tolist() == [12, 0]
    assert frame["String.hashCode()"].tolist() == [-1906497762, -(2**31)]


def test_remap_metric_follows_target(app: AppTest) -> None:
    app.text_input(key="keys.partitions").input("6").run()
    app.text_input(key="keys.remap_to").input("7").run()
    metric = next(m for m in app.metric if m.label == "Keys that move 6 -> 7")
    keys = pa.array([f"user-{i}" for i in range(3)])  # sanity: the engine agrees on a tiny sample
    assert remap_share(keys, 6, 6) == 0.0
    assert 80 < float(metric.value.rstrip("%")) < 90


def test_the_remap_caption_states_min_over_lcm(app: AppTest) -> None:
    """12 -> 16 keeps min(12, 16) / lcm(12, 16) = 12/48 of the keys (25%); the caption says so, not
    "about 1 - 1/M"."""
    app.text_input(key="keys.partitions").input("12").run()
    app.text_input(key="keys.remap_to").input("16").run()
    caption = next(c.value for c in app.caption if "lcm" in c.value)
    assert "12 -> 16 keeps 1/4 (25.0%) and moves 75.0%" in caption and "1 - 1/M" not in caption


def test_null_key_panels_give_a_broker_one_colour_everywhere(app: AppTest) -> None:
    """One legend for three panels, so broker b has the same colour in each (KIP-480's 'slowest broker'
    area is broker 0's colour, not another one's)."""
    import json

    spec = json.loads(next(c.proto.spec for c in app.get("plotly_chart") if "slowest broker" in c.proto.spec))
    colours: dict[str, set[str]] = {}
    for trace in spec["data"]:
        colours.setdefault(trace["legendgroup"], set()).add(trace["line"]["color"])
    assert len(colours) >= 2 and all(len(c) == 1 for c in colours.values())
    assert len({next(iter(c)) for c in colours.values()}) == len(colours)  # and brokers differ
    assert sum(t.get("showlegend") is not False for t in spec["data"]) == len(colours)  # one legend entry each
