"""``python -m bench streams_assign``: time streams groups' task assignor (``python -m engine streams-assign``).

Each row is one case of the cost model's ``streams_assign`` shapes (``bench.cost.streams``: those it is fitted on,
then those held out) through the command's work: the JSON text decoded, the handler (``cli_streams_assign``:
read, estimated, assigned) and the answer encoded; the median of ``--repeat`` runs beside the fitted model's
estimate made before any work (``engine.cost.streams``).  The column to watch is measured / estimated.  The
constants are fitted by ``python -m bench cost --only streams``, not here.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from bench.cost.streams import STREAMS_FIT, STREAMS_FULL_EXTRA, STREAMS_HELD, case_of, doc_shape
from engine.coordinator.streams.cli import cli_streams_assign
from engine.cost import CLI_CEILING
from engine.cost.streams import estimate_streams_assignment


def measure_seconds(text: str, repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        json.dumps(cli_streams_assign(json.loads(text)))
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench streams_assign")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"the command line's ceiling: {CLI_CEILING.seconds:.0f} s")
    print(f"{'case':<60}{'':>5}{'measured ms':>12}{'estimate ms':>13}{'ratio':>7}")
    rows = [*((s, "fit") for s in STREAMS_FIT), *((s, "held") for s in STREAMS_HELD + STREAMS_FULL_EXTRA)]
    for shape, kind in rows:
        case = case_of(shape)
        estimated = estimate_streams_assignment(doc_shape(case)).seconds
        seconds = measure_seconds(json.dumps(case), args.repeat)
        print(f"{shape.label:<60}{kind:>5}{seconds * 1000:>12.1f}{estimated * 1000:>13.1f}{seconds / estimated:>7.2f}",
              flush=True)
