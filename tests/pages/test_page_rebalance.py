"""AppTest of pages/2_Rebalance.py: the engine's numbers, events, timings and the animations."""

from __future__ import annotations

import json

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


def step_box(at: AppTest):
    """The step selector (its key names the timeline it was drawn for: ui.assignments.rebalance_events.timeline_key)."""
    return next(s for s in at.selectbox if s.label == "Rebalance")


def numbers(at: AppTest):
    """The engine's table, drawn static (``st.table``: a few rows; a share group's own tables come first on its
    page): its seconds are the texts the grid shows (``grid``), read back as numbers with ``float``."""
    return next(t.value for t in at.table if "strategy" in t.value.columns).set_index("strategy")


def grid(seconds: float) -> str:
    """A number as the table shows it (as the interactive grid did): at most 4 decimals, trailing zeros dropped."""
    text = f"{seconds:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def test_seed_d_after_c1_leaves_matches_the_vectors() -> None:
    at = page("seed-d")
    assert at.radio(key="rebalance.source").value == "scenario steps"
    table = numbers(at)
    for s in STRATEGIES:
        case = next(c for c in load_vectors("assign.json")["cases"] if c["name"] == f"seed-d-{s}")
        assert table.loc[s, "moved"] == case["expected"][1]["moved"]
        assert table.loc[s, "moved from remaining"] == case["expected"][1]["moved_from_remaining"]
    # eager revokes everything the remaining members owned; cooperative only what moves (nothing here)
    revoked, stopped = table["partitions revoked"], table["consumer-seconds stopped"]
    assert revoked.loc["range"] == 4 and revoked.loc["cooperative-sticky"] == 0
    assert float(stopped.loc["sticky"]) > 0 and stopped.loc["cooperative-sticky"] == "0"  # only eager stops
    # what a rebalance costs leads; the new protocol is not worse than eager on seed-d
    unavailable = table["partition-seconds unavailable"]
    assert list(table.columns).index("partition-seconds unavailable") < list(table.columns).index(
        "consumer-seconds stopped")
    assert float(unavailable.loc["uniform (KIP-848)"]) < float(unavailable.loc["sticky"])
    assert table.loc["uniform (KIP-848)", "partition-seconds (bound)"] == grid(
        2 * float(unavailable.loc["uniform (KIP-848)"]))
    charts = at.get("plotly_chart")
    assert len(charts) == 2  # every strategy's animation in one figure (one Play), and the pause timeline
    animation = json.loads(charts[0].proto.spec)
    titles = [a["text"] for a in animation["layout"]["annotations"]]
    assert len(titles) == len(STRATEGIES) and all(t.startswith("<b>") for t in titles)
    buttons = [b["label"] for m in animation["layout"]["updatemenus"] for b in m["buttons"]]
    assert buttons.count("Play all") == 1


@pytest.mark.parametrize("key", [k for k in PRESETS if build_preset(k).group_type != "streams"])
def test_every_preset_renders(key: str) -> None:  # streams groups: tests/pages/test_page_streams.py
    at = page(key)
    assert len(numbers(at)) == len(STRATEGIES) + len(SERVER_ASSIGNORS)


def test_event_timeline_crash_and_rejoin() -> None:
    at = page("order-service")
    at.selectbox(key="rebalance.kind").set_value("crash-rejoin").run()
    at.selectbox(key="rebalance.member").set_value("order-svc-1").run()
    at.button(key="rebalance.add_event").click().run()
    assert not at.exception
    assert step_box(at).options == [
        "step 1: order-svc-1 crashes and rejoins (crash)", "step 2: order-svc-1 crashes and rejoins (rejoin)"]
    crashed = at.multiselect[0]
    assert crashed.value == ["order-svc-1"]
    table = numbers(at)
    timeout = int(at.text_input(key="rebalance.session_timeout_ms").value)
    # the crashed member's partitions wait for session.timeout.ms; the others keep consuming meanwhile
    assert float(table.loc["sticky", "partition-seconds unavailable"]) >= timeout / 1000
    assert float(table.loc["sticky", "consumer-seconds stopped"]) < timeout / 1000
    at.text_input(key="rebalance.session_timeout_ms").set_value("10000").run()
    paused = "partition-seconds unavailable"
    assert float(numbers(at).loc["sticky", paused]) < float(table.loc["sticky", paused])


