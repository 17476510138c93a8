"""A realistic topic export to try the load pipeline on, generated with numpy + pyarrow (no Spark).

Shape: Zipf-skewed keys (a few customers produce most records; about 1% of key names are
non-ASCII), a diurnal rate curve (quiet at 06:00 UTC, busiest at 18:00 UTC), log-normal value
sizes (median 600 B), and a few null keys (1%).  Rows are produced in fixed chunks of
``CHUNK_ROWS`` in timestamp order, so 10^8 rows stream to Parquet without being held in memory,
and the same ``seed`` always gives the same file.

Example::

    >>> batch = next(generate_batches(SampleSpec(rows=5, seed=1)))
    >>> batch.num_rows, batch.schema.names
    (5, ['topic', 'key', 'value_size', 'timestamp'])

Command line: ``python -m engine.spark.sample --rows 1000000 --output .data/sample.parquet``.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa

from engine.errors import LimitError

MIN_ROWS = 1
MAX_ROWS = 100_000_000
CHUNK_ROWS = 1_000_000
TEXT_FORMAT_MAX_ROWS = 10_000_000  # CSV / JSON lines: bigger samples should be Parquet
START_MS = 1_704_067_200_000  # 2024-01-01T00:00:00Z
SCHEMA = pa.schema(
    [
        ("topic", pa.string()),
        ("key", pa.string()),
        ("value_size", pa.int32()),
        ("timestamp", pa.timestamp("ms", tz="UTC")),
    ]
)


@dataclass(frozen=True)
class SampleSpec:
    """What to generate; ``distinct_keys`` 0 means ``rows // 20`` clamped to 100..1,000,000."""

    rows: int = 100_000
    seed: int = 7
    distinct_keys: int = 0
    zipf_exponent: float = 1.0
    null_key_fraction: float = 0.01
    duration_s: int = 86_400
    value_size_median: int = 600
    value_size_sigma: float = 1.0
    topic: str = "orders"

    def key_count(self) -> int:
        return self.distinct_keys or min(max(self.rows // 20, 100), 1_000_000)


def check_rows(rows: int) -> int:
    if not MIN_ROWS <= rows <= MAX_ROWS:
        raise LimitError(f"rows: must be {MIN_ROWS}..{MAX_ROWS:,}, got {rows}")
    return rows


def key_names(count: int, seed: int) -> pa.Array:
    """Key names in popularity order (rank 0 is the hottest); ids shuffled so names look random."""
    ids = np.random.default_rng([seed, 0xC0FFEE]).permutation(count * 10)[:count]
    return pa.array([f"kunde-ü{i:07d}" if i % 97 == 0 else f"user-{i:07d}" for i in ids.tolist()])


def zipf_cdf(count: int, exponent: float) -> np.ndarray:
    weights = 1.0 / np.arange(1, count + 1, dtype=np.float64) ** exponent
    cdf = np.cumsum(weights)
    return cdf / cdf[-1]


def diurnal_rate(seconds: np.ndarray) -> np.ndarray:
    """Relative rate at a time of day: 0.3 at 06:00 UTC, 1.7 at 18:00 UTC."""
    hours = (seconds % 86_400) / 3_600.0
    return 1.0 + 0.7 * np.cos(2 * math.pi * (hours - 18.0) / 24.0)


def time_cdf(duration_s: int) -> tuple[np.ndarray, np.ndarray]:
    """Knots (seconds, cumulative share) of the diurnal curve, one per second."""
    edges = np.arange(duration_s + 1, dtype=np.float64)
    rates = diurnal_rate(edges[:-1] + 0.5)
    cdf = np.concatenate([[0.0], np.cumsum(rates)])
    return edges, cdf / cdf[-1]


def generate_batches(spec: SampleSpec) -> Iterator[pa.RecordBatch]:
    """The sample as record batches of at most ``CHUNK_ROWS`` rows, in timestamp order."""
    check_rows(spec.rows)
    names = key_names(spec.key_count(), spec.seed)
    key_cdf = zipf_cdf(len(names), spec.zipf_exponent)
    knots, share = time_cdf(spec.duration_s)
    for index, start in enumerate(range(0, spec.rows, CHUNK_ROWS)):
        size = min(CHUNK_ROWS, spec.rows - start)
        rng = np.random.default_rng([spec.seed, index])
        yield _chunk(spec, rng, start, size, names, key_cdf, (knots, share))


def _chunk(
    spec: SampleSpec,
    rng: np.random.Generator,
    start: int,
    size: int,
    names: pa.Array,
    key_cdf: np.ndarray,
    time_knots: tuple[np.ndarray, np.ndarray],
) -> pa.RecordBatch:
    ranks = np.minimum(np.searchsorted(key_cdf, rng.random(size)), len(key_cdf) - 1)
    nulls = rng.random(size) < spec.null_key_fraction
    keys = names.take(pa.array(ranks, mask=nulls))
    sizes = rng.lognormal(math.log(spec.value_size_median), spec.value_size_sigma, size)
    sizes = np.clip(np.rint(sizes), 1, 1_048_576).astype(np.int32)
    low, high = start / spec.rows, (start + size) / spec.rows
    share = np.sort(rng.uniform(low, high, size))
    seconds = np.interp(share, time_knots[1], time_knots[0])
    stamps = START_MS + np.floor(seconds * 1000.0).astype(np.int64)
    return pa.RecordBatch.from_arrays(
        [pa.array([spec.topic] * size, pa.string()), keys, pa.array(sizes), pa.array(stamps, SCHEMA[3].type)],
        schema=SCHEMA,
    )


def write_sample(path: str | os.PathLike[str], spec: SampleSpec, fmt: str = "parquet") -> Path:
    """Write the sample (``parquet``, ``csv`` or ``json`` lines) via a temp file and a rename."""
    target = Path(path)
    if fmt != "parquet" and spec.rows > TEXT_FORMAT_MAX_ROWS:
        raise LimitError(f"rows: {fmt} samples are limited to {TEXT_FORMAT_MAX_ROWS:,}; use parquet")
    target.parent.mkdir(parents=True, exist_ok=True)
    temp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    try:
        WRITERS[fmt](temp, generate_batches(spec))
        os.replace(temp, target)
    finally:
        temp.unlink(missing_ok=True)
    return target


def _write_parquet(path: Path, batches: Iterator[pa.RecordBatch]) -> None:
    import pyarrow.parquet as pq

    with pq.ParquetWriter(path, SCHEMA, compression="snappy") as writer:
        for batch in batches:
            writer.write_batch(batch, row_group_size=CHUNK_ROWS)


def _write_csv(path: Path, batches: Iterator[pa.RecordBatch]) -> None:
    import pyarrow.csv as pacsv

    with pacsv.CSVWriter(path, SCHEMA, write_options=pacsv.WriteOptions(quoting_style="needed")) as writer:
        for batch in batches:
            writer.write_batch(batch)


def _write_json(path: Path, batches: Iterator[pa.RecordBatch]) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for batch in batches:
            frame = batch.to_pandas()
            frame["timestamp"] = frame["timestamp"].dt.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
            text = frame.to_json(orient="records", lines=True, force_ascii=False)
            handle.write(text if text.endswith("\n") else text + "\n")


WRITERS = {"parquet": _write_parquet, "csv": _write_csv, "json": _write_json}


def ensure_sample(cache_dir: str | os.PathLike[str], rows: int = 100_000, seed: int = 7) -> Path:
    """The bundled sample, generated on first use into ``cache_dir`` (then reused)."""
    path = Path(cache_dir) / f"sample-{rows}-{seed}.parquet"
    if not path.is_file():
        write_sample(path, SampleSpec(rows=rows, seed=seed))
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.spark.sample", description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=float, default=100_000, help=f"1..{MAX_ROWS:,} (1e6 style accepted)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--format", choices=sorted(WRITERS), default="parquet")
    parser.add_argument("--output", required=True, help="file to write (replaced atomically)")
    args = parser.parse_args(argv)
    try:
        rows = check_rows(int(args.rows))
        path = write_sample(args.output, SampleSpec(rows=rows, seed=args.seed), args.format)
    except LimitError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {rows:,} rows to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
