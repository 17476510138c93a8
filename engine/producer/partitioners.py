"""The producer partitioners of the Java client and of librdkafka, on arrays of keys."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Literal

import numpy as np

from engine.producer.arrow import (
    _arrow,
    _buffers,
    _crc32_buffers,
    _fnv1a_buffers,
    _murmur2_buffers,
    _murmur3_buffers,
    _null_mask,
    _per_chunk,
    _to_binary_chunks,
    partitions_for_arrow,
)
from engine.producer.murmur2 import HashInputError, _as_bytes, check_partition_count, fnv1a, murmur2

if TYPE_CHECKING:  # pragma: no cover
    pass


# --------------------------------------------------------------------------- client partitioners

Partitioner = Literal[
    "java", "consistent", "consistent_random", "murmur2", "murmur2_random", "fnv1a", "fnv1a_random", "murmur3"
]

PARTITIONERS: Final[dict[str, str]] = {
    "java": "Java producer (murmur2; null key -> sticky)",
    "consistent_random": "librdkafka default: consistent_random (CRC32; null and empty keys -> sticky/random)",
    "consistent": "librdkafka consistent (CRC32; null and empty keys -> partition 0)",
    "murmur2_random": "librdkafka murmur2_random (Java-compatible; null key -> sticky/random)",
    "murmur2": "librdkafka murmur2 (Java-compatible; null key hashed as empty -> one partition)",
    "fnv1a_random": "librdkafka fnv1a_random (Sarama-compatible; null key -> sticky/random)",
    "fnv1a": "librdkafka fnv1a (Sarama-compatible; null key hashed as empty -> one partition)",
    "murmur3": "MurmurHash3 x86_32 seed 0 (comparison only; no Kafka client uses it)",
}

UNHASHED: Final = -1  # the key is not hashed: the sticky (or random) partitioner places the record


def _check_partitioner(name: str) -> str:
    if name not in PARTITIONERS:
        raise HashInputError(f"partitioner: unknown {name!r}; expected one of {', '.join(PARTITIONERS)}")
    return name


def unhashed_mask(keys: Any, partitioner: str, sticky_linger_ms: int = 10) -> np.ndarray:
    """Which records the hash does not place (null keys, and empty keys for ``consistent_random``).

    Mirrors ``rd_kafka_msg_partitioner``: with ``sticky.partitioning.linger.ms`` > 0 and a
    ``*_random`` partitioner, null keys (and empty ones under ``consistent_random``) go to the
    sticky partition; ``consistent``, ``murmur2`` and ``fnv1a`` hash a null key as zero bytes.
    With linger 0 the ``*_random`` partitioners place those records at random instead.
    """
    _check_partitioner(partitioner)
    chunks = _to_binary_chunks(keys)
    parts = []
    for chunk in chunks:
        nulls = _null_mask(chunk)
        nulls = np.zeros(len(chunk), dtype=bool) if nulls is None else nulls
        if partitioner == "consistent_random":
            offsets, _ = _buffers(chunk)
            nulls = nulls | (np.diff(offsets) == 0)
        elif partitioner in ("consistent", "murmur2", "fnv1a", "murmur3"):
            nulls = np.zeros(len(chunk), dtype=bool)
        parts.append(nulls)
    return np.concatenate(parts) if parts else np.empty(0, dtype=bool)


def client_partitions(keys: Any, num_partitions: int, partitioner: str = "java") -> np.ndarray:
    """Partition per record for a client partitioner (int32); ``UNHASHED`` (-1) where the sticky
    or random partitioner decides instead of the hash.

    ``client_partitions(pa.array(["a", "", None]), 12, "consistent")`` -> ``[3, 0, 0]``
    (``crc32(b"a") = 3904355907``, ``% 12 = 3``; librdkafka hashes empty and null keys to CRC 0).
    """
    n = check_partition_count(num_partitions)
    name = _check_partitioner(partitioner)
    if name == "java":
        return partitions_for_arrow(keys, n)
    if name.startswith("murmur2"):
        hashes = _per_chunk(keys, _murmur2_buffers, np.int32, _EMPTY_MURMUR2).view(np.uint32) & np.uint32(0x7FFFFFFF)
    elif name.startswith("fnv1a"):
        hashes = _per_chunk(keys, _fnv1a_buffers, np.uint32, _EMPTY_FNV1A)
    elif name == "murmur3":
        hashes = _per_chunk(keys, _murmur3_buffers, np.uint32, _EMPTY_MURMUR3) & np.uint32(0x7FFFFFFF)
    else:
        hashes = _per_chunk(keys, _crc32_buffers, np.uint32, 0)
    result = (hashes % np.uint32(n)).astype(np.int32)
    result[unhashed_mask(keys, name)] = UNHASHED
    return result


def client_partition(key: bytes | str | None, num_partitions: int, partitioner: str = "java") -> int:
    """``client_partitions`` for one key (``None`` = null key)."""
    pa = _arrow()
    value = None if key is None else _as_bytes(key)
    return int(client_partitions(pa.array([value], type=pa.binary()), num_partitions, partitioner)[0])


_EMPTY_MURMUR2: Final = murmur2(b"")
_EMPTY_FNV1A: Final = fnv1a(b"")
_EMPTY_MURMUR3: Final = 0  # mmh3.hash(b"", 0) == 0
