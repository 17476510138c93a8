"""engine/storage/txn_log.py: control markers take an offset, the last stable offset stops read_committed,
aborted data is filtered (ProducerStateManager's ongoing transactions, UnifiedLog.lastStableOffset)."""

from __future__ import annotations

import pytest

from engine.errors import ScenarioError
from engine.storage.txn_log import parse_operations, replay

OPS = "T1, send 0 2\nT1, send 1 1\nT2, send 0 1\nT1, commit\nT2, abort\nplain, send 0 1"


def test_worked_example() -> None:
    p0, p1 = replay(parse_operations(OPS, "T1, T2"))["partitions"]
    assert [(e["producer"], e["kind"]) for e in p0["log"]] == [
        ("T1", "data"), ("T1", "data"), ("T2", "data"), ("T1", "COMMIT"), ("T2", "ABORT"), ("plain", "data")]
    assert p0["read_uncommitted"] == [0, 1, 2, 5]  # markers are never returned; aborted data is, uncommitted
    assert p0["read_committed"] == [0, 1, 5]  # T2's record at offset 2 was aborted
    assert p0["last_stable_offset"] == p0["high_watermark"] == 6
    assert [e["kind"] for e in p1["log"]] == ["data", "COMMIT"]  # one marker per partition the txn touched


def test_an_open_transaction_holds_the_last_stable_offset() -> None:
    # LSO = first offset of the oldest open transaction: read_committed stops there, even for later plain data
    (p0, _) = replay(parse_operations("plain, send 0 1\nT1, send 0 2\nplain, send 0 1", "T1"))["partitions"]
    assert p0["last_stable_offset"] == 1 and p0["high_watermark"] == 4
    assert p0["read_committed"] == [0]
    assert p0["read_uncommitted"] == [0, 1, 2, 3]


def test_bad_operations_are_refused() -> None:
    with pytest.raises(ScenarioError, match="has no transactional.id"):
        replay(parse_operations("plain, commit", ""))
    with pytest.raises(ScenarioError, match="partition: 0..1"):
        replay(parse_operations("T1, send 5 1", "T1"))
    with pytest.raises(ScenarioError, match="op: one of send, commit, abort"):
        replay(parse_operations("T1, rollback", "T1"))
