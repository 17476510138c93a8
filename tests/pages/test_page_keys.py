"""AppTest for pages/3_Keys.py: drives widgets by key and checks the numbers shown against the engine."""

from __future__ import annotations

import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from engine.producer.murmur2 import partition_for_key
from engine.producer.remap import remap_share
from helpers import REPO, open_page

TABS = ("Key -> partition", "Changing the partition count", "Null keys over time", "Group coordinator")


@pytest.fixture
def app() -> AppTest:
    return open_page("3_Keys.py")


def open_tab(at: AppTest, label: str) -> AppTest:
    """The page with its lazy tab ``label`` open (only the open tab runs)."""
    at.session_state["keys.view"] = label
    return at.run()


def test_the_first_view_draws_the_first_tab_only(app: AppTest) -> None:
    """A fresh visit runs the histogram tab alone: one chart, its two small tables static, no grid."""
    assert not app.error and not app.exception
    assert [c.key for c in app.get("plotly_chart")] == ["keys.histogram_chart"]
    assert len(app.table) == 2 and len(app.dataframe) == 0  # skew, hottest keys
    assert not app.metric  # the remap tab's numbers are drawn when it is opened


def test_every_tab_draws_when_opened(app: AppTest) -> None:
    drawn = {}
    for label in TABS[1:]:
        open_tab(app, label)
        assert not app.exception and not app.error, label
        drawn[label] = ([c.key for c in app.get("plotly_chart")], len(app.table), len(app.dataframe))
    assert drawn == {TABS[1]: (["keys.remap_chart"], 0, 0), TABS[2]: (["keys.sim_chart"], 1, 0),
                     TABS[3]: ([], 1, 0)}
    open_tab(app, TABS[1])
    share = float(next(m.value for m in app.metric if m.label == "Keys that move 12 -> 24").rstrip("%"))
    assert 45 < share < 55  # doubling keeps half


def test_many_partitions_are_drawn_as_webgl_points(app: AppTest) -> None:
    """2,000 partitions x 2 partitioners: 4,000 bars would be SVG; the same counts are WebGL points."""
    import json

    app.text_input(key="keys.partitions").input("2000").run()
    spec = json.loads(app.get("plotly_chart")[0].proto.spec)
    assert [t["type"] for t in spec["data"]] == ["scattergl"] * 2
    assert all(len(t["y"]) == 2000 and sum(t["y"]) <= 100_000 for t in spec["data"])
    assert any("4,000 bars would be too many" in c.value for c in app.caption)


def test_pasted_keys_match_the_engine(app: AppTest) -> None:
    app.radio(key="keys.source").set_value("paste").run()
    keys = ["21", "foobar", "user-1", "user-2", "<null>"]
    app.text_area(key="keys.paste").set_value("\n".join(keys)).run()
    app.text_input(key="keys.partitions").input("50").run()
    app.multiselect(key="keys.partitioners").set_value(["java"]).run()
    assert not app.exception and not app.error
    skew_table = app.table[0].value
    assert skew_table.loc[0, "records left to sticky/random"] == 1  # the null key
    hot = app.table[1].value
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
    open_tab(app, "Null keys over time")
    app.text_input(key="keys.sim_rate").set_value("1000000").run()
    app.slider(key="keys.sim_duration").set_value(20_000).run()
    assert not app.exception
    assert any("records" in e.value for e in app.error)


def test_coordinator_tab_uses_java_hashcode(app: AppTest) -> None:
    open_tab(app, "Group coordinator")
    app.text_area(key="keys.group_ids").set_value("my-group\n\npolygenelubricants").run()
    app.text_input(key="keys.offsets_partitions").input("50").run()
    frame = app.table[-1].value
    assert frame["__consumer_offsets partition"].tolist() == [12, 0]
    assert frame["String.hashCode()"].tolist() == [-1906497762, -(2**31)]


def test_remap_metric_follows_target(app: AppTest) -> None:
    open_tab(app, "Changing the partition count")
    app.text_input(key="keys.partitions").input("6").run()
    app.text_input(key="keys.remap_to").input("7").run()
    metric = next(m for m in app.metric if m.label == "Keys that move 6 -> 7")
    keys = pa.array([f"user-{i}" for i in range(3)])  # sanity: the engine agrees on a tiny sample
    assert remap_share(keys, 6, 6) == 0.0
    assert 80 < float(metric.value.rstrip("%")) < 90


def test_the_remap_caption_states_min_over_lcm(app: AppTest) -> None:
    """12 -> 16 keeps min(12, 16) / lcm(12, 16) = 12/48 of the keys (25%); the caption says so, not
    "about 1 - 1/M"."""
    open_tab(app, "Changing the partition count")
    app.text_input(key="keys.partitions").input("12").run()
    app.text_input(key="keys.remap_to").input("16").run()
    caption = next(c.value for c in app.caption if "lcm" in c.value)
    assert "12 -> 16 keeps 1/4 (25.0%) and moves 75.0%" in caption and "1 - 1/M" not in caption


def test_null_key_panels_give_a_broker_one_colour_everywhere(app: AppTest) -> None:
    """One legend for three panels, so broker b has the same colour in each (KIP-480's 'slowest broker'
    area is broker 0's colour, not another one's)."""
    import json

    open_tab(app, "Null keys over time")
    spec = json.loads(next(c.proto.spec for c in app.get("plotly_chart") if "slowest broker" in c.proto.spec))
    colours: dict[str, set[str]] = {}
    for trace in spec["data"]:
        colours.setdefault(trace["legendgroup"], set()).add(trace["line"]["color"])
    assert len(colours) >= 2 and all(len(c) == 1 for c in colours.values())
    assert len({next(iter(c)) for c in colours.values()}) == len(colours)  # and brokers differ
    assert sum(t.get("showlegend") is not False for t in spec["data"]) == len(colours)  # one legend entry each


def test_a_tabs_fields_keep_their_values_while_another_tab_is_open(app: AppTest) -> None:
    open_tab(app, "Null keys over time")
    app.text_input(key="keys.sim_brokers").set_value("4").run()
    app.slider(key="keys.sim_duration").set_value(2_000).run()
    open_tab(app, "Key -> partition")
    app.multiselect(key="keys.partitioners").set_value(["java"]).run()
    open_tab(app, "Null keys over time")
    assert (app.text_input(key="keys.sim_brokers").value, app.slider(key="keys.sim_duration").value) == ("4", 2_000)
    open_tab(app, "Key -> partition")
    assert app.multiselect(key="keys.partitioners").value == ["java"]


@pytest.mark.parametrize(("field", "value", "tab"), [("keys.remap_to", "16", "Changing the partition count"),
                                                     ("keys.group_ids", "orders", "Group coordinator")])
def test_a_link_naming_a_tabs_field_opens_that_tab(field: str, value: str, tab: str) -> None:
    """The lessons link to the remap and coordinator tabs by their fields (``?keys.remap_to=16``)."""
    at = AppTest.from_file(str(REPO / "pages" / "3_Keys.py"), default_timeout=120)
    at.query_params[field] = value
    at.run()
    assert not at.exception and at.session_state["keys.view"] == tab
