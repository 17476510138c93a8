"""AppTest of pages/8_Replicas.py: both placements (a KRaft controller's StripedReplicaPlacer by default, AdminUtils),
another draw, failover, preferred election, decommission plans."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from engine.metadata.placement.striped import UsableBroker, place_striped
from engine.release import model
from engine.server.replicas import Broker, assign_replicas_to_brokers
from helpers import open_page

RACKED = [Broker(i, f"r{i % 3 + 1}") for i in range(6)]


def page() -> AppTest:
    return open_page("8_Replicas.py")


def matrix(at: AppTest) -> tuple[list[str], list[int]]:
    table = at.dataframe[0].value
    return list(table["replicas"]), list(table["leader"])


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
    assert any(c.startswith(f"--generate on {release.label} runs StripedReplicaPlacer") for c in captions)


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
    table = at.dataframe[0].value
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
    at.text_input(key="replicas.rf").input("3").run()
    plans = at.dataframe[1].value.set_index("plan")
    assert plans.loc["minimal moves", "replica moves"] == 6  # broker 5 holds 12 * 3 / 6 replicas
    assert plans.loc["kafka-reassign-partitions --generate", "replica moves"] >= 6
    at.text_input(key="replicas.partitions").input("0").run()
    assert any("InvalidPartitionsException: Number of partitions was set to an invalid non-positive value." in e.value
               for e in at.error)
    at.radio(key="replicas.placer").set_value("admin-utils").run()
    assert any("InvalidPartitionsException: Number of partitions must be larger than 0." in e.value
               for e in at.error)
