"""The scenario builder with a streams group (KIP-1071): the group-type switch, the subtopologies and threads
tables, the num.standby.replicas field (refused, never clamped), quick actions, a share link, and all of it in
Chinese.  AppTest cannot type into a data editor, so the tables' parser is tested on frames directly."""

from __future__ import annotations

import pandas as pd
from streamlit.testing.v1 import AppTest

from engine.presets import build_preset
from helpers import REPO
from support.i18n_pages import english_left, run_page
from ui.frame.state import encode_scenario
from ui.scenario.builder import members_frame, subtopologies_frame, tables_to_scenario, topics_frame
from ui.text import i18n

APP = str(REPO / "app.py")


def current(at: AppTest):
    return at.session_state["scenario.current"]


def standby_key(at: AppTest) -> str:
    return f"builder.standby.v{at.session_state['scenario.version']}"


def test_switching_to_a_streams_group_makes_each_consumer_an_instance_of_its_own() -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.radio(key="builder.group_type").set_value("streams").run()
    assert not at.exception
    scenario = current(at)
    assert scenario.group_type == "streams"
    assert [m.process for m in scenario.first.members] == [m.id for m in scenario.first.members]
    assert [s.source_topics for s in scenario.topology.subtopologies] == [("t0",), ("t1",), ("t2",), ("t3",)]
    assert [h.value for h in at.subheader][1:4] == ["Topics", "Subtopologies", "Stream threads"]
    at.radio(key="builder.group_type").set_value("consumer").run()
    assert current(at) == build_preset("seed-d")


def test_the_standby_field_edits_the_scenario_and_refuses_a_bad_value() -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.selectbox(key="sidebar.preset").set_value("streams-stateful").run()
    assert at.text_input(key=standby_key(at)).value == "1"
    at.text_input(key=standby_key(at)).set_value("2").run()
    assert not at.exception and current(at).topology.num_standby_replicas == 2
    at.text_input(key=standby_key(at)).set_value("-1").run()
    assert current(at).topology.num_standby_replicas == 2
    assert any("0..10" in e.value and "Still using 2" in e.value for e in at.error)
    at.text_input(key="builder.add_n").set_value("1").run()
    at.button(key="builder.add").click().run()
    added = current(at).first.members[-1]
    assert (added.id, added.process) == ("C0", "C0")


def test_a_share_link_keeps_the_topology_and_the_processes() -> None:
    scenario = build_preset("streams-rolling-restart")
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["s"] = encode_scenario(scenario)
    at.run()
    assert not at.exception and current(at) == scenario
    assert at.radio(key="builder.group_type").value == "streams"


def test_the_tables_edit_subtopologies_and_processes() -> None:
    base = build_preset("streams-stateful")
    subs = subtopologies_frame(base)
    subs.loc[1, "stateful"] = True
    edited, errors = tables_to_scenario(topics_frame(base), members_frame(base), base, subs, 1)
    assert errors.ok and [s.stateful for s in edited.topology.subtopologies] == [True, True]
    threads = members_frame(base)
    assert list(threads.columns) == ["member id", "process"]
    threads.loc[0, "process"] = "app-9"
    edited, errors = tables_to_scenario(topics_frame(base), threads, base, subs, 1)
    assert errors.ok and edited.first.members[0].process == "app-9"

    bad = pd.DataFrame({"subtopology": ["0", "0", "2", "3"], "source topics": ["orders", "payments", "", "refunds"],
                        "stateful": [True, False, False, False]})
    edited, errors = tables_to_scenario(topics_frame(base), members_frame(base), base, bad, 1)
    assert edited is None
    assert errors.errors["subtopologies"] == [
        "row 2: duplicate subtopology id '0'",
        "row 3 (2): no source topics; list the topics it reads, comma-separated",
        "row 4 (3): source topic 'refunds' is not in the topics table (Kafka refuses a topology with a missing "
        "source topic)"]
    threads.loc[1, "process"] = ""
    assert tables_to_scenario(topics_frame(base), threads, base)[1].errors["members"] == [
        "row 2: the process is empty; name the application instance of app-1-t2"]


def test_the_streams_builder_in_chinese_shows_no_english_prose() -> None:
    i18n.MISSING.clear()
    at = run_page("app.py", "zh")
    at.selectbox(key="sidebar.preset").set_value("streams-rolling-restart").run()
    assert not at.exception and english_left(at) == []
    assert "子拓扑" in [h.value for h in at.subheader] and "流线程" in [h.value for h in at.subheader]
    at.text_input(key=standby_key(at)).set_value("11").run()
    assert not at.exception and english_left(at) == []
    assert sorted(m for lang, m in i18n.MISSING if lang == "zh") == []
