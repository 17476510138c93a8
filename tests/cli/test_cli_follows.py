"""Every command's answer names the Kafka release and class its model follows, read from ``engine.release``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.cli import COMMANDS
from engine.release import CURRENT, MODELS, follows, model
from helpers import REPO

GROUP = {"topics": {"t0": 3}, "members": [{"id": "C0", "topics": ["t0"]}]}
IDS = {"t0": "AAAAAAAAAAAAAAAAAAAAAg"}
INPUTS = {
    "assign": {"strategy": "range", **GROUP},
    "hash": {"keys_hex": ["61"], "partitions": [3]},
    "coordinator": {"group_ids": ["g"]},
    "replicas": {"brokers": [{"id": 0, "rack": None}], "partitions": 1, "replication_factor": 1,
                 "fixed_start_index": 0, "start_partition_id": -1},
    "server-assign": {"assignor": "uniform", "steps": [{"topics": {"t0": 3}, "topic_ids": IDS,
                                                        "members": [{"id": "C0", "topics": ["t0"]}]}]},
    "share-assign": {"assignor": "simple", "steps": [{"topics": {"t0": 3}, "topic_ids": IDS,
                                                      "members": [{"id": "C0", "topics": ["t0"]}]}]},
    "produce": {"records": 1},
    "log-config": {"config": {}},
}


def run(command: str, document: object) -> dict:
    proc = subprocess.run([sys.executable, "-m", "engine", command], input=json.dumps(document),
                          capture_output=True, text=True, cwd=REPO, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_every_command_names_a_registered_model() -> None:
    assert {c.model for c in COMMANDS.values()} <= set(MODELS)


@pytest.mark.parametrize("command", sorted(INPUTS))
def test_an_answer_names_its_release_and_class(command: str) -> None:
    out = run(command, INPUTS[command])
    assert out["follows"] == follows(COMMANDS[command].model)
    assert out["follows"].startswith(model(COMMANDS[command].model).release.cite)


def test_a_batch_names_it_on_every_answer_but_not_on_an_error() -> None:
    out = run("server-assign", [INPUTS["server-assign"], {"assignor": "nope"}])
    assert out[0]["follows"] == follows("server-assign") and set(out[1]) == {"error"}


def test_a_librdkafka_answer_names_librdkafka() -> None:
    out = run("assign", {"client": "librdkafka", "strategy": "range", **GROUP})
    assert out["follows"] == follows("assign-librdkafka") and "librdkafka" in out["follows"]


def test_the_models_kafka_checked_follow_the_current_release() -> None:
    """Every model of Kafka's code but AdminUtils' (gone from Kafka 4.1) follows the current release."""
    kafka = {k for k, m in MODELS.items() if m.release.product == "Kafka"}
    assert {k for k in kafka if MODELS[k].release is not CURRENT} == {"replicas"}
