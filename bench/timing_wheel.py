"""Timing wheel vs binary heap: insert and drain 10^4..10^6 tasks with delays in 1 ms..60 s.

    .venv/bin/python -m bench timing_wheel                      # random order, then descending
    .venv/bin/python -m bench.timing_wheel --sizes 10000 100000 --orders random

Both timers are the engine's own pure-Python code (engine.server.timer: the untraced WheelTimer
and HeapTimer, sharing the same JDK-style heap), so the ratio compares algorithms, not languages.
``heapq`` (C) is printed as a reference for what a C heap does in the same interpreter.
"""

from __future__ import annotations

import argparse
import heapq
import time

from engine.server.timer.cost import cost_delays, measure_costs
from engine.server.timer.model import WheelConfig

DEFAULT_SIZES = (10_000, 100_000, 1_000_000)
DEFAULT_ORDERS = ("random", "descending")


def heapq_reference(count: int, order: str) -> tuple[float, float]:
    delays = cost_delays(count, 1, 60_000, order)
    heap: list[tuple[int, int]] = []
    t0 = time.perf_counter()
    for i, delay in enumerate(delays):
        heapq.heappush(heap, (delay, i))
    t1 = time.perf_counter()
    while heap:
        heapq.heappop(heap)
    return t1 - t0, time.perf_counter() - t1


def rows(sizes: tuple[int, ...], orders: tuple[str, ...]) -> list[list[str]]:
    out = []
    for order in orders:
        for n in sizes:
            wheel, heap = measure_costs(n, seed=1, config=WheelConfig(1, 20, 0), order=order)
            c_insert, c_expire = heapq_reference(n, order)
            out.append([order, f"{n:,}",
                        f"{wheel.insert_seconds:.3f}", f"{heap.insert_seconds:.3f}",
                        f"{heap.insert_seconds / wheel.insert_seconds:.2f}",
                        f"{wheel.expire_seconds:.3f}", f"{heap.expire_seconds:.3f}",
                        f"{heap.expire_seconds / wheel.expire_seconds:.2f}",
                        f"{wheel.insert_steps / n:.2f}", f"{heap.insert_steps / n:.2f}",
                        f"{wheel.expire_steps / n:.2f}", f"{heap.expire_steps / n:.2f}",
                        f"{c_insert:.3f}", f"{c_expire:.3f}"])
            print(_format([out[-1]], header=not out[:-1]), flush=True)
    return out


HEADER = ["order", "tasks", "wheel ins s", "heap ins s", "ins heap/wheel", "wheel exp s", "heap exp s",
          "exp heap/wheel", "wheel ins st/t", "heap ins st/t", "wheel exp st/t", "heap exp st/t",
          "heapq(C) ins s", "heapq(C) exp s"]


def _format(table: list[list[str]], header: bool = True) -> str:
    widths = [max(len(h), 9) for h in HEADER]
    lines = ["| " + " | ".join(h.rjust(w) for h, w in zip(HEADER, widths)) + " |",
             "|" + "|".join("-" * (w + 2) for w in widths) + "|"] if header else []
    lines += ["| " + " | ".join(c.rjust(w) for c, w in zip(row, widths)) + " |" for row in table]
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench timing_wheel")
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES))
    parser.add_argument("--orders", nargs="+", default=list(DEFAULT_ORDERS),
                        choices=["random", "ascending", "descending"])
    args = parser.parse_args(argv)
    print("Timing wheel (tick 1 ms, 20 buckets: Kafka's SystemTimer) vs one binary heap of tasks; delays uniform "
          "in 1 ms..60 s, all added at t=0, then drained. Seconds on this machine; ratio > 1 = the wheel is faster; "
          "st/t = counted steps per task.")
    rows(tuple(args.sizes), tuple(args.orders))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
