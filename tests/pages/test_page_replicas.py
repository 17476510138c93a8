"""AppTest of pages/8_Replicas.py: both placements (a KRaft controller's StripedReplicaPlacer by default, AdminUtils),
another draw, failover, preferred election, decommission plans; the first view (two charts, one static table) and
the lazy expanders that hold the decommission and replication sections."""

from __future__ import annotations

from typing import Any

from streamlit.testing.v1 import AppTest

from engine.metadata.placement.striped import UsableBroker, place_striped
from engine.release import model
from engine.server.replicas import Broker, assign_replicas_to_brokers
from helpers import REPO, open_page

RACKED = [Broker(i, f"r{i % 3 + 1}") for i in range(6)]


def page() -> AppTest:
    return open_page("8_Replicas.py")


def leadership(at: AppTest) -> Any:
    """The leadership table (static up to 40 partitions, the grid above)."""
    return next(t.value for t in [*at.table, *at.dataframe] if "preferred leader" in t.value.columns)


def matrix(at: AppTest) -> tuple[list[str], list[int]]:
    table = leadership(at)
    return list(table["replicas"]), list(table["leader"])


def open_section(at: AppTest, key: str) -> AppTest:
    """A lazy expander opened (``replicas.decommission_view``, ``replicas.replication_view``)."""
    at.session_state[key] = True
    return at.run()


def expected_rows(assignment: dict[int, list[int]]) -> tuple[list[str], list[int]]:
    return [str(assignment[p]) for p in sorted(assignment)], [assignment[p][0] for p in sorted(assignment)]


def test_the_default_is_a_kraft_controllers_placement_with_its_seed_and_release() -> None:
    at = page()
    assert at.radio(key="replicas.placer").value == "striped"
    assert at.text_input(key="replicas.seed").value == "42"
    expected = place_striped([UsableBroker(b.id, b.rack) for b in RACKED], 12, 3, 42).assignment
    assert matrix(at) == expected_rows(expected)
    captions = [c.value for c in at.caption]
    assert any(c.startswith("new Random(42): racks in the order r1, r2, r3") for c in captions), captions
    release = model("replicas-striped").release
    assert any(c.startswith(f"Follows {release.label} (commit {release.commit[:12]}): "
                            "org.apache.kafka.metadata.placement.StripedReplicaPlacer") for c in captions), captions
    open_section(at, "replicas.decommission_view")  # the plans' caption, in its lazy expander
    assert any(c.value.startswith(f"--generate on {release.label} runs StripedReplicaPlacer") for c in at.caption)


def test_another_draw_picks_a_new_seed_and_its_placement() -> None:
    at = page()
    at.button(key="replicas.redraw").click().run()
    assert not at.exception
    seed = int(at.text_input(key="replicas.seed").value)
    assert seed != 42  # one chance in 2**31 of drawing 42 again
    expected = place_striped([UsableBroker(b.id, b.rack) for b in RACKED], 12, 3, seed).assignment
    assert matrix(at) == expected_rows(expected)
    assert any(c.value.startswith(f"new Random({seed}):") for c in at.caption)


def test_admin_utils_matrix_matches_the_engine() -> None:
    at = page()
    at.radio(key="replicas.placer").set_value("admin-utils").run()
    assert not at.exception
    expected = assign_replicas_to_brokers(RACKED, 12, 3, 0).assignment
    assert matrix(at) == expected_rows(expected)
    captions = [c.value for c in at.caption]
    assert any("rack-alternated broker list [0, 1, 2, 3, 4, 5]" in c for c in captions)
    assert any(c.startswith(f"Follows {model('replicas').release.label}") for c in captions)


