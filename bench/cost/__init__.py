"""``python -m bench cost [--quick] [--write] [--scale]``: measure every computation, fit the cost model.

The package by what it does: ``cases``, ``share_groups`` and ``streams`` (what is measured), ``measure`` (how),
``fit`` (the constants and the held-out table), ``write`` (``engine/cost/constants.py`` and its run line); ``main``
here.

Each case runs in a process forked from this one after every engine module is imported, so a case pays
neither for imports nor for another case's garbage.  In the child the input is built first (not measured),
then the computation runs once:

- seconds: ``time.perf_counter`` around the computation (under 0.5 s: the best of three runs);
- peak bytes: the child's resident set high-water mark (``VmHWM`` of ``/proc/self/status``, reset just
  before the computation by writing ``5`` to ``/proc/self/clear_refs``) minus its resident set at that
  moment (``VmRSS``): what the computation added to the process at its peak, as the server would see it.
  Freed memory is handed back first (``gc.collect``, glibc's ``malloc_trim``): memory freed by the parent's
  warm-ups or by building the input, still resident, would otherwise be reused unseen.

Per computation, ``engine.cost`` names the shape features that drive it (``engine/cost/shape.py`` for
scenarios); the constants are a non-negative least-squares fit of seconds (and of bytes) on those features,
each case weighted by 1 / its measurement (the fit minimises relative error).  Every family has cases used
for the fit and held-out cases (other shapes, most of them larger) that are not: the table prints each
model's worst relative error on the held-out cases.  Relative errors of seconds are taken against
``max(measured, 0.05 s)`` and of bytes against ``max(measured, 16 MiB)``: below those the measurement is
timer and allocator noise, not the model.  The streams assignor (``streams_assign``), whose every case runs in
milliseconds, has its seconds taken against ``max(measured, 1 ms)`` (``SECONDS_FLOORS``): its estimates must hold
relatively down to its smallest groups.  The Assignments/Rebalance comparison has no constants of its
own (``engine.cost`` sums its assignors' estimates): it appears as held-out rows.

Share groups have three models (``share_groups``): ``share-assign`` (the assignor and its JSON answer) on groups
of every size, chained steps whose partitions change (members keep what nobody subscribes to any more) and
many differing subscriptions (members changing them too); a share partition's delivery (the case read and run:
scale cases, long logs, ticks); and ``share-deliver``'s answer (its worst case, one state run per record after
every event; ticks).  The streams groups' task assignor (``streams``: ``streams-assign``'s work, JSON in and out)
on groups fresh, chained and listing previous standbys, up to 150 standby replicas.  The Spark load pipeline
(``load``) runs in subprocesses (``bench/cost_load.py``).

``--write`` writes the fitted constants to ``engine/cost/constants.py`` with the run's date and machine;
with ``--only PREFIX`` (models whose name starts with PREFIX, e.g. ``share`` or ``load``) every other model
keeps its constants exactly and the run line its run, naming the partial fit (``merge_run``).
``--scale`` (``--scale-only``: nothing else) also runs the Kafka-scale shapes through
``python -m engine assign`` (a subprocess: its wall seconds, and its maximum resident set from
``resource.getrusage(RUSAGE_CHILDREN)``), next to the estimate.
"""

from __future__ import annotations

import argparse
import datetime
import json
from dataclasses import asdict
from pathlib import Path

from bench.cost.cases import assignment_cases, cli_io_cases, derived_cases, other_cases
from bench.cost.fit import fit_all, report
from bench.cost.measure import load_rows, load_saved, run_cases, scale
from bench.cost.share_groups import share_cases
from bench.cost.streams import streams_cases
from bench.cost.write import describe_run, merge_run, write_constants
from engine.cost import terms
from engine.cost.constants import MODELS as CURRENT
from engine.cost.constants import RUN as CURRENT_RUN

__all__ = ["RUN_ALL_ARGS", "main"]


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench cost")
    parser.add_argument("--quick", action="store_true", help="no full-size held-out shapes")
    parser.add_argument("--write", action="store_true", help="write engine/cost/constants.py")
    parser.add_argument("--scale", action="store_true", help="also the Kafka-scale shapes through the CLI")
    parser.add_argument("--scale-only", action="store_true", help="only the Kafka-scale shapes, no fit")
    parser.add_argument("--only", default="", help="models whose name starts with this")
    parser.add_argument("--save", metavar="JSON", help="keep the measurements in this file")
    parser.add_argument("--load", metavar="JSON", help="fit measurements saved by --save instead of measuring")
    args = parser.parse_args(argv)
    if args.scale_only:
        scale([])
        return
    cases = [c for c in assignment_cases(args.quick) + cli_io_cases() + derived_cases() + other_cases()
             + share_cases() + streams_cases(args.quick) if c.model.startswith(args.only)]
    if args.load:
        run, measured = load_saved(args.load)
    else:
        run, measured = describe_run(argv), run_cases(cases)
        if "load".startswith(args.only):
            measured += load_rows()
    if args.only:  # the other models keep their constants, and the run line its run
        run = merge_run(CURRENT_RUN, args.only, datetime.datetime.now(datetime.timezone.utc))
    if args.save:
        Path(args.save).write_text(json.dumps({"run": run, "rows": [asdict(m) for m in measured]}, indent=1))
    models = fit_all(measured)
    for name, model in models.items():
        print(f"{name}: seconds {model['seconds']}; bytes {model['bytes']}")
    CURRENT.update(models)  # engine.cost now estimates with the new fit (the derived rows below)
    for line in report(measured, CURRENT, cases):
        print(line)
    if args.write:
        write_constants({k: v for k, v in CURRENT.items() if k in terms.TERMS}, run)
    if args.scale:
        rows: list[str] = []
        scale(rows)


RUN_ALL_ARGS = ["--quick"]
