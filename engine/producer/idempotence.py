"""One producer, one broker, a few partitions: what ends up in each partition's log when requests fail, with
and
without idempotence — the engine of the Producer page and of ``python -m engine produce``.

The pieces follow Kafka 4.0's code: ``producer_config`` (``ProducerConfig``), ``accumulator``
(``RecordAccumulator``), ``transaction_manager`` (``TransactionManager``), ``sender`` (``Sender`` +
``NetworkClient``) and, on the broker, ``engine.storage.producer_state`` (``ProducerStateManager``).  Time is
virtual (milliseconds) and jumps from one event to the next; there is no randomness.

Worked examples (asserted in ``tests/test_idempotence.py``), three records A, B, C sent 1 ms apart to one
partition, 20 ms one-way latency, the first request answered ``NOT_LEADER_OR_FOLLOWER``:

* ``enable.idempotence=false``, ``max.in.flight=5``: the log is B, C, A — seed article 002's "BCA".
* ``max.in.flight=1`` (no idempotence): A, B, C — the partition is muted while A's request is out.
* defaults (idempotence on since 3.0): A, B, C — the broker rejects B and C with OUT_OF_ORDER_SEQUENCE_NUMBER
  until A (sequence 0) is in, and the producer retries them in sequence order.

Input::

    {"config": {"enable.idempotence": false, "max.in.flight.requests.per.connection": 5},   # Kafka names
     "partitions": 1, "records": 3, "interval_ms": 1, "value_bytes": 100, "key_bytes": null,
     "latency_ms": 20, "faults": [{"request": 1, "kind": "not_leader"}], "max_time_ms": 600000}

Record *i* goes to partition ``i % partitions`` (an explicit partition, as a keyed record would).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from engine.budgets import check_produce
from engine.errors import LimitError, ScenarioError
from engine.inputs import is_whole_number
from engine.producer.accumulator import AppRecord, ProducerBatch, RecordAccumulator
from engine.producer.producer_config import ProducerSettings, resolve
from engine.producer.sender import FAULTS, PRODUCER_ID, Request, Sender
from engine.producer.transaction_manager import TransactionManager

MAX_RECORDS: Final = 2_000
MAX_PARTITIONS: Final = 8
MAX_FAULTS: Final = 200
MAX_LATENCY_MS: Final = 60_000
MAX_TIME_MS: Final = 3_600_000
MAX_STEPS: Final = 200_000
MAX_FRAMES: Final = 150
FIELDS: Final = {
    "config",
    "partitions",
    "records",
    "interval_ms",
    "value_bytes",
    "key_bytes",
    "latency_ms",
    "faults",
    "max_time_ms",
}


@dataclass(frozen=True)
class ProduceSpec:
    settings: ProducerSettings
    partitions: int
    records: tuple[AppRecord, ...]
    latency_ms: int
    faults: dict[int, str]
    max_time_ms: int


@dataclass
class ProduceRun:
    """The finished simulation: every batch, request, event, the broker's logs and animation frames."""

    spec: ProduceSpec
    sender: Sender
    batches: list[ProducerBatch]
    frames: list[dict[str, Any]] = field(default_factory=list)
    end_ms: int = 0
    truncated: bool = False


