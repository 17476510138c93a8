"""AppTest of pages/8_Replicas.py: placement, failover, preferred election, decommission plans."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from engine.server.replicas import Broker, assign_replicas_to_brokers
from helpers import open_page


def page() -> AppTest:
    return open_page("8_Replicas.py")


def test_default_matrix_matches_the_engine() -> None:
    at = page()
    expected = assign_replicas_to_brokers([Broker(i, f"r{i % 3 + 1}") for i in range(6)], 12, 3, 0).assignment
    table = at.dataframe[0].value
    assert list(table["replicas"]) == [str(expected[p]) for p in range(12)]
    assert list(table["leader"]) == [expected[p][0] for p in range(12)]


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
    at.number_input(key="replicas.rf").set_value(7).run()
    assert any("InvalidReplicationFactorException" in e.value for e in at.error)
    at.number_input(key="replicas.rf").set_value(3).run()
    plans = at.dataframe[1].value.set_index("plan")
    assert plans.loc["minimal moves", "replica moves"] == 6  # broker 5 holds 12 * 3 / 6 replicas
    assert plans.loc["kafka-reassign-partitions --generate", "replica moves"] >= 6
    at.number_input(key="replicas.partitions").set_value(0).run()
    assert any("InvalidPartitionsException" in e.value for e in at.error)
