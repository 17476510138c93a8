"""``python -m engine streams-assign``: one case or a batch, Kafka's error as an answer, one-line refusals (exit 2)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from engine.release import follows
from helpers import REPO

SUBS = [{"id": "0", "partitions": 2, "stateful": True}]
MEMBERS = [{"member_id": "m1", "process_id": "p1"}, {"member_id": "m2", "process_id": "p2"}]
GOOD = {"configs": {"num.standby.replicas": "1"}, "subtopologies": SUBS, "members": MEMBERS}


def _run(payload: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", "streams-assign", "-"],
                          input=payload if isinstance(payload, str) else json.dumps(payload),
                          capture_output=True, text=True, cwd=REPO, timeout=60)


def test_one_case_is_answered_with_the_release_it_follows() -> None:
    proc = _run(GOOD)
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout)
    assert answer["follows"] == follows("streams-assign")
    assert answer["assignment"] == {"m1": {"active": {"0": [0]}, "standby": {"0": [1]}, "warmup": {}},
                                    "m2": {"active": {"0": [1]}, "standby": {"0": [0]}, "warmup": {}}}


def test_kafkas_exception_is_an_answer_not_a_refusal() -> None:
    proc = _run({"subtopologies": SUBS, "members": []})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"error": "TaskAssignorException: No process available to assign active "
                                                "task 0_0."}


def test_a_batch_answers_in_order_with_errors_in_place() -> None:
    proc = _run([GOOD, {"subtopologies": SUBS, "members": MEMBERS + MEMBERS[:1]}, {**GOOD, "name": "n"}])
    assert proc.returncode == 0, proc.stderr
    good, bad, named = json.loads(proc.stdout)
    assert "assignment" in good and named["assignment"] == good["assignment"]
    assert bad == {"error": "members[2].member_id: duplicate member id 'm1'"}


@pytest.mark.parametrize(("case", "names"), [
    ("[1, 2", "input"),
    ([], None),  # an empty batch is an empty answer, not a refusal
    ("3", "input: must be a JSON object"),
    ({"members": MEMBERS}, "subtopologies: must be a JSON array"),
    ({"subtopologies": SUBS}, "members: must be a JSON array"),
    ({**GOOD, "subtopology": []}, "unknown field 'subtopology'"),
    ({**GOOD, "subtopologies": SUBS + SUBS}, "subtopologies[1].id: duplicate subtopology id '0'"),
    ({**GOOD, "subtopologies": [{"id": "0", "partitions": -1, "stateful": True}]}, "subtopologies[0].partitions"),
    ({**GOOD, "subtopologies": [{"id": "0", "partitions": 1.5, "stateful": True}]}, "subtopologies[0].partitions"),
    ({**GOOD, "subtopologies": [{"id": 0, "partitions": 1, "stateful": True}]}, "subtopologies[0].id"),
    ({**GOOD, "subtopologies": [{"id": "0", "partitions": 1, "stateful": "yes"}]}, "subtopologies[0].stateful"),
    ({**GOOD, "members": MEMBERS + MEMBERS[:1]}, "members[2].member_id: duplicate member id 'm1'"),
    ({**GOOD, "members": [{"member_id": "m1"}]}, "members[0].process_id"),
    ({**GOOD, "members": [{**MEMBERS[0], "active": {"0": [True]}}]}, "members[0].active.0[0]"),
    ({**GOOD, "members": [{**MEMBERS[0], "standby": [0]}]}, "members[0].standby"),
    ({**GOOD, "configs": {"num.standby.replicas": "-1"}}, "configs.num.standby.replicas"),
    ({**GOOD, "configs": {"num.standby.replicas": "one"}}, "configs.num.standby.replicas"),
    ({**GOOD, "configs": {"num.standby.replicas": 1}}, "configs.num.standby.replicas"),
    ({**GOOD, "configs": {"num.standby.replicas": "3000000000"}}, "Integer.parseInt, at most 2,147,483,647"),
    ({**GOOD, "configs": {"num.standby.replicas": "1" * 5000}}, "… (5,000 characters)"),
    ({**GOOD, "configs": {"other": "1"}}, "configs: a non-empty map must hold 'num.standby.replicas'"),
    ({**GOOD, "configs": {"num.standby.replicas": "2000000000"}}, "Kafka's int counters"),
    ({**GOOD, "subtopologies": [{"id": "0", "partitions": 2_000_000_000, "stateful": False}]},
     "streams-assign: estimated"),
])
def test_bad_input_is_refused_with_one_line(case: Any, names: str | None) -> None:
    proc = _run(case)
    if names is None:
        assert proc.returncode == 0 and json.loads(proc.stdout) == []
        return
    assert proc.returncode == 2, proc.stdout
    assert proc.stdout == "" and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert names in proc.stderr, proc.stderr
