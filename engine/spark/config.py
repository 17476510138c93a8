"""What one load run needs, validated without Spark: ``LoadConfig`` and the parsers of its settings.

pyspark-free and free of the job: the CLI (``engine.spark.cli``), the ``spark-submit`` entry
(``engine.spark.submit``), the Load page and the job (``engine.spark.job``) all build their
``LoadConfig`` here, so no module imports the CLI to learn what a run is.

Every number is read from bounded text (at most ``MAX_DIGITS`` digits), so a 5,000-digit count is a
one-line ``LoadInputError`` naming the setting, never Python's own integer-conversion limit.

Example::

    >>> int_list("12, 24,12", "partitions", 1, 100_000)
    (12, 24)
    >>> parse_window("5m")
    300
    >>> config = build_config("exports/orders.csv", "12,24", window="10s", producers="2")
    >>> (config.fmt, config.partitions, config.window_s, config.producers, config.topic_name)
    ('csv', (12, 24), 10, 2, 'topic')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import EngineError

MAX_PARTITIONS = 100_000
MAX_COUNTS = 8
MAX_CONSUMERS = 1_000
MAX_HOT_KEYS = 1_000
MAX_PRODUCERS = 1_000
MAX_SEED = 2**32 - 1
MAX_WINDOW_S = 7 * 86_400
MAX_DIGITS = 12
WINDOW_UNITS = {"s": 1, "m": 60, "h": 3_600}
TIMESTAMP_UNITS = ("ms", "s")
NULL_KEY_MODES = ("sticky", "round-robin", "drop")
FORMATS = ("csv", "parquet", "json")
EXTENSIONS = {".csv": "csv", ".parquet": "parquet", ".pq": "parquet", ".json": "json", ".jsonl": "json",
              ".ndjson": "json"}


class LoadInputError(EngineError):
    """The pipeline's input (file, format, columns, types, settings) or output directory is unusable."""


@dataclass(frozen=True)
class ColumnSpec:
    """Which input columns mean what; only ``key`` is required.

    ``timestamp_unit`` says what an integer timestamp (or all-digit text) counts: ``"ms"`` (epoch
    milliseconds, Kafka's own unit) or ``"s"`` (epoch seconds).
    """

    key: str = "key"
    value_size: str | None = None
    value: str | None = None
    timestamp: str | None = None
    topic: str | None = None
    timestamp_unit: str = "ms"

    def named(self) -> dict[str, str]:
        """Role -> column name, for the columns given."""
        roles = {"key": self.key, "value size": self.value_size, "value": self.value,
                 "timestamp": self.timestamp, "topic": self.topic}
        return {role: name for role, name in roles.items() if name is not None}


def _strategy_names() -> tuple[str, ...]:
    from engine.consumer.strategies import STRATEGY_NAMES

    return tuple(STRATEGY_NAMES)


@dataclass(frozen=True)
class LoadConfig:
    """Everything one run needs (validated by ``build_config``).

    ``producers``: how many producers send the null-key records (each a sticky or round-robin
    partitioner of its own); it is part of the model, independent of how Spark splits the input.
    """

    input: str
    partitions: tuple[int, ...]
    fmt: str = "parquet"
    columns: ColumnSpec = field(default_factory=ColumnSpec)
    topic: str | None = None  # keep only this topic's records (needs columns.topic)
    window_s: int = 60
    null_keys: str = "sticky"
    producers: int = 1
    hot_keys: int = 10
    consumers: tuple[int, ...] = ()
    strategies: tuple[str, ...] = field(default_factory=_strategy_names)
    seed: int = 0

    @property
    def topic_name(self) -> str:
        return self.topic or "topic"


# ---------------------------------------------------------------- parsers of single settings


def bounded_int(text: str | int, what: str, low: int, high: int) -> int:
    """An integer ``low..high`` from text of at most ``MAX_DIGITS`` digits (an int is checked as is)."""
    if isinstance(text, int) and not isinstance(text, bool):
        value = text
    else:
        part = str(text).strip()
        if not re.fullmatch(rf"\d{{1,{MAX_DIGITS}}}", part):
            raise LoadInputError(f"{what}: must be an integer {low}..{high:,}, got {_shown(part)}")
        value = int(part)
    if not low <= value <= high:
        raise LoadInputError(f"{what}: must be an integer {low}..{high:,}, got {value}")
    return value


def _shown(text: str, limit: int = 40) -> str:
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text):,} characters)"


