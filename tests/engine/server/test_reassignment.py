"""kafka-reassign-partitions' file, decommission checks, the plan summary (engine/server/reassignment.py)."""

from __future__ import annotations

import json

import pytest

from engine.errors import EngineError
from engine.server.reassignment import (
    check_decommission,
    decommission_minimal,
    plan_summary,
    reassignment_json,
    reassignment_plan,
)
from engine.server.replicas import Broker, assign_replicas_to_brokers, brokers_on_racks, preferred_leaders


def test_docstring_example_the_execute_file() -> None:
    assert reassignment_json("orders", {1: [2, 0], 0: [1, 2]}) == {
        "version": 1, "partitions": [{"topic": "orders", "partition": 0, "replicas": [1, 2]},
                                     {"topic": "orders", "partition": 1, "replicas": [2, 0]}]}
    text = json.dumps(reassignment_json("t", {0: [3]}))
    assert text == '{"version": 1, "partitions": [{"topic": "t", "partition": 0, "replicas": [3]}]}'


def test_brokers_on_racks_give_the_racks_in_turn() -> None:
    assert brokers_on_racks(4, ["r1", "r2"]) == [Broker(0, "r1"), Broker(1, "r2"), Broker(2, "r1"),
                                                 Broker(3, "r2")]
    assert brokers_on_racks(2) == [Broker(0, None), Broker(1, None)]


def test_a_broker_can_only_go_if_the_replicas_still_fit() -> None:
    check_decommission(brokers_on_racks(4), 3)
    with pytest.raises(EngineError, match="Cannot remove a broker: 2 brokers would remain for replication "
                                          "factor 3"):
        check_decommission(brokers_on_racks(3), 3)


def test_plan_summary_of_the_minimal_plan() -> None:
    brokers = brokers_on_racks(6, ["r1", "r2", "r3"])
    current = assign_replicas_to_brokers(brokers, 12, 3, 0).assignment
    target = decommission_minimal(brokers, current, 5)
    plan = reassignment_plan(current, target, preferred_leaders(current), 1024**3)
    row = plan_summary("minimal moves", plan, 1024**2)
    assert row == {"plan": "minimal moves", "replica moves": 6, "GB to copy": 6.0,
                   "hours under throttle": round(plan.seconds_under_throttle(1024**2) / 3600, 2)}
    assert all(5 not in p["replicas"] for p in reassignment_json("t", target)["partitions"])
