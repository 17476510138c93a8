"""A group can be a share group: the scenario model, the builder's group-type choice, presets and share links."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from engine.errors import ScenarioError
from engine.presets import build_preset
from engine.scenario import dumps_scenario, loads_scenario, parse_scenario
from helpers import REPO
from ui.frame.state import decode_scenario, encode_scenario
from ui.scenario.builder import with_group_type


def test_group_type_round_trips_and_consumer_files_stay_as_they_were() -> None:
    share = build_preset("share-group")
    assert share.group_type == "share" and json.loads(dumps_scenario(share))["group_type"] == "share"
    assert loads_scenario(dumps_scenario(share)) == share
    assert "group_type" not in json.loads(dumps_scenario(build_preset("seed-d")))
    assert decode_scenario(encode_scenario(share)) == share


def test_a_bad_group_type_is_one_line_naming_it() -> None:
    with pytest.raises(ScenarioError, match="group_type: must be consumer, share or streams, got 'queue'"):
        parse_scenario({"topics": {"t": 1}, "members": [{"id": "a"}], "group_type": "queue"})


def test_a_share_group_may_hold_a_partition_under_several_members() -> None:
    data = {"topics": {"t": 1}, "members": [{"id": "a", "topics": ["t"]}, {"id": "b", "topics": ["t"]}],
            "current_assignment": {"a": ["t-0"], "b": ["t-0"]}}
    with pytest.raises(ScenarioError, match="already owned by 'a'"):
        parse_scenario(data)
    shared = parse_scenario({**data, "group_type": "share"})
    assert [str(tp) for tp in shared.current_assignment["b"]] == ["t-0"]
    with pytest.raises(ScenarioError, match="already owned"):
        parse_scenario({**data, "group_type": "share", "current_assignment": {"a": ["t-0", "t-0"]}})


def test_builder_switches_the_group_type_and_a_share_link_keeps_it() -> None:
    assert with_group_type(build_preset("seed-a"), "share").group_type == "share"
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60).run()
    assert at.radio(key="builder.group_type").value == "consumer"
    at.radio(key="builder.group_type").set_value("share").run()
    assert not at.exception
    assert at.session_state["scenario.current"].group_type == "share"
    code = encode_scenario(at.session_state["scenario.current"])
    fresh = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
    fresh.query_params["s"] = code
    fresh.run()
    assert fresh.session_state["scenario.current"].group_type == "share"
    assert fresh.radio(key="builder.group_type").value == "share"
