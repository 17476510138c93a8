"""``python -m bench share_delivery``: record delivery in one share partition at scale, events per second.

The target: a share partition at 2,000 in-flight records (``group.share.partition.max.record.locks``,
released Kafka's default) with 100,000 events is estimated before work and simulated in seconds.  The case is
made by eight members fetching 250 records at a time from a log of 10-record batches, acknowledging with a
type per offset a third of the time (batches split for good), now and then releasing, leaving and crashing (their locks
then run out 30 s later).  The baseline, measured in the same run, is the smallest cases there are: the
vectors' 120 Kafka cases (1,926 events, at most a few hundred records in flight).

Rows: the budget estimate (before work), the engine alone (``replay.run``: events through ``SharePartition``),
and the whole CLI answer (parse, budget, every step's state as JSON).  ``ticks_case`` and ``batches_case`` are the
other shapes the cost model is fitted on (``python -m bench cost --only share``): steps that write a state with
nothing in flight, and long logs the case reads and builds whatever the fetches take.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

from engine.cost import CLI_CEILING, admit, estimate_share_deliver_answer, estimate_share_delivery
from engine.inputs import encode_json
from engine.share.case import parse_case, window_bound, window_cap
from engine.share.cli import cli_share_deliver
from engine.share.log import ShareLog
from engine.share.replay import apply, run
from engine.share.settings import parse_settings
from engine.share.share_partition import FetchResult, SharePartition

VECTORS = Path(__file__).resolve().parents[1].parent / "shared" / "vectors" / "share_deliver.json"
LOCKS = 2_000
EARLIEST = {"share.auto.offset.reset": "earliest"}  # the records are in the log before the first fetch


def scale_case(events: int, seed: int = 1, locks: int = LOCKS) -> dict[str, Any]:
    """A case of ``events`` events on a window held near ``locks`` records, made against the engine itself
    (what a member acknowledges is what it acquired)."""
    rng = random.Random(seed)
    settings = {"group.share.record.lock.duration.ms": 30_000, "group.share.delivery.count.limit": 5,
                "group.share.partition.max.record.locks": locks}
    records = events * 40
    log = [[f, f + 9] for f in range(0, records, 10)]
    partition = SharePartition(parse_settings(settings), ShareLog(tuple(b) for b in log), "earliest")
    members = [f"m{i}" for i in range(8)]
    held: dict[str, list[tuple[int, int, int]]] = {m: [] for m in members}
    out: list[dict[str, Any]] = []
    t, spare = 0, 0
    while len(out) < events:
        t += rng.randint(1, 10)
        m = rng.choice(members)
        roll = rng.random()
        if held[m] and roll < 0.6:
            event = _ack(rng, t, m, held[m])
            held[m] = []
        elif roll < 0.985:
            event = {"t": t, "op": "fetch", "member": m, "max_records": 250}
        elif roll < 0.993:
            event, held[m] = {"t": t, "op": "leave", "member": m}, []
        else:
            event, held[m] = {"t": t, "op": "crash", "member": m}, []
        if event["op"] in ("leave", "crash"):
            spare += 1
            members[members.index(m)] = new = f"n{spare}"
            held[new] = []
        parsed = parse_case({"settings": settings, "events": [event]}).events[0]
        step = apply(partition, parsed)
        if isinstance(step.result, FetchResult):
            held[m] += step.result.acquired
        out.append(event)
    return {"settings": settings, "group_config": EARLIEST, "log": log, "events": out}


def worst_answer_case(records: int = 19_000, ticks: int = 24) -> dict[str, Any]:
    """The CLI answer's worst case: one batch acknowledged with every other offset RELEASEd, so each step's
    state is one run per offset (``ticks + 2`` events x ``records``: the cells ``estimate_share_deliver_answer``
    is fitted on)."""
    types = ["ACCEPT" if i % 2 else "RELEASE" for i in range(records)]
    events: list[dict[str, Any]] = [{"t": 0, "op": "fetch", "member": "A", "max_records": records},
                                    {"t": 1, "op": "ack", "member": "A",
                                     "batches": [{"first": 0, "last": records - 1, "types": types}]}]
    events += [{"t": 2 + i, "op": "tick"} for i in range(ticks)]
    return {"group_config": EARLIEST, "log": [[0, records - 1]], "events": events}


def ticks_case(events: int, records: int = 0) -> dict[str, Any]:
    """``events`` tick events over a log of ``records`` records (none: an empty window): the answer still writes
    a result and a state for every step."""
    return {"group_config": EARLIEST, "log": [[0, records - 1]] if records else [],
            "events": [{"t": i, "op": "tick"} for i in range(events)]}


def batches_case(batches: int, fetches: int = 10, width: int = 1) -> dict[str, Any]:
    """A log of ``batches`` batches of ``width`` records and ``fetches`` fetches of 500 records: the log is read
    and built whatever the fetches take."""
    return {"group_config": EARLIEST, "log": [[i * width, i * width + width - 1] for i in range(batches)],
            "events": [{"t": i, "op": "fetch", "member": f"m{i % 4}", "max_records": 500} for i in range(fetches)]}


def case_counts(doc: dict[str, Any]) -> tuple[int, int, int]:
    """``(events, window_cap, log batches)`` of a case read off its document, as ``parse_case`` and ``window_cap``
    count them (tests/engine/cost/test_share_costs.py checks both agree)."""
    events = doc["events"]
    batches = [(b[0], b[1]) for b in doc.get("log", [])]
    batches += [(e["batch"][0], e["batch"][1]) for e in events if e["op"] == "produce"]
    largest_fetch = max((e["max_records"] for e in events if e["op"] == "fetch"), default=0)
    locks = parse_settings(doc.get("settings")).max_record_locks
    return len(events), window_bound(locks, largest_fetch, batches), len(batches)


def _ack(rng: random.Random, t: int, member: str, ranges: list[tuple[int, int, int]]) -> dict[str, Any]:
    batches = []
    for first, last, _ in sorted(ranges):
        if rng.random() < 0.33:
            kinds = ["ACCEPT"] * 16 + ["RELEASE", "REJECT"]
            batches.append({"first": first, "last": last, "types": [rng.choice(kinds) for _ in range(first, last + 1)]})
        else:
            batches.append({"first": first, "last": last, "type": rng.choice(["ACCEPT"] * 19 + ["RELEASE"])})
    return {"t": t, "op": "ack", "member": member, "batches": batches}


def _engine_seconds(cases: list[dict[str, Any]]) -> float:
    parsed = [parse_case(c) for c in cases]
    start = time.perf_counter()
    for case in parsed:
        for _ in run(case):
            pass
    return time.perf_counter() - start


def _cli_seconds(cases: list[dict[str, Any]]) -> float:
    start = time.perf_counter()
    for case in cases:
        encode_json(cli_share_deliver(case))
    return time.perf_counter() - start


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench share_delivery")
    parser.add_argument("--events", type=int, default=100_000)
    args = parser.parse_args(argv)
    big = scale_case(args.events)
    start = time.perf_counter()
    case = parse_case(big)
    parsed = time.perf_counter()
    cap, batches = window_cap(case), len(case.all_batches)
    estimate = estimate_share_delivery(len(case.events), cap, batches)
    admit(estimate, CLI_CEILING, "share-deliver")
    estimate_ms, parse_ms = (time.perf_counter() - parsed) * 1000, (parsed - start) * 1000
    print(f"estimate before work: {len(case.events):,} events x {cap:,} records the window may hold: "
          f"{estimate.seconds:.1f} s, {estimate.mib:,} MiB, in {estimate_ms:.0f} ms (after reading "
          f"the case: {parse_ms:.0f} ms); widest window reached: {_widest_window(case):,} records")
    rows: list[tuple[str, int, float]] = []
    if VECTORS.is_file():
        small = [{k: v for k, v in c.items() if k not in ("expected", "note", "name")}
                 for c in json.loads(VECTORS.read_text())["cases"]]
        n_small = sum(len(c["events"]) for c in small)
        rows.append(("baseline: the 120 vector cases, engine", n_small, _engine_seconds(small)))
        rows.append(("the 120 vector cases, CLI answer", n_small, _cli_seconds(small)))
    rows.append((f"{args.events:,} events at {LOCKS:,} locks, engine", args.events, _engine_seconds([big])))
    worst = worst_answer_case()
    rows.append(("CLI answer, worst case (one state run per record)", len(worst["events"]), _cli_seconds([worst])))
    print(f"{'run':<48}{'events':>9}{'seconds':>9}{'events/s':>11}{'vs baseline':>13}")
    base = rows[0][1] / rows[0][2]
    for label, n, seconds in rows:
        rate = n / seconds
        print(f"{label:<48}{n:>9,}{seconds:>9.2f}{rate:>11,.0f}{rate / base:>12.2f}x")
    written = estimate_share_deliver_answer(len(worst["events"]), worst["log"][0][1] + 1)
    print(f"(the CLI answer writes the whole state after every event, JSON encoded here too; the worst case's "
          f"answer is estimated at {written.seconds:.1f} s and {written.mib:,} MiB before work)")


def _widest_window(case: Any) -> int:
    """Widest in-flight window of a run (end - start + 1), to set against the estimate's cap."""
    widest = 0

    def watch(_step: Any, partition: SharePartition) -> None:
        nonlocal widest
        widest = max(widest, partition.in_flight_records())

    for _ in run(case, watch):
        pass
    return widest

