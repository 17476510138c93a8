"""broker,rack lines."""

from __future__ import annotations

import doctest

import pytest

from engine.tools import racks
from engine.tools.detect import parse_text
from engine.tools.records import PasteError


def test_worked_example() -> None:
    assert doctest.testmod(racks).failed == 0


def test_separators_header_and_comments() -> None:
    data = parse_text("broker,rack\n1,use1-az1\n2 use1-az2\n3=use1-az3  # new\n4: use1-az1\n1,use1-az1\n")
    assert data.brokers == {1: "use1-az1", 2: "use1-az2", 3: "use1-az3", 4: "use1-az1"}
    assert data.unused == []


def test_a_broker_on_two_racks_is_an_error() -> None:
    with pytest.raises(PasteError, match=r"^line 3: broker 1 is on rack 'az1' and 'az2' here"):
        parse_text("1,az1\n2,az2\n1,az2\n")
