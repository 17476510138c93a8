"""``python -m engine replicas`` with its ``placer`` field: AdminUtils by default (spec section 6), Kafka 4.2's
``StripedReplicaPlacer`` with ``new Random(seed)`` on ``"placer": "striped"``; bad values are one line, exit 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.release import follows
from engine.server.replicas import cli_replicas
from helpers import REPO

RACKED = [{"id": i, "rack": f"r{i % 3 + 1}"} for i in range(6)]
STRIPED = {"placer": "striped", "brokers": RACKED, "partitions": 6, "replication_factor": 3}


def run(stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", "replicas"], input=stdin, capture_output=True,
                          text=True, cwd=REPO, timeout=60)


def test_admin_utils_is_the_default_and_answers_as_the_spec_says() -> None:
    doc = {"brokers": RACKED, "partitions": 3, "replication_factor": 2, "fixed_start_index": 0}
    plain = cli_replicas(doc)
    assert set(plain) == {"assignment", "rack_alternated_broker_list"}
    assert cli_replicas({**doc, "placer": "admin-utils"}) == plain


def test_striped_is_what_java_computes_with_new_random_seed() -> None:
    proc = run(json.dumps(STRIPED))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out == {"follows": follows("replicas-striped"), "placer": "striped", "seed": 0,
                   "assignment": {"0": [5, 0, 4], "1": [3, 1, 2], "2": [4, 5, 0], "3": [2, 3, 1], "4": [0, 4, 5],
                                  "5": [1, 2, 3]}}
    assert out["follows"].endswith("org.apache.kafka.metadata.placement.StripedReplicaPlacer")
    seeded = cli_replicas({**STRIPED, "seed": 42})
    assert seeded["seed"] == 42 and seeded["assignment"] != out["assignment"]


def test_fenced_brokers_follow_and_kafkas_refusals_come_back_as_errors() -> None:
    brokers = [{"id": 0, "rack": None}, {"id": 1, "rack": None, "fenced": True}]
    out = cli_replicas({"placer": "striped", "brokers": brokers, "partitions": 4, "replication_factor": 2})
    assert all(r == [0, 1] for r in out["assignment"].values())
    fenced = [{"id": 0, "rack": None, "fenced": True}]
    assert cli_replicas({"placer": "striped", "brokers": fenced, "partitions": 1, "replication_factor": 1}) == {
        "error": "InvalidReplicationFactorException: All brokers are currently fenced."}
    proc = run(json.dumps([STRIPED, {**STRIPED, "replication_factor": 7}, {**STRIPED, "placer": "zk"}]))
    assert proc.returncode == 0
    answers = json.loads(proc.stdout)
    assert answers[1] == {"error": "InvalidReplicationFactorException: The target replication factor of 7 cannot "
                                   "be reached because only 6 broker(s) are registered."}
    assert answers[2] == {"error": "placer: must be one of 'admin-utils', 'striped', got 'zk'"}


@pytest.mark.parametrize(("change", "line"), [
    ({"placer": 1}, "error: placer: must be one of 'admin-utils', 'striped', got 1"),
    ({"seed": "7"}, "error: seed: must be a 64-bit integer (a Java long), got '7'"),
    ({"seed": 2**63}, "error: seed: must be a 64-bit integer (a Java long), got 9223372036854775808"),
    ({"fixed_start_index": 0}, "error: fixed_start_index: does not apply to placer 'striped' (StripedReplicaPlacer "
                               "draws its starts from the Random; leave it out)"),
    ({"start_partition_id": 3}, "error: start_partition_id: does not apply to placer 'striped' "
                                "(StripedReplicaPlacer draws its starts from the Random; leave it out)"),
    ({"brokers": [{"id": 0, "fenced": "yes"}]}, "error: brokers[0].fenced: must be true or false, got 'yes'"),
    ({"brokers": [{"id": -1}]}, "error: brokers[0].id: a KRaft broker id is >= 0, got -1"),
    ({"brokers": [{"id": 0}, {"id": 0}]}, "error: brokers[1].id: 0 appears twice"),
    ({"replication_factor": 40_000}, "error: replication_factor: must be a 16-bit integer (PlacementSpec's "
                                     "short), got 40000"),
    ({"placer": "admin-utils", "seed": 1}, "error: seed: only with placer 'striped' (AdminUtils draws from an "
                                           "unseeded Random)"),
])
def test_bad_values_are_one_line_naming_the_field(change: dict, line: str) -> None:
    proc = run(json.dumps({**STRIPED, **change}))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [line]


def test_work_over_the_ceiling_is_refused_before_placing() -> None:
    brokers = [{"id": 0, "rack": "a"}] + [{"id": i, "rack": f"f{i}", "fenced": True} for i in range(1, 10_000)]
    proc = run(json.dumps({"placer": "striped", "brokers": brokers, "partitions": 100_000, "replication_factor": 1}))
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: replicas: estimated") and "racks walked past per partition" in proc.stderr
