"""AppTest of pages/2_Rebalance.py: the engine's numbers, events, timings and the animations."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from engine.consumer.events import make_event
from engine.consumer.pause import ProtocolTimings, pause_report
from engine.consumer.strategies import STRATEGY_NAMES as STRATEGIES
from engine.coordinator.assignors import SERVER_ASSIGNOR_NAMES as SERVER_ASSIGNORS
from engine.coordinator.target_assignment import server_assign
from engine.presets import PRESETS, build_preset
from helpers import load_vectors, open_page


def page(preset: str | None = None) -> AppTest:
    return open_page("2_Rebalance.py", preset)


def numbers(at: AppTest):
    return at.dataframe[0].value.set_index("strategy")


def test_seed_d_after_c1_leaves_matches_the_vectors() -> None:
    at = page("seed-d")
    assert at.radio(key="rebalance.source").value == "scenario steps"
    table = numbers(at)
    for s in STRATEGIES:
        case = next(c for c in load_vectors("assign.json")["cases"] if c["name"] == f"seed-d-{s}")
        assert table.loc[s, "moved"] == case["expected"][1]["moved"]
        assert table.loc[s, "moved from remaining"] == case["expected"][1]["moved_from_remaining"]
    # eager revokes everything the remaining members owned; cooperative only what moves (nothing here)
    revoked, paused = table["partitions revoked"], table["consumer-seconds paused"]
    assert revoked.loc["range"] == 4 and revoked.loc["cooperative-sticky"] == 0
    assert paused.loc["sticky"] > paused.loc["cooperative-sticky"]
    charts = at.get("plotly_chart")
    assert len(charts) == len(STRATEGIES) + 1


@pytest.mark.parametrize("key", list(PRESETS))
def test_every_preset_renders(key: str) -> None:
    at = page(key)
    assert len(numbers(at)) == len(STRATEGIES) + len(SERVER_ASSIGNORS)


def test_event_timeline_crash_and_rejoin() -> None:
    at = page("order-service")
    at.selectbox(key="rebalance.kind").set_value("crash-rejoin").run()
    at.selectbox(key="rebalance.member").set_value("order-svc-1").run()
    at.button(key="rebalance.add_event").click().run()
    assert not at.exception
    assert at.selectbox(key="rebalance.step").options == [
        "step 1: order-svc-1 crashes and rejoins (crash)", "step 2: order-svc-1 crashes and rejoins (rejoin)"]
    crashed = at.multiselect[0]
    assert crashed.value == ["order-svc-1"]
    table = numbers(at)
    timeout = at.number_input(key="rebalance.session_timeout_ms").value
    assert table.loc["sticky", "consumer-seconds paused"] >= timeout / 1000  # waits for session.timeout.ms
    at.number_input(key="rebalance.session_timeout_ms").set_value(10_000).run()
    paused = "consumer-seconds paused"
    assert numbers(at).loc["sticky", paused] < table.loc["sticky", paused]


def test_add_partitions_and_bad_event() -> None:
    at = page("seed-a")
    at.selectbox(key="rebalance.kind").set_value("add-partitions").run()
    at.number_input(key="rebalance.count").set_value(5).run()
    at.button(key="rebalance.add_event").click().run()
    assert at.session_state["rebalance.events"][-1].count == 5
    at.selectbox(key="rebalance.kind").set_value("add").run()
    at.text_input(key="rebalance.new_id").set_value("C0").run()
    at.button(key="rebalance.add_event").click().run()
    assert any("'C0' is already in the group" in e.value for e in at.error)
    assert len(at.session_state["rebalance.events"]) == 1
    at.button(key="rebalance.clear").click().run()
    assert at.session_state["rebalance.events"] == []


def test_static_member_restart_is_no_rebalance() -> None:
    from engine.scenario import dumps_scenario, parse_scenario
    scenario = parse_scenario({"topics": {"t0": 2},
                               "members": [{"id": "S", "topics": ["t0"], "instance_id": "h1"}]})
    at = page()
    from ui.state import KEY_JSON, KEY_SCENARIO  # set the state as a load on the home page would
    at.session_state[KEY_SCENARIO] = scenario
    at.session_state[KEY_JSON] = dumps_scenario(scenario)
    at.session_state["rebalance.events"] = []
    at.run()
    at.selectbox(key="rebalance.kind").set_value("crash-rejoin").run()
    at.button(key="rebalance.add_event").click().run()
    assert any("no rebalance" in i.value for i in at.info)
    assert not at.exception


def test_seed_d_server_rows_equal_server_assign_and_the_kip848_pause_model() -> None:
    at = page("seed-d")
    scenario = build_preset("seed-d")
    table = numbers(at)
    hb = at.number_input(key="rebalance.heartbeat_interval_ms")
    timings = ProtocolTimings(int(at.number_input(key="rebalance.session_timeout_ms").value),
                              int(at.number_input(key="rebalance.rejoin_ms").value),
                              int(at.number_input(key="rebalance.sync_ms").value),
                              int(at.number_input(key="rebalance.processing_ms").value), int(hb.value))
    for a in SERVER_ASSIGNORS:
        steps = server_assign(scenario, a).steps
        row = table.loc[f"{a} (KIP-848)"]
        assert row["protocol"] == "consumer (KIP-848)"
        assert (row["moved"], row["moved from remaining"]) == (steps[1].moved, steps[1].moved_from_remaining)
        pause = pause_report("consumer", steps[0].assignment, steps[1].assignment, timings)
        assert row["consumer-seconds paused"] == round(pause.consumer_seconds, 3)
        assert row["partition-seconds paused"] == round(pause.partition_seconds, 3)
    # C1 leaves gracefully: only its partitions move (nothing is revoked from the members that stay), and each
    # one waits from the end of C1's batch to its new owner's next heartbeat
    uniform = table.loc["uniform (KIP-848)"]
    assert uniform["partitions revoked"] == 0
    assert uniform["partition-seconds paused"] == uniform["moved"] * timings.heartbeat_interval_ms / 1000
    hb.set_value(1_000).run()
    assert not at.exception, at.exception
    assert numbers(at).loc["uniform (KIP-848)", "partition-seconds paused"] == uniform["moved"] * 1.0
    assert len(at.get("plotly_chart")) == len(STRATEGIES) + 1


def test_change_subscription_event_goes_through_the_engine_factory() -> None:
    at = page("seed-c")
    at.radio(key="rebalance.source").set_value("events").run()
    at.selectbox(key="rebalance.kind").set_value("change-subscription").run()
    at.selectbox(key="rebalance.member").set_value("C1").run()
    at.multiselect(key="rebalance.sub_topics").set_value(["t0"]).run()
    at.button(key="rebalance.add_event").click().run()
    assert not at.exception and not at.error
    expected = make_event("change-subscription", member="C1", topics=["t0"])
    assert at.session_state["rebalance.events"] == [expected]
    assert at.selectbox(key="rebalance.step").options == ["step 1: C1 subscribes to t0"]
