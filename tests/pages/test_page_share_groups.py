"""AppTests: the share-group preset on every page that shows a share group (Assignments, Rebalance, Compare)."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from helpers import REPO, open_page


def _linked(page: str, params: dict[str, str]) -> AppTest:
    """AppTest of a page opened from a link with these URL parameters."""
    at = AppTest.from_file(str(REPO / "pages" / page), default_timeout=180)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


LAZY_SECTIONS = {  # a page's lazy expanders (ui.frame.lazy): closed, they draw nothing; opened for the text checks
    "1_Assignments.py": ("assign.articles_view",),
    "12_Compare.py": ("compare.share_view", "compare.streams_view"),
}


def test_assignments_shows_the_share_assignment_first() -> None:
    at = open_page("1_Assignments.py", preset="share-group")
    assert not at.exception
    assert "As a share group (KIP-932): the simple assignor" in [s.value for s in at.subheader]
    shared = next(m for m in at.metric if m.label == "Partitions read by several members")
    assert shared.value == "3"  # 8 members on 3 partitions: every partition is shared
    assert next(m for m in at.metric if m.label == "Members per partition").value == "3"  # D = ceil(8 / 3)
    table = next(d.value for d in at.dataframe if "member ids" in d.value.columns)
    assert list(table["partition"]) == ["jobs-0", "jobs-1", "jobs-2"] and list(table["members"]) == [3, 3, 3]
    assert sum(table["members"]) == 9  # D x partitions memberships: one member reads two partitions
    assert any("D = ceil(8 / 3) = 3" in c.value for c in at.caption)


def test_assignments_offers_a_consumer_group_as_a_share_group() -> None:
    at = open_page("1_Assignments.py", preset="seed-d")
    assert not at.exception
    assert not any(c.key == "share.grid" for c in at.get("plotly_chart"))  # drawn on demand only
    at.toggle(key="assign.as_share").set_value(True).run()
    assert not at.exception
    assert {"share.grid", "share.bars"} <= {c.key for c in at.get("plotly_chart")}


def test_rebalance_shows_what_a_leaving_member_changes() -> None:
    """C3 read jobs-1 and jobs-2; without it both fall below D = 3 and two members below their share take one
    each, and the other five keep what they had."""
    at = open_page("2_Rebalance.py", preset="share-group")
    assert not at.exception
    changes = next(d.value for d in at.dataframe if "gained" in d.value.columns)
    assert list(changes["member"]) == ["C4", "C7", "C3"]
    assert list(changes["change"]) == ["changed", "changed", "left"]
    assert sorted(changes["gained"][:2]) == ["jobs-1", "jobs-2"] and changes["lost"][2] == "jobs-1, jobs-2"
    assert any("3 member(s) change, 5 keep exactly what they had" in c.value for c in at.caption)


def test_rebalance_shows_a_join_taking_a_partition_back() -> None:
    """C8 joins: 8 members on 3 partitions leave room for one member with two partitions, so C7 (which took
    jobs-1 when C3 left) gives it back and C8 takes it: balance before stickiness."""
    at = _linked("2_Rebalance.py", {"preset": "share-group", "rebalance.step": "2"})  # lesson 15's link
    changes = next(d.value for d in at.dataframe if "gained" in d.value.columns)
    assert list(changes["member"]) == ["C7", "C8"] and list(changes["change"]) == ["changed", "joined"]
    assert list(changes["lost"]) == ["jobs-1", ""] and list(changes["gained"]) == ["", "jobs-1"]


def test_compare_puts_a_consumer_group_beside_a_share_group() -> None:
    at = open_page("12_Compare.py", preset="share-group")
    assert not at.exception
    closed = [m.label for m in at.metric]  # the section is a lazy expander, closed: nothing drawn until opened
    assert not any(label.startswith(("Consumer group (", "Share group (simple)")) for label in closed), closed
    at.session_state["compare.share_view"] = True
    at.run()
    assert not at.exception, at.exception
    idle = next(m for m in at.metric if m.label.startswith("Consumer group ("))
    assert idle.value == "5"  # 8 consumers, 3 partitions: a consumer group leaves 5 idle
    most = next(m for m in at.metric if m.label.startswith("Share group (simple)"))
    assert most.value == "3"
    table = next(d.value for d in at.dataframe if "share group" in d.value.columns)
    assert len(table) == 3


def test_share_group_pages_in_chinese_leave_no_english_prose() -> None:
    from streamlit.testing.v1 import AppTest

    from helpers import REPO
    from support.i18n_pages import english_left
    from ui.text import i18n

    i18n.MISSING.clear()
    for page, state in (("1_Assignments.py", {}), ("2_Rebalance.py", {}), ("12_Compare.py", {})):
        at = AppTest.from_file(str(REPO / "pages" / page), default_timeout=180)
        at.session_state[i18n.STATE_KEY] = "zh"
        at.query_params["preset"] = "share-group"
        for key, value in {**dict.fromkeys(LAZY_SECTIONS.get(page, ()), True), **state}.items():
            at.session_state[key] = value
        at.run()
        assert not at.exception, at.exception
        assert english_left(at) == [], page
    assert sorted(m for lang, m in i18n.MISSING if lang == "zh") == []


def test_rebalance_events_timeline_keeps_the_share_group() -> None:
    """The default event: the last member (C7) leaves. jobs-0 falls to 2 readers, below D = ceil(7 / 3) = 3, but
    the only member below its share (C6) reads jobs-0 already: Kafka leaves the partition short."""
    at = open_page("2_Rebalance.py", preset="share-group")
    at.radio(key="rebalance.source").set_value("events").run()
    assert not at.exception
    changes = next(d.value for d in at.dataframe if "gained" in d.value.columns)
    assert list(changes["member"]) == ["C7"] and list(changes["change"]) == ["left"]  # the default: last one leaves
    assert any("1 member(s) change, 7 keep exactly what they had" in c.value for c in at.caption)


def test_a_member_that_moves_away_hands_its_partition_on() -> None:
    """After b moves from t to u, t-0 (held only by b) goes to a, the only member that still reads t: every
    partition of a subscribed topic keeps a member."""
    from engine.scenario import parse_scenario
    from ui.frame.state import encode_scenario

    scenario = parse_scenario({"group_type": "share", "steps": [
        {"topics": {"t": 2, "u": 1}, "members": [{"id": "a", "topics": ["t"]}, {"id": "b", "topics": ["t"]}]},
        {"topics": {"t": 2, "u": 1}, "members": [{"id": "a", "topics": ["t"]}, {"id": "b", "topics": ["u"]}]}]})
    at = AppTest.from_file(str(REPO / "pages" / "1_Assignments.py"), default_timeout=120)
    at.query_params["s"] = encode_scenario(scenario)
    at.session_state["assign.step"] = 1
    at.run()
    assert not at.exception
    table = next(d.value for d in at.dataframe if "member ids" in d.value.columns)
    assert dict(zip(table["partition"], table["member ids"])) == {"t-0": "a", "t-1": "a", "u-0": "b"}
    assert next(m for m in at.metric if m.label == "Members per partition").value == "1"
    assert not at.warning


@pytest.mark.parametrize("language", ["en", "zh"])
def test_share_pages_teach_the_balancing_assignor(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing the share-group pages explain says that members take a partition by the hash of their id or that a
    share group never revokes; the release caption's line about older Kafka releases is the only exception."""
    from support.rendered_text import rendered_texts
    from ui.frame.release_note import release_text
    from ui.text import i18n

    monkeypatch.setattr(i18n, "current_language", lambda: language)
    caption = release_text("share-assign")
    for page, step in (("1_Assignments.py", 0), ("2_Rebalance.py", 1), ("2_Rebalance.py", 2), ("12_Compare.py", 0)):
        at = AppTest.from_file(str(REPO / "pages" / page), default_timeout=180)
        at.session_state[i18n.STATE_KEY] = language
        for section in LAZY_SECTIONS.get(page, ()):
            at.session_state[section] = True
        at.query_params["preset"] = "share-group"
        at.query_params["rebalance.step"] = str(step)
        at.run()
        assert not at.exception, at.exception
        texts = [t for t in rendered_texts(at) if t != caption]
        assert any("ceil" in t for t in texts), page
        wrong = [t for t in texts if re.search(r"hash of (its|their) member|hashed partition|never revokes|"
                                               r"成员 ID 的哈希|从不撤销", t, re.IGNORECASE)]
        assert wrong == [], (page, wrong)
