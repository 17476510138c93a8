"""The "Java client" / "librdkafka client" choice on Assignments, Rebalance and Keys (ui/inputs/client_choice.py)."""

from __future__ import annotations

from typing import Any

from helpers import open_page


def _texts(elements: Any) -> list[str]:
    return [str(e.value) for e in elements]


def test_assignments_default_is_java_and_librdkafka_shows_its_own_strategies() -> None:
    at = open_page("1_Assignments.py")  # the default preset, seed-d
    assert at.radio(key="client.assign").value == "java"
    assert "client" not in at.query_params
    at.radio(key="client.assign").set_value("librdkafka").run()
    assert not at.exception, at.exception
    assert at.session_state["client.selected"] == "librdkafka"
    assert at.query_params.get("client") in ("librdkafka", ["librdkafka"])
    tabs = [t.label for t in at.tabs]
    assert "Cooperative sticky (librdkafka)" in tabs and "Sticky" not in tabs and "uniform (KIP-848)" in tabs
    assert any("librdkafka has no sticky assignor" in c for c in _texts(at.caption))
    strategies = [row for row in at.table[0].value["strategy"]]
    assert "range (librdkafka)" in strategies and "sticky" not in strategies


def test_assignments_teaching_point_where_the_clients_differ() -> None:
    at = open_page("1_Assignments.py")
    at.selectbox(key="assign.step").set_value(1).run()  # seed-d: C1 leaves; cooperative-sticky differs
    notes = [n for n in _texts(at.info) if "consumer would get different partitions" in n]
    assert notes and notes[0].startswith("cooperative-sticky: a librdkafka consumer would get")
    at.radio(key="client.assign").set_value("librdkafka").run()
    assert not at.exception, at.exception
    notes = [n for n in _texts(at.info) if "consumer would get different partitions" in n]
    assert notes and notes[0].startswith("cooperative-sticky: a Java consumer would get")
    at.selectbox(key="assign.step").set_value(0).run()  # step 0: both clients agree on seed-d
    assert not [n for n in _texts(at.info) if "consumer would get different partitions" in n]


def test_rebalance_counts_the_chosen_clients_strategies() -> None:
    at = open_page("2_Rebalance.py")
    at.radio(key="client.rebalance").set_value("librdkafka").run()
    assert not at.exception, at.exception
    table = at.table[0].value
    assert list(table["strategy"])[:3] == ["range (librdkafka)", "roundrobin (librdkafka)",
                                          "cooperative-sticky (librdkafka)"]
    assert at.multiselect(key="rebalance.animate.librdkafka").value == ["range", "roundrobin", "cooperative-sticky"]


def test_the_link_carries_the_client_to_keys_and_its_default_partitioner() -> None:
    at = open_page("3_Keys.py")
    assert at.radio(key="client.keys").value == "java"
    assert at.multiselect(key="keys.partitioners").value[0] == "java"
    at.query_params["client"] = "librdkafka"
    del at.session_state["client.selected"]  # as a fresh session opened with ?client=librdkafka
    at.run()
    assert not at.exception, at.exception
    assert at.radio(key="client.keys").value == "librdkafka"
    assert at.multiselect(key="keys.partitioners.librdkafka").value[0] == "consistent_random"
    assert any("consistent_random" in c for c in _texts(at.caption))


def test_where_real_librdkafka_crashes_the_page_says_why() -> None:
    from engine.scenario import parse_scenario
    from ui.frame.state import encode_scenario

    def members(m0: list[str]) -> list[dict[str, Any]]:
        return [{"id": "m0", "topics": m0}, {"id": "m1", "topics": ["t0", "t1"], "rack": "r0"}]

    racks = {"t0": [["r0"], ["r1"]], "t1": [["r0"]]}
    scenario = parse_scenario({"steps": [{"topics": {"t0": 2, "t1": 1}, "partition_racks": racks,
                                          "members": members(m)} for m in (["t1"], ["t0", "t1"])]})
    at = open_page("1_Assignments.py")
    at.query_params["s"] = encode_scenario(scenario)
    at.run()
    at.radio(key="client.assign").set_value("librdkafka").run()
    assert not at.exception, at.exception
    warnings = [w for w in _texts(at.warning) if "reads freed memory" in w]
    assert warnings and warnings[0].startswith("range: a group of librdkafka consumers does not get here.")


def test_the_client_switch_gives_a_verdict_and_a_preset_where_the_clients_differ() -> None:
    """"same here" or "differs on N partitions", counted by the engine; on mixed-static (a half-done
    move to static membership) Java's and librdkafka's range and roundrobin differ, so it can be taught."""
    from engine.comparison import Assignor, outcomes
    from engine.presets import build_preset
    from engine.side_by_side import owner_differences

    scenario = build_preset("mixed-static")
    counts = {}
    for name in ("range", "roundrobin", "cooperative-sticky"):
        java, rdk = (outcomes(scenario, Assignor("classic", name, c))[0].assignment for c in ("java", "librdkafka"))
        counts[name] = len(owner_differences(java, rdk))
    assert counts["range"] > 0 and counts["roundrobin"] > 0 and counts["cooperative-sticky"] == 0
    at = open_page("1_Assignments.py", "mixed-static")
    line = next(c for c in _texts(at.caption) if c.startswith("Java vs librdkafka at this step"))
    assert "same here: cooperative-sticky" in line
    for name in ("range", "roundrobin"):
        assert f"{name} differs on {counts[name]} partition(s)" in line
    assert not [c for c in _texts(at.caption) if "no comparison with the other client" in c]  # Java: no noise
    at = open_page("1_Assignments.py", "seed-b-4p")
    line = next(c for c in _texts(at.caption) if c.startswith("Java vs librdkafka at this step"))
    assert "same here: range, roundrobin, cooperative-sticky" in line and "differs" not in line


def test_a_dear_comparison_with_the_other_client_is_named_not_computed(monkeypatch) -> None:
    """20,000 partitions x 300 members: the page's own six assignors are about 0.1 s of work, librdkafka's
    cooperative-sticky about 7 s (every allowed member-partition pair walked for each partition). A teaching
    note does not make the Java page wait for it: it is named with its estimate, and no worker runs it."""
    from streamlit.testing.v1 import AppTest

    from engine.scenario import parse_scenario
    from helpers import REPO
    from ui.frame.state import encode_scenario
    from ui.runtime import offload

    submitted: list[Any] = []
    real = offload.POOL.submit
    monkeypatch.setattr(offload.POOL, "submit", lambda key, *rest: submitted.append(key) or real(key, *rest))
    topics = {f"t{i}": 1_000 for i in range(20)}
    members = [{"id": f"c{i}", "topics": list(topics)} for i in range(300)]
    at = AppTest.from_file(str(REPO / "pages" / "1_Assignments.py"), default_timeout=300)
    at.query_params["s"] = encode_scenario(parse_scenario({"topics": topics, "members": members}))
    at.run()
    assert not at.exception and not submitted
    note = next(c for c in _texts(at.caption) if c.startswith("Not compared with the librdkafka client here"))
    assert "cooperative-sticky (7 s)" in note, note
    assert any("Java vs librdkafka at this step: same here: range, roundrobin" in c for c in _texts(at.caption))
