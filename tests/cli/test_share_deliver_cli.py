"""``python -m engine share-deliver``: batches, defaults named in the answer, one-line refusals (exit 2)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.errors import EngineError, LimitError
from engine.release import follows
from engine.share.cli import cli_share_deliver
from helpers import REPO

FETCH = {"t": 0, "op": "fetch", "member": "A", "max_records": 5}
EARLIEST = {"share.auto.offset.reset": "earliest"}


def _run(payload: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", "share-deliver", "-"], input=json.dumps(payload),
                          capture_output=True, text=True, cwd=REPO, timeout=60)


def test_defaults_are_released_kafkas_and_named() -> None:
    """Missing settings and group config take released Kafka's defaults; under ``latest`` the partition
    starts at the log end, so the first fetch finds nothing."""
    answer = cli_share_deliver({"log": [[0, 9]], "events": [FETCH]})
    assert answer["settings"] == {"group.share.record.lock.duration.ms": 30000,
                                  "group.share.delivery.count.limit": 5,
                                  "group.share.partition.max.record.locks": 2000}
    assert answer["group_config"] == {"share.auto.offset.reset": "latest"}
    assert answer["steps"][0]["result"] == {"fetch_offset": 10, "acquired": []}
    assert _run({"log": [[0, 9]], "events": [FETCH]}).stdout.startswith(
        '{"follows":' + json.dumps(follows("share-deliver")))


def test_a_batch_answers_in_order_with_errors_in_place() -> None:
    proc = _run([{"group_config": EARLIEST, "log": [[0, 9]], "events": [FETCH]}, {"log": [[3, 2]], "events": []}])
    assert proc.returncode == 0, proc.stderr
    good, bad = json.loads(proc.stdout)
    assert good["steps"][0]["result"]["acquired"] == [{"first": 0, "last": 9, "delivery_count": 1}]
    assert bad == {"error": "log[0]: [3, 2] has last < first"}


@pytest.mark.parametrize(("case", "field"), [
    ({"settings": {"group.share.delivery.count.limit": 1}, "events": []}, "group.share.delivery.count.limit"),
    ({"settings": {"group.share.record.lock.duration.ms": "30s"}, "events": []}, "lock.duration.ms"),
    ({"group_config": {"share.auto.offset.reset": "none"}, "events": []}, "group_config.share.auto.offset.reset"),
    ({"group_config": {"share.isolation.level": "read_committed"}, "events": []}, "group_config"),
    ({"log": [[0, 4], [4, 9]], "events": []}, "log[1]"),
    ({"events": [{"t": 5, "op": "tick"}, {"t": 4, "op": "tick"}]}, "events[1].t"),
    ({"events": [{"t": 0, "op": "renew"}]}, "events[0].op"),
    ({"events": [dict(FETCH, max_records=0)]}, "events[0].max_records"),
    ({"log": [[0, 9]], "events": [{"t": 0, "op": "produce", "batch": [5, 12]}]}, "events[0].batch"),
    ({"events": [{"t": 0, "op": "ack", "member": "A", "batches": [
        {"first": 0, "last": 4, "type": "ACCEPT"}, {"first": 3, "last": 6, "type": "ACCEPT"}]}]}, "batches[1]"),
    ({"events": [{"t": 0, "op": "ack", "member": "A", "batches": [
        {"first": 0, "last": 4, "types": ["ACCEPT"]}]}]}, "batches[0].types"),
    ({"events": [{"t": 0, "op": "ack", "member": "A", "batches": [
        {"first": 0, "last": 4, "type": "RENEW"}]}]}, "batches[0].type"),
])
def test_bad_input_is_one_line_naming_the_field(case: dict, field: str) -> None:
    proc = _run(case)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and field in lines[0], proc.stderr


def test_work_is_estimated_before_anything_runs() -> None:
    """100,000 events on a window of 2,510 fit; a log batch of a million records asks for too much at once."""
    big = {"settings": {"group.share.partition.max.record.locks": 10000},
           "log": [[0, 999_999]], "events": [FETCH] * 1}
    with pytest.raises(LimitError, match="in-flight window"):
        cli_share_deliver(big)
    many = {"log": [[0, 9_999]], "events": [dict(FETCH, t=i) for i in range(200_000)]}
    with pytest.raises(LimitError, match=r"^share-deliver: estimated .* over the command line's ceiling .* \(200,000 "
                                         r"delivery events x 10,000 in-flight records, each step's state written\)$"):
        cli_share_deliver(many)  # the answer (the state after every event) is what the estimate refuses
    assert issubclass(LimitError, EngineError)
