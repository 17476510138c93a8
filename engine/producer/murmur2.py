"""Kafka's key hash functions on one key: ``Utils.murmur2``, ``toPositive``, and the hashes librdkafka uses.

The Java producer (``BuiltInPartitioner.partitionForKey``) sends a record with a non-null key to
``Utils.toPositive(Utils.murmur2(keyBytes)) % numPartitions``. ``murmur2(b"")`` is ``275646681``,
so an empty (non-null) key always lands on ``275646681 % n`` (partition 9 of 12); a null key goes to
the sticky partitioner instead (see ``engine.producer.null_keys``).

Worked example (asserted in ``tests/engine/producer/test_hashing.py``): ``partition_for_key("21", 50)`` ->
``murmur2(b"21") = -973932308``, ``to_positive = 1173551340``, ``1173551340 % 50 = 40``.

Arrays of keys go through ``engine.producer.arrow`` (same numbers, Arrow buffers, numba or numpy).
"""

from __future__ import annotations

import struct
import zlib
from typing import TYPE_CHECKING, Final

import numpy as np

from engine.errors import EngineError
from engine.java.strings import to_int32

if TYPE_CHECKING:  # pragma: no cover
    pass


MURMUR2_SEED: Final = 0x9747B28C
MURMUR2_M: Final = 0x5BD1E995
MURMUR2_R: Final = 24
MASK32: Final = 0xFFFFFFFF
FNV1A_OFFSET: Final = 0x811C9DC5
FNV1A_PRIME: Final = 0x01000193
INT32_MAX: Final = 2**31 - 1
DEFAULT_OFFSETS_PARTITIONS: Final = 50  # offsets.topic.num.partitions default

MAX_PARTITIONS: Final = INT32_MAX  # Java's partition count is an int


class HashInputError(EngineError):
    """Bad input to the key hashing functions or the ``hash``/``coordinator`` commands."""


# --------------------------------------------------------------------------- scalar (one key)


def _as_bytes(key: bytes | bytearray | memoryview | str) -> bytes:
    if isinstance(key, str):  # StringSerializer: String.getBytes(UTF_8), a lone surrogate becomes '?'
        return key.encode("utf-8", "replace")
    if isinstance(key, (bytes, bytearray, memoryview)):
        return bytes(key)
    raise HashInputError(f"key: expected bytes or str, got {type(key).__name__}")


_WORD_STRUCTS = {n: struct.Struct(f"<{n}I") for n in range(0, 65)}


def _mul32(a: int, b: int) -> int:
    return (a * b) & MASK32


def murmur2(data: bytes) -> int:
    """Kafka ``Utils.murmur2``: MurmurHash2, seed ``0x9747b28c``, as a signed 32-bit int.

    ``murmur2(b"21") == -973932308``; ``murmur2(b"") == 275646681``.
    """
    if type(data) is not bytes:
        data = _as_bytes(data)
    length = len(data)
    m = MURMUR2_M
    h = (MURMUR2_SEED ^ length) & MASK32
    words = length >> 2
    unpack = _WORD_STRUCTS.get(words) or struct.Struct(f"<{words}I")
    for k in unpack.unpack_from(data):
        k = (k * m) & MASK32
        k = ((k ^ (k >> 24)) * m) & MASK32
        h = ((h * m) & MASK32) ^ k
    rest = length & 3
    if rest:
        h = ((h ^ int.from_bytes(data[length - rest :], "little")) * m) & MASK32
    h ^= h >> 13
    h = (h * m) & MASK32
    h ^= h >> 15
    return h - 0x100000000 if h & 0x80000000 else h


def check_partition_count(num_partitions: int, field: str = "num_partitions") -> int:
    if isinstance(num_partitions, bool) or not isinstance(num_partitions, (int, np.integer)):
        raise HashInputError(f"{field}: expected an integer, got {num_partitions!r}")
    if not 1 <= int(num_partitions) <= MAX_PARTITIONS:
        raise HashInputError(f"{field}: must be between 1 and {MAX_PARTITIONS}, got {num_partitions}")
    return int(num_partitions)


def partition_for_key(key: bytes | str, num_partitions: int) -> int:
    """``BuiltInPartitioner.partitionForKey``: ``toPositive(murmur2(keyBytes)) % n`` (str -> UTF-8)."""
    if type(num_partitions) is not int or not 1 <= num_partitions <= MAX_PARTITIONS:
        num_partitions = check_partition_count(num_partitions)
    return (murmur2(key if type(key) is bytes else _as_bytes(key)) & 0x7FFFFFFF) % num_partitions


def crc32(data: bytes) -> int:
    """librdkafka ``rd_crc32``: the IEEE CRC-32 of zlib, unsigned (``crc32(b"") == 0``)."""
    return zlib.crc32(_as_bytes(data)) & MASK32


def fnv1a(data: bytes) -> int:
    """librdkafka ``rd_fnv1a``: 32-bit FNV-1a on an int32, negated when negative (Sarama's hash).

    ``-INT_MIN`` wraps to ``INT_MIN`` in C, which the final ``(uint32_t)`` cast reads as 2**31.
    """
    h = FNV1A_OFFSET
    for byte in _as_bytes(data):
        h = _mul32(h ^ byte, FNV1A_PRIME)
    signed = to_int32(h)
    return (-signed if signed < 0 else signed) & MASK32


