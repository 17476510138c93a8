"""AppTest of pages/7_Group_Protocol.py: coordinator, vote (and its error), upgrade path, rolling restart."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from helpers import open_page, shown_table, shown_tables

UPGRADE = "4 · Rolling upgrade from range to cooperative-sticky"
RESTART = "5 · Rolling restart: static (group.instance.id) vs dynamic members"


def page(*opened: str) -> AppTest:
    """The page after its first run, with these lazy expanders opened (``protocol.upgrade_view``,
    ``protocol.restart_view``: sections 4 and 5, closed by default, draw nothing until opened)."""
    at = open_page("7_Group_Protocol.py")
    if opened:
        for key in opened:
            at.session_state[key] = True
        at.run()
        assert not at.exception, at.exception
    return at


def restart_table(at: AppTest):
    """Section 5's comparison, by strategy and membership (static: a few rows)."""
    return next(t for t in reversed(shown_tables(at)) if "membership" in t.columns).set_index(
        ["strategy", "membership"])


def metric(at: AppTest, label_start: str) -> str:
    return next(m.value for m in at.metric if m.label.startswith(label_start))


def test_defaults_show_coordinator_vote_and_restart_table() -> None:
    at = page()
    assert metric(at, "__consumer_offsets") == "12"  # my-group
    assert metric(at, "selected protocol") == "range"
    assert [e.label for e in at.expander][-2:] == [UPGRADE, RESTART]  # sections 4 and 5: closed, not drawn
    assert not any(c in t.columns for t in shown_tables(at) for c in ("vote selects", "membership"))
    assert UPGRADE not in [s.value for s in at.subheader] and RESTART not in [s.value for s in at.subheader]
    at.session_state["protocol.restart_view"] = True
    at.run()
    assert not at.exception, at.exception
    restart = restart_table(at)
    assert restart.loc[("range", "static"), "rebalances"] == 0
    members = len(at.text_area(key="protocol.lists").value.splitlines())
    assert restart.loc[("range", "dynamic"), "rebalances"] == 2 * members


def test_group_id_and_vote_editing() -> None:
    at = page()
    at.text_input(key="protocol.group_id").set_value("polygenelubricants").run()
    assert metric(at, "__consumer_offsets") == "0"
    lists = "A: cooperative-sticky, range\nB: cooperative-sticky, range"
    at.text_area(key="protocol.lists").set_value(lists).run()
    assert not at.exception
    assert metric(at, "selected protocol") == "cooperative-sticky"
    assert metric(at, "leader") == "A"
    votes = shown_tables(at)[0]
    assert list(votes.columns) == ["member", "strategies", "votes for", "client rebalance protocol"]
    assert list(votes["client rebalance protocol"]) == ["EAGER", "EAGER"]


def test_inconsistent_protocol_and_bad_lines_are_inline_errors() -> None:
    at = page()
    at.text_area(key="protocol.lists").set_value("A: range\nB: cooperative-sticky").run()
    assert not at.exception
    assert any("INCONSISTENT_GROUP_PROTOCOL" in e.value for e in at.error)
    at.text_area(key="protocol.lists").set_value("A range <b>").run()
    assert not at.exception
    assert any("line 1" in e.value for e in at.error)


def test_upgrade_path_and_skipping_the_first_bounce() -> None:
    at = page("protocol.upgrade_view")
    upgrade = shown_table(at, "vote selects")
    assert list(upgrade["vote selects"])[-1] == "cooperative-sticky"
    assert "range" in list(upgrade["vote selects"])
    at.checkbox(key="protocol.skip_first").check().run()
    assert any("INCONSISTENT_GROUP_PROTOCOL" in e.value for e in at.error)


def test_long_restart_makes_static_members_rebalance() -> None:
    at = page("protocol.restart_view")
    at.text_input(key="protocol.restart_s").input("60").run()
    assert not at.exception
    restart = restart_table(at)
    rebalances = restart["rebalances"]
    assert rebalances.loc[("range", "static")] == rebalances.loc[("range", "dynamic")] > 0
    for opened in (False, True):  # the section closed and opened again: the typed time is kept
        at.session_state["protocol.restart_view"] = opened
        at.run()
    assert at.text_input(key="protocol.restart_s").value == "60"
    assert restart_table(at)["rebalances"].equals(rebalances)


def test_session_timeout_is_typed_in_ms_as_its_name_says() -> None:
    """session.timeout.ms is a ms setting; the input is in ms (45,000 by default), not in seconds."""
    at = page("protocol.restart_view")
    box = at.text_input(key="protocol.restart_session")
    assert box.label == "session.timeout.ms" and box.value == "45000"
    box.input("120000").run()  # longer than a 30 s restart: static members keep their partitions
    restart = restart_table(at)
    assert restart["rebalances"].loc[("range", "static")] == 0
