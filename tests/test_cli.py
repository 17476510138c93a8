"""``python -m engine assign`` as outside checks call it: exit 2 and one line for bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
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
    ('{"strategy": "range", "topics": {"t0": 1}, "members": [{"id": ""}]}', "members[0].id: must not be empty"),
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
