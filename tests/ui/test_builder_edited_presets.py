"""A preset's later steps do not survive an edit of the group unseen; an edited preset is no
longer named after the preset; a "new blank scenario" action."""

from __future__ import annotations

import pandas as pd

from engine.consumer.events import events_between, rebuild_steps
from engine.presets import PRESETS, blank_scenario, build_preset
from engine.scenario import dumps_scenario
from helpers import open_page
from ui.frame.state import KEY_JSON, KEY_PRESET, KEY_SCENARIO
from ui.scenario.builder import members_frame, tables_to_scenario, topics_frame


def replaced_topics(frame: pd.DataFrame, topics: dict[str, int]) -> pd.DataFrame:
    return pd.DataFrame({"topic": list(topics), "partitions": list(topics.values()),
                         "load skew": ["uniform"] * len(topics)}).astype(frame.dtypes.to_dict())


def test_new_topics_replay_the_presets_step_on_the_edited_group() -> None:
    seed_d = build_preset("seed-d")
    topics = replaced_topics(topics_frame(seed_d), {"orders": 36})
    edited, out = tables_to_scenario(topics, members_frame(seed_d), seed_d)
    assert out.ok and edited is not None
    after = edited.steps[1]
    assert after.topics == {"orders": 36}, "the preset's step 1 still holds the old topics (36 partitions deleted)"
    assert after.member_ids == ["C0", "C2"]
    assert "C1 leaves" in " ".join(out.notes["scenario"])
    assert edited.name == "" and edited.description == ""  # no longer the preset


def test_a_step_that_no_longer_fits_is_dropped_with_a_notice() -> None:
    seed_d = build_preset("seed-d")
    members = members_frame(seed_d)
    members = members[members["member id"] != "C1"].reset_index(drop=True)
    edited, out = tables_to_scenario(topics_frame(seed_d), members, seed_d)
    assert edited is not None and len(edited.steps) == 1
    assert "dropped" in out.notes["scenario"][0] and "'C1'" in out.notes["scenario"][0]


def test_every_presets_steps_replay_exactly_unedited() -> None:
    for key in PRESETS:
        scenario = build_preset(key)
        assert rebuild_steps(scenario, scenario.first)[0] == scenario, key
    seed_c = build_preset("seed-c")
    assert events_between(seed_c.steps[0], seed_c.steps[1]) is not None


def test_sidebar_stops_naming_an_edited_preset_and_offers_a_blank_scenario() -> None:
    at = open_page("2_Rebalance.py", "seed-d")
    assert "seed-d" in at.sidebar.text[0].value
    seed_d = build_preset("seed-d")
    edited, _ = tables_to_scenario(replaced_topics(topics_frame(seed_d), {"orders": 12}), members_frame(seed_d),
                                   seed_d)
    assert edited is not None
    at.session_state[KEY_SCENARIO] = edited  # as the builder's edit on the home page leaves the state
    at.session_state[KEY_JSON] = dumps_scenario(edited)
    at.session_state[KEY_PRESET] = None
    at.run()
    assert not at.exception
    shown = at.sidebar.text[0].value
    assert "seed-d" not in shown and shown.startswith("custom scenario")
    at.button(key="sidebar.blank").click().run()
    assert not at.exception
    assert at.session_state[KEY_SCENARIO] == blank_scenario()
    assert at.sidebar.text[0].value.startswith("new blank scenario")
    assert "1 step(s)" in at.sidebar.text[0].value
