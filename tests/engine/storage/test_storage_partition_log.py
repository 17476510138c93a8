"""engine/storage/partition_log.py and ``python -m engine log``: the seed article's segment names, the CLI
contract (JSON in/out, exit 2 with one stderr line, batches), limits and frames."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.errors import LimitError, ScenarioError
from engine.storage.partition_log import (
    MAX_BATCHES,
    MAX_FRAMES,
    SEED_133,
    segment_size_config,
    segment_size_property,
    simulate,
)
from helpers import REPO


def run_cli(document: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", "log"], input=json.dumps(document),
    capture_output=True,
                          text=True, cwd=REPO, timeout=120)


def test_seed_article_second_segment_is_133() -> None:
    # LogSegment.shouldRoll: 133 x 170 = 22,610 > 22,610 - 170, so the 134th batch (offset 133) rolls
    _, out = simulate(SEED_133)
    names = [s["segment"] for s in out["segments"]]
    assert names[:2] == ["00000000000000000000.log", "00000000000000000133.log"]
    assert out["segments"][0]["last_offset"] == 132 and out["segments"][0]["bytes"] == 133 * 170
    assert out["rolls"][0]["reasons"] == ["segment.bytes"]
    # 22,610 bytes is below segment.bytes' 1 MiB minimum: the seed's log is sized by internal.segment.bytes
    assert SEED_133["config"] == {"internal.segment.bytes": 22_610}
    assert segment_size_property(out["config"]) == ("internal.segment.bytes", 22_610)
    assert out["config"]["segment.bytes"] == 1_073_741_824  # set but overridden (LogConfig.segmentSize())


def test_a_segment_size_is_sent_as_segment_bytes_from_one_mib() -> None:
    assert segment_size_config(1_048_575) == {"internal.segment.bytes": 1_048_575}
    assert segment_size_config(1_048_576) == {"segment.bytes": 1_048_576}
    _, out = simulate({"config": segment_size_config(1_048_576), "workload": {"batches": 1}})
    assert segment_size_property(out["config"]) == ("segment.bytes", 1_048_576)
    assert "internal.segment.bytes" not in out["config"]


def test_actions_and_lookups_in_one_document() -> None:
    doc = {"config": {"internal.segment.bytes": 5000, "retention.ms": 10_000},
           "workload": {"batches": 10, "records_per_batch": 10, "key_bytes": 8, "keys": 3,
                        "interval_ms": 1000},
           "actions": [{"retention_at_ms": 14_500}], "lookups": {"offsets": [0, 75], "timestamps": [9_000]}}
    _, out = simulate(doc)
    # segments [0..39] (largest ts 3,000) and [40..79] (7,000): 14,500 - 3,000 > 10,000 only for the first
    assert [d["base_offset"] for d in out["actions"][0]["deleted"]] == [0]
    assert out["log_start_offset"] == 40
    assert "OffsetOutOfRangeException" in out["lookups"][0]["error"]  # offset 0 is gone now
    assert out["lookups"][1]["segment"] == "00000000000000000040.log"
    assert out["lookups"][2]["offset"] == 90


def test_frames_are_capped() -> None:
    run, _ = simulate({"workload": {"batches": 1000, "records_per_batch": 1}}, with_frames=True)
    assert len(run.frames) <= MAX_FRAMES
    assert run.frames[-1]["appended"] == 1000


@pytest.mark.parametrize("doc,error,message", [
    ({"workload": {"batches": MAX_BATCHES + 1}}, LimitError, "workload.batches: at most 20,000"),
    ({"workload": {"batches": 10}, "batches": []}, ScenarioError, "exactly one of workload or batches"),
    ({"batches": [{"timestamp_ms": 5, "records": [{}]}, {"timestamp_ms": 1, "records": [{}]}]}, ScenarioError,
     "timestamp_ms must not decrease"),
    ({"workload": {"batches": 1, "speed": 3}}, ScenarioError, "unknown field 'speed'"),
    ({"workload": {"batches": 1}, "actions": [{"explode": 1}]}, ScenarioError, "unknown action 'explode'"),
    ({"workload": {"batches": 2}, "actions": [{"delete_records_before": 999}]}, ScenarioError,
     "past the high watermark"),
])
def test_bad_documents(doc: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        simulate(doc)


def test_cli_contract() -> None:
    ok = run_cli({"workload": {"batches": 3}})
    assert ok.returncode == 0 and json.loads(ok.stdout)["log_end_offset"] == 30
    bad = run_cli({"workload": {"batches": 0}})
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip() == "error: workload.batches: must be an integer 1..20,000, got 0"
    batch = run_cli([{"workload": {"batches": 1}}, {"config": {"segment.bytes": 1}, "workload": {"batches":
    1}}])
    out = json.loads(batch.stdout)
    assert batch.returncode == 0 and out[0]["log_end_offset"] == 10
    assert out[1] == {"error": "ConfigException: Invalid value 1 for configuration segment.bytes: Value must be at "
                               "least 1048576"}


def test_empty_cleanup_policy_keeps_everything() -> None:
    # cleanup.policy "" (Kafka accepts the empty list): UnifiedLog.deleteOldSegments applies size and time
    # retention only with "delete", and the cleaner only takes logs with "compact"
    doc = {"config": {"cleanup.policy": "", "internal.segment.bytes": 2000, "retention.ms": 1, "retention.bytes": 1},
           "workload": {"batches": 50, "keys": 5}, "actions": [{"retention_at_ms": 10**12}, {"clean_at_ms": 10**12}]}
    _, out = simulate(doc)
    assert out["config"]["cleanup.policy"] == "" and out["log_start_offset"] == 0
    assert out["actions"][0]["deleted"] == [] and not out["actions"][1]["ran"]
    _, deleting = simulate({**doc, "config": {**doc["config"], "cleanup.policy": "delete"}})
    assert deleting["actions"][0]["deleted"]  # the same log with "delete" loses its old segments
