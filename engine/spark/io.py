"""Reading topic exports and writing results atomically; every input problem is one line.

Inputs: CSV (with a header row; every column read as text, an empty field is null), Parquet, or
JSON lines.  The format comes from ``--format`` or the file name (``.csv``, ``.parquet``/``.pq``,
``.json``/``.jsonl``/``.ndjson``); a directory of part files works too (give ``--format``).

Column types accepted (anything else is an error naming the column):

=============  ===============================================================================
key            string or binary, nullable (text is hashed as its UTF-8 bytes)
value size     an integer type (CSV/JSON text must parse as an integer >= 0)
value          string or binary: its size in bytes is used (instead of a value-size column)
timestamp      timestamp; an integer or all-digit text (epoch milliseconds as Kafka stores them, or
               seconds with ``--timestamp-unit s``); or ISO-8601 text
topic          string
=============  ===============================================================================

JSON records may nest at most 64 levels (deeper ones are malformed records, not a crash of Spark's
schema inference).  Where the input is: see ``check_location``.

Example::

    >>> scheme("s3a://bucket/orders/"), scheme("/data/orders.csv"), check_location("file:///d/x.csv", False)
    ('s3a', None, True)
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.spark.config import ColumnSpec, LoadInputError
from engine.spark.diagnose import MAX_NESTING

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import StructType

KEY_TYPES = ("string", "binary")
INTEGER_TYPES = ("tinyint", "smallint", "int", "bigint")
TIMESTAMP_TYPES = ("timestamp", "timestamp_ntz", "date")
OUTPUT_MARKER = "summary.json"
MESSAGE_LIMIT = 160
MAX_LINE_BYTES = 1 << 20


def short(exc: BaseException | str) -> str:
    """The first line of an error message, trimmed (Spark's messages run to pages)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 3] + "..."


# ---------------------------------------------------------------- checks before Spark starts


def scheme(path: str) -> str | None:
    """``"s3a"`` for ``s3a://bucket/x``; None for a plain local path."""
    head, sep, _ = path.partition("://")
    return head.lower() if sep and head.replace("+", "").replace("-", "").replace(".", "").isalnum() else None


def check_location(path: str, remote: bool) -> bool:
    """Whether the driver can (and should) check ``path`` itself before Spark reads it.

    A plain path is read on the driver's disk: fine for local mode, refused when executors (or a
    Spark Connect server) elsewhere would read it.  A URI (``hdfs://``, ``s3a://``, ``file://`` on
    storage every node mounts) is passed to Spark as it is, unchecked when ``remote``.
    """
    kind = scheme(path)
    if kind is None and remote:
        raise LoadInputError(
            f"input {path!r}: a local path, but Spark runs elsewhere (its executors cannot read this "
            "machine's disk); put the file on shared storage and give a URI: hdfs://..., s3a://..., or "
            "file:///... for a path mounted on every node")
    return not remote and kind in (None, "file")


def _local_path(path: str) -> Path:
    return Path(path[len("file://"):] if path.lower().startswith("file://") else path)


def _data_files(root: Path) -> list[Path]:
    if root.is_file():
        return [root]
    return sorted(p for p in root.rglob("*") if p.is_file() and not p.name.startswith((".", "_")))


def input_bytes(path: str, remote: bool = False) -> int | None:
    """The input's size on this machine's disk (a directory: its data files), for the work estimate before
    Spark starts; ``None`` for a URI Spark reads elsewhere, or a path that is not there (``precheck`` says so)."""
    if not check_location(path, remote):
        return None
    root = _local_path(path)
    try:
        return sum(f.stat().st_size for f in _data_files(root)) if root.exists() else None
    except OSError:
        return None


def precheck(path: str, fmt: str, columns: ColumnSpec, remote: bool = False) -> None:
    """Where the input is (``check_location``), then cheap local checks: file there, not empty,
    readable header/footer, columns present.  URIs on a remote cluster are left to Spark."""
    if not check_location(path, remote):
        return
    root = _local_path(path)
    if not root.exists():
        raise LoadInputError(f"input {path!r}: no such file or directory")
    files = _data_files(root)
    if not files or all(f.stat().st_size == 0 for f in files):
        raise LoadInputError(f"input {path!r}: empty file (no records)")
    first = next(f for f in files if f.stat().st_size > 0)
    names = PRECHECKS[fmt](path, first)
    if names is not None:
        for role, name in columns.named().items():
            if name not in names:
                raise LoadInputError(f"{role} column {name!r}: not in the input (columns: {_list(names)})")


def _list(names: list[str]) -> str:
    text = ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
    return text or "none"


def _parquet_names(path: str, first: Path) -> list[str]:
    import pyarrow.parquet as pq

    try:
        return list(pq.read_schema(first).names)
    except Exception as exc:  # noqa: BLE001 - any footer problem means "not readable Parquet"
        raise LoadInputError(f"input {path!r}: not a readable Parquet file ({short(exc)})") from None


def _csv_names(path: str, first: Path) -> list[str]:
    try:
        with open(first, encoding="utf-8", newline="") as handle:
            header = next(csv.reader(handle), None)
    except UnicodeDecodeError:
        raise LoadInputError(f"input {path!r}: CSV is not UTF-8 text") from None
    except csv.Error as exc:
        raise LoadInputError(f"input {path!r}: malformed CSV header ({short(exc)})") from None
    if not header:
        raise LoadInputError(f"input {path!r}: CSV has no header row")
    return header


def _json_names(path: str, first: Path) -> list[str] | None:
    from engine.spark.diagnose import json_problem

    with open(first, "rb") as handle:
        line = handle.readline(MAX_LINE_BYTES + 1).rstrip(b"\r\n")
    if len(line) > MAX_LINE_BYTES:
        return None  # too long to judge here; Spark's reader and engine.spark.diagnose will
    problem, record = json_problem(line)
    if problem:
        raise LoadInputError(f"input {path!r}: {first.name} line 1: {problem}")
    return None  # JSON lines may omit a field on a line; Spark's inferred schema decides


PRECHECKS: dict[str, Callable[[str, Path], list[str] | None]] = {
    "parquet": _parquet_names, "csv": _csv_names, "json": _json_names,
}


# ---------------------------------------------------------------- Spark reading


def read_records(spark: SparkSession, path: str, fmt: str, columns: ColumnSpec) -> DataFrame:
    """The input as a DataFrame with its schema checked against ``columns`` (nothing computed yet)."""
    reader = spark.read.option("mode", "FAILFAST")
    try:
        if fmt == "csv":
            df = reader.options(header="true", inferSchema="false", multiLine="false").csv(path)
        elif fmt == "json":
            df = reader.option("maxNestingDepth", MAX_NESTING).json(path)  # deeper: a malformed record
        else:
            df = spark.read.parquet(path)
    except Exception as exc:  # noqa: BLE001 - Spark raises many types; all mean unreadable input
        raise input_error(path, fmt, exc, f"cannot read as {fmt}") from None
    check_schema(df.schema, columns)
    return df


def input_error(path: str, fmt: str, exc: BaseException | str, what: str = "") -> LoadInputError:
    """The input is unreadable: name the file, line and field when the input is on this disk."""
    from engine.spark.diagnose import record_problem

    where = record_problem(path, fmt) if fmt != "parquet" and scheme(path) in (None, "file") else None
    if where:
        return LoadInputError(f"input {path!r}: {where}")
    return LoadInputError(f"input {path!r}: {what or f'unreadable {fmt} record'} ({short(exc)})")


def _type_name(schema: StructType, name: str) -> str | None:
    for field in schema.fields:
        if field.name == name:
            return str(field.dataType.simpleString())
    return None


def check_schema(schema: StructType, columns: ColumnSpec) -> None:
    """Every named column exists and has a usable type (see the module docstring)."""
    if columns.value_size is not None and columns.value is not None:
        raise LoadInputError("value column: give either a value-size column or a value column, not both")
    allowed = {
        "key": KEY_TYPES,
        "value size": INTEGER_TYPES + ("string",),
        "value": KEY_TYPES,
        "timestamp": TIMESTAMP_TYPES + INTEGER_TYPES + ("string",),
        "topic": ("string",),
    }
    names = [f.name for f in schema.fields]
    if "_corrupt_record" in names and len(names) == 1:
        raise LoadInputError("input: no line parses as a JSON object")
    for role, name in columns.named().items():
        kind = _type_name(schema, name)
        if kind is None:
            raise LoadInputError(f"{role} column {name!r}: not in the input (columns: {_list(names)})")
        if kind not in allowed[role]:
            raise LoadInputError(f"{role} column {name!r}: must be {' or '.join(allowed[role])}, got {kind}")


# ---------------------------------------------------------------- atomic output


def check_output(path: str) -> Path:
    """The output directory may be new, empty, or a previous load output (then it is replaced)."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise LoadInputError(f"output {path!r}: exists and is not a directory")
    if target.is_dir() and any(target.iterdir()) and not (target / OUTPUT_MARKER).is_file():
        raise LoadInputError(f"output {path!r}: not empty and not a previous load output; "
                             "choose another directory")
    return target


@contextmanager
def atomic_directory(path: str) -> Iterator[Path]:
    """Yield a temporary sibling directory; on success it replaces ``path``, on failure it vanishes."""
    target = check_output(path).absolute()
    target.parent.mkdir(parents=True, exist_ok=True)
    temp = target.parent / f".{target.name}.tmp-{uuid.uuid4().hex[:12]}"
    temp.mkdir()
    try:
        yield temp
        _swap_in(temp, target)
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def _swap_in(temp: Path, target: Path) -> None:
    if not target.exists():
        os.rename(temp, target)
        return
    old = target.parent / f".{target.name}.old-{uuid.uuid4().hex[:12]}"
    os.rename(target, old)
    try:
        os.rename(temp, target)
    except OSError:
        os.rename(old, target)
        raise
    shutil.rmtree(old, ignore_errors=True)


def write_json(path: Path, document: Any) -> None:
    text = json.dumps(document, indent=1, sort_keys=False, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")
