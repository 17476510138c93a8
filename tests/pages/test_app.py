"""AppTest of the home page: presets, the builder's quick actions, save/load/share and bad entries."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from engine.presets import PRESETS, build_preset
from engine.scenario import dumps_scenario, loads_scenario
from helpers import REPO
from ui.frame.state import decode_scenario, encode_scenario
from ui.scenario.builder import members_frame, tables_to_scenario, topics_frame

APP = str(REPO / "app.py")


def run(**query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, at.exception
    return at


def current(at: AppTest):
    return at.session_state["scenario.current"]


def test_home_links_every_page_and_starts_with_the_default_preset() -> None:
    at = run()
    pages = sorted((REPO / "pages").glob("*.py"), key=lambda p: int(p.stem.split("_", 1)[0]))
    names = [p.stem.split("_", 1)[1].replace("_", " ") for p in pages]  # 9 before 10
    assert [link.proto.label for link in at.sidebar.get("page_link")] == ["Home", *names]
    assert [link.proto.label for link in at.main.get("page_link")] == names
    assert len(names) >= 12
    assert current(at) == build_preset("seed-d")


@pytest.mark.parametrize("key", list(PRESETS))
def test_every_preset_loads(key: str) -> None:
    at = run()
    at.selectbox(key="sidebar.preset").set_value(key).run()
    assert not at.exception
    assert current(at) == build_preset(key)
    assert at.session_state["scenario.preset"] == key
    assert at.selectbox(key="sidebar.preset").value == ""  # back to the placeholder


def test_quick_actions() -> None:
    at = run()
    at.selectbox(key="sidebar.preset").set_value("seed-a").run()
    at.text_input(key="builder.add_n").set_value("2").run()
    at.button(key="builder.add").click().run()
    assert current(at).first.member_ids == ["C0", "C1", "C2", "C3", "C4"]
    at.selectbox(key="sidebar.preset").set_value("seed-c").run()
    at.button(key="builder.sub_all").click().run()
    assert all(m.topics == ("t0", "t1", "t2") for m in current(at).first.members)
    at.text_input(key="builder.racks").set_value("r1, r2").run()
    at.text_input(key="builder.rf").set_value("2").run()
    at.button(key="builder.place_racks").click().run()
    first = current(at).first
    assert first.partition_racks["t2"] == (("r1", "r2"), ("r2", "r1"), ("r1", "r2"))
    assert [m.rack for m in first.members] == ["r1", "r2", "r1"]


def test_pasted_json_loads_exactly_and_bad_json_is_reported_inline() -> None:
    at = run()
    saved = dumps_scenario(build_preset("three-az"))
    at.text_area(key="builder.json").set_value(saved).run()
    at.button(key="builder.load_json").click().run()
    assert current(at) == loads_scenario(saved)
    assert dumps_scenario(current(at)) == saved
    at.text_area(key="builder.json").set_value("{not json").run()
    at.button(key="builder.load_json").click().run()
    assert any("not valid JSON" in e.value for e in at.error)
    assert at.text_area(key="builder.json").value == "{not json"  # what was typed is kept
    assert current(at) == loads_scenario(saved)  # the last valid scenario stays
    bad = json.dumps({"topics": {"t0": 0}, "members": [{"id": "C1"}]})
    at.text_area(key="builder.json").set_value(bad).run()
    at.button(key="builder.load_json").click().run()
    assert any("partitions must be 1..100000, got 0" in e.value for e in at.error)
    dup = json.dumps({"topics": {"t0": 1}, "members": [{"id": "C1"}, {"id": "C1"}]})
    at.text_area(key="builder.json").set_value(dup).run()
    at.button(key="builder.load_json").click().run()
    assert any("member 2, id: duplicate 'C1'" in e.value for e in at.error)  # 1-based on the pages


def test_share_url_restores_the_scenario_in_a_fresh_session() -> None:
    scenario = build_preset("heterogeneous")
    code = encode_scenario(scenario)
    assert decode_scenario(code) == scenario
    at = run(s=code)
    assert current(at) == scenario
    at.button(key="builder.share").click().run()
    assert at.query_params["s"] == [code] or at.query_params["s"] == code


def test_broken_share_link_is_reported_not_raised() -> None:
    at = run(s="not-a-code!!")
    assert any("shared link" in e.value for e in at.sidebar.error)
    assert current(at) == build_preset("seed-d")


def test_preset_query_parameter() -> None:
    assert current(run(preset="seed-a")) == build_preset("seed-a")


# ---------------------------------------------------------------- the table parser (no data_editor in AppTest)


def tables(topics: list[tuple], members: list[tuple]):
    import pandas as pd
    t = pd.DataFrame(topics, columns=["topic", "partitions", "load skew"])
    m = pd.DataFrame(members, columns=["member id", "topics", "client.rack", "group.instance.id"])
    return tables_to_scenario(t, m, build_preset("seed-a"))


def test_tables_round_trip_every_preset() -> None:
    for key in PRESETS:
        s = build_preset(key)
        scenario, errors = tables_to_scenario(topics_frame(s), members_frame(s), s)
        assert errors.ok, (key, errors.errors)
        assert scenario == s, key


@pytest.mark.parametrize("topics,members,field,message", [
    ([("", 3, "uniform")], [("C0", "*", "", "")], "topics", "topic name is empty"),
    ([("t0", 3, "uniform"), ("t0", 2, "uniform")], [("C0", "*", "", "")], "topics", "duplicate topic 't0'"),
    ([("t0", 0, "uniform")], [("C0", "*", "", "")], "topics", "partitions must be a whole number 1..100,000, got 0"),
    ([("t0", -4, "uniform")], [("C0", "*", "", "")], "topics", "got -4"),
    ([("<script>x</script>", 3, "uniform")], [("C0", "*", "", "")], "topics", "not a legal Kafka topic name"),
    ([("t0", 3, "uniform")], [("", "*", "", "")], "members", "member id is empty"),
    ([("t0", 3, "uniform")], [("C1", "*", "", ""), ("C1", "t0", "", "")], "members", "duplicate member id 'C1'"),
    ([("t0", 3, "custom")], [("C1", "*", "", "")], "weights", "custom weights do not fit"),
])
def test_bad_table_entries_get_a_message_on_their_field(topics, members, field: str, message: str) -> None:
    scenario, errors = tables(topics, members)
    assert scenario is None
    assert any(message in e for e in errors.errors[field]), errors.errors


def test_unknown_topics_and_html_ids_are_warnings() -> None:
    scenario, errors = tables([("t0", 3, "zipf")], [("<b>C0</b>", "t0, ghost", "", "")])
    assert scenario is not None and scenario.first.members[0].topics == ("t0", "ghost")
    assert any("unknown topic 'ghost'" in w for w in errors.warnings["members"])
    assert any("plain text" in w for w in errors.warnings["members"])
    assert scenario.weights["t0"][0] > scenario.weights["t0"][2]