def test_add_partitions_and_bad_event() -> None:
    at = page("seed-a")
    at.selectbox(key="rebalance.kind").set_value("add-partitions").run()
    at.text_input(key="rebalance.count").set_value("5").run()
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
    from ui.frame.state import KEY_JSON, KEY_SCENARIO  # set the state as a load on the home page would
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
    hb = at.text_input(key="rebalance.heartbeat_interval_ms")
    timings = ProtocolTimings(int(at.text_input(key="rebalance.session_timeout_ms").value),
                              int(at.text_input(key="rebalance.rejoin_ms").value),
                              int(at.text_input(key="rebalance.sync_ms").value),
                              int(at.text_input(key="rebalance.processing_ms").value), int(hb.value))
    for a in SERVER_ASSIGNORS:
        steps = server_assign(scenario, a).steps
        row = table.loc[f"{a} (KIP-848)"]
        assert row["protocol"] == "consumer (KIP-848)"
        assert (row["moved"], row["moved from remaining"]) == (steps[1].moved, steps[1].moved_from_remaining)
        pause = pause_report("consumer", steps[0].assignment, steps[1].assignment, timings)
        assert row["consumer-seconds stopped"] == grid(round(pause.stopped_consumer_seconds, 3)) == "0"
        assert row["partition-seconds unavailable"] == grid(round(pause.partition_seconds, 3))
        assert row["partition-seconds (bound)"] == grid(round(pause.partition_seconds_bound, 3))
    # C1 leaves gracefully: only its partitions move (nothing is revoked from the members that stay), and each
    # one waits from the end of C1's batch to its new owner's next heartbeat: half an interval expected, a full
    # one at most
    uniform = table.loc["uniform (KIP-848)"]
    assert uniform["partitions revoked"] == 0
    assert uniform["partition-seconds unavailable"] == grid(uniform["moved"] * timings.heartbeat_interval_ms / 2000)
    assert uniform["partition-seconds (bound)"] == grid(uniform["moved"] * timings.heartbeat_interval_ms / 1000)
    hb.set_value("1000").run()
    assert not at.exception, at.exception
    assert numbers(at).loc["uniform (KIP-848)", "partition-seconds unavailable"] == grid(uniform["moved"] * 0.5)
    assert len(at.get("plotly_chart")) == 2


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
    assert step_box(at).options == ["step 1: C1 subscribes to t0"]


@pytest.mark.parametrize("typed,says", [
    ("2.5", "a decimal is not rounded"), ("-5", "must be a whole number"), ("200000", "not clamped"),
])
def test_a_refused_partition_count_is_named_not_reinterpreted(typed: str, says: str) -> None:
    """Streamlit's number_input turned 2.5 into 25 and -5 into 5 and clamped 200000 silently."""
    at = page("seed-a")
    at.selectbox(key="rebalance.kind").set_value("add-partitions").run()
    at.text_input(key="rebalance.count").set_value(typed).run()
    assert any(says in e.value for e in at.error), [e.value for e in at.error]
    at.button(key="rebalance.add_event").click().run()
    assert not at.exception and at.session_state["rebalance.events"] == []
    assert any(says in e.value for e in at.error)


def test_a_refused_timing_keeps_the_last_accepted_value_and_says_so() -> None:
    at = page("seed-d")
    before = numbers(at)
    at.text_input(key="rebalance.heartbeat_interval_ms").set_value("2.5").run()
    assert any("heartbeat.interval.ms" in e.value and "Still using 5,000" in e.value for e in at.error)
    assert numbers(at).equals(before)
    at.text_input(key="rebalance.heartbeat_interval_ms").set_value("0").run()  # 0 is allowed here, not ignored
    assert float(numbers(at).loc["uniform (KIP-848)", "partition-seconds unavailable"]) < float(before.loc[
        "uniform (KIP-848)", "partition-seconds unavailable"])


def test_one_play_for_every_strategy_at_the_chosen_speed_with_labelled_dots() -> None:
    """One Play moves every animated strategy, a speed choice sets the frame duration, and a
    small group's dots carry their partition (hover always does)."""
    from engine.charts.rebalance import SPEEDS

    at = page("seed-d")
    at.segmented_control(key="rebalance.speed").set_value("slow").run()
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    play = next(b for m in spec["layout"]["updatemenus"] for b in m["buttons"] if b["label"] == "Play all")
    assert play["args"][1]["frame"]["duration"] == SPEEDS["slow"]
    dots = [t for t in spec["data"] if len(t.get("x", []))]
    assert {t["xaxis"] for t in dots} == {"x", "x2", "x3", "x4"}  # four panels, one figure
    assert all(t["mode"] == "markers+text" for t in dots)
    labels = {label for t in dots for label in t["text"]}
    assert {"t0-0", "t3-1"} <= labels
    frame = spec["frames"][1]
    assert len(frame["data"]) == len(spec["data"])  # each frame moves every panel


def test_kip848_rows_show_no_rounds_not_none() -> None:
    """KIP-848 has no JoinGroup rounds: the table says "–" (explained below it), never "None"."""
    at = page("seed-d")
    table = numbers(at)
    server = [f"{a} (KIP-848)" for a in SERVER_ASSIGNORS]
    assert all(table.loc[name, "rounds"] == "–" for name in server)
    assert all(str(r).isdigit() for name, r in table["rounds"].items() if name not in server)
    assert any("– where it does not apply" in c.value for c in at.caption)


def test_a_large_groups_pause_chart_gives_consumers_with_the_same_pauses_one_row() -> None:
    """Above 40 consumers per protocol (``engine.charts.rebalance.pause_rows``) the rows are timelines, each named
    by how many consumers share it: the large preset's 49 remaining consumers (the default event: the last one
    leaves) in a few rows per protocol, not 49 each."""
    import re

    at = page("large")
    spec = json.loads(next(c for c in at.get("plotly_chart") if c.key == "rebalance.pause").proto.spec)
    rows = spec["data"][0]["y"]
    remaining = len(build_preset("large").first.member_ids) - 1
    counts: dict[str, int] = {}
    for row in rows:
        protocol, name = row.split(" · ")
        found = re.fullmatch(r"([\d,]+) consumers? \((\w+)(, \.\.\.)?\)", name)
        assert found, row
        counts[protocol] = counts.get(protocol, 0) + int(found[1].replace(",", ""))
    assert counts == dict.fromkeys(["eager (sticky)", "cooperative (cooperative-sticky)",
                                    "consumer KIP-848 (uniform)"], remaining)
    assert len(rows) < len(counts) * remaining // 4
