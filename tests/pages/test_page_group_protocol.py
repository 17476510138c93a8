"""AppTest of pages/7_Group_Protocol.py: coordinator, vote (and its error), upgrade path, rolling restart."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from helpers import open_page


def page() -> AppTest:
    return open_page("7_Group_Protocol.py")


def metric(at: AppTest, label_start: str) -> str:
    return next(m.value for m in at.metric if m.label.startswith(label_start))


def test_defaults_show_coordinator_vote_and_restart_table() -> None:
    at = page()
    assert metric(at, "__consumer_offsets") == "12"  # my-group
    assert metric(at, "selected protocol") == "range"
    restart = at.dataframe[-1].value.set_index(["strategy", "membership"])
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
    votes = at.dataframe[0].value
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
    at = page()
    upgrade = next(df.value for df in at.dataframe if "vote selects" in df.value.columns)
    assert list(upgrade["vote selects"])[-1] == "cooperative-sticky"
    assert "range" in list(upgrade["vote selects"])
    at.checkbox(key="protocol.skip_first").check().run()
    assert any("INCONSISTENT_GROUP_PROTOCOL" in e.value for e in at.error)


def test_long_restart_makes_static_members_rebalance() -> None:
    at = page()
    at.text_input(key="protocol.restart_s").input("60").run()
    assert not at.exception
    restart = at.dataframe[-1].value.set_index(["strategy", "membership"])
    rebalances = restart["rebalances"]
    assert rebalances.loc[("range", "static")] == rebalances.loc[("range", "dynamic")] > 0


def test_session_timeout_is_typed_in_ms_as_its_name_says() -> None:
    """session.timeout.ms is a ms setting; the input is in ms (45,000 by default), not in seconds."""
    at = page()
    box = at.text_input(key="protocol.restart_session")
    assert box.label == "session.timeout.ms" and box.value == "45000"
    box.input("120000").run()  # longer than a 30 s restart: static members keep their partitions
    restart = at.dataframe[-1].value.set_index(["strategy", "membership"])
    assert restart["rebalances"].loc[("range", "static")] == 0
