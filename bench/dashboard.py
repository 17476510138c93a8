"""``python -m bench dashboard``: server time of the dashboard against the issue's targets.

1. A widget change on the Assignments page with the 50-member / 2,000-partition preset loaded
   (the script run, measured through Streamlit's AppTest; target 300 ms).
2. Building the rebalance animation for 10,000 partitions (1 topic, 100 members, one leaves;
   figure build plus the ``to_dict`` Streamlit serialises; target 1 s).
The ratio column is this run's time over the target.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from engine import CLIENT, STRATEGY_NAMES, outcomes, parse_scenario
from engine.charts import rebalance_animation
from engine.comparison import revoked_partitions

REPO = Path(__file__).resolve().parent.parent


def widget_change_ms(repeat: int) -> tuple[float, float]:
    """(first run with the preset, median widget-change rerun) in ms."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(REPO / "pages" / "1_Assignments.py"), default_timeout=300).run()
    start = time.perf_counter()
    at.selectbox(key="sidebar.preset").select("large").run()
    first = (time.perf_counter() - start) * 1000
    assert not at.exception, at.exception
    times = []
    for i in range(repeat):
        start = time.perf_counter()
        at.selectbox(key="assign.config_strategy").select(STRATEGY_NAMES[(i + 1) % len(STRATEGY_NAMES)]).run()
        times.append((time.perf_counter() - start) * 1000)
    assert not at.exception, at.exception
    return first, statistics.median(times)


def animation_ms(partitions: int, repeat: int) -> float:
    members = [{"id": f"consumer-{i:03d}", "topics": ["orders"]} for i in range(100)]
    scenario = parse_scenario({"steps": [{"topics": {"orders": partitions}, "members": members},
                                         {"topics": {"orders": partitions}, "members": members[1:]}]})
    cooperative = CLIENT["cooperative-sticky"]
    steps = outcomes(scenario, cooperative)
    before, after = steps[0].assignment, steps[1].assignment
    revoked = revoked_partitions(steps[1], cooperative)
    order = [m["id"] for m in members]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        rebalance_animation(before, after, order, revoked).to_dict()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench dashboard")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    first, change = widget_change_ms(args.repeat)
    anim = animation_ms(10_000, args.repeat)
    row = "{:<62}{:>10}{:>11}{:>8}"
    print(row.format("measure", "ms", "target ms", "ratio"))
    print(row.format("Assignments page, first run after loading the large preset", f"{first:.0f}", "-", ""))
    print(row.format("Assignments page, widget change (large preset, median)", f"{change:.0f}", 300,
                     f"{change / 300:.2f}"))
    print(row.format("rebalance animation, 10,000 partitions (build + to_dict)", f"{anim:.0f}", 1000,
                     f"{anim / 1000:.2f}"))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
