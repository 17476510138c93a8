"""``python -m engine assign`` with the optional ``"client"`` field (README, CLI section)."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from typing import Any

import pytest

from engine.consumer import group
from engine.consumer.librdkafka import cli as librdkafka_cli
from engine.consumer.librdkafka import replay_librdkafka
from engine.scenario import parse_scenario
from helpers import REPO

SHARED_ASSIGN = REPO.parent / "shared" / "vectors" / "assign.json"
MIXED = {"strategy": "range", "topics": {"t0": 3},
         "members": [{"id": "m1", "topics": ["t0"], "instance_id": "z"}, {"id": "m2", "topics": ["t0"]},
                     {"id": "m3", "topics": ["t0"], "instance_id": "a"}]}


def _run(payload: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", "assign", "-"], input=json.dumps(payload),
                          capture_output=True, text=True, cwd=REPO, timeout=120)


def test_worked_example() -> None:
    result = doctest.testmod(librdkafka_cli)
    assert result.failed == 0 and result.attempted > 0


def test_without_the_field_or_with_java_the_output_is_the_specs() -> None:
    shared = json.loads(SHARED_ASSIGN.read_text(encoding="utf-8"))["cases"][:40]
    for case in shared:
        plain = {k: v for k, v in case.items() if k not in ("expected", "client")}
        want = group.cli_assign(plain)
        assert librdkafka_cli.cli_assign(plain) == want
        assert librdkafka_cli.cli_assign({**plain, "client": "java"}) == want


def test_librdkafka_client_on_the_command_line() -> None:
    java, rdk = _run(MIXED), _run({**MIXED, "client": "librdkafka"})
    assert java.returncode == rdk.returncode == 0
    assert json.loads(java.stdout)["steps"][0]["assignment"] == {"m1": ["t0-1"], "m2": ["t0-2"], "m3": ["t0-0"]}
    assert json.loads(rdk.stdout)["steps"][0]["assignment"] == {"m1": ["t0-0"], "m2": ["t0-1"], "m3": ["t0-2"]}


def test_librdkafka_answers_in_the_same_shape_as_its_replay() -> None:
    case = {**MIXED, "strategy": "cooperative-sticky", "client": "librdkafka",
            "steps": [{"topics": {"t0": 4}, "members": MIXED["members"]},
                      {"topics": {"t0": 4}, "members": MIXED["members"][:2]}]}
    out = librdkafka_cli.cli_assign(case)["steps"]
    replayed = replay_librdkafka(parse_scenario(case), "cooperative-sticky")
    assert [s["assignment"] for s in out] == [
        {m: [str(tp) for tp in tps] for m, tps in r.assignment.items()} for r in replayed]
    assert set(out[1]) >= {"rounds", "converged", "revoked_first_round", "generation", "leader"}


@pytest.mark.parametrize(("payload", "named"), [
    ({**MIXED, "client": "go"}, "client: must be \"java\" or \"librdkafka\", got 'go'"),
    ({**MIXED, "client": ["librdkafka"]}, "client: must be"),
    ({**MIXED, "client": "librdkafka", "strategy": "sticky"}, "strategy: librdkafka offers"),
])
def test_a_bad_client_or_strategy_is_exit_2_and_one_line(payload: dict[str, Any], named: str) -> None:
    proc = _run(payload)
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and named in proc.stderr


def test_where_real_librdkafka_crashes_the_cli_says_so_in_one_line() -> None:
    def members(m0: list[str]) -> list[dict[str, Any]]:
        return [{"id": "m0", "topics": m0}, {"id": "m1", "topics": ["t0", "t1"], "rack": "r0"}]

    racks = {"t0": [["r0"], ["r1"]], "t1": [["r0"]]}
    steps = [{"topics": {"t0": 2, "t1": 1}, "partition_racks": racks, "members": members(m)}
             for m in (["t1"], ["t0", "t1"])]
    proc = _run({"strategy": "range", "client": "librdkafka", "steps": steps})
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert "reads freed memory" in proc.stderr and "client.rack" in proc.stderr
    assert _run({"strategy": "range", "steps": steps}).returncode == 0  # Java's client has no such bug


def test_a_batch_mixes_clients_item_by_item() -> None:
    proc = _run([MIXED, {**MIXED, "client": "librdkafka"}, {**MIXED, "client": "x"}])
    assert proc.returncode == 0
    java, rdk, bad = json.loads(proc.stdout)
    assert java["steps"][0]["assignment"] != rdk["steps"][0]["assignment"]
    assert bad == {"error": "client: must be \"java\" or \"librdkafka\", got 'x'"}


def test_limits_are_one_line_before_any_work() -> None:
    members = [{"id": f"c{i}", "topics": ["t0"]} for i in range(2_000)]  # 200,000,000 partitions x members
    big = {"strategy": "cooperative-sticky", "client": "librdkafka", "topics": {"t0": 100_000}, "members": members}
    proc = _run(big)
    assert proc.returncode == 2 and proc.stderr.startswith("error: assign: estimated ")
    assert "(100,000 partitions x 2,000 members (librdkafka cooperative-sticky), 1 step)" in proc.stderr
    imported = {**MIXED, "client": "librdkafka", "current_assignment": {"m1": ["t0-0"]}}
    proc = _run(imported)
    assert proc.returncode == 2 and proc.stderr.startswith("error: current_assignment: not modelled")


def test_java_and_librdkafka_differ_on_the_shared_vectors() -> None:
    """The teaching point holds on Kafka's own vectors: every librdkafka strategy gives some member other
    partitions than Java in some step (tests/support/compare_java_librdkafka.py prints the counts)."""
    from support.compare_java_librdkafka import compare

    stats = compare(json.loads(SHARED_ASSIGN.read_text(encoding="utf-8"))["cases"])
    assert set(stats) == {"range", "roundrobin", "cooperative-sticky"}
    for strategy, st in stats.items():
        assert 0 < st["steps_differ"] < st["steps"], strategy
        assert st["cases_differ"] <= st["cases"]
