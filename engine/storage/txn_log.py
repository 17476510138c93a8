"""Transactions as far as the seed articles go: a ``transactional.id`` producer writes to several partitions
and
then commits or aborts all of them at once; ``read_committed`` consumers never see aborted records.

What the log holds (``ProducerStateManager``, ``UnifiedLog``, the ``.txnindex``): transactional data batches
like any other, then one **control record** per partition on commit/abort (``EndTransactionMarker``, written
by
the coordinator: it takes an offset, consumers skip it, so offsets show gaps).  The **last stable offset**
(LSO) is
the first offset of the oldest still-open transaction (else the high watermark): ``read_committed`` fetches
stop
there, and drop the data of aborted transactions (listed by the fetch response from the ``.txnindex``).
``read_uncommitted`` reads everything up to the high watermark, aborted data included.

Worked example (``tests/engine/storage/test_storage_txn.py``): T1 writes 2 records to p0 and 1 to p1 and commits; T2
writes 1 to p0 and aborts; a plain producer writes 1 to p0.  p0 = [T1, T1, T2, COMMIT(T1), ABORT(T2), plain] ... in the
order of the operations; read_committed on p0 gets T1's two records and the plain one.

Not modelled: the transaction coordinator and ``__transaction_state``, ``AddPartitionsToTxn``, transaction
timeouts, fencing of zombie producers by epoch, ``sendOffsetsToTransaction`` and exactly-once consume-process-
produce, markers' coordinator epochs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from engine.errors import LimitError, ScenarioError
from engine.inputs import is_whole_number
from engine.storage.producer_state import ProducerStateManager

MAX_OPERATIONS: Final = 200
MAX_PARTITIONS: Final = 8
MAX_RECORDS_PER_SEND: Final = 50


@dataclass(frozen=True)
class TxnEntry:
    """One offset of a partition's log: a data record or a control marker."""

    offset: int
    producer: str
    kind: str  # "data" or "COMMIT" / "ABORT"
    transactional: bool
    txn: int | None  # the transaction number, per producer


@dataclass
class TxnPartition:
    entries: list[TxnEntry] = field(default_factory=list)
    state: ProducerStateManager = field(default_factory=ProducerStateManager)
    aborted: list[tuple[str, int, int]] = field(default_factory=list)  # (producer, first offset, last offset)

    @property
    def high_watermark(self) -> int:
        return len(self.entries)


def _validate(op: Any, i: int, partitions: int) -> tuple[str, str, int, int]:
    if not isinstance(op, dict):
        raise ScenarioError(f"operations[{i}]: expected an object, got {op!r}")
    kind, producer = op.get("op"), op.get("producer")
    if kind not in ("send", "commit", "abort"):
        raise ScenarioError(f"operations[{i}].op: one of send, commit, abort, got {kind!r}")
    if not isinstance(producer, str) or not 1 <= len(producer) <= 50:
        raise ScenarioError(f"operations[{i}].producer: a name of 1..50 characters, got {producer!r}")
    partition, records = op.get("partition", 0), op.get("records", 1)
    if kind == "send":
        if not isinstance(partition, int) or isinstance(partition, bool) or not 0 <= partition < partitions:
            raise ScenarioError(f"operations[{i}].partition: 0..{partitions - 1}, got {partition!r}")
        if (
            not isinstance(records, int)
            or isinstance(records, bool)
            or not 1 <= records <= MAX_RECORDS_PER_SEND
        ):
            raise ScenarioError(f"operations[{i}].records: 1..{MAX_RECORDS_PER_SEND}, got {records!r}")
    return kind, producer, partition, records


