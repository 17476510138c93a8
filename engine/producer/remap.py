"""What changing the partition count, or the client, does to where keys land.

For a uniform hash the share of keys that stays put is ``min(N, M) / lcm(N, M)`` (``expected_stay_share``):
12 -> 16 keeps 12/48 = 25% and moves 75%; doubling keeps half.  ``remap_share`` measures it on a key sample.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from engine.producer.arrow import _null_mask, _to_binary_chunks, murmur2_arrow, partitions_for_arrow
from engine.producer.murmur2 import check_partition_count
from engine.producer.partitioners import client_partitions

if TYPE_CHECKING:  # pragma: no cover
    pass


# --------------------------------------------------------------------------- remapping


def expected_stay_share(from_partitions: int, to_partitions: int) -> Fraction:
    """Share of keys whose partition stays when the count goes N -> M, for a hash uniform over a range that
    is a multiple of ``lcm(N, M)``: ``h % N == h % M`` exactly when ``h % lcm(N, M) < min(N, M)``.

        >>> expected_stay_share(12, 16), expected_stay_share(12, 24), expected_stay_share(16, 12)
        (Fraction(1, 4), Fraction(1, 2), Fraction(1, 4))
        >>> float(1 - expected_stay_share(3, 4))  # any change that is not a multiple moves most keys
        0.75
    """
    n = check_partition_count(from_partitions, "from_partitions")
    m = check_partition_count(to_partitions, "to_partitions")
    return Fraction(min(n, m), math.lcm(n, m))


def remap_share(keys: Any, from_partitions: int, to_partitions: int) -> float:
    """Share of keyed records whose Java partition changes when the count goes N -> M.

    Those keys lose per-key ordering across the change (old records on one partition, new ones
    on another). Null keys are left out; an empty sample gives 0.0.
    """
    a = partitions_for_arrow(keys, from_partitions)
    b = partitions_for_arrow(keys, to_partitions)
    keyed = a >= 0
    total = int(keyed.sum())
    return float((a[keyed] != b[keyed]).sum() / total) if total else 0.0


def remap_curve(keys: Any, from_partitions: int, to_counts: Sequence[int]) -> list[tuple[int, float]]:
    """``remap_share`` from ``from_partitions`` to each count in ``to_counts``."""
    hashes = murmur2_arrow(keys).view(np.uint32) & np.uint32(0x7FFFFFFF)
    h = hashes[_keyed_mask(keys)]
    if len(h) == 0:
        return [(int(m), 0.0) for m in to_counts]
    base = h % np.uint32(check_partition_count(from_partitions, "from_partitions"))
    moved = [(h % np.uint32(check_partition_count(m, "to_partitions")) != base).mean() for m in to_counts]
    return [(int(m), float(share)) for m, share in zip(to_counts, moved)]


def _keyed_mask(keys: Any) -> np.ndarray:
    parts = []
    for chunk in _to_binary_chunks(keys):
        nulls = _null_mask(chunk)
        parts.append(np.ones(len(chunk), dtype=bool) if nulls is None else ~nulls)
    return np.concatenate(parts) if parts else np.empty(0, dtype=bool)


def client_disagreement(keys: Any, num_partitions: int, a: str = "java", b: str = "consistent_random") -> float:
    """Share of records both clients hash whose partitions differ (e.g. Java vs librdkafka default).

    With independent hashes this approaches ``1 - 1/n``; records either client leaves to its
    sticky partitioner are excluded.
    """
    pa_ = client_partitions(keys, num_partitions, a)
    pb = client_partitions(keys, num_partitions, b)
    both = (pa_ >= 0) & (pb >= 0)
    total = int(both.sum())
    return float((pa_[both] != pb[both]).sum() / total) if total else 0.0
