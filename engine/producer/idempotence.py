"""One producer, one broker, a few partitions: what ends up in each partition's log when requests fail, with and
without idempotence: the engine of the Producer page and of ``python -m engine produce``.

The pieces follow Kafka's code (the release ``engine.release`` names for ``produce``): ``producer_config``
(``ProducerConfig``), ``accumulator`` (``RecordAccumulator``), ``transaction_manager`` (``TransactionManager``),
``sender`` (``Sender`` + ``NetworkClient``) and, on the broker, ``engine.storage.producer_state``
(``ProducerStateManager``).  Time is virtual (milliseconds) and jumps from one event to the next; there is no
randomness.

Worked examples (run by ``tests/test_worked_examples.py``): three records A, B, C (0, 1, 2) sent 1 ms apart
to one partition with ``linger.ms`` 0 (each its own batch and request; released Kafka's 5 ms would put them in one
batch), 20 ms one-way latency, the first request answered ``NOT_LEADER_OR_FOLLOWER``:

* ``enable.idempotence=false``, ``max.in.flight=5``: the log is B, C, A (seed article 002's "BCA"):

    >>> ABC = {"partitions": 1, "records": 3, "interval_ms": 1, "latency_ms": 20,
    ...        "faults": [{"request": 1, "kind": "not_leader"}]}
    >>> cli_produce({**ABC, "config": {"linger.ms": 0, "enable.idempotence": False}})["partitions"][0]["order"]
    [1, 2, 0]

* ``max.in.flight=1`` (no idempotence): A, B, C; the partition is muted while A's request is out:

    >>> one = {"linger.ms": 0, "enable.idempotence": False, "max.in.flight.requests.per.connection": 1}
    >>> cli_produce({**ABC, "config": one})["partitions"][0]["order"]
    [0, 1, 2]

* the defaults (idempotence on since 3.0): the log is B, C, and A fails.  A broker with no state for the
  producer accepts B's sequence 1 as a first batch, so A's sequence 0 is answered
  ``OUT_OF_ORDER_SEQUENCE_NUMBER`` on every retry until ``delivery.timeout.ms`` (120 s) expires it:

    >>> run = cli_produce({**ABC, "config": {"linger.ms": 0}})
    >>> run["partitions"][0]["order"], [(b["records"], b["state"]) for b in run["batches"]]
    ([1, 2], [([0], 'failed'), ([1], 'acked'), ([2], 'acked')])
    >>> sorted({b["broker"] for q in run["requests"] for b in q["batches"] if b["batch"] == 1})
    ['NOT_LEADER_OR_FOLLOWER', 'OUT_OF_ORDER_SEQUENCE_NUMBER']
    >>> run["batches"][0]["error"], [e["t_ms"] for e in run["events"] if e["event"] == "failed"]
    ('TimeoutException (delivery.timeout.ms)', [120000])

Input (the regular form; ``timeline`` replaces ``records``, ``interval_ms``, ``value_bytes`` and
``key_bytes`` with one entry per record, and ``defaults`` picks ``"released"`` (the default: released Kafka's,
``linger.ms`` 5) or ``"3.x"`` (a 3.x producer's, ``linger.ms`` 0))::

    {"config": {"enable.idempotence": false, "max.in.flight.requests.per.connection": 5},   # Kafka names
     "partitions": 1, "records": 3, "interval_ms": 1, "value_bytes": 100, "key_bytes": null,
     "latency_ms": 20, "faults": [{"request": 1, "kind": "not_leader"}], "max_time_ms": 600000}

Record *i* goes to partition ``i % partitions`` (an explicit partition, as a keyed record would).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from engine.cost import CLI_CEILING, admit, estimate_produce
from engine.errors import LimitError, ScenarioError
from engine.inputs import is_whole_number
from engine.producer.accumulator import AppRecord, ProducerBatch, RecordAccumulator
from engine.producer.producer_config import ProducerSettings, resolve
from engine.producer.sender import FAULTS, PRODUCER_ID, Request, Sender
from engine.producer.transaction_manager import TransactionManager
from engine.release import RELEASED, defaults_named, model

MAX_RECORDS: Final = 2_000
MAX_PARTITIONS: Final = 8
MAX_FAULTS: Final = 200
MAX_LATENCY_MS: Final = 60_000
MAX_TIME_MS: Final = 3_600_000
MAX_ZERO_PASSES: Final = 50  # Sender passes at one instant while the poll timeout is 0
MAX_PASSES: Final = 10_000  # Sender passes in a whole run (the vectors' largest case takes 401)
MAX_FRAMES: Final = 150
FRAME_BATCHES: Final = 60  # engine.charts.producer.MAX_ANIMATED_BATCHES: the batches an animation draws
FRAME_LOG: Final = 41  # records per log a frame keeps: its title shows 40 and "..." after them
MAX_VALUE_BYTES: Final = 1_000_000
MAX_KEY_BYTES: Final = 10_000
MAX_ARRIVAL_MS: Final = 10**12  # a timeline's t_ms (arrivals after max_time_ms only truncate the run)
REGULAR_FIELDS: Final = frozenset({"records", "interval_ms", "value_bytes", "key_bytes"})
TIMELINE_FIELDS: Final = frozenset({"t_ms", "partition", "key_bytes", "value_bytes"})
FIELDS: Final = REGULAR_FIELDS | {"config", "defaults", "partitions", "timeline", "latency_ms", "faults", "max_time_ms"}


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
    """Validate the input document (see the module docstring); Kafka's ConfigExceptions pass through.  The
    record count (``records``, or the ``timeline``'s length) is bounded before any record is built."""
    if not isinstance(raw, dict):
        raise ScenarioError(f"input: expected an object, got {type(raw).__name__}")
    unknown = sorted(set(raw) - FIELDS)
    if unknown:
        raise ScenarioError(f"input: unknown field {unknown[0]!r} (known: {', '.join(sorted(FIELDS))})")
    settings = resolve(raw.get("config", {}), defaults_named(raw.get("defaults", RELEASED.key)))
    if raw.get("config", {}).get("transactional.id") is not None:
        raise ScenarioError(
            "transactional.id: transactional sends are not modelled by produce (see the "
            "transactions section: markers, LSO, read_committed)"
        )
    partitions = _int("partitions", raw.get("partitions", 1), 1, MAX_PARTITIONS)
    records = _timeline(raw, partitions) if "timeline" in raw else _regular(raw, partitions)
    faults = _faults(raw.get("faults", []))
    return ProduceSpec(
        settings,
        partitions,
        records,
        _int("latency_ms", raw.get("latency_ms", 20), 0, MAX_LATENCY_MS),
        faults,
        _int("max_time_ms", raw.get("max_time_ms", 600_000), 1, MAX_TIME_MS),
    )


def _regular(raw: dict[str, Any], partitions: int) -> tuple[AppRecord, ...]:
    """Record *i* at *i* x ``interval_ms`` on partition *i* mod ``partitions``."""
    count = raw.get("records", 3)
    count = _int("records", count, 1, MAX_RECORDS)
    interval = _int("interval_ms", raw.get("interval_ms", 1), 0, 60_000)
    value = _int("value_bytes", raw.get("value_bytes", 100), 0, MAX_VALUE_BYTES)
    key = raw.get("key_bytes")
    if key is not None:
        _int("key_bytes", key, 0, MAX_KEY_BYTES)
    return tuple(AppRecord(i, i % partitions, i * interval, key, value) for i in range(count))


def _timeline(raw: dict[str, Any], partitions: int) -> tuple[AppRecord, ...]:
    """The ``timeline`` extension: ``[{"t_ms", "partition", "key_bytes", "value_bytes"}]``, record *i* =
    entry *i*, ``t_ms`` never decreasing; it replaces the regular form's four fields."""
    both = sorted(REGULAR_FIELDS & set(raw))
    if both:
        raise ScenarioError(f"timeline: replaces {', '.join(sorted(REGULAR_FIELDS))}; {both[0]!r} given too")
    timeline = raw["timeline"]
    if not isinstance(timeline, list) or not timeline:
        raise ScenarioError(f"timeline: a non-empty list of records, got {str(timeline)[:80]!r}")
    if len(timeline) > MAX_RECORDS:
        raise LimitError(f"timeline: at most {MAX_RECORDS:,} records, got {len(timeline):,}")
    out: list[AppRecord] = []
    for i, entry in enumerate(timeline):
        name = f"timeline[{i}]"
        if not isinstance(entry, dict) or set(entry) - TIMELINE_FIELDS or not {"t_ms", "partition"} <= set(entry):
            raise ScenarioError(
                f"{name}: expected {{t_ms, partition, key_bytes, value_bytes}}, got {str(entry)[:80]!r}"
            )
        t_ms = _int(f"{name}.t_ms", entry["t_ms"], out[-1].send_ms if out else 0, MAX_ARRIVAL_MS)
        partition = _int(f"{name}.partition", entry["partition"], 0, partitions - 1)
        key = entry.get("key_bytes")
        if key is not None:
            _int(f"{name}.key_bytes", key, 0, MAX_KEY_BYTES)
        value = _int(f"{name}.value_bytes", entry.get("value_bytes", 100), 0, MAX_VALUE_BYTES)
        out.append(AppRecord(i, partition, t_ms, key, value))
    return tuple(out)


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
    """Run the producer until every record is acknowledged or failed (or ``max_time_ms``), instant by instant
    as ``../shared/vectors/produce.README.md`` orders them: records due are appended, answers due are read,
    then ``Sender.runOnce`` runs again at once while it asks for a zero poll timeout (at most
    ``MAX_ZERO_PASSES`` passes)."""
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
    records, nxt = spec.records, 0
    now, passes, seen = 0, 0, None
    while True:
        while nxt < len(records) and records[nxt].send_ms <= now:
            batch = acc.append(records[nxt], now)
            nxt += 1
            if batch.id > len(run.batches):
                run.batches.append(batch)
        sender.poll(now)
        timeout, spinning, done = _passes(sender, now)
        passes += done
        changed = (len(sender.events), nxt)  # a frame can only differ after an event or an append
        if changed != seen:
            _frame(run, now)
            seen = changed
        if nxt == len(records) and sender.idle():
            break
        if passes > MAX_PASSES:
            raise LimitError(f"simulation: did not settle within {MAX_PASSES:,} Sender passes (at {now:,} ms)")
        arrival = records[nxt].send_ms if nxt < len(records) else None
        now = _next_instant(now, timeout, arrival, sender, spinning)
        if now > spec.max_time_ms:
            run.truncated = True
            break
    run.end_ms = now
    run.frames = _sample(run.frames)
    return run


def _passes(sender: Sender, now: int) -> tuple[int, bool, int]:
    """``Sender.runOnce`` at one instant, again at once while its poll timeout is 0, at most
    ``MAX_ZERO_PASSES`` times.  A zero-timeout pass that changed nothing (no event, the same drain index) is a
    fixed point: the passes after it would repeat it, so they are not run.  Returns the last poll timeout and
    whether the Sender is spinning (a zero timeout with nothing to do until something changes with time), and
    the passes run."""
    timeout = 0
    for done in range(1, MAX_ZERO_PASSES + 1):
        before = (len(sender.events), sender.accumulator.drain_index)
        timeout = sender.run_once(now)
        if timeout > 0:
            return timeout, False, done
        if (len(sender.events), sender.accumulator.drain_index) == before:
            return timeout, True, done
    return timeout, False, MAX_ZERO_PASSES


def _next_instant(now: int, timeout: int, arrival: int | None, sender: Sender, spinning: bool) -> int:
    """The earliest of the next arrival, the next answer (at least now + 1) and now + max(poll timeout, 1);
    after a disconnect, also the reconnect (the lab's own timeout model).  A spinning Sender repeats the same
    pass every millisecond until something changes with time, so the instants before that change are skipped
    (``Sender.next_change_ms``): the answer is the same, the work is not."""
    later = now + max(timeout, 1)
    if spinning:
        later = max(later, sender.next_change_ms(now) or later)
    times = [later]
    if arrival is not None:
        times.append(arrival)
    answer = sender.next_answer_ms()
    if answer is not None:
        times.append(max(answer, now + 1))
    if sender.ready_at_ms > now:
        times.append(sender.ready_at_ms)
    return min(times)


def _frame(run: ProduceRun, now: int) -> None:
    """One animation frame: where each of the first ``FRAME_BATCHES`` batches is, and the head of each log
    (what ``engine.charts.producer`` draws), so a frame costs the same however many batches a run has."""
    sender = run.sender
    where: dict[int, str] = {}
    for p, dq in sender.accumulator.deques.items():
        for b in dq:
            if b.id > FRAME_BATCHES:
                break
            where[b.id] = f"accumulator p{p}"
    for r in sender.in_flight:
        for b in r.batches:
            if not b.is_done and b.id <= FRAME_BATCHES:
                where[b.id] = f"request {r.number}"
    state = {b.id: where.get(b.id, b.final_state or "waiting") for b in run.batches[:FRAME_BATCHES]}
    logs = {p: [e.record for e in log[:FRAME_LOG]] for p, log in sender.broker.logs.items()}
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
        "follows": model("produce").follows,
        "defaults": s.defaults.label,
        "not_verified": model("produce").not_verified,
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
    admit(estimate_produce(len(spec.records), len(spec.faults)), CLI_CEILING, "produce")
    return report(simulate(spec))


def _preset(
    config: dict[str, Any], faults: list[tuple[int, str]], records: int = 4, **more: Any
) -> dict[str, Any]:
    """A page preset: released Kafka's defaults, except ``linger.ms`` 0 so that each record, 1 ms after the last,
    is its own batch and request, as in the seed articles (with the released 5 ms they would share one)."""
    return {
        "config": {"linger.ms": 0, **config},
        "partitions": 1,
        "records": records,
        "interval_ms": 1,
        "latency_ms": 20,
        "faults": [{"request": n, "kind": k} for n, k in faults],
        "defaults": RELEASED.key,
        **more,
    }


NOT_LEADER_2: Final = [(2, "not_leader")]
PRESETS: Final[dict[str, dict[str, Any]]] = {
    "《深入理解 Kafka》: B fails, later ones succeed (no idempotence, 5 in flight)": _preset(
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