def int_list(text: str, what: str, low: int, high: int) -> tuple[int, ...]:
    """``"12,24"`` -> ``(12, 24)``: 1..``MAX_COUNTS`` distinct integers in ``low..high``, in order."""
    parts = [p.strip() for p in str(text).split(",") if p.strip()]
    if not parts or len(parts) > MAX_COUNTS:
        raise LoadInputError(f"{what}: give 1..{MAX_COUNTS} comma-separated integers, "
                             f"got {_shown(str(text))}")
    values = []
    for part in parts:
        if not re.fullmatch(rf"\d{{1,{MAX_DIGITS}}}", part) or not low <= int(part) <= high:
            raise LoadInputError(f"{what}: each must be an integer {low}..{high:,}, got {_shown(part)}")
        values.append(int(part))
    return tuple(dict.fromkeys(values))


def parse_window(text: str) -> int:
    """``"60"``, ``"60s"``, ``"5m"``, ``"1h"`` -> seconds (1 s .. 7 days)."""
    match = re.fullmatch(rf"(\d{{1,{MAX_DIGITS}}})([smh]?)", str(text).strip())
    seconds = int(match.group(1)) * WINDOW_UNITS[match.group(2) or "s"] if match else 0
    if not 1 <= seconds <= MAX_WINDOW_S:
        raise LoadInputError(f"window: must be 1s..7d like 1s, 60s, 5m, got {_shown(str(text))}")
    return seconds


def strategy_list(text: str) -> tuple[str, ...]:
    known = _strategy_names()
    names = tuple(dict.fromkeys(s.strip() for s in str(text).split(",") if s.strip()))
    bad = [s for s in names if s not in known]
    if not names or bad:
        raise LoadInputError(f"strategies: each must be one of {', '.join(known)}, got {_shown(str(text))}")
    return names


def choice(value: str, what: str, options: Sequence[str]) -> str:
    if value not in options:
        raise LoadInputError(f"{what}: must be one of {', '.join(options)}, got {_shown(str(value))}")
    return value


def detect_format(path: str, fmt: str | None) -> str:
    """``--format`` if given, else from the file name (``.csv``, ``.parquet``/``.pq``, ``.json[l]``)."""
    if fmt is not None:
        return choice(fmt, "format", FORMATS)
    suffix = Path(path.rstrip("/")).suffix.lower()
    if suffix not in EXTENSIONS:
        raise LoadInputError(f"input {path!r}: cannot tell the format from the name; "
                             "give --format csv|parquet|json")
    return EXTENSIONS[suffix]


def check_columns(columns: ColumnSpec) -> ColumnSpec:
    if not columns.key.strip():
        raise LoadInputError("key column: must not be empty")
    if columns.value_size is not None and columns.value is not None:
        raise LoadInputError("value column: give either --value-size-column or --value-column, not both")
    choice(columns.timestamp_unit, "timestamp unit", TIMESTAMP_UNITS)
    return columns


# ---------------------------------------------------------------- the whole configuration


def build_config(
    input: str,
    partitions: str,
    *,
    fmt: str | None = None,
    columns: ColumnSpec | None = None,
    topic: str | None = None,
    window: str = "60s",
    null_keys: str = "sticky",
    producers: str | int = 1,
    hot_keys: str | int = 10,
    consumers: str | None = None,
    strategies: str | None = None,
    seed: str | int = 0,
) -> LoadConfig:
    """Validate every setting (text as a user typed it) into a ``LoadConfig``; nothing is read yet."""
    columns = check_columns(columns or ColumnSpec())
    if topic is not None and columns.topic is None:
        raise LoadInputError("topic: --topic needs --topic-column (the column holding each record's topic)")
    if not input.strip():
        raise LoadInputError("input: give a file, a directory or a URI")
    return LoadConfig(
        input=input,
        partitions=int_list(partitions, "partitions", 1, MAX_PARTITIONS),
        fmt=detect_format(input, fmt),
        columns=columns,
        topic=topic,
        window_s=parse_window(window),
        null_keys=choice(null_keys, "null keys", NULL_KEY_MODES),
        producers=bounded_int(producers, "producers", 1, MAX_PRODUCERS),
        hot_keys=bounded_int(hot_keys, "hot keys", 0, MAX_HOT_KEYS),
        consumers=int_list(consumers, "consumers", 1, MAX_CONSUMERS) if consumers else (),
        strategies=strategy_list(strategies) if strategies is not None else _strategy_names(),
        seed=bounded_int(seed, "seed", 0, MAX_SEED),
    )
