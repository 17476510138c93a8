"""Every assignor side by side (engine/comparison.py): one shape for client and KIP-848 results."""

from __future__ import annotations

import pytest

from engine.comparison import (
    ASSIGNORS,
    CLIENT,
    SERVER,
    balance_row,
    outcomes,
    rebalance_row,
    revoked_count,
    revoked_partitions,
    step_pause,
)
from engine.consumer.group import replay
from engine.consumer.metrics import balance_metrics
from engine.consumer.pause import ProtocolTimings
from engine.coordinator.target_assignment import server_assign
from engine.presets import build_preset
from engine.scenario import parse_scenario


def test_docstring_example() -> None:
    s = build_preset("seed-d")
    got = [(o[1].moved, revoked_count(o[1])) for o in (outcomes(s, CLIENT["sticky"]),
           outcomes(s, CLIENT["cooperative-sticky"]), outcomes(s, SERVER["uniform"]))]
    assert got == [(3, 5), (3, 0), (3, 0)]


def test_labels_and_protocols() -> None:
    assert [a.label for a in ASSIGNORS] == ["range", "roundrobin", "sticky", "cooperative-sticky",
                                            "uniform (KIP-848)", "range (KIP-848)"]
    assert [a.title for a in ASSIGNORS][:4] == ["Range", "Round-robin", "Sticky", "Cooperative sticky"]
    assert [a.rebalance for a in ASSIGNORS] == ["eager"] * 3 + ["cooperative", "consumer", "consumer"]


@pytest.mark.parametrize("key", ["seed-d", "order-service", "three-az"])
def test_outcomes_equal_the_replays_and_server_targets(key: str) -> None:
    s = build_preset(key)
    for a in CLIENT.values():
        steps = replay(s, a.name).steps
        assert [(o.assignment, o.moved, o.rounds) for o in outcomes(s, a)] == [
            (r.assignment, r.moved, r.rounds) for r in steps]
    for a in SERVER.values():
        steps = server_assign(s, a.name).steps
        assert [(o.assignment, o.moved, o.rounds) for o in outcomes(s, a)] == [
            (r.assignment, r.moved, None) for r in steps]


def test_server_revocations_are_what_leaves_a_members_target() -> None:
    s = parse_scenario({"steps": [
        {"topics": {"t": 4}, "members": [{"id": "a", "topics": ["t"]}]},
        {"topics": {"t": 4}, "members": [{"id": "a", "topics": ["t"]}, {"id": "b", "topics": ["t"]}]}]})
    step = outcomes(s, SERVER["uniform"])[1]
    assert revoked_count(step) == 2 == len(step.assignment["b"])  # a gives b half of its partitions
    assert sorted(revoked_partitions(step, SERVER["uniform"]) or []) == sorted(step.assignment["b"])
    assert revoked_partitions(outcomes(s, CLIENT["range"])[1], CLIENT["range"]) is None  # eager: everything


def test_rows_hold_the_engine_numbers() -> None:
    s = build_preset("seed-d")
    a = CLIENT["cooperative-sticky"]
    steps = outcomes(s, a)
    m = balance_metrics(steps[1].assignment, s.steps[1])
    row = balance_row(a, m, steps[1])
    assert (row["strategy"], row["group.protocol"], row["spread"], row["moved (this step)"]) == (
        "cooperative-sticky", "classic", m.spread, 3)
    pause = step_pause(a, steps[0].assignment, steps[1], ProtocolTimings(), ())
    r = rebalance_row(a, steps[1], pause)
    assert (r["protocol"], r["partitions revoked"], r["rounds"]) == ("cooperative", 0, steps[1].rounds)
    assert r["partition-seconds unavailable"] == round(pause.partition_seconds, 3)
    assert r["consumer-seconds stopped"] == round(pause.stopped_consumer_seconds, 3) == 0  # incremental

