"""``python -m engine load ...`` (and ``spark-submit engine/spark/job.py ...``).

    python -m engine load --input PATH [--format csv|parquet|json] [--key-column key]
                          [--value-size-column COLUMN] --partitions 12[,24,...] --output DIR [--master local[2]]

plus optional ``--value-column``, ``--timestamp-column``, ``--topic-column``/``--topic``,
``--window`` (default 60s), ``--null-keys sticky|round-robin|drop``, ``--hot-keys``,
``--consumers 3,4,6`` and ``--strategies``.  Exit 0 on success (one JSON line on stdout), 2 with
one line on stderr for bad input; Spark's own logging goes to a file, never to the terminal.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Sequence

from engine.errors import EngineError
from engine.scenario import STRATEGIES
from engine.spark.io import ColumnSpec, LoadInputError, check_output, detect_format, precheck

MAX_PARTITIONS = 100_000
MAX_COUNTS = 8
MAX_CONSUMERS = 1_000
MAX_HOT_KEYS = 1_000
MAX_WINDOW_S = 7 * 86_400
WINDOW_UNITS = {"s": 1, "m": 60, "h": 3_600}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise LoadInputError(message)


def int_list(text: str, what: str, low: int, high: int) -> tuple[int, ...]:
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts or len(parts) > MAX_COUNTS:
        raise LoadInputError(f"{what}: give 1..{MAX_COUNTS} comma-separated integers, got {text!r}")
    values = []
    for part in parts:
        if not re.fullmatch(r"\d+", part) or not low <= int(part) <= high:
            raise LoadInputError(f"{what}: each must be an integer {low}..{high:,}, got {part!r}")
        values.append(int(part))
    return tuple(dict.fromkeys(values))


def parse_window(text: str) -> int:
    """``"60"``, ``"60s"``, ``"5m"``, ``"1h"`` -> seconds (1 s .. 7 days)."""
    match = re.fullmatch(r"(\d+)([smh]?)", text.strip())
    seconds = int(match.group(1)) * WINDOW_UNITS[match.group(2) or "s"] if match else 0
    if not 1 <= seconds <= MAX_WINDOW_S:
        raise LoadInputError(f"window: must be 1s..7d like 1s, 60s, 5m, got {text!r}")
    return seconds


def strategy_list(text: str) -> tuple[str, ...]:
    names = tuple(dict.fromkeys(s.strip() for s in text.split(",") if s.strip()))
    bad = [s for s in names if s not in STRATEGIES]
    if not names or bad:
        raise LoadInputError(f"strategies: each must be one of {', '.join(STRATEGIES)}, got {text!r}")
    return names


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m engine load", description="Per-partition and per-consumer load of a topic export")
    p.add_argument("--input", required=True, help="CSV / Parquet / JSON-lines file or directory")
    p.add_argument("--format", choices=("csv", "parquet", "json"), help="default: from the file name")
    p.add_argument("--key-column", default="key")
    p.add_argument("--value-size-column", help="integer bytes per record (summed into 'bytes')")
    p.add_argument("--value-column", help="the value itself; its size in bytes is used")
    p.add_argument("--timestamp-column", help="timestamp, epoch ms, or ISO-8601 text (enables peak rates)")
    p.add_argument("--topic-column", help="with --topic: keep only that topic's records")
    p.add_argument("--topic", help="topic to keep (and to name in the group's subscription)")
    p.add_argument("--partitions", required=True, help=f"partition counts, e.g. 12,24 (1..{MAX_PARTITIONS:,})")
    p.add_argument("--consumers", help=f"consumer counts for per-consumer load, e.g. 3,4,6 (1..{MAX_CONSUMERS})")
    p.add_argument("--strategies", default=",".join(STRATEGIES), help="assignment strategies to compare")
    p.add_argument("--window", default="60s", help="peak-rate window: 1s..7d (default 60s)")
    p.add_argument("--null-keys", choices=("sticky", "round-robin", "drop"), default="sticky",
                   help="how null-key records are placed in the per-partition detail (summary.json counts "
                        "them only in null_keys)")
    p.add_argument("--hot-keys", type=int, default=10, help=f"top keys per partition (0..{MAX_HOT_KEYS})")
    p.add_argument("--seed", type=int, default=0, help="seed of the null-key producers' random choices")
    p.add_argument("--output", required=True, help="output directory (replaced atomically)")
    p.add_argument("--master", help="Spark master, e.g. local[2], spark://host:7077 (default: local[2], or "
                                    "SPARK_REMOTE for Spark Connect)")
    return p


def parse_args(argv: Sequence[str]) -> tuple[object, str, str | None]:
    """Validate the arguments; returns (LoadConfig, output, master)."""
    from engine.spark.job import LoadConfig

    args = build_parser().parse_args(list(argv))
    if args.topic is not None and args.topic_column is None:
        raise LoadInputError("topic: --topic needs --topic-column (the column holding each record's topic)")
    if not 0 <= args.hot_keys <= MAX_HOT_KEYS:
        raise LoadInputError(f"hot-keys: must be 0..{MAX_HOT_KEYS}, got {args.hot_keys}")
    columns = ColumnSpec(args.key_column, args.value_size_column, args.value_column, args.timestamp_column,
                         args.topic_column)
    fmt = detect_format(args.input, args.format)
    config = LoadConfig(
        input=args.input,
        partitions=int_list(args.partitions, "partitions", 1, MAX_PARTITIONS),
        fmt=fmt,
        columns=columns,
        topic=args.topic,
        window_s=parse_window(args.window),
        null_keys=args.null_keys,
        hot_keys=args.hot_keys,
        consumers=int_list(args.consumers, "consumers", 1, MAX_CONSUMERS) if args.consumers else (),
        strategies=strategy_list(args.strategies),
        seed=args.seed,
    )
    if columns.value_size is not None and columns.value is not None:
        raise LoadInputError("value column: give either --value-size-column or --value-column, not both")
    check_output(args.output)
    precheck(config.input, fmt, columns)
    return config, args.output, args.master


def main(argv: list[str]) -> int:
    """Run the job; exit 2 with one line on stderr for bad input."""
    if any(a in ("-h", "--help") for a in argv):
        build_parser().print_help()
        return 0
    started = time.monotonic()
    try:
        config, output, master = parse_args(argv)
        result = _run(config, output, master)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: load: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - a Spark failure that is not about the input
        from engine.spark.io import short
        from engine.spark.session import jvm_log_path

        print(f"error: load: Spark job failed: {short(exc)} (Spark log: {jvm_log_path()})", file=sys.stderr)
        return 1
    line = {"output": output, "rows": result.summary["rows"], "null_keys": result.summary["null_keys"],
            "partitions": list(config.partitions), "seconds": round(time.monotonic() - started, 1)}
    print(json.dumps(line))
    return 0


def _run(config: object, output: str, master: str | None) -> object:
    from engine.spark import job
    from engine.spark.session import SessionOptions, get_session, ship_engine

    spark = get_session(SessionOptions(master=master))
    ship_engine(spark)
    return job.run(spark, config, output)  # type: ignore[arg-type]
