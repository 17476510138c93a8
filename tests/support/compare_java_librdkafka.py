"""How often Java's and librdkafka's assignors disagree on ``../shared/vectors/assign.json``.

    .venv/bin/python tests/support/compare_java_librdkafka.py [path/to/assign.json]

For every case of a strategy librdkafka offers (range, roundrobin, cooperative-sticky), the
expected answer is real Kafka's Java code; the engine's librdkafka mode replays the same
scenario (member ids as given, listed order = JoinGroup order).  A step differs when some member
gets a different set of partitions.  Prints one line per strategy and the total.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path[:0] = [str(REPO)]

from engine.consumer.librdkafka import STRATEGIES, LibrdkafkaFailure, replay_librdkafka  # noqa: E402
from engine.scenario import parse_scenario  # noqa: E402

DEFAULT = REPO.parent / "shared" / "vectors" / "assign.json"


def _sets(assignment: dict[str, list[Any]]) -> dict[str, list[str]]:
    return {m: sorted(str(tp) for tp in tps) for m, tps in assignment.items()}


def compare(cases: list[dict[str, Any]]) -> dict[str, Counter[str]]:
    """Per strategy: cases, steps, steps_differ, cases_differ, nonconverged, crashes."""
    stats: dict[str, Counter[str]] = {s: Counter() for s in STRATEGIES}
    for case in cases:
        strategy = case["strategy"]
        if strategy not in STRATEGIES:
            continue
        st = stats[strategy]
        st["cases"] += 1
        st["steps"] += len(case["expected"])
        try:
            results = replay_librdkafka(parse_scenario(case), strategy)
        except LibrdkafkaFailure:
            st["crashes"] += 1
            st["cases_differ"] += 1
            continue
        differ = [_sets(r.assignment) != _sets(e["assignment"]) for r, e in zip(results, case["expected"])]
        st["steps_differ"] += sum(differ)
        st["cases_differ"] += any(differ)
        st["nonconverged"] += sum(not r.converged for r in results)
    return stats


def main(argv: list[str]) -> int:
    path = Path(argv[0]) if argv else DEFAULT
    stats = compare(json.loads(path.read_text(encoding="utf-8"))["cases"])
    total: Counter[str] = Counter()
    for strategy, st in stats.items():
        total.update(st)
        print(f"{strategy:19} {st['cases_differ']:3}/{st['cases']} cases and "
              f"{st['steps_differ']:3}/{st['steps']} steps differ from Java (librdkafka crashes in "
              f"{st['crashes']}, never settles in {st['nonconverged']} steps)")
    print(f"{'all':19} {total['cases_differ']:3}/{total['cases']} cases and {total['steps_differ']:3}/"
          f"{total['steps']} steps differ")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
