"""AppTests: the share-group preset on every page issue 24 touches (Assignments, Rebalance, Compare)."""

from __future__ import annotations

from helpers import open_page


def test_assignments_shows_the_share_assignment_first() -> None:
    at = open_page("1_Assignments.py", preset="share-group")
    assert not at.exception
    assert "As a share group (KIP-932): the simple assignor" in [s.value for s in at.subheader]
    shared = next(m for m in at.metric if m.label == "Partitions read by several members")
    assert shared.value == "3"  # 8 members on 3 partitions: every partition is shared
    table = next(d.value for d in at.dataframe if "member ids" in d.value.columns)
    assert list(table["partition"]) == ["jobs-0", "jobs-1", "jobs-2"] and sum(table["members"]) == 8


def test_assignments_offers_a_consumer_group_as_a_share_group() -> None:
    at = open_page("1_Assignments.py", preset="seed-d")
    assert not at.exception
    assert not any(c.key == "share.grid" for c in at.get("plotly_chart"))  # drawn on demand only
    at.toggle(key="assign.as_share").set_value(True).run()
    assert not at.exception
    assert {"share.grid", "share.bars"} <= {c.key for c in at.get("plotly_chart")}


def test_rebalance_shows_what_a_leaving_member_changes() -> None:
    at = open_page("2_Rebalance.py", preset="share-group")
    assert not at.exception
    changes = next(d.value for d in at.dataframe if "gained" in d.value.columns)
    assert list(changes["member"]) == ["C3"] and list(changes["change"]) == ["left"]


def test_compare_puts_a_consumer_group_beside_a_share_group() -> None:
    at = open_page("12_Compare.py", preset="share-group")
    assert not at.exception
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
    from ui import i18n

    i18n.MISSING.clear()
    for page, state in (("1_Assignments.py", {}), ("2_Rebalance.py", {}), ("12_Compare.py", {})):
        at = AppTest.from_file(str(REPO / "pages" / page), default_timeout=180)
        at.session_state[i18n.STATE_KEY] = "zh"
        at.query_params["preset"] = "share-group"
        for key, value in state.items():
            at.session_state[key] = value
        at.run()
        assert not at.exception, at.exception
        assert english_left(at) == [], page
    assert sorted(m for lang, m in i18n.MISSING if lang == "zh") == []


def test_rebalance_events_timeline_keeps_the_share_group() -> None:
    at = open_page("2_Rebalance.py", preset="share-group")
    at.radio(key="rebalance.source").set_value("events").run()
    assert not at.exception
    changes = next(d.value for d in at.dataframe if "gained" in d.value.columns)
    assert list(changes["member"]) == ["C7"] and list(changes["change"]) == ["left"]  # the default: last one leaves


def test_a_partition_left_with_no_member_is_said_so() -> None:
    """After b moves from t to u, t-0 (held only by b) has no member: Kafka's behaviour, stated on the page."""
    from streamlit.testing.v1 import AppTest

    from engine.scenario import parse_scenario
    from helpers import REPO
    from ui.state import encode_scenario

    scenario = parse_scenario({"group_type": "share", "steps": [
        {"topics": {"t": 2, "u": 1}, "members": [{"id": "a", "topics": ["t"]}, {"id": "b", "topics": ["t"]}]},
        {"topics": {"t": 2, "u": 1}, "members": [{"id": "a", "topics": ["t"]}, {"id": "b", "topics": ["u"]}]}]})
    at = AppTest.from_file(str(REPO / "pages" / "1_Assignments.py"), default_timeout=120)
    at.query_params["s"] = encode_scenario(scenario)
    at.session_state["assign.step"] = 1
    at.run()
    assert not at.exception
    assert next(m for m in at.metric if m.label == "Partitions with no member").value == "1"
    assert any("1 partition(s) have no member" in w.value for w in at.warning)
