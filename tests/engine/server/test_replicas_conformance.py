"""AdminUtils.assignReplicasToBrokers against ../shared/vectors/replicas.json (real Kafka output)."""

from __future__ import annotations

import pytest

from engine.server.replicas import cli_replicas
from helpers import load_vectors

KEYS = ("brokers", "partitions", "replication_factor", "fixed_start_index", "start_partition_id")


@pytest.fixture(scope="module")
def cases() -> list[dict]:
    return load_vectors("replicas.json")["cases"]


def test_every_case_matches_kafka(cases: list[dict]) -> None:
    failures = []
    for case in cases:
        got = cli_replicas({k: case[k] for k in KEYS})
        exp = case["expected"]
        if "error" in exp:
            ok = got.get("error") == exp["error"]
        else:
            ok = got.get("assignment") == exp["assignment"] and got.get(
                "rack_alternated_broker_list") == exp.get("rack_alternated_broker_list")
        if not ok:
            failures.append(case["name"])
    assert len(cases) == 52
    assert not failures, f"{len(failures)} cases differ: {failures[:5]}"


def test_errors_are_results_not_exceptions(cases: list[dict]) -> None:
    errors = [c for c in cases if "error" in c["expected"]]
    assert len(errors) == 3
    for case in errors:
        assert cli_replicas({k: case[k] for k in KEYS}) == {"error": case["expected"]["error"]}
