"""kafka-consumer-groups.sh --describe: offsets, members (3.x, 3.8/3.9, 4.x), state, messages."""

from __future__ import annotations

import doctest
import re

import pytest

from engine.tools import columns, consumer_groups
from engine.tools.consumer_groups import parse_assignment
from engine.tools.detect import parse_text
from engine.tools.records import PasteError
from helpers import TESTS

FIXTURES = TESTS / "fixtures" / "kafka_tools"
C1 = "consumer-orders-service-1-87751d4c-a850-4e2c-84dc-da6a797d76de"
C2 = "consumer-orders-service-2-61b339ff-2481-44e5-998b-88dbaa99e079"
C3 = "consumer-orders-service-3-7b87a9e2-5fef-4911-bf22-a27b02c7bff2"
ASSIGNED = {
    C1: [("orders", 0), ("orders", 1), ("payments", 0)],
    C2: [("orders", 2), ("orders", 3), ("payments", 1)],
    C3: [("orders", 4), ("orders", 5), ("payments", 2)],
}


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def test_worked_examples() -> None:
    for module in (columns, consumer_groups):
        assert doctest.testmod(module).failed == 0


def test_offsets_view_3x_owners_lag_and_an_unowned_partition() -> None:
    data = parse_text(fixture("cg_offsets_3x.txt"))
    group = data.groups["orders-service"]
    assert list(group.members) == [C1, C2, C3]
    assert (
        group.members[C2].host == "/10.20.2.12" and group.members[C2].client_id == "consumer-orders-service-2"
    )
    assert {tp: o for tp, o in group.owners.items() if o == C3} == dict.fromkeys(ASSIGNED[C3], C3)
    assert group.lag[("orders", 2)] == 340 and group.lag[("payments", 2)] == 1200
    assert ("refunds", 0) not in group.owners and group.offsets[("refunds", 0)] == 42
    assert len(group.lag) == 10


def test_offsets_view_4x_verbose_with_leader_epoch_and_missing_offsets() -> None:
    group = parse_text(fixture("cg_offsets_4x_verbose.txt")).groups["orders-service"]
    missing = [tp for tp in group.owners if tp not in group.offsets]
    assert len(missing) == 1 and missing[0] not in group.lag  # CURRENT-OFFSET '-' -> no lag, as Kafka
    assert len(group.owners) == 9 and len(group.lag) == 9  # 8 owned with lag + the unowned refunds-0


@pytest.mark.parametrize(
    "name", ["cg_members_verbose_3x.txt", "cg_members_verbose_4x_classic.txt", "cg_members_collapsed.txt"]
)
def test_members_views_give_the_assignment(name: str) -> None:
    group = parse_text(fixture(name)).groups["orders-service"]
    for member_id, expected in ASSIGNED.items():
        assert sorted(group.members[member_id].assignment) == expected


def test_members_3x_idle_member_has_no_partitions() -> None:
    group = parse_text(fixture("cg_members_verbose_3x.txt")).groups["orders-service"]
    idle = [m for m in group.members.values() if m.partition_count == 0]
    assert len(idle) == 1 and idle[0].assignment == [] and idle[0].client_id == "consumer-orders-service-4"


def test_static_members_with_one_blank_group_instance_id() -> None:
    for name in ("cg_members_verbose_3x_static.txt", "cg_members_collapsed.txt"):
        group = parse_text(fixture(name)).groups["orders-service"]
        assert [m.instance_id for m in group.members.values()] == [
            "orders-service-host-a",
            "orders-service-host-b",
            None,
        ], name
        assert group.members[C3].host == "/10.20.3.13"


def test_4x_consumer_protocol_current_and_target() -> None:
    group = parse_text(fixture("cg_members_verbose_4x.txt")).groups["orders-service"]
    assert group.protocol == "consumer"
    third = list(group.members.values())[2]
    assert third.assignment == [("orders", 4), ("payments", 2)]
    assert third.target_assignment == [("orders", 4), ("orders", 5), ("payments", 2)]


def test_4x_classic_group_is_classic() -> None:
    group = parse_text(fixture("cg_members_verbose_4x_classic.txt")).groups["orders-service"]
    assert group.protocol == "classic"
    assert group.members[C3].instance_id == "orders-service-host-c"
    assert all(m.target_assignment is None for m in group.members.values())  # "-": no target, not an empty one


