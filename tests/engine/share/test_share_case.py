"""A ``share-deliver`` case read at the boundary: an acknowledgement type that is not a string (an array or an
object as ``type``, or inside ``types``) is one line naming the field, on its own (exit 2) and in a batch
(``{"error": ...}``, later items still answered); ``engine.share.case``'s worked examples."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from typing import Any

import pytest

from engine.errors import InputError
from engine.share import case as share_case
from engine.share.case import parse_case
from helpers import REPO

FETCH = {"t": 0, "op": "fetch", "member": "A", "max_records": 10}


def _ack(batch: dict[str, Any]) -> dict[str, Any]:
    return {"group_config": {"share.auto.offset.reset": "earliest"}, "log": [[0, 9]],
            "events": [FETCH, {"t": 1, "op": "ack", "member": "A", "batches": [batch]}]}


NOT_STRINGS = [
    ({"first": 0, "last": 4, "type": ["ACCEPT"]}, "events[1].batches[0].type"),
    ({"first": 0, "last": 4, "type": {"kind": "ACCEPT"}}, "events[1].batches[0].type"),
    ({"first": 0, "last": 1, "types": ["ACCEPT", ["RELEASE"]]}, "events[1].batches[0].types[1]"),
    ({"first": 0, "last": 1, "types": [{"kind": "ACCEPT"}, "ACCEPT"]}, "events[1].batches[0].types[0]"),
]


@pytest.mark.parametrize(("batch", "field"), NOT_STRINGS)
def test_an_acknowledgement_type_that_is_not_a_string_is_refused_naming_the_field(batch: dict, field: str) -> None:
    with pytest.raises(InputError) as refused:
        parse_case(_ack(batch))
    line = str(refused.value)
    assert line.startswith(f"{field}: a JSON ") and "is not an acknowledge type" in line and "\n" not in line


def _cli(payload: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", "share-deliver", "-"], input=json.dumps(payload),
                          capture_output=True, text=True, cwd=REPO, timeout=60)


def test_the_command_line_refuses_it_in_one_line_and_a_batch_answers_the_other_items() -> None:
    alone = _cli(_ack(NOT_STRINGS[0][0]))
    assert alone.returncode == 2 and alone.stdout == ""
    assert alone.stderr.count("\n") == 1 and alone.stderr.startswith("error: events[1].batches[0].type: ")
    assert "Traceback" not in alone.stderr
    good = _ack({"first": 0, "last": 9, "type": "ACCEPT"})
    batch = _cli([good, *(_ack(b) for b, _ in NOT_STRINGS), good])
    assert batch.returncode == 0, batch.stderr
    answers = json.loads(batch.stdout)
    assert [sorted(a) == ["error"] for a in answers] == [False, True, True, True, True, False]
    assert [a["error"].split(":")[0] for a in answers[1:-1]] == [field for _, field in NOT_STRINGS]
    assert answers[-1]["steps"][1]["result"] == {"error": None}


def test_the_worked_examples_of_the_case_module() -> None:
    result = doctest.testmod(share_case)
    assert result.attempted and not result.failed