def _int(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ScenarioError(f"{name}: must be an integer {low:,}..{high:,}, got {value!r}")
    if value > high:
        raise LimitError(f"{name}: at most {high:,}, got {value:,}")
    return value


def parse_spec(raw: Any) -> ProduceSpec:
    """Validate the input document (see the module docstring); Kafka's ConfigExceptions pass through."""
    if not isinstance(raw, dict):
        raise ScenarioError(f"input: expected an object, got {type(raw).__name__}")
    unknown = sorted(set(raw) - FIELDS)
    if unknown:
        raise ScenarioError(f"input: unknown field {unknown[0]!r} (known: {', '.join(sorted(FIELDS))})")
    settings = resolve(raw.get("config", {}))
    if raw.get("config", {}).get("transactional.id") is not None:
        raise ScenarioError(
            "transactional.id: transactional sends are not modelled by produce (see the "
            "transactions section: markers, LSO, read_committed)"
        )
    partitions = _int("partitions", raw.get("partitions", 1), 1, MAX_PARTITIONS)
    count = _int("records", raw.get("records", 3), 1, MAX_RECORDS)
    interval = _int("interval_ms", raw.get("interval_ms", 1), 0, 60_000)
    value = _int("value_bytes", raw.get("value_bytes", 100), 0, 1_000_000)
    key = raw.get("key_bytes")
    if key is not None:
        _int("key_bytes", key, 0, 10_000)
    records = tuple(AppRecord(i, i % partitions, i * interval, key, value) for i in range(count))
    faults = _faults(raw.get("faults", []))
    return ProduceSpec(
        settings,
        partitions,
        records,
        _int("latency_ms", raw.get("latency_ms", 20), 0, MAX_LATENCY_MS),
        faults,
        _int("max_time_ms", raw.get("max_time_ms", 600_000), 1, MAX_TIME_MS),
    )


def _faults(raw: Any) -> dict[int, str]:
    if not isinstance(raw, list):
        raise ScenarioError(f"faults: a list of {{request, kind}}, got {raw!r}")
    if len(raw) > MAX_FAULTS:
        raise LimitError(f"faults: at most {MAX_FAULTS}, got {len(raw)}")
    out: dict[int, str] = {}
    for i, f in enumerate(raw):
        if not isinstance(f, dict) or f.get("kind") not in FAULTS:
            raise ScenarioError(
                f"faults[{i}]: expected {{request: n, kind: one of {', '.join(FAULTS)}}}, got {f!r}"
            )
        number = _int(f"faults[{i}].request", f.get("request"), 1, 1_000_000)
        if number in out:
            raise ScenarioError(f"faults[{i}].request: request {number} already has a fault")
        out[number] = f["kind"]
    return out


def simulate(spec: ProduceSpec) -> ProduceRun:
    """Run the producer until every record is acknowledged or failed (or ``max_time_ms``)."""
    s = spec.settings
    acc = RecordAccumulator(
        s.batch_size,
        s.linger_ms,
        s.retry_backoff_ms,
        s.retry_backoff_max_ms,
        s.delivery_timeout_ms,
        spec.partitions,
    )
    tm = TransactionManager() if s.idempotence else None
    sender = Sender(s, acc, spec.latency_ms, spec.faults, tm)
    run = ProduceRun(spec, sender, [])
    if tm is not None:  # InitProducerId completes when the producer starts, before the first send
        tm.producer_id, tm.epoch = PRODUCER_ID, 0
        sender.log(0, "producer id", f"InitProducerId (at start-up): producer id {PRODUCER_ID}, epoch 0")
    pending = list(spec.records)
    now, steps = 0, 0
    while True:
        while pending and pending[0].send_ms <= now:
            batch = acc.append(pending.pop(0), now)
            if batch not in run.batches:
                run.batches.append(batch)
        sender.deliver_to_broker(now)
        sender.poll(now)
        for _ in range(s.max_in_flight + 2):
            if not sender.run_once(now):
                break
        _frame(run, now)
        if (
            not pending
            and all(b.is_done for b in run.batches)
            and not sender.in_flight
            and not sender.pending_broker
        ):
            break
        times = [
            t for t in (pending[0].send_ms if pending else None, sender.next_event_ms(now)) if t is not None
        ]
        steps += 1
        if not times or steps > MAX_STEPS:
            raise LimitError(f"simulation: did not settle within {MAX_STEPS:,} steps")
        now = min(times)
        if now > spec.max_time_ms:
            run.truncated = True
            break
    run.end_ms = now
    run.frames = _sample(run.frames)
    return run


def _frame(run: ProduceRun, now: int) -> None:
    sender = run.sender
    where: dict[int, str] = {}
    for p, dq in sender.accumulator.deques.items():
        for b in dq:
            where[b.id] = f"accumulator p{p}"
    for r in sender.in_flight + [r for r in sender.pending_broker if r not in sender.in_flight]:
        for b in r.batches:
            if not b.is_done:
                where[b.id] = f"request {r.number}"
    state = {b.id: where.get(b.id, b.final_state or "waiting") for b in run.batches}
    logs = {p: [e.record for e in log] for p, log in sender.broker.logs.items()}
    frame = {"t_ms": now, "batches": state, "logs": logs, "in_flight": [r.number for r in sender.in_flight]}
    if run.frames and {k: v for k, v in run.frames[-1].items() if k != "t_ms"} == {
        k: v for k, v in frame.items() if k != "t_ms"
    }:
        return
    run.frames.append(frame)


def _sample(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if len(frames) <= MAX_FRAMES:
        return frames
    step = len(frames) / (MAX_FRAMES - 1)
    picked = [frames[int(i * step)] for i in range(MAX_FRAMES - 1)]
    return picked + [frames[-1]]


def partition_report(run: ProduceRun, partition: int) -> dict[str, Any]:
    """A partition's log and what it shows: duplicates, order, records that never made it."""
    log = run.sender.broker.logs.get(partition, [])
    sent = [r.number for r in run.spec.records if r.partition == partition]
    seen: dict[int, int] = {}
    for e in log:
        seen[e.record] = seen.get(e.record, 0) + 1
    firsts = list(dict.fromkeys(e.record for e in log))
    inversions = [(a, b) for a, b in zip(firsts, firsts[1:]) if b < a]
    return {
        "partition": partition,
        "sent": sent,
        "log": [
            {
                "offset": e.offset,
                "record": e.record,
                "batch": e.batch,
                "request": e.request,
                "epoch": e.epoch,
                "sequence": e.sequence,
            }
            for e in log
        ],
        "order": [e.record for e in log],
        "duplicates": sorted(r for r, n in seen.items() if n > 1),
        "reordered": bool(inversions),
        "first_inversion": list(inversions[0]) if inversions else None,
        "missing": [r for r in sent if r not in seen],
    }


def report(run: ProduceRun) -> dict[str, Any]:
    """The JSON result of ``python -m engine produce``."""
    sender, s = run.sender, run.spec.settings
    parts = [partition_report(run, p) for p in range(run.spec.partitions)]
    return {
        "effective_config": s.to_dict(),
        "notes": list(s.notes),
        "end_ms": run.end_ms,
        "truncated": run.truncated,
        "summary": {
            "requests": len(sender.requests),
            "retries": sum(b.attempts for b in run.batches),
            "batches": len(run.batches),
            "acked": sum(b.final_state == "acked" for b in run.batches),
            "failed": sum(b.final_state == "failed" for b in run.batches),
            "duplicated_records": sum(len(p["duplicates"]) for p in parts),
            "reordered_partitions": [p["partition"] for p in parts if p["reordered"]],
            "epoch_bumps": [] if sender.tm is None else [{"epoch": e, "t_ms": t} for e, t in sender.tm.bumps],
        },
        "partitions": parts,
        "broker_state": broker_state(run),
        "batches": [_batch_json(b) for b in run.batches],
        "requests": [_request_json(r) for r in sender.requests],
        "events": sender.events,
    }


def _batch_json(b: ProducerBatch) -> dict[str, Any]:
    return {
        "batch": b.id,
        "partition": b.partition,
        "records": [r.number for r in b.records],
        "created_ms": b.created_ms,
        "attempts": b.attempts + 1,
        "epoch": b.producer_epoch,
        "base_sequence": b.base_sequence,
        "state": b.final_state or "pending",
        "error": b.error,
        "base_offset": b.base_offset,
    }


def _request_json(r: Request) -> dict[str, Any]:
    """One ProduceRequest: the batches it carried (attempt, epoch, sequence, what the broker did) and the answer."""
    return {
        "request": r.number,
        "sent_ms": r.sent_ms,
        "fault": r.fault,
        "batches": [
            {
                "batch": b.id,
                "attempt": r.attempt_of[b.id],
                "epoch": r.sequences[b.id][0],
                "base_sequence": r.sequences[b.id][1],
                "broker": r.broker.get(b.id, ("not received", None))[0],
                "offset": r.broker.get(b.id, (None, None))[1],
            }
            for b in r.batches
        ],
        "client": r.client or "no answer yet",
    }


def cli_produce(document: Any) -> dict[str, Any]:
    """``python -m engine produce``: one input object -> the result (batchable).  Kafka's ConfigExceptions are
    refused like any bad input (exit 2, or ``{"error": ...}`` in a batch)."""
    spec = parse_spec(document)
    check_produce(len(spec.records), len(spec.faults))  # the cost model's estimate (README, "Limits")
    return report(simulate(spec))


def _preset(
    config: dict[str, Any], faults: list[tuple[int, str]], records: int = 4, **more: Any
) -> dict[str, Any]:
    return {
        "config": config,
        "partitions": 1,
        "records": records,
        "interval_ms": 1,
        "latency_ms": 20,
        "faults": [{"request": n, "kind": k} for n, k in faults],
        **more,
    }


NOT_LEADER_2: Final = [(2, "not_leader")]
PRESETS: Final[dict[str, dict[str, Any]]] = {
    "Seed article 002: B fails, later ones succeed (no idempotence, 5 in flight)": _preset(
        {"enable.idempotence": False}, NOT_LEADER_2
    ),
    "The same with max.in.flight.requests.per.connection = 1": _preset(
        {"enable.idempotence": False, "max.in.flight.requests.per.connection": 1}, NOT_LEADER_2
    ),
    "The same with the defaults (idempotence on since 3.0)": _preset({}, NOT_LEADER_2),
    "Response lost after the write, no idempotence: duplicates": _preset(
        {"enable.idempotence": False, "request.timeout.ms": 1000}, [(1, "timeout_after_write")], records=3
    ),
    "Response lost after the write, idempotence: duplicates recognised": _preset(
        {"request.timeout.ms": 1000}, [(1, "timeout_after_write")], records=3
    ),
    "Batches expire: delivery.timeout.ms reached while retrying": _preset(
        {"request.timeout.ms": 1000, "delivery.timeout.ms": 1500},
        [(1, "timeout_before_write"), (4, "timeout_before_write")],
        records=3,
    ),
    "Edge: a new producer's very first batch fails, later ones succeed": _preset(
        {"delivery.timeout.ms": 5000, "request.timeout.ms": 1000}, [(1, "not_leader")], records=3
    ),
    "Refused: enable.idempotence=true with 6 in flight": _preset(
        {"enable.idempotence": True, "max.in.flight.requests.per.connection": 6}, []
    ),
}


def parse_fault_lines(text: str) -> list[dict[str, Any]]:
    """The page's fault box: ``"2, not_leader"`` per line -> ``[{"request": 2, "kind": "not_leader"}]``."""
    faults = []
    for n, line in enumerate(t for t in text.splitlines() if t.strip()):
        number, _, kind = line.partition(",")
        if not is_whole_number(number.strip()):
            raise ScenarioError(f"faults line {n + 1}: expected 'request number, kind', got {line.strip()!r}")
        faults.append({"request": int(number), "kind": kind.strip()})
    return faults


ARTICLE_CORRECTIONS: Final = [
    ("004", "enable.idempotence defaults to false", "true since Kafka 3.0 (KIP-679), with acks=all"),
    ("002", "acks defaults to 1; retries to 0", "acks=all (since 3.0) and retries=2147483647 (since 2.1)"),
    (
        "002",
        "in-flight must be 1 to keep order when retrying",
        "only without idempotence; with it up to 5 keep order (the broker remembers 5 batches)",
    ),
    (
        "004",
        "the broker keeps one sequence per producer and partition; a lower one is silently dropped",
        "it keeps the last 5 batches: a retry of one of them is answered with the original offset; "
        "an older one is OUT_OF_ORDER_SEQUENCE_NUMBER",
    ),
    (
        "002",
        "linger.ms defaults to 0",
        "0 in this Kafka (4.0 snapshot 1eb7644); KIP-1030 raises it to 5 in 4.0",
    ),
]


def broker_state(run: ProduceRun) -> list[dict[str, Any]]:
    """What each partition's ``ProducerStateManager`` remembers at the end: epoch and the last 5 batches."""
    out = []
    for p, state in sorted(run.sender.broker.states.items()):
        entry = state.last_entry(PRODUCER_ID)
        if entry is None:
            continue
        out.append(
            {
                "partition": p,
                "producer_id": PRODUCER_ID,
                "epoch": entry.producer_epoch,
                "batches": [
                    {
                        "first_seq": m.first_seq,
                        "last_seq": m.last_seq,
                        "first_offset": m.first_offset,
                        "last_offset": m.last_offset,
                    }
                    for m in entry.batch_metadata
                ],
            }
        )
    return out
