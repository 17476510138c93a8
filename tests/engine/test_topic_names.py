"""Kafka's topic-name rule lives in engine/scenario.py: the CLI and the builder refuse the same names."""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest

from engine.errors import ScenarioError
from engine.presets import build_preset
from engine.scenario import check_topic_name, is_legal_topic_name, parse_scenario
from helpers import REPO, VECTORS
from ui.scenario.builder import tables_to_scenario

LEGAL = ["t0", "orders.v2", "__consumer_offsets", "a-b_c.D9", "x" * 249, "..."]
ILLEGAL = ["", ".", "..", "orders v2", "x" * 250, "café", "a/b", "<script>", "tab\there"]


@pytest.mark.parametrize("name", LEGAL)
def test_legal_names(name: str) -> None:
    assert is_legal_topic_name(name)
    check_topic_name("topics", name)


@pytest.mark.parametrize("name", ILLEGAL)
def test_illegal_names(name: str) -> None:
    assert not is_legal_topic_name(name)
    with pytest.raises(ScenarioError):
        check_topic_name("topics", name)


def test_worked_example_message_names_the_value() -> None:
    with pytest.raises(ScenarioError) as info:
        parse_scenario({"topics": {"orders v2": 3}, "members": [{"id": "C0", "topics": ["orders v2"]}]})
    message = str(info.value)
    assert message.startswith("topics['orders v2']: not a legal Kafka topic name, got 'orders v2' (")
    assert "\n" not in message


@pytest.mark.parametrize("name", ["orders v2", "..", "é"])
def test_cli_and_builder_refuse_the_same_names(name: str) -> None:
    case = {"strategy": "range", "topics": {name: 1}, "members": [{"id": "C0", "topics": [name]}]}
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "assign"],
        input=json.dumps(case),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert proc.returncode == 2 and "not a legal Kafka topic name" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    topics = pd.DataFrame([(name, 1, "uniform")], columns=["topic", "partitions", "load skew"])
    members = pd.DataFrame([("C0", "*", "", "")],
                           columns=["member id", "topics", "client.rack", "group.instance.id"])
    scenario, errors = tables_to_scenario(topics, members, build_preset("seed-a"))
    assert scenario is None and any("not a legal Kafka topic name" in e for e in errors.errors["topics"])


def test_every_topic_name_in_the_vectors_is_legal() -> None:
    names: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "topics" and isinstance(value, dict):
                    names.update(value)
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    files = sorted(VECTORS.glob("*.json"))
    if not files:
        pytest.skip(f"no vectors at {VECTORS}")
    for path in files:
        walk(json.loads(path.read_text(encoding="utf-8")))
    assert len(names) > 10
    assert [n for n in names if not is_legal_topic_name(n)] == []
