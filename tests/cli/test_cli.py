"""``python -m engine assign`` as outside checks call it: exit 2 and one line for bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.release import BEFORE_4_0, RELEASED, follows
from helpers import REPO

GOOD = {"strategy": "range", "topics": {"t0": 3}, "members": [{"id": "C0", "topics": ["t0"]}]}


def run(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], input=stdin, capture_output=True,
                          text=True, cwd=REPO, timeout=60)


def test_assign_reads_stdin_and_prints_json() -> None:
    proc = run(["assign"], json.dumps(GOOD))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["steps"][0]["assignment"] == {"C0": ["t0-0", "t0-1", "t0-2"]}


def test_assign_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "case.json"
    path.write_text(json.dumps(GOOD))
    proc = run(["assign", str(path)], "")
    assert proc.returncode == 0 and json.loads(proc.stdout)["steps"]


def test_batch_reports_bad_items_in_place() -> None:
    proc = run(["assign"], json.dumps([GOOD, {"strategy": "range"}, GOOD]))
    assert proc.returncode == 0
    out = json.loads(proc.stdout)
    assert "steps" in out[0] and "steps" in out[2]
    assert out[1] == {"error": "topics: required (or give steps)"}


BAD = [
    ("{not json", "not valid JSON"),
    ('{"strategy": "range", "topics": {"t0": "3"}, "members": []}', "topics.t0: must be a valid integer"),
    ('{"strategy": "range", "topics": {"t0": -1}, "members": []}', "partitions must be 1..100000, got -1"),
    ('{"strategy": "range", "topics": {"t0": 10000000000}, "members": []}', "partitions must be 1..100000"),
    ('{"strategy": "range", "topics": {"t0": 1}, "members": [{"id": "C1"}, {"id": "C1"}]}',
     "members[1].id: duplicate 'C1'"),
    ('{"strategy": "fastest", "topics": {"t0": 1}, "members": []}', "strategy: must be one of"),
    ('{"strategy": "range", "topics": {"t0": 1}, "members": [{"id": ""}]}',
     "members[0].id: must not be empty"),
    ('[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[' * 50, "input"),
    ('"just a string"', "must be a JSON object"),
]


@pytest.mark.parametrize(("stdin", "message"), BAD, ids=[m for _, m in BAD])
def test_bad_input_exits_2_with_one_line(stdin: str, message: str) -> None:
    proc = run(["assign"], stdin)
    assert proc.returncode == 2, proc.stdout
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert message in lines[0]


def test_unknown_command_and_missing_file_exit_2() -> None:
    assert run(["frobnicate"], "").returncode == 2
    proc = run(["assign", "/nonexistent/case.json"], "")
    assert proc.returncode == 2 and "cannot read" in proc.stderr


def test_huge_member_count_is_refused_quickly() -> None:
    members = [{"id": f"c{i}", "topics": ["t0"]} for i in range(20_001)]
    proc = run(["assign"], json.dumps({"strategy": "range", "topics": {"t0": 1}, "members": members}))
    assert proc.returncode == 2 and "at most 20000 members" in proc.stderr


# ---------------------------------------------------------------------------------- hostile input


@pytest.mark.parametrize("argv", [["bogus"], [], ["assign", "--foo"], ["assign", "a", "b"], ["hash", "-x"]],
                         ids=["unknown command", "no command", "unknown flag", "two files", "short flag"])
def test_command_line_misuse_is_one_line_and_exit_2(argv: list[str]) -> None:
    proc = run(argv, "{}")
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "see python -m engine --help" in lines[0]


def test_help_still_exits_0() -> None:
    proc = run(["--help"], "")
    assert proc.returncode == 0 and "assign" in proc.stdout


@pytest.mark.parametrize("command", ["assign", "hash", "coordinator", "wheel", "replicas", "server-assign",
                                     "share-assign"])
def test_a_5000_digit_integer_is_refused_at_the_boundary(command: str) -> None:
    proc = run([command], '{"partitions": ' + "9" * 5000 + ', "delay_ms": 1}')
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == ["error: input: a number of 5,000 digits (at most 100)"]


def test_a_batch_over_the_item_limit_is_refused_before_parsing() -> None:
    proc = run(["wheel"], "[" + ",".join(["{}"] * 10_001) + "]")
    assert proc.returncode == 2
    assert proc.stderr.strip() == "error: input: a batch of at most 10,000 items, got 10,001"
    proc = run(["wheel"], "[" + ",".join(["{}"] * 10_000) + "]")
    assert proc.returncode == 0 and len(json.loads(proc.stdout)) == 10_000


def test_lone_surrogates_are_accepted_and_written_as_utf8_escapes() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "PYTHONUTF8")}
    env["LC_ALL"] = "C"
    doc = {"strategy": "range", "topics": {"t0": 3},
           "members": [{"id": "\uffff", "topics": ["t0"]}, {"id": "\U0001F600", "topics": ["t0"]},
                       {"id": "\ud800", "topics": ["t0"]}]}
    proc = subprocess.run([sys.executable, "-m", "engine", "assign"], input=json.dumps(doc).encode(),
                          capture_output=True, cwd=REPO, timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout.decode("utf-8")  # strict: valid UTF-8 whatever the locale
    assert "\\ud800" in text
    # Java's String.compareTo orders UTF-16 units: D800 < D83D (the emoji's high surrogate) < FFFF
    assert json.loads(text)["steps"][0]["assignment"] == {
        "\ud800": ["t0-0"], "\U0001F600": ["t0-1"], "\uffff": ["t0-2"]}


def java_string_hash(units: list[int]) -> int:
    """``String.hashCode`` written out: s[0]*31^(n-1) + ... + s[n-1] over UTF-16 units, as a signed int."""
    h = 0
    for unit in units:
        h = (31 * h + unit) & 0xFFFFFFFF
    return h - 2**32 if h >= 2**31 else h


def test_coordinator_partition_of_lone_surrogates_equals_javas() -> None:
    proc = run(["coordinator"], json.dumps({"group_ids": ["\ud800", "a\ud83d", "\udfff\ud800"]}))
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)["results"]
    for result, units in zip(got, [[0xD800], [0x61, 0xD83D], [0xDFFF, 0xD800]]):
        expected = java_string_hash(units)
        assert result["java_hashcode"] == expected
        assert result["partition"] == abs(expected) % 50
    assert (got[0]["java_hashcode"], got[0]["partition"]) == (55296, 46)


# ------------------------------------------------------------------ produce and log-config (spec section 9)


def test_log_config_prints_the_effective_values_or_kafkas_refusal() -> None:
    ok = run(["log-config"], json.dumps({"config": {"cleanup.policy": "", "segment.index.bytes": 8}}))
    out = json.loads(ok.stdout)
    assert ok.returncode == 0 and out["config"]["cleanup.policy"] == "" and out["config"]["segment.index.bytes"] == 8
    assert out["follows"] == follows("log-config")
    bad = run(["log-config"], json.dumps({"config": {"cleanup.policy": ",delete"}}))
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().splitlines() == [
        "error: ConfigException: Configuration 'cleanup.policy' values must not be empty."]
    small = run(["log-config"], json.dumps({"config": {"segment.bytes": 13}}))
    assert small.returncode == 2 and small.stderr.strip() == (
        "error: ConfigException: Invalid value 13 for configuration segment.bytes: Value must be at least 1048576")
    internal = json.loads(run(["log-config"], json.dumps({"config": {"internal.segment.bytes": 22_610}})).stdout)
    assert internal["config"]["internal.segment.bytes"] == 22_610
    batch = json.loads(run(["log-config"], json.dumps([{"config": {"segment.ms": 0}}, {}])).stdout)
    assert batch[0] == {"error": "ConfigException: Invalid value 0 for configuration segment.ms: Value must be at "
                                 "least 1"}
    assert batch[1]["config"]["segment.bytes"] == 1_073_741_824


@pytest.mark.parametrize("document,message", [
    ({"timeline": [{"t_ms": 0, "partition": 0}], "records": 3},
     "timeline: replaces interval_ms, key_bytes, records, value_bytes; 'records' given too"),
    ({"timeline": [{"t_ms": 5, "partition": 0}, {"t_ms": 4, "partition": 0}]},
     "timeline[1].t_ms: must be an integer 5..1,000,000,000,000, got 4"),
    ({"partitions": 2, "timeline": [{"t_ms": 0, "partition": 2}]},
     "timeline[0].partition: at most 1, got 2"),
    ({"timeline": [{"t_ms": 0, "partition": 0, "key": 1}]}, "timeline[0]: expected {t_ms, partition, key_bytes"),
    ({"timeline": []}, "timeline: a non-empty list of records"),
    ({"config": {"acks": "ALL"}}, "ConfigException: Invalid value ALL for configuration acks: String must be one "
                                  "of: all, -1, 0, 1"),
    ({"defaults": "4.2"}, "defaults: must be one of 'released', '3.x', got '4.2'"),
    ({"defaults": "code-line"}, "defaults: must be one of 'released', '3.x', got 'code-line'"),
])
def test_produce_bad_input_is_one_line_and_exit_2(document: dict, message: str) -> None:
    proc = run(["produce"], json.dumps(document))
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: " + message)


def test_a_long_timeline_is_refused_by_its_length_before_any_record_is_built() -> None:
    # 2,001 entries: refused on the list's length, whatever the entries hold
    proc = run(["produce"], json.dumps({"timeline": [None] * 2_001}))
    assert proc.returncode == 2
    assert proc.stderr.strip() == "error: timeline: at most 2,000 records, got 2,001"
    # 10 million records never reach the parser: the document's containers are counted first
    huge = '{"timeline": [' + ",".join(["{}"] * 4_000_001) + "]}"
    proc = run(["produce"], huge)
    assert proc.returncode == 2 and "arrays and objects" in proc.stderr and len(proc.stderr.splitlines()) == 1


def test_produce_names_the_release_and_its_defaults() -> None:
    released = json.loads(run(["produce"], json.dumps({"records": 1})).stdout)  # released Kafka's by default
    assert released["follows"] == follows("produce") and released["defaults"] == RELEASED.label
    assert released["effective_config"]["linger.ms"] == 5
    assert released["batches"][0]["created_ms"] == 0 and released["requests"][0]["sent_ms"] == 5
    assert json.loads(run(["produce"], json.dumps({"records": 1, "defaults": "released"})).stdout) == released
    old = json.loads(run(["produce"], json.dumps({"records": 1, "defaults": "3.x"})).stdout)
    assert old["follows"] == follows("produce") and old["defaults"] == BEFORE_4_0.label
    assert old["effective_config"]["linger.ms"] == 0 and old["requests"][0]["sent_ms"] == 0