def test_kill_broker_moves_leadership_and_election_restores() -> None:
    at = page()
    at.selectbox(key="replicas.kill").set_value(0).run()
    assert not at.exception
    table = leadership(at)
    assert 0 not in set(table["leader"])
    moved = next(m.value for m in at.metric if m.label.startswith("partitions whose leader moved"))
    assert int(moved) == sum(1 for p in table["preferred leader"] if p == 0)
    at.checkbox(key="replicas.elect").check().run()
    assert not at.exception
    leaders_chart = at.get("plotly_chart")[1]
    assert "back + preferred election" in leaders_chart.proto.spec


def test_kafka_errors_and_decommission_plans() -> None:
    at = page()
    at.text_input(key="replicas.rf").input("7").run()
    assert [e.value for e in at.error] == [
        "Kafka refuses: InvalidReplicationFactorException: Unable to replicate the partition 7 time(s): The target "
        "replication factor of 7 cannot be reached because only 6 broker(s) are registered."]
    open_section(at, "replicas.decommission_view").text_input(key="replicas.rf").input("3").run()
    plans = next(t.value for t in at.table if "plan" in t.value.columns).set_index("plan")
    assert plans.loc["minimal moves", "replica moves"] == 6  # broker 5 holds 12 * 3 / 6 replicas
    assert plans.loc["kafka-reassign-partitions --generate", "replica moves"] >= 6
    at.text_input(key="replicas.partitions").input("0").run()
    assert any("InvalidPartitionsException: Number of partitions was set to an invalid non-positive value." in e.value
               for e in at.error)
    at.radio(key="replicas.placer").set_value("admin-utils").run()
    assert any("InvalidPartitionsException: Number of partitions must be larger than 0." in e.value
               for e in at.error)


def test_the_first_view_draws_two_charts_and_one_static_table() -> None:
    """A fresh visit: the replica matrix, the leader counts and the leadership table (static); the decommission
    and replication sections closed, their fields not drawn."""
    at = page()
    assert [c.key for c in at.get("plotly_chart")] == ["replicas.matrix", "replicas.leaders"]
    assert len(at.dataframe) == 0 and len(at.table) == 1
    assert [e.label for e in at.expander] == ["Decommission a broker",
                                              "Replication: the ISR, the high watermark, acks and leader election"]
    assert not {t.key for t in at.text_input} & {"replicas.size_gb", "replicas.isr.leo"}


def test_many_partitions_scroll_in_the_grid() -> None:
    at = page()
    at.text_input(key="replicas.partitions").input("41").run()
    assert not at.exception and len(leadership(at)) == 41 and len(at.dataframe) == 1


def test_the_decommission_plans_keep_their_fields_while_closed() -> None:
    at = open_section(page(), "replicas.decommission_view")
    at.selectbox(key="replicas.decommission").set_value(2)
    at.radio(key="replicas.plan").set_value("kafka-reassign-partitions --generate").run()
    plans = next(t.value for t in at.table if "plan" in t.value.columns).set_index("plan")
    assert plans.loc["minimal moves", "GB to copy"] == "60"  # broker 2's 6 replicas x 10 GB, as the grid wrote it
    at.session_state["replicas.decommission_view"] = False
    at.run()
    assert not any("plan" in t.value.columns for t in at.table)
    open_section(at, "replicas.decommission_view")
    assert at.selectbox(key="replicas.decommission").value == 2
    assert at.radio(key="replicas.plan").value == "kafka-reassign-partitions --generate"


def test_the_replication_section_opens_and_a_link_into_it_opens_it() -> None:
    at = open_section(page(), "replicas.replication_view")
    assert next(m.value for m in at.metric if m.label == "high watermark before the brokers die") == "8"
    assert len(at.table) == 3  # the leadership table, the replicas before and after
    linked = AppTest.from_file(str(REPO / "pages" / "8_Replicas.py"), default_timeout=120)
    linked.query_params["replicas.isr.leo"] = "10, 4, 8"
    linked.query_params["replicas.isr.fail"] = "0"
    linked.run()
    assert not linked.exception
    assert next(m.value for m in linked.metric if m.label == "leader") == "2"
