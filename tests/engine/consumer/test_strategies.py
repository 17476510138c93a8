"""The strategy registries: client strategies (engine/consumer/strategies.py) and KIP-848 server assignors
(engine/coordinator/assignors.py), and that the group replay and the protocol vote look them up."""

from __future__ import annotations

import pytest

from engine.consumer.assignors.cooperative import CooperativeStickyAssignor
from engine.consumer.assignors.sticky import StickyAssignor
from engine.consumer.group import GroupReplay, cli_assign
from engine.consumer.protocol import client_rebalance_protocol
from engine.consumer.strategies import (
    STRATEGY_NAMES,
    StatelessAssignor,
    find_strategy,
    parse_strategy,
    strategies,
    strategy_of,
)
from engine.coordinator.assignors import DEFAULT_SERVER_ASSIGNOR, SERVER_ASSIGNOR_NAMES, server_assignor
from engine.errors import ScenarioError
from engine.scenario import GroupState, Member


def test_docstring_example() -> None:
    s = strategy_of("cooperative-sticky")
    assert s.kafka_class == "org.apache.kafka.clients.consumer.CooperativeStickyAssignor"
    assert (s.supported_protocols, s.protocol, s.server_assignor) == (("EAGER", "COOPERATIVE"), "COOPERATIVE",
                                                                        "uniform")
    assert [s.name for s in strategies()] == ["range", "roundrobin", "sticky", "cooperative-sticky"]
    assert find_strategy("org.apache.kafka.clients.consumer.RangeAssignor").name == "range"


def test_server_registry_docstring_example_and_every_mapping_exists() -> None:
    assert (list(SERVER_ASSIGNOR_NAMES), DEFAULT_SERVER_ASSIGNOR) == (["uniform", "range"], "uniform")
    assert server_assignor("range").kafka_class == "org.apache.kafka.coordinator.group.assignor.RangeAssignor"
    assert server_assignor("uniform").label == "uniform (KIP-848)"
    assert {s.server_assignor for s in strategies()} <= set(SERVER_ASSIGNOR_NAMES)
    with pytest.raises(ScenarioError, match="assignor: must be one of uniform, range, got 'sticky'"):
        server_assignor("sticky")


def test_protocols_labels_and_config_lines() -> None:
    assert {s.name: s.mode for s in strategies()} == {
        "range": "eager",
        "roundrobin": "eager",
        "sticky": "eager",
        "cooperative-sticky": "cooperative",
    }
    assert [s.label for s in strategies()] == ["Range", "Round-robin", "Sticky", "Cooperative sticky"]
    assert strategy_of("roundrobin").config_line() == (
        "partition.assignment.strategy=org.apache.kafka.clients.consumer.RoundRobinAssignor")
    assert client_rebalance_protocol(["cooperative-sticky", "range"]) == "EAGER"  # the common one
    assert client_rebalance_protocol(["cooperative-sticky"]) == "COOPERATIVE"


@pytest.mark.parametrize("text", ["STICKY", " stickyassignor ",
                                  "org.apache.kafka.clients.consumer.StickyAssignor"])
def test_find_strategy_by_name_or_class(text: str) -> None:
    assert find_strategy(text).name == "sticky"


def test_unknown_strategies_are_one_line_errors_naming_the_value() -> None:
    with pytest.raises(ScenarioError, match=r"strategy: must be one of range, roundrobin, sticky, "
                                            r"cooperative-sticky, got 'uniform'"):
        strategy_of("uniform")
    with pytest.raises(ScenarioError, match=r"got \['range'\]"):
        parse_strategy({"strategy": ["range"]})  # unhashable: still a clean message
    with pytest.raises(ScenarioError, match="must be a JSON object"):
        parse_strategy([])
    with pytest.raises(ScenarioError, match="'nope'"):
        cli_assign({"strategy": "nope", "topics": {"t0": 1}, "members": [{"id": "a", "topics": ["t0"]}]})
    with pytest.raises(ScenarioError, match="unknown client strategy 'x'"):
        find_strategy("x")
    assert parse_strategy({"strategy": "range"}) == "range" and STRATEGY_NAMES[0] == "range"


def test_the_replay_gives_each_member_the_registry_assignor() -> None:
    state = GroupState({"t0": 4}, (Member("a", ("t0",)), Member("b", ("t0",))))
    for name, kind in (("sticky", StickyAssignor), ("cooperative-sticky", CooperativeStickyAssignor),
                       ("range", StatelessAssignor)):
        group = GroupReplay(name)
        group.step(state)
        assignors = [ms.assignor for ms in group.members.values()]
        assert all(isinstance(a, kind) for a in assignors), name
        if kind is not StatelessAssignor:  # sticky state is per member, as in Kafka
            assert assignors[0] is not assignors[1]
    assert GroupReplay(strategy_of("range")).strategy == "range"
