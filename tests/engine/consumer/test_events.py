"""Events -> next group states, and the timeline built from them."""

from __future__ import annotations

import pytest

from engine.consumer.events import (
    EVENT_FIELDS,
    EVENT_KINDS,
    AddMember,
    AddPartitions,
    ChangeSubscription,
    CrashRejoin,
    RemoveMember,
    append_event,
    apply_event,
    build_timeline,
    default_events,
    describe_change,
    free_member_id,
    make_event,
    step_labels,
)
from engine.errors import ScenarioError
from engine.presets import build_preset
from engine.scenario import GroupState, Member, Scenario, dumps_scenario, loads_scenario


def base() -> Scenario:
    return Scenario((GroupState({"t0": 6}, tuple(Member(f"C{i}", ("t0",)) for i in range(3))),))


def test_docstring_example() -> None:
    tl = build_timeline(base(), [RemoveMember("C1"), AddPartitions("t0", 2)])
    steps = tl.scenario.steps
    assert len(steps) == 3
    assert [m.id for m in steps[1].members] == ["C0", "C2"]
    assert steps[2].topics == {"t0": 8} and [m.id for m in steps[2].members] == ["C0", "C2"]
    assert tl.labels == ("initial group", "C1 leaves", "t0 gets 2 more partitions")


def test_add_member_defaults_to_the_group_subscriptions() -> None:
    [state] = apply_event(base().first, AddMember("C9"))
    assert state.members[-1] == Member("C9", ("t0",))
    with pytest.raises(ScenarioError, match="'C0'"):
        apply_event(base().first, AddMember("C0"))


def test_crash_rejoin_dynamic_is_two_steps_static_is_none() -> None:
    gone, back = apply_event(base().first, CrashRejoin("C0"))
    assert "C0" not in gone.member_ids and back.member_ids == ["C1", "C2", "C0"]
    static = GroupState({"t0": 2}, (Member("S", ("t0",), None, "host-1"), Member("D", ("t0",))))
    assert apply_event(static, CrashRejoin("S")) == []
    tl = build_timeline(Scenario((static,)), [CrashRejoin("S")])
    assert len(tl.scenario.steps) == 1 and "no rebalance" in tl.notes[0]
    tl = build_timeline(base(), [CrashRejoin("C2")])
    assert tl.crashed == ((), ("C2",), ())


def test_change_subscription_and_partitions_with_racks() -> None:
    [state] = apply_event(base().first, ChangeSubscription("C1", ("t0", "t9", "t0")))
    assert state.members[1].topics == ("t0", "t9")
    az = build_preset("three-az").first
    [grown] = apply_event(az, AddPartitions("orders", 3))
    assert len(grown.partition_racks["orders"]) == 15
    assert grown.partition_racks["orders"][12] == az.partition_racks["orders"][0]


@pytest.mark.parametrize("event,match", [
    (RemoveMember("nobody"), "'nobody'"),
    (AddPartitions("t9", 1), "'t9'"),
    (AddPartitions("t0", 0), "got 0"),
    (ChangeSubscription("X", ()), "'X'"),
    (AddMember(""), "empty"),
])
def test_bad_events_name_the_value(event, match: str) -> None:
    with pytest.raises(ScenarioError, match=match):
        apply_event(base().first, event)


def test_timeline_scenario_round_trips_and_labels_describe_changes() -> None:
    tl = build_timeline(build_preset("order-service"), [AddMember("extra"), RemoveMember("order-svc-0")])
    assert loads_scenario(dumps_scenario(tl.scenario)) == tl.scenario
    assert step_labels(tl.scenario)[1:] == ("extra joins", "order-svc-0 leaves")
    a, b = base().first, apply_event(base().first, AddPartitions("t0", 1))[0]
    assert describe_change(a, b) == "t0: 6 -> 7 partitions"
    assert describe_change(a, a) == "rejoin (no change)"


# ---------------------------------------------------------------- the event factory a form uses


def test_make_event_builds_each_kind_from_the_fields_it_reads() -> None:
    assert make_event("add-partitions", topic="t0", count=2) == AddPartitions("t0", 2)
    assert make_event("remove", member="C1", topic="ignored") == RemoveMember("C1")
    assert make_event("crash-rejoin", member="C2") == CrashRejoin("C2")
    assert make_event("add", new_id="  C9 ") == AddMember("C9")
    assert make_event("change-subscription", member="C0", topics=["t1", "t0"]) == ChangeSubscription(
        "C0", ("t1", "t0")
    )
    assert set(EVENT_KINDS) == set(EVENT_FIELDS)


def test_make_event_refuses_an_empty_id_and_unknown_kinds() -> None:
    with pytest.raises(ScenarioError, match="add: the new member id is empty"):
        make_event("add", new_id="   ")
    with pytest.raises(ScenarioError, match="event: must be one of remove, add, .*got 'explode'"):
        make_event("explode")


def test_append_event_keeps_only_events_that_fit() -> None:
    events = append_event(base(), [], RemoveMember("C1"))
    assert events == [RemoveMember("C1")]
    with pytest.raises(ScenarioError, match="no member 'C1'"):
        append_event(base(), events, RemoveMember("C1"))  # C1 already left
    assert events == [RemoveMember("C1")]  # unchanged


def test_default_timeline_and_the_free_member_id() -> None:
    assert default_events(base()) == [RemoveMember("C2")]
    timeline = build_timeline(base(), [AddMember("C3"), RemoveMember("C3")])
    assert free_member_id(timeline.scenario) == "C4"  # C3 was used by an earlier step
    assert free_member_id(base()) == "C3"