def test_38_assignment_without_topic_names_is_listed_not_guessed() -> None:
    data = parse_text(fixture("cg_members_verbose_38.txt"))
    group = data.groups["orders-service"]
    assert all(m.assignment is None for m in group.members.values())
    assert [u.line for u in data.unused] == [3, 4, 5]
    assert "3.8/3.9" in data.unused[0].reason


def test_state_views() -> None:
    group = parse_text(fixture("cg_state_3x.txt")).groups["orders-service"]
    assert (group.state, group.assignor, group.protocol) == ("Stable", "cooperative-sticky", None)
    group = parse_text(fixture("cg_state_4x_verbose.txt")).groups["orders-service"]
    assert (group.state, group.assignor, group.protocol) == ("Reconciling", "uniform", "consumer")


def test_no_active_members_and_rebalancing_messages() -> None:
    data = parse_text(fixture("cg_no_active_members.txt"))
    group = data.groups["orders-service"]
    assert group.state == "Empty" and not group.members and not group.owners and len(group.lag) == 9
    data = parse_text(fixture("cg_rebalancing.txt"))
    group = data.groups["orders-service"]
    assert group.state == "Rebalancing" and all(m.assignment == [] for m in group.members.values())
    assert any("rebalancing" in n for n in data.notes)


def test_all_groups_and_a_table_without_group_column() -> None:
    second = re.sub(r"^orders-service", "billing-app   ", fixture("cg_offsets_3x.txt"), flags=re.MULTILINE)
    text = fixture("cg_offsets_3x.txt") + second
    data = parse_text(text)
    assert sorted(data.groups) == ["billing-app", "orders-service"]
    widths = [15, 10, 15, 15, 15, 15, 15]
    header = ["TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID", "HOST"]
    row = ["orders", "0", "5", "9", "4", "-", "-"]
    table = [" ".join(v.ljust(w) for v, w in zip(r, widths)) for r in (header, row)]
    old = f"Consumer group 'legacy' has no active members.\n\n{table[0]} CLIENT-ID\n{table[1]} -\n"
    assert parse_text(old).groups["legacy"].lag == {("orders", 0): 4}


def test_assignment_cells() -> None:
    assert parse_assignment("-", 1) == []
    assert parse_assignment("t.v2:0;t-3:10,2", 1) == [("t.v2", 0), ("t-3", 10), ("t-3", 2)]
    assert parse_assignment("(0,10,2), (1)", 1) is None
    for bad in ("t0(0,x)", "t0:0;bad topic:1", "t0(0", "garbage"):
        with pytest.raises(PasteError, match=r"^line 7: "):
            parse_assignment(bad, 7)


@pytest.mark.parametrize(
    "mutate, message",
    [
        (
            lambda t: t.replace("3               orders(2,3)", "x               orders(2,3)"),
            r"^line 4: expected 6 columns",
        ),
        (
            lambda t: t.replace("3               orders(2,3)", "2               orders(2,3)"),
            r"^line 4: #PARTITIONS is 2",
        ),
        (lambda t: t.replace("orders(2,3)", "orders(2,z)"), r"^line 4: cannot read the assignment"),
    ],
)
def test_bad_rows_name_their_line(mutate, message) -> None:
    text = fixture("cg_members_verbose_3x.txt")
    assert "3               orders(2,3)" in text
    with pytest.raises(PasteError, match=message):
        parse_text(mutate(text))


def test_a_partition_listed_twice_is_an_error() -> None:
    lines = fixture("cg_offsets_3x.txt").splitlines()
    with pytest.raises(
        PasteError, match=r"^line 13: partition orders-0 of group 'orders-service' is listed twice"
    ):
        parse_text("\n".join([*lines, lines[2]]))


def test_4x_migration_adds_an_upgraded_column() -> None:
    lines = fixture("cg_members_verbose_4x.txt").split("\n")
    lines[1] += " UPGRADED"  # formatWithUpgrade: the last padded column, a space, then %s
    for i, flag in ((2, "true"), (3, "true"), (4, "false")):
        lines[i] += " " + flag
    data = parse_text("\n".join(lines))
    group = data.groups["orders-service"]
    assert group.protocol == "consumer" and len(group.members) == 3
    assert list(group.members.values())[2].assignment == [("orders", 4), ("payments", 2)]
    assert any("UPGRADED" in u.text for u in data.unused)
