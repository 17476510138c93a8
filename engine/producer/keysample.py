"""Key samples for the Keys page: generated (uniform, Zipf-skewed, UUIDs), pasted or uploaded.

Every sample is a ``pyarrow`` string array (null = a null key), ready for ``engine.producer.arrow``.
Limits (stated in the UI): at most ``MAX_KEYS`` keys, ``MAX_KEY_BYTES`` bytes per key,
``MAX_UPLOAD_BYTES`` per upload, ``MAX_PASTE_CHARS`` pasted characters.

Worked example (asserted in ``tests/engine/producer/test_keysample.py``): ``parse_pasted("a\\n\\nb\\n<null>\\n")``
gives ``["a", "b", None]`` — blank lines are skipped and ``<null>`` stands for a null key.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any, Final, Literal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from engine.errors import EngineError, LimitError

MAX_KEYS: Final = 1_000_000
MAX_KEY_BYTES: Final = 10_000
MAX_UPLOAD_BYTES: Final = 20 * 1024 * 1024
MAX_PASTE_CHARS: Final = 2_000_000
NULL_MARKERS: Final = ("<null>", "\\N")

SampleKind = Literal["uniform", "zipf", "uuid"]
SAMPLE_KINDS: Final[dict[str, str]] = {
    "uniform": "uniform ids (user-123456)",
    "zipf": "Zipf-skewed ids (a few hot users)",
    "uuid": "random UUIDs",
}


class KeySampleError(EngineError):
    """A key sample cannot be generated or read."""


@dataclass(frozen=True)
class SampleSpec:
    kind: str = "uniform"
    count: int = 100_000
    distinct: int = 10_000  # ids drawn from 0 .. distinct-1 (uniform, zipf)
    zipf_s: float = 1.1  # exponent: P(rank k) ~ 1 / k**s
    null_share: float = 0.0  # share of records with a null key
    seed: int = 42

    def validate(self) -> SampleSpec:
        if self.kind not in SAMPLE_KINDS:
            raise KeySampleError(f"kind: expected one of {', '.join(SAMPLE_KINDS)}, got {self.kind!r}")
        _int_range("count", self.count, 1, MAX_KEYS)
        _int_range("distinct", self.distinct, 1, 100_000_000)
        if not isinstance(self.zipf_s, (int, float)) or not 0.0 < self.zipf_s <= 5.0:
            raise KeySampleError(f"zipf_s: must be in (0, 5], got {self.zipf_s!r}")
        if not isinstance(self.null_share, (int, float)) or not 0.0 <= self.null_share <= 1.0:
            raise KeySampleError(f"null_share: must be between 0 and 1, got {self.null_share!r}")
        return self


def _int_range(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise KeySampleError(f"{name}: expected a whole number, got {value!r}")
    if not low <= value <= high:
        error = LimitError if value > high else KeySampleError
        raise error(f"{name}: must be between {low:,} and {high:,}, got {value:,}")
    return int(value)


def generate(spec: SampleSpec) -> pa.Array:
    """A reproducible key sample (seeded ``numpy`` generator)."""
    spec.validate()
    rng = np.random.default_rng(spec.seed)
    if spec.kind == "uuid":
        keys = uuid4_strings(rng, spec.count)
    else:
        ids = _uniform_ids(rng, spec) if spec.kind == "uniform" else _zipf_ids(rng, spec)
        keys = pc.binary_join_element_wise("user-", pa.array(ids).cast(pa.string()), "")
    if spec.null_share > 0:
        nulls = rng.random(spec.count) < spec.null_share
        keys = pc.if_else(pa.array(nulls), pa.scalar(None, pa.string()), keys)
    return keys


def uuid4_strings(rng: np.random.Generator, count: int) -> pa.Array:
    """``count`` random version-4 UUIDs as canonical 36-character strings (vectorised)."""
    raw = rng.integers(0, 256, size=(count, 16), dtype=np.uint8)
    raw[:, 6] = (raw[:, 6] & 0x0F) | 0x40
    raw[:, 8] = (raw[:, 8] & 0x3F) | 0x80
    lut = np.frombuffer(b"0123456789abcdef", dtype=np.uint8)
    hexed = np.empty((count, 32), dtype=np.uint8)
    hexed[:, 0::2], hexed[:, 1::2] = lut[raw >> 4], lut[raw & 0x0F]
    out = np.full((count, 36), ord("-"), dtype=np.uint8)
    for src, dst in ((0, 0), (8, 9), (12, 14), (16, 19), (20, 24)):
        width = {0: 8, 20: 12}.get(src, 4)
        out[:, dst : dst + width] = hexed[:, src : src + width]
    offsets = pa.py_buffer((np.arange(count + 1, dtype=np.int32) * 36).tobytes())
    return pa.Array.from_buffers(pa.string(), count, [None, offsets, pa.py_buffer(out.tobytes())])


def _uniform_ids(rng: np.random.Generator, spec: SampleSpec) -> np.ndarray:
    return rng.integers(0, spec.distinct, size=spec.count) + 100_000


def _zipf_ids(rng: np.random.Generator, spec: SampleSpec) -> np.ndarray:
    """Ranks 1..distinct with P(k) ~ k**-s, mapped to ids by a fixed shuffle (hot ids are not 0, 1, 2)."""
    ranks = np.arange(1, spec.distinct + 1, dtype=np.float64)
    weights = ranks ** -float(spec.zipf_s)
    cdf = np.cumsum(weights)
    picks = np.minimum(np.searchsorted(cdf, rng.random(spec.count) * cdf[-1], side="right"), spec.distinct - 1)
    return rng.permutation(spec.distinct)[picks] + 100_000


def _from_lines(lines: list[str], source: str) -> pa.Array:
    keys: list[str | None] = []
    for number, line in enumerate(lines, start=1):
        line = line.rstrip("\r")
        if not line:
            continue
        if len(keys) >= MAX_KEYS:
            raise LimitError(f"{source}: more than {MAX_KEYS:,} keys")
        if not line.isascii():  # the bytes Java's StringSerializer sends: a lone surrogate becomes '?'
            line = line.encode("utf-8", "replace").decode("utf-8")
        if len(line.encode("utf-8")) > MAX_KEY_BYTES:
            raise LimitError(f"{source}: line {number} is longer than {MAX_KEY_BYTES:,} bytes")
        keys.append(None if line in NULL_MARKERS else line)
    if not keys:
        raise KeySampleError(f"{source}: no keys found (one key per line)")
    return pa.array(keys, pa.string())


def parse_pasted(text: str) -> pa.Array:
    """Keys pasted one per line; blank lines skipped; ``<null>`` or ``\\N`` = null key."""
    if not isinstance(text, str):
        raise KeySampleError(f"pasted keys: expected text, got {type(text).__name__}")
    if len(text) > MAX_PASTE_CHARS:
        raise LimitError(f"pasted keys: at most {MAX_PASTE_CHARS:,} characters, got {len(text):,}")
    return _from_lines(text.split("\n"), "pasted keys")


def parse_upload(data: bytes, filename: str, column: str | None = None) -> pa.Array:
    """A UTF-8 text file (one key per line) or CSV (column ``key``, else ``column``, else the first)."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise LimitError(f"upload {filename!r}: larger than {MAX_UPLOAD_BYTES // 2**20} MiB ({len(data):,} bytes)")
    if b"\x00" in data[:65536]:
        raise KeySampleError(f"upload {filename!r}: not a text file (contains NUL bytes)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise KeySampleError(f"upload {filename!r}: not UTF-8 text (byte {exc.start})") from None
    if filename.lower().endswith(".csv"):
        return _from_csv(text, filename, column)
    return _from_lines(text.split("\n"), f"upload {filename!r}")


def _from_csv(text: str, filename: str, column: str | None) -> pa.Array:
    try:
        rows = csv.reader(io.StringIO(text))
        header = next(rows, None)
        if not header:
            raise KeySampleError(f"upload {filename!r}: empty CSV")
        wanted = column or ("key" if "key" in header else header[0])
        if wanted not in header:
            raise KeySampleError(f"upload {filename!r}: no column {wanted!r} (columns: {', '.join(header[:10])})")
        index = header.index(wanted)
        values = [row[index] if index < len(row) else "" for row in rows]
    except csv.Error as exc:
        raise KeySampleError(f"upload {filename!r}: not valid CSV ({exc})") from None
    if len(values) > MAX_KEYS:
        raise LimitError(f"upload {filename!r}: more than {MAX_KEYS:,} rows")
    if any(len(v) > MAX_KEY_BYTES for v in values):
        raise LimitError(f"upload {filename!r}: a key is longer than {MAX_KEY_BYTES:,} bytes")
    if not values:
        raise KeySampleError(f"upload {filename!r}: the CSV has a header but no rows")
    # an empty CSV field is a null key, as Spark and pandas read it (spec section 8)
    return pa.array([None if v == "" or v in NULL_MARKERS else v for v in values], pa.string())


# --------------------------------------------------------------------------- skew


@dataclass(frozen=True)
class Skew:
    """How uneven a per-partition count is."""

    max_over_mean: float
    cv: float  # coefficient of variation: std / mean
    empty_partitions: int
    hottest: list[tuple[int, int]]  # (partition, records), hottest first


def partition_histogram(partitions: np.ndarray, num_partitions: int) -> np.ndarray:
    """Records per partition (entries ``< 0`` — unhashed keys — are left out)."""
    placed = partitions[partitions >= 0]
    return np.bincount(placed, minlength=num_partitions)[:num_partitions]


def skew(counts: np.ndarray, top: int = 5) -> Skew:
    """``skew(np.array([30, 10, 10, 10]))`` -> max/mean 2.0, cv ~0.577."""
    counts = np.asarray(counts, dtype=np.float64)
    mean = counts.mean() if len(counts) else 0.0
    if mean == 0:
        return Skew(0.0, 0.0, int((counts == 0).sum()), [])
    order = np.argsort(-counts, kind="stable")[:top]
    return Skew(float(counts.max() / mean), float(counts.std() / mean), int((counts == 0).sum()),
                [(int(p), int(counts[p])) for p in order])


def hottest_keys(keys: pa.Array, top: int = 10) -> list[tuple[str | None, int]]:
    """The most frequent keys with their record counts, most frequent first."""
    counts = pc.value_counts(keys)
    values, freq = counts.field("values").to_pylist(), counts.field("counts").to_numpy()
    order = np.argsort(-freq, kind="stable")[:top]
    return [(values[i], int(freq[i])) for i in order]
