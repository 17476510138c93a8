"""kafka-share-groups.sh --describe --members (ShareGroupCommand) -> a share-group scenario."""

from __future__ import annotations

import pytest

from engine.coordinator.share_assignment import share_assign
from engine.scenario import TopicPartition, dumps_scenario, loads_scenario
from engine.tools.detect import parse_text
from engine.tools.to_scenario import to_scenario
from helpers import TESTS

FIXTURES = TESTS / "fixtures" / "kafka_tools"


@pytest.mark.parametrize("name", ["sg_members_4x.txt", "sg_members_4x_verbose.txt"])
def test_share_group_members_view_becomes_a_share_group_scenario(name: str) -> None:
    data = parse_text((FIXTURES / name).read_text(encoding="utf-8"))
    assert data.groups["jobs-workers"].protocol == "share"
    result = to_scenario(data)
    scenario = result.scenario
    assert scenario.group_type == "share"
    assert scenario.first.topics == {"jobs": 3}
    assert len(scenario.first.members) == 8
    held = [tp for tps in scenario.current_assignment.values() for tp in tps]
    assert held.count(TopicPartition("jobs", 0)) == 3  # several members hold one partition
    assert scenario.current_assignment["Qw5eR7tY9uI1oP3aS5dF7g"] == (TopicPartition("jobs", 0),
                                                                     TopicPartition("jobs", 2))
    assert any("share group" in n for n in result.notes)
    assert loads_scenario(dumps_scenario(scenario)) == scenario
    # balance before stickiness: 8 members on 3 partitions want one partition each but one (D = 3, 9
    # memberships); the member holding jobs-0 and jobs-2 wants one, so it gives one back, and nobody else moves
    answer = share_assign(scenario).steps[0].assignment
    overfilled = "Qw5eR7tY9uI1oP3aS5dF7g"
    assert len(answer[overfilled]) == 1 and set(answer[overfilled]) < set(scenario.current_assignment[overfilled])
    assert all(answer[m] == list(tps) for m, tps in scenario.current_assignment.items() if m != overfilled)


def test_a_consumer_group_members_view_stays_a_consumer_group() -> None:
    data = parse_text((FIXTURES / "cg_members_verbose_4x.txt").read_text(encoding="utf-8"))
    assert all(g.protocol != "share" for g in data.groups.values())
    assert to_scenario(data).scenario.group_type == "consumer"


def test_share_group_message_is_recognised() -> None:
    data = parse_text("\nShare group 'jobs-idle' has no active members.\n")  # ShareGroupCommand, on stderr
    group = data.groups["jobs-idle"]
    assert (group.state, group.protocol) == ("Empty", "share")


@pytest.mark.parametrize("name", ["sg_members_4x.txt", "sg_members_4x_verbose.txt"])
def test_a_share_group_paste_is_named_as_the_tool_that_printed_it(name: str) -> None:
    sources = parse_text((FIXTURES / name).read_text(encoding="utf-8")).sources
    assert len(sources) == 1 and sources[0].startswith("kafka-share-groups.sh --describe --members: ")


def test_a_consumer_group_members_paste_keeps_its_tools_name() -> None:
    sources = parse_text((FIXTURES / "cg_members_verbose_4x.txt").read_text(encoding="utf-8")).sources
    assert sources[0].startswith("kafka-consumer-groups.sh --describe --members: ")
