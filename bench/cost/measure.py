"""How ``python -m bench cost`` measures: each case in a process forked from this one after every engine module
is imported (``measure``), the Spark cases in subprocesses (``load_rows``), the Kafka-scale shapes through
``python -m engine assign`` (``scale``), and measurements saved and read back (``--save``, ``--load``).
"""

from __future__ import annotations

import ctypes
import gc
import json
import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import cost_load
from bench.cost.cases import Case, scenario_doc
from engine import cost
from engine.cost import computations
from engine.scenario import parse_scenario

MIB = 1 << 20
REPEAT_UNDER_SECONDS = 0.5
REPEATS_UNDER = 2
LIBC = ctypes.CDLL("libc.so.6")


@dataclass
class Measured:
    model: str
    label: str
    held_out: bool
    seconds: float
    peak_bytes: int
    features: dict[str, float] = field(default_factory=dict)
    estimate: cost.Estimate | None = None


def _status(field_name: str) -> int:
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith(field_name + ":"):
                return int(line.split()[1]) * 1024
    return 0


def _child(case: Case) -> dict[str, Any]:
    run, features, estimate = case.prepare()
    gc.collect()
    LIBC.malloc_trim(0)  # freed memory (the parent's warm-ups, this input's building) back to the system: a run
    with open("/proc/self/clear_refs", "w") as handle:  # reusing it would not show in its resident set
        handle.write("5")  # reset VmHWM to the current resident set
    before = _status("VmRSS")
    start = time.perf_counter()
    run()
    seconds = time.perf_counter() - start
    peak = max(_status("VmHWM") - before, 0)
    for _ in range(REPEATS_UNDER if seconds < REPEAT_UNDER_SECONDS else 0):  # short runs: the best of three
        again = time.perf_counter()
        run()
        seconds = min(seconds, time.perf_counter() - again)
    return {"seconds": seconds, "peak": peak, "features": features,
            "estimate": None if estimate is None else [estimate.seconds, estimate.peak_bytes, estimate.drivers]}


def measure(case: Case) -> Measured | None:
    """Run ``case`` in a forked child; its figures come back through a pipe."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read)
        try:
            data = json.dumps(_child(case)).encode()
        except BaseException as exc:  # noqa: BLE001 - the parent reports it
            data = json.dumps({"error": f"{type(exc).__name__}: {exc}"}).encode()
        with os.fdopen(write, "wb") as out:
            out.write(data)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as handle:
        raw = handle.read()
    os.waitpid(pid, 0)
    result = json.loads(raw or b'{"error": "the child died"}')
    if "error" in result:
        print(f"{case.model} {case.label}: not measured ({result['error']})")
        return None
    est = result["estimate"]
    return Measured(case.model, case.label, case.held_out, result["seconds"], result["peak"], result["features"],
                    None if est is None else cost.Estimate(est[0], est[1], est[2]))


def load_rows() -> list[Measured]:
    """The Spark load pipeline's cases (``bench.cost_load``: subprocesses, one cold start per group)."""
    rows = []
    for held, m in cost_load.measure_groups():
        counts = [int(c) for c in m["counts"].split(",")]
        assigned = sum(counts) * m["consumers"] * m["strategies"]
        features = computations.load_features(m["bytes"], m["fmt"], counts, assigned, m["cold"])
        label = f"{m['rows']:,} rows {m['fmt']} ({m['bytes'] // 1024:,} KiB), counts {m['counts']}" + (
            ", cold" if m["cold"] else "")
        rows.append(Measured("load", label, held, m["seconds"], m["peak"], features, None))
        print(f"[load] {label:<60} {m['seconds']:8.2f} s {m['peak'] / MIB:8.1f} MiB" + ("  (held out)" if held else ""),
              flush=True)
    return rows


SCALE_SHAPES = [  # Kafka-scale shapes: (label, document, strategies)
    ("100 x 500 p, 500 m on half the topics", (100, 500, 500, 0.5, 2), ("sticky", "cooperative-sticky")),
    ("100 x 2,000 p, 2,000 m on all topics", (100, 2000, 2000, 1.0, 2),
     ("range", "roundrobin", "sticky", "cooperative-sticky")),
]


def scale(rows: list[str]) -> None:
    """Each shape through ``python -m engine assign`` (two steps: the group, then one member leaves)."""
    rows.append(f"{'shape':<40}{'strategy':<20}{'seconds':>8}{'max RSS MiB':>12}{'estimate':>10}{'est MiB':>9}")
    print(rows[-1], flush=True)
    for label, shape, strategies in SCALE_SHAPES:
        doc = scenario_doc(*shape)
        scenario = parse_scenario(doc)
        for strategy in strategies:
            payload = json.dumps({**doc, "strategy": strategy}).encode()
            est = cost.estimate_assignment(scenario, strategy)
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "engine", "assign"], input=payload, capture_output=True)
            seconds = time.perf_counter() - start
            rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            status = "" if done.returncode == 0 else f"  exit {done.returncode}: {done.stderr.decode()[:120]}"
            rss_text = f"{rss / 1024:>12,.0f}" if rss > before else f"{'<=' + format(before / 1024, ',.0f'):>12}"
            rows.append(f"{label:<40}{strategy:<20}{seconds:>8.1f}{rss_text}{est.seconds:>10.1f}{est.mib:>9,}"
                        + status)
            print(rows[-1], flush=True)


def run_cases(cases: list[Case]) -> list[Measured]:
    warm_up(cases)
    measured = []
    start = time.perf_counter()
    for i, case in enumerate(cases, 1):
        m = measure(case)
        if m is None:
            continue
        measured.append(m)
        print(f"[{i}/{len(cases)}] {case.model:<36} {case.label:<42} {m.seconds:8.3f} s {m.peak_bytes / MIB:8.1f} MiB"
              + ("  (held out)" if case.held_out else ""), flush=True)
    print(f"measured {len(measured)} cases in {time.perf_counter() - start:.0f} s "
          "(peak = VmHWM - VmRSS of a forked child)")
    return measured


def load_saved(path: str) -> tuple[str, list[Measured]]:
    """The run and measurements saved by ``--save`` (refit without measuring again)."""
    saved = json.loads(Path(path).read_text())
    run, rows = (saved["run"], saved["rows"]) if isinstance(saved, dict) else (FIRST_RUN, saved)
    return run, [Measured(**{**r, "estimate": None if r["estimate"] is None else cost.Estimate(**r["estimate"])})
                 for r in rows]


FIRST_RUN = "python -m bench cost --quick, 2026-11-25 06:38 UTC, x86_64, 2 cores, load average 4 to 7, Python 3.11.7"


def warm_up(cases: list[Case]) -> None:
    """Run each model's first case once here, before any fork: lazy imports and numba's compilation are
    paid once, as in a running server, not by every measured child."""
    seen: set[str] = set()
    for case in cases:
        if case.model not in seen:
            seen.add(case.model)
            run, _, _ = case.prepare()
            run()