def replay(spec: dict[str, Any]) -> dict[str, Any]:
    """Apply ``{"partitions": n, "transactional": [producer names], "operations": [...]}`` and return each
    partition's log, LSO and what read_uncommitted / read_committed consumers receive."""
    partitions = spec.get("partitions", 2)
    if (
        not isinstance(partitions, int)
        or isinstance(partitions, bool)
        or not 1 <= partitions <= MAX_PARTITIONS
    ):
        raise ScenarioError(f"partitions: 1..{MAX_PARTITIONS}, got {partitions!r}")
    transactional = set(spec.get("transactional", []))
    ops = spec.get("operations", [])
    if not isinstance(ops, list) or len(ops) > MAX_OPERATIONS:
        raise LimitError(
            f"operations: a list of at most {MAX_OPERATIONS}, got {type(ops).__name__} of "
            f"{len(ops) if isinstance(ops, list) else '?'}"
        )
    logs = [TxnPartition() for _ in range(partitions)]
    names = {str(o["producer"]) for o in ops if isinstance(o, dict) and isinstance(o.get("producer"), str)}
    ids = {name: 1000 + i for i, name in enumerate(sorted(names))}
    txn_no: dict[str, int] = {}
    touched: dict[str, set[int]] = {}
    for i, op in enumerate(ops):
        kind, producer, partition, records = _validate(op, i, partitions)
        is_txn = producer in transactional
        if kind == "send":
            _send(logs[partition], producer, ids[producer], records, is_txn, txn_no.setdefault(producer, 1))
            if is_txn:
                touched.setdefault(producer, set()).add(partition)
        else:
            if not is_txn:
                raise ScenarioError(
                    f"operations[{i}]: {producer!r} has no transactional.id, it cannot {kind}"
                )
            for p in sorted(touched.pop(producer, set())):
                _marker(logs[p], producer, ids[producer], kind.upper(), txn_no[producer])
            txn_no[producer] = txn_no.get(producer, 1) + 1
    return {"partitions": [_view(p, n) for n, p in enumerate(logs)]}


def parse_operations(text: str, transactional: str, partitions: int = 2) -> dict[str, Any]:
    """The page's text: ``"T1, send 0 2"`` / ``"T1, commit"`` per line, and the comma-separated names that
    have a
    transactional.id -> the ``replay`` document."""
    ops: list[dict[str, Any]] = []
    for line in (t for t in text.splitlines() if t.strip()):
        producer, _, rest = line.partition(",")
        words = rest.split()
        if words[:1] == ["send"] and len(words) == 3 and is_whole_number(words[1]) and is_whole_number(words[2]):
            ops.append(
                {
                    "op": "send",
                    "producer": producer.strip(),
                    "partition": int(words[1]),
                    "records": int(words[2]),
                }
            )
        else:
            ops.append({"op": words[0] if len(words) == 1 else rest.strip(), "producer": producer.strip()})
    names = sorted({n.strip() for n in transactional.split(",") if n.strip()})
    return {"partitions": partitions, "transactional": names, "operations": ops}


def _send(log: TxnPartition, producer: str, pid: int, records: int, is_txn: bool, txn: int) -> None:
    first = log.high_watermark
    for _ in range(records):
        log.entries.append(TxnEntry(log.high_watermark, producer, "data", is_txn, txn if is_txn else None))
    log.state.update(pid, 0, -1 + records, first, log.high_watermark - 1, 0, transactional=is_txn)


def _marker(log: TxnPartition, producer: str, pid: int, kind: str, txn: int) -> None:
    first = log.state.complete_txn(pid)
    offset = log.high_watermark
    log.entries.append(TxnEntry(offset, producer, kind, True, txn))
    if kind == "ABORT" and first is not None:
        log.aborted.append((producer, first, offset))


def _view(log: TxnPartition, number: int) -> dict[str, Any]:
    unstable = log.state.first_unstable_offset()
    lso = log.high_watermark if unstable is None else unstable
    aborted = {
        (e.offset)
        for e in log.entries
        for (p, lo, hi) in log.aborted
        if e.producer == p and lo <= e.offset < hi and e.kind == "data" and e.transactional
    }
    committed = [
        e.offset for e in log.entries if e.offset < lso and e.kind == "data" and e.offset not in aborted
    ]
    return {
        "partition": number,
        "high_watermark": log.high_watermark,
        "last_stable_offset": lso,
        "log": [
            {
                "offset": e.offset,
                "producer": e.producer,
                "kind": e.kind,
                "transactional": e.transactional,
                "txn": e.txn,
                "status": _status(e, aborted, lso),
            }
            for e in log.entries
        ],
        "read_uncommitted": [e.offset for e in log.entries if e.kind == "data"],
        "read_committed": committed,
    }


def _status(entry: TxnEntry, aborted: set[int], lso: int) -> str:
    if entry.kind != "data":
        return "control marker (never returned to consumers)"
    if entry.offset in aborted:
        return "aborted"
    if entry.offset >= lso:
        return "open (beyond the LSO)"
    return "committed" if entry.transactional else "non-transactional"
