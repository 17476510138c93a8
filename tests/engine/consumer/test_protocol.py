"""The classic group protocol: coordinator lookup, strategy election (incl. the error), upgrade path."""

from __future__ import annotations

import pytest

from engine.consumer.protocol import (
    INCONSISTENT_GROUP_PROTOCOL,
    MemberProtocols,
    Timeouts,
    client_rebalance_protocol,
    coordinator_partition,
    elect_protocol,
    find_coordinators,
    rolling_upgrade,
    sync_group_state,
    upgrade_rows,
    vote_rows,
    walkthrough,
)
from engine.errors import LimitError, ScenarioError
from engine.scenario import GroupState, Member


def test_docstring_example_and_two_bounce_upgrade() -> None:
    e = elect_protocol([MemberProtocols("A", ("range",)),
                        MemberProtocols("B", ("cooperative-sticky", "range"))])
    assert (e.candidates, e.votes) == (("range",), {"A": "range", "B": "range"})
    assert (e.selected, e.leader) == ("range", "A")
    stages = rolling_upgrade(["A", "B", "C"])
    selected = [s.election.selected for s in stages]
    assert selected == ["range", "range", "cooperative-sticky"] + ["cooperative-sticky"] * 3
    assert set(stages[2].election.rebalance_protocols.values()) == {"EAGER"}  # range still in every list
    assert stages[3].election.rebalance_protocols == {"A": "COOPERATIVE", "B": "EAGER", "C": "EAGER"}
    assert set(stages[-1].election.rebalance_protocols.values()) == {"COOPERATIVE"}
    assert all(not s.election.rejected for s in stages)


def test_vote_counts_and_majority() -> None:
    members = [MemberProtocols("A", ("roundrobin", "range")), MemberProtocols("B", ("range", "roundrobin")),
               MemberProtocols("C", ("range", "roundrobin"))]
    e = elect_protocol(members)
    assert e.candidates == ("range", "roundrobin")
    assert e.vote_counts == {"range": 2, "roundrobin": 1} or e.vote_counts == {"roundrobin": 1, "range": 2}
    assert e.selected == "range"


def test_inconsistent_group_protocol_error() -> None:
    e = elect_protocol([MemberProtocols("A", ("range",)), MemberProtocols("B", ("cooperative-sticky",)),
                        MemberProtocols("C", ("range", "sticky"))])
    assert e.accepted == ("A", "C")
    assert list(e.rejected) == ["B"] and e.rejected["B"].startswith(INCONSISTENT_GROUP_PROTOCOL)
    assert e.selected == "range"
    skipped = rolling_upgrade(["A", "B", "C"], first_bounce=())
    assert "A" in skipped[0].election.rejected


def test_empty_first_member_is_rejected_and_unknown_strategy_is_an_error() -> None:
    e = elect_protocol([MemberProtocols("A", ())])
    assert e.selected is None and "A" in e.rejected
    with pytest.raises(ScenarioError, match="unknown"):
        elect_protocol([MemberProtocols("A", ("fastest",))])
    with pytest.raises(ScenarioError, match="unique"):
        elect_protocol([MemberProtocols("A", ("range",)), MemberProtocols("A", ("range",))])


def test_client_rebalance_protocol() -> None:
    assert client_rebalance_protocol(["cooperative-sticky"]) == "COOPERATIVE"
    assert client_rebalance_protocol(["cooperative-sticky", "range"]) == "EAGER"
    with pytest.raises(ScenarioError):
        client_rebalance_protocol([])


def test_coordinator_and_walkthrough() -> None:
    assert coordinator_partition("my-group") == 12
    assert coordinator_partition("polygenelubricants") == 0  # hashCode == Integer.MIN_VALUE
    election, steps = walkthrough("my-group", [MemberProtocols("C0", ("range",)),
                                               MemberProtocols("C1", ("range",), "host-1")], {"C0": ["t0-0"]})
    apis = [s.api for s in steps]
    assert apis == ["FIND_COORDINATOR", "JOIN_GROUP", "JOIN_GROUP", "JOIN_GROUP", "SYNC_GROUP", "SYNC_GROUP",
                    "HEARTBEAT"]
    assert "__consumer_offsets-12" in steps[0].response and "['t0-0']" in steps[4].response
    assert election.leader == "C0"


def test_timeout_checks() -> None:
    assert Timeouts().problems() == []
    equal = Timeouts(session_timeout_ms=10_000, heartbeat_interval_ms=10_000)
    assert any("lower than" in p for p in equal.problems())
    short = Timeouts(session_timeout_ms=5_000, heartbeat_interval_ms=1_000)
    assert any("INVALID_SESSION_TIMEOUT" in p for p in short.problems())


# ---------------------------------------------------------------- coordinators and the page's tables


def test_find_coordinators_and_its_limits() -> None:
    found = find_coordinators(["my-group", "polygenelubricants"])
    assert [(c.java_hashcode, c.partition) for c in found] == [(-1906497762, 12), (-(2**31), 0)]
    with pytest.raises(LimitError, match="longer than 10,000 characters"):
        find_coordinators(["x" * 10_001])


def test_sync_group_state_needs_every_accepted_member_in_the_scenario() -> None:
    state = GroupState({"t0": 2}, (Member("A", ("t0",)), Member("B", ("t0",)), Member("C", ("t0",))))
    election = elect_protocol([MemberProtocols("C", ("range",)), MemberProtocols("A", ("range",))])
    synced = sync_group_state(state, election)
    assert synced is not None and synced.member_ids == ["A", "C"]
    assert sync_group_state(state, elect_protocol([MemberProtocols("Z", ("range",))])) is None


def test_vote_and_upgrade_rows() -> None:
    members = [MemberProtocols("A", ("range",)), MemberProtocols("B", ("cooperative-sticky",))]
    rows = vote_rows(members, elect_protocol(members))
    assert rows[1]["votes for"] == "— rejected" and rows[0]["client rebalance protocol"] == "EAGER"
    last = upgrade_rows(rolling_upgrade(["A", "B"]))[-1]
    assert (last["vote selects"], last["rebalance protocols"], last["rejected"]) == (
        "cooperative-sticky", "COOPERATIVE", "")
