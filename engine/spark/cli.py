"""``python -m engine load ...`` (and ``spark-submit engine/spark/submit.py ...``, same flags).

    python -m engine load --input PATH|URI [--format csv|parquet|json] [--key-column key]
                          [--value-size-column COLUMN] --partitions 12[,24,...] --output DIR
                          [--master local[2]]

plus optional ``--value-column``, ``--timestamp-column`` (with ``--timestamp-unit ms|s`` for epoch
numbers), ``--topic-column``/``--topic``, ``--window`` (default 60s), ``--null-keys
sticky|round-robin|drop`` with ``--producers`` (default 1), ``--hot-keys``, ``--consumers 3,4,6``,
``--strategies``, ``--python-env ARCHIVE`` (a packed virtualenv for the executors) and ``--conf
KEY=VALUE`` (any Spark setting, repeatable).  Exit 0 on success (one JSON line on stdout), 2 with one
line on stderr for bad input (file, line and field when the input is on this machine), 1 when Spark
itself fails; Spark's own logging goes to a file, never to the terminal.

Example::

    >>> config, output, options = parse_args(["--input", "s.csv", "--partitions", "3", "--output", "out",
    ...                                       "--master", "local[1]", "--conf", "spark.executor.cores=1"])
    >>> config.partitions, options.master, options.extra
    ((3,), 'local[1]', (('spark.executor.cores', '1'),))
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from engine.errors import EngineError
from engine.spark.config import (
    MAX_CONSUMERS,
    MAX_HOT_KEYS,
    MAX_PARTITIONS,
    MAX_PRODUCERS,
    NULL_KEY_MODES,
    TIMESTAMP_UNITS,
    ColumnSpec,
    LoadConfig,
    LoadInputError,
    build_config,
)
from engine.spark.session import SessionOptions

if TYPE_CHECKING:  # pragma: no cover
    from engine.spark.job import LoadResult

MAX_CONF = 64


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise LoadInputError(message)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m engine load",
                description="Per-partition and per-consumer load of a topic export")
    p.add_argument("--input", required=True, help="CSV / Parquet / JSON-lines file or directory, or a URI "
                                                  "(hdfs://, s3a://, file:// on storage every node mounts)")
    p.add_argument("--format", choices=("csv", "parquet", "json"), help="default: from the file name")
    p.add_argument("--key-column", default="key")
    p.add_argument("--value-size-column", help="integer bytes per record (summed into 'bytes')")
    p.add_argument("--value-column", help="the value itself; its size in bytes is used")
    p.add_argument("--timestamp-column", help="timestamp, epoch number or ISO-8601 text (enables peaks)")
    p.add_argument("--timestamp-unit", choices=TIMESTAMP_UNITS, default="ms",
                   help="what an epoch number counts: ms (Kafka's unit, default) or s")
    p.add_argument("--topic-column", help="with --topic: keep only that topic's records")
    p.add_argument("--topic", help="topic to keep (and to name in the group's subscription)")
    p.add_argument("--partitions", required=True, help=f"partition counts like 12,24 (1..{MAX_PARTITIONS:,})")
    p.add_argument("--consumers", help=f"consumer counts, e.g. 3,4,6 (1..{MAX_CONSUMERS})")
    p.add_argument("--strategies", help="assignment strategies to compare (default: all)")
    p.add_argument("--window", default="60s", help="peak-rate window: 1s..7d (default 60s)")
    p.add_argument("--null-keys", choices=NULL_KEY_MODES, default="sticky",
                   help="how null-key records are placed in the per-partition detail (summary.json counts "
                        "them only in null_keys)")
    p.add_argument("--producers", default="1", help=f"producers of null-key records (1..{MAX_PRODUCERS})")
    p.add_argument("--hot-keys", default="10", help=f"top keys per partition (0..{MAX_HOT_KEYS})")
    p.add_argument("--seed", default="0", help="seed of the null-key producers' random choices")
    p.add_argument("--output", required=True, help="output directory (replaced atomically)")
    p.add_argument("--master", help="Spark master, e.g. local[2], spark://host:7077 (default: local[2], or "
                                    "SPARK_REMOTE for Spark Connect)")
    p.add_argument("--python-env", help="packed virtualenv (venv-pack .tar.gz) the executors run in")
    p.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE",
                   help="a Spark setting (repeatable)")
    return p


def _conf_pairs(items: Sequence[str]) -> tuple[tuple[str, str], ...]:
    if len(items) > MAX_CONF:
        raise LoadInputError(f"conf: at most {MAX_CONF} settings, got {len(items)}")
    pairs = []
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip().startswith("spark."):
            raise LoadInputError(f"conf: give spark.KEY=VALUE, got {item[:80]!r}")
        pairs.append((key.strip(), value))
    return tuple(pairs)


def parse_args(argv: Sequence[str]) -> tuple[LoadConfig, str, SessionOptions]:
    """Validate the arguments (nothing is read yet); returns (LoadConfig, output, SessionOptions)."""
    from engine.spark.io import check_output

    args = build_parser().parse_args(list(argv))
    columns = ColumnSpec(args.key_column, args.value_size_column, args.value_column, args.timestamp_column,
                         args.topic_column, args.timestamp_unit)
    config = build_config(
        args.input, args.partitions, fmt=args.format, columns=columns, topic=args.topic, window=args.window,
        null_keys=args.null_keys, producers=args.producers, hot_keys=args.hot_keys, consumers=args.consumers,
        strategies=args.strategies, seed=args.seed,
    )
    check_output(args.output)
    options = SessionOptions(master=args.master, python_env=args.python_env, extra=_conf_pairs(args.conf))
    return config, args.output, options


def main(argv: list[str]) -> int:
    """Run the job; exit 2 with one line on stderr for bad input, 1 when Spark fails."""
    if any(a in ("-h", "--help") for a in argv):
        build_parser().print_help()
        return 0
    started = time.monotonic()
    try:
        config, output, options = parse_args(argv)
        result = run(config, output, options)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: load: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - a Spark failure that is not about the input
        from engine.spark.io import short
        from engine.spark.session import log_hint

        print(f"error: load: Spark job failed: {short(exc)}{log_hint()}", file=sys.stderr)
        return 1
    line = {"output": output, "rows": result.summary["rows"], "null_keys": result.summary["null_keys"],
            "partitions": list(config.partitions), "seconds": round(time.monotonic() - started, 1)}
    print(json.dumps(line))
    return 0


def run(config: LoadConfig, output: str, options: SessionOptions) -> LoadResult:
    """Estimate the work (``engine.cost.estimate_load``, admitted under ``CLI_CEILING``: over it, one line and
    nothing starts; in local mode from the input's bytes, elsewhere only this machine's part: Spark's start and the
    consumers' assignments), check where the input is, start (or join) Spark, ship ``engine``, run the job."""
    from engine.cost import CLI_CEILING, admit, estimate_load
    from engine.spark import job
    from engine.spark.io import input_bytes, precheck
    from engine.spark.session import get_session, runs_elsewhere, session_mode, ship_engine

    mode = session_mode(options)
    size = input_bytes(config.input) if mode == "local" else None  # elsewhere, the cluster reads the bytes
    admit(estimate_load(size, config.fmt, config.partitions, len(config.consumers), len(config.strategies)),
          CLI_CEILING, "load")
    if mode != "submit":  # known before Spark starts: fail fast on a missing or unreadable file
        precheck(config.input, config.fmt, config.columns, remote=mode != "local")
    spark = get_session(options)
    if mode == "submit":
        precheck(config.input, config.fmt, config.columns, remote=runs_elsewhere(spark))
    ship_engine(spark)
    return job.run(spark, config, output)
