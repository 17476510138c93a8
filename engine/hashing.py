"""Key -> partition, exactly as Kafka's Java producer and librdkafka compute it.

The Java producer (``BuiltInPartitioner.partitionForKey``) sends a record with a non-null key to
``Utils.toPositive(Utils.murmur2(keyBytes)) % numPartitions``. ``murmur2(b"")`` is ``275646681``,
so an empty (non-null) key always lands on ``275646681 % n`` (partition 9 of 12); a null key goes to
the sticky partitioner instead (see ``engine.producer``).

Worked example (asserted in ``tests/test_hashing.py``): ``partition_for_key("21", 50)`` ->
``murmur2(b"21") = -973932308``, ``to_positive = 1173551340``, ``1173551340 % 50 = 40``.

Three paths compute the same numbers: ``murmur2`` (pure Python, one key), ``murmur2_arrow``
(Arrow offsets + data buffers; a numba kernel when numba is importable, otherwise a numpy
word-by-word loop), and ``murmur2_many`` (a sequence of bytes, via Arrow).  The group coordinator
lookup (``coordinator_partition``) and librdkafka's partitioners live here too.
"""

from __future__ import annotations

import os
import re
import struct
import threading
import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Literal

import numpy as np

from engine.errors import EngineError, LimitError
from engine.java import string_hash_code, to_int32, to_positive, utils_abs

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa

MURMUR2_SEED: Final = 0x9747B28C
MURMUR2_M: Final = 0x5BD1E995
MURMUR2_R: Final = 24
MASK32: Final = 0xFFFFFFFF
FNV1A_OFFSET: Final = 0x811C9DC5
FNV1A_PRIME: Final = 0x01000193
INT32_MAX: Final = 2**31 - 1
DEFAULT_OFFSETS_PARTITIONS: Final = 50  # offsets.topic.num.partitions default

MAX_CLI_KEYS: Final = 100_000
MAX_CLI_KEY_BYTES: Final = 1_048_576
MAX_CLI_PARTITION_COUNTS: Final = 100
MAX_CLI_GROUP_IDS: Final = 100_000
MAX_GROUP_ID_CHARS: Final = 10_000
MAX_PARTITIONS: Final = INT32_MAX  # Java's partition count is an int

_HEX = re.compile(r"\A(?:[0-9a-fA-F]{2})*\Z")


class HashInputError(EngineError):
    """Bad input to the key hashing functions or the ``hash``/``coordinator`` commands."""


# --------------------------------------------------------------------------- scalar (one key)


def _as_bytes(key: bytes | bytearray | memoryview | str) -> bytes:
    if isinstance(key, str):
        return key.encode("utf-8", "surrogatepass")
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


def _check_partitions(num_partitions: int, field: str = "num_partitions") -> int:
    if isinstance(num_partitions, bool) or not isinstance(num_partitions, (int, np.integer)):
        raise HashInputError(f"{field}: expected an integer, got {num_partitions!r}")
    if not 1 <= int(num_partitions) <= MAX_PARTITIONS:
        raise HashInputError(f"{field}: must be between 1 and {MAX_PARTITIONS}, got {num_partitions}")
    return int(num_partitions)


def partition_for_key(key: bytes | str, num_partitions: int) -> int:
    """``BuiltInPartitioner.partitionForKey``: ``toPositive(murmur2(keyBytes)) % n`` (str -> UTF-8)."""
    if type(num_partitions) is not int or not 1 <= num_partitions <= MAX_PARTITIONS:
        num_partitions = _check_partitions(num_partitions)
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


def murmur3(data: bytes) -> int:
    """MurmurHash3 x86_32, seed 0, unsigned (``mmh3.hash``) — not used by any Kafka client."""
    import mmh3

    return int(mmh3.hash(_as_bytes(data), 0, signed=False))


# --------------------------------------------------------------------------- Arrow buffers


def _numba_wanted() -> bool:
    return os.environ.get("KPL_NO_NUMBA", "") in ("", "0")


def _arrow() -> Any:
    import pyarrow

    return pyarrow


def _to_binary_chunks(keys: Any) -> list[Any]:
    """The keys as a list of Arrow binary/large_binary arrays (string = its UTF-8 bytes)."""
    pa = _arrow()
    if isinstance(keys, pa.ChunkedArray):
        chunks = list(keys.chunks)
    elif isinstance(keys, pa.Array):
        chunks = [keys]
    else:
        try:
            chunks = [pa.array(keys)]
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError) as exc:
            raise HashInputError(f"keys: cannot read as an Arrow array ({exc})") from None
    return [_binary_view_of(chunk) for chunk in chunks]


def _binary_view_of(chunk: Any) -> Any:
    pa = _arrow()
    t = chunk.type
    if pa.types.is_dictionary(t):
        chunk, t = chunk.dictionary_decode(), t.value_type
    if pa.types.is_null(t):
        return pa.nulls(len(chunk), pa.binary())
    if pa.types.is_string(t) or pa.types.is_binary(t):
        return chunk.view(pa.binary())
    if pa.types.is_large_string(t) or pa.types.is_large_binary(t):
        return chunk.view(pa.large_binary())
    if pa.types.is_string_view(t) or pa.types.is_binary_view(t) or pa.types.is_fixed_size_binary(t):
        return chunk.cast(pa.large_binary())
    raise HashInputError(f"keys: expected a string or binary Arrow array, got type {t}")


def _buffers(chunk: Any) -> tuple[np.ndarray, np.ndarray]:
    """(offsets, data) of a binary/large_binary chunk, honouring the chunk's slice offset."""
    pa = _arrow()
    n = len(chunk)
    dtype = np.int64 if pa.types.is_large_binary(chunk.type) else np.int32
    bufs = chunk.buffers()
    if n == 0 or bufs[1] is None:
        return np.zeros(n + 1, dtype=dtype), np.empty(0, dtype=np.uint8)
    offsets = np.frombuffer(bufs[1], dtype=dtype)[chunk.offset : chunk.offset + n + 1]
    data = np.frombuffer(bufs[2], dtype=np.uint8) if bufs[2] is not None else np.empty(0, dtype=np.uint8)
    return offsets, data


def _null_mask(chunk: Any) -> np.ndarray | None:
    if chunk.null_count == 0:
        return None
    return np.asarray(chunk.is_null().to_numpy(zero_copy_only=False), dtype=bool)


# numpy fallback: one 32-bit word position at a time over the keys still that long


def _gather_u32(data: np.ndarray, pos: np.ndarray, count: int) -> np.ndarray:
    """Little-endian unsigned value of ``count`` (1..4) bytes at each position."""
    value = data[pos].astype(np.uint32)
    for j in range(1, count):
        value |= data[pos + j].astype(np.uint32) << np.uint32(8 * j)
    return value


def _murmur2_numpy(offsets: np.ndarray, data: np.ndarray) -> np.ndarray:
    starts = offsets[:-1].astype(np.int64)
    lengths = (offsets[1:] - offsets[:-1]).astype(np.int64)
    m = np.uint32(MURMUR2_M)
    h = np.uint32(MURMUR2_SEED) ^ lengths.astype(np.uint32)
    words = lengths // 4
    order = np.argsort(-words, kind="stable")
    sorted_words = words[order]
    max_words = int(sorted_words[0]) if len(order) else 0
    with np.errstate(over="ignore"):
        for i in range(max_words):
            active = order[: int(np.searchsorted(-sorted_words, -i, side="left"))]
            k = _gather_u32(data, starts[active] + 4 * i, 4) * m
            k ^= k >> np.uint32(MURMUR2_R)
            h[active] = (h[active] * m) ^ (k * m)
        tails = lengths % 4
        for count in (1, 2, 3):
            sel = np.nonzero(tails == count)[0]
            if len(sel):
                tail = _gather_u32(data, starts[sel] + 4 * words[sel], count)
                h[sel] = (h[sel] ^ tail) * m
        h ^= h >> np.uint32(13)
        h *= m
        h ^= h >> np.uint32(15)
    return h.view(np.int32)


def _fnv1a_numpy(offsets: np.ndarray, data: np.ndarray) -> np.ndarray:
    starts = offsets[:-1].astype(np.int64)
    lengths = (offsets[1:] - offsets[:-1]).astype(np.int64)
    h = np.full(len(starts), FNV1A_OFFSET, dtype=np.uint32)
    order = np.argsort(-lengths, kind="stable")
    sorted_len = lengths[order]
    with np.errstate(over="ignore"):
        for i in range(int(sorted_len[0]) if len(order) else 0):
            active = order[: int(np.searchsorted(-sorted_len, -i, side="left"))]
            h[active] = (h[active] ^ data[starts[active] + i].astype(np.uint32)) * np.uint32(FNV1A_PRIME)
        signed = h.view(np.int32)
        return np.where(signed < 0, -signed, signed).view(np.uint32)


def _crc32_python(offsets: np.ndarray, data: np.ndarray) -> np.ndarray:
    raw = data.tobytes()
    bounds = offsets.tolist()
    return np.fromiter(
        (zlib.crc32(raw[bounds[i] : bounds[i + 1]]) for i in range(len(bounds) - 1)),
        dtype=np.uint32,
        count=len(bounds) - 1,
    )


# numba kernels: plain functions here, compiled on first use of a large array (see _jit)


def _murmur2_kernel_src(
    offsets: np.ndarray,
    data: np.ndarray,
    w0: np.ndarray,
    w1: np.ndarray,
    w2: np.ndarray,
    w3: np.ndarray,
    num_partitions: int,
) -> np.ndarray:
    """murmur2 per element (num_partitions == 0) or toPositive(murmur2) % num_partitions.

    ``w0..w3`` are little-endian uint32 views of ``data`` starting at byte 0..3 (``_word_views``), so a
    key starting at byte ``s`` reads its words from ``w[s & 3][(s >> 2) + j]`` with one load each.
    The modulo uses a double reciprocal with an exact correction step.
    """
    n = len(offsets) - 1
    out = np.empty(n, dtype=np.int32)
    m = np.uint32(0x5BD1E995)
    divisor = np.int64(num_partitions)
    inverse = 1.0 / num_partitions if num_partitions > 0 else 0.0
    for i in range(n):
        start = np.int64(offsets[i])
        length = np.int64(offsets[i + 1]) - start
        h = np.uint32(np.uint32(0x9747B28C) ^ np.uint32(length))
        words = length >> 2
        lane = start & 3
        w = w0 if lane == 0 else (w1 if lane == 1 else (w2 if lane == 2 else w3))
        base = start >> 2
        for j in range(words):
            k = np.uint32(w[base + j] * m)
            k = np.uint32(k ^ (k >> np.uint32(24)))
            h = np.uint32(np.uint32(h * m) ^ np.uint32(k * m))
        tail = start + words * 4
        rest = length & 3
        if rest == 3:
            h = np.uint32(h ^ (np.uint32(data[tail + 2]) << np.uint32(16)))
        if rest >= 2:
            h = np.uint32(h ^ (np.uint32(data[tail + 1]) << np.uint32(8)))
        if rest >= 1:
            h = np.uint32(h ^ np.uint32(data[tail]))
            h = np.uint32(h * m)
        h = np.uint32(h ^ (h >> np.uint32(13)))
        h = np.uint32(h * m)
        h = np.uint32(h ^ (h >> np.uint32(15)))
        if num_partitions > 0:
            positive = np.int64(h & np.uint32(0x7FFFFFFF))
            r = positive - np.int64(positive * inverse) * divisor
            if r < 0:
                r += divisor
            elif r >= divisor:
                r -= divisor
            out[i] = np.int32(r)
        else:
            out[i] = np.int32(np.int64(h) - np.int64(0x100000000)) if h >= np.uint32(0x80000000) else np.int32(h)
    return out


def _word_views(data: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Little-endian uint32 views of ``data`` starting at bytes 0, 1, 2, 3 (no copies)."""
    views = []
    for lane in range(4):
        words = max(0, (len(data) - lane) // 4)
        views.append(data[lane : lane + 4 * words].view("<u4") if words else np.zeros(0, dtype="<u4"))
    return views[0], views[1], views[2], views[3]


def _fnv1a_kernel_src(offsets: np.ndarray, data: np.ndarray) -> np.ndarray:
    n = len(offsets) - 1
    out = np.empty(n, dtype=np.uint32)
    mask = np.uint64(0xFFFFFFFF)
    for i in range(n):
        h = np.uint64(0x811C9DC5)
        for p in range(offsets[i], offsets[i + 1]):
            h = ((h ^ np.uint64(data[p])) * np.uint64(0x01000193)) & mask
        if h & np.uint64(0x80000000):
            h = (np.uint64(0x100000000) - h) & mask
        out[i] = np.uint32(h)
    return out


def _crc32_kernel_src(offsets: np.ndarray, data: np.ndarray, table: np.ndarray) -> np.ndarray:
    n = len(offsets) - 1
    out = np.empty(n, dtype=np.uint32)
    for i in range(n):
        c = np.uint32(0xFFFFFFFF)
        for p in range(offsets[i], offsets[i + 1]):
            c = table[(c ^ np.uint32(data[p])) & np.uint32(0xFF)] ^ (c >> np.uint32(8))
        out[i] = c ^ np.uint32(0xFFFFFFFF)
    return out


def _crc32_table() -> np.ndarray:
    table = np.empty(256, dtype=np.uint32)
    for i in range(256):
        c = i
        for _ in range(8):
            c = (0xEDB88320 ^ (c >> 1)) if c & 1 else (c >> 1)
        table[i] = c
    return table


NUMBA_MIN_KEYS: Final = 20_000  # below this the numpy path is quicker than importing numba
_JIT_LOCK = threading.Lock()
_JIT: dict[str, Any] = {}


def _jit() -> dict[str, Any] | None:
    """The compiled kernels (numba, on-disk cache), or None when numba is unavailable/disabled."""
    if _JIT:
        return _JIT if "murmur2" in _JIT else None
    with _JIT_LOCK:
        if not _JIT:
            _JIT.update(_compile_kernels())
    return _JIT if "murmur2" in _JIT else None


def _compile_kernels() -> dict[str, Any]:
    if not _numba_wanted():
        return {"disabled": True}
    try:
        import numba
    except ImportError:
        return {"disabled": True}
    jit = numba.njit(cache=True, nogil=True)
    return {
        "murmur2": jit(_murmur2_kernel_src),
        "fnv1a": jit(_fnv1a_kernel_src),
        "crc32": jit(_crc32_kernel_src),
        "crc32_table": _crc32_table(),
    }


def set_compiled(enabled: bool) -> None:
    """Use (True) or bypass (False) the numba kernels from now on — for benchmarks and tests."""
    with _JIT_LOCK:
        _JIT.clear()
        if not enabled:
            _JIT["disabled"] = True


def numba_available() -> bool:
    """True when the compiled kernels are in use for large arrays."""
    return _jit() is not None


def _kernels_for(offsets: np.ndarray) -> dict[str, Any] | None:
    return _jit() if len(offsets) - 1 >= NUMBA_MIN_KEYS or _JIT else None


def _murmur2_buffers(offsets: np.ndarray, data: np.ndarray) -> np.ndarray:
    kernels = _kernels_for(offsets)
    if kernels is not None:
        return kernels["murmur2"](offsets, data, *_word_views(data), 0)
    return _murmur2_numpy(offsets, data)


def _fnv1a_buffers(offsets: np.ndarray, data: np.ndarray) -> np.ndarray:
    kernels = _kernels_for(offsets)
    if kernels is not None:
        return kernels["fnv1a"](offsets, data)
    return _fnv1a_numpy(offsets, data)


def _crc32_buffers(offsets: np.ndarray, data: np.ndarray) -> np.ndarray:
    kernels = _kernels_for(offsets)
    if kernels is not None:
        return kernels["crc32"](offsets, data, kernels["crc32_table"])
    return _crc32_python(offsets, data)


def _murmur3_buffers(offsets: np.ndarray, data: np.ndarray) -> np.ndarray:
    import mmh3

    raw = data.tobytes()
    bounds = offsets.tolist()
    return np.fromiter(
        (mmh3.hash(raw[bounds[i] : bounds[i + 1]], 0, signed=False) for i in range(len(bounds) - 1)),
        dtype=np.uint32,
        count=len(bounds) - 1,
    )


def _per_chunk(keys: Any, fn: Any, dtype: Any, null_value: int) -> np.ndarray:
    parts = []
    for chunk in _to_binary_chunks(keys):
        offsets, data = _buffers(chunk)
        values = np.asarray(fn(offsets, data), dtype=dtype)
        nulls = _null_mask(chunk)
        if nulls is not None:
            values = values.copy() if not values.flags.writeable else values
            values[nulls] = null_value
        parts.append(values)
    if len(parts) == 1:
        return parts[0]
    return np.concatenate(parts) if parts else np.empty(0, dtype=dtype)


def murmur2_arrow(keys: Any) -> np.ndarray:
    """``Utils.murmur2`` of every element of a string/binary Arrow array, int32; nulls -> 0."""
    return _per_chunk(keys, _murmur2_buffers, np.int32, 0)


def _partitions_buffers(num_partitions: int) -> Any:
    def run(offsets: np.ndarray, data: np.ndarray) -> np.ndarray:
        kernels = _kernels_for(offsets)
        if kernels is not None:
            return kernels["murmur2"](offsets, data, *_word_views(data), num_partitions)
        h = _murmur2_numpy(offsets, data).view(np.uint32) & np.uint32(0x7FFFFFFF)
        return (h % np.uint32(num_partitions)).astype(np.int32)

    return run


def partitions_for_arrow(keys: Any, num_partitions: int) -> np.ndarray:
    """The Java producer's partition of every key (int32), ``-1`` where the key is null."""
    n = _check_partitions(num_partitions)
    return _per_chunk(keys, _partitions_buffers(n), np.int32, -1)


def murmur2_many(keys: Sequence[bytes | str]) -> np.ndarray:
    """``murmur2`` of each key (bytes, or str as UTF-8) as an int32 array."""
    pa = _arrow()
    encoded = [_as_bytes(k) for k in keys]
    return murmur2_arrow(pa.array(encoded, type=pa.large_binary()))


def to_positive_array(hashes: np.ndarray) -> np.ndarray:
    """``Utils.toPositive`` over an int32 array: ``h & 0x7fffffff``."""
    return np.asarray(hashes, dtype=np.int32) & np.int32(0x7FFFFFFF)


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
    n = _check_partitions(num_partitions)
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


# --------------------------------------------------------------------------- remapping


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
    base = h % np.uint32(_check_partitions(from_partitions, "from_partitions"))
    return [(int(m), float((h % np.uint32(_check_partitions(m, "to_partitions")) != base).mean())) for m in to_counts]


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


# --------------------------------------------------------------------------- group coordinator


def coordinator_partition(group_id: str, offsets_partitions: int = DEFAULT_OFFSETS_PARTITIONS) -> int:
    """``__consumer_offsets`` partition of a group: ``Utils.abs(groupId.hashCode()) % n``.

    ``coordinator_partition("my-group") == 12`` (hashCode ``-1906497762``).
    """
    n = _check_partitions(offsets_partitions, "offsets_partitions")
    return utils_abs(string_hash_code(group_id)) % n


# --------------------------------------------------------------------------- CLI


def _require_dict(payload: Any, command: str) -> dict[str, Any]:
    if not isinstance(payload, dict):
        raise HashInputError(f"{command}: expected a JSON object, got {type(payload).__name__}")
    return payload


def _require_list(payload: dict[str, Any], field: str, limit: int) -> list[Any]:
    value = payload.get(field)
    if not isinstance(value, list):
        raise HashInputError(f"{field}: expected a JSON array, got {_short(value)}")
    if len(value) > limit:
        raise LimitError(f"{field}: at most {limit} entries, got {len(value)}")
    return value


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _key_from_hex(text: Any, index: int) -> bytes:
    if not isinstance(text, str):
        raise HashInputError(f"keys_hex[{index}]: expected a hex string, got {_short(text)}")
    if len(text) > 2 * MAX_CLI_KEY_BYTES:
        raise LimitError(f"keys_hex[{index}]: longer than {MAX_CLI_KEY_BYTES} bytes")
    if not _HEX.match(text):
        raise HashInputError(f"keys_hex[{index}]: not an even-length hex string: {_short(text)}")
    return bytes.fromhex(text)


def _partition_counts(payload: dict[str, Any]) -> list[int]:
    raw = payload.get("partitions")
    counts = [raw] if isinstance(raw, int) and not isinstance(raw, bool) else _require_list(
        payload, "partitions", MAX_CLI_PARTITION_COUNTS
    )
    if not counts:
        raise HashInputError("partitions: expected at least one partition count, got []")
    return [_check_partitions(c, f"partitions[{i}]") for i, c in enumerate(counts)]


def cli_hash(payload: Any) -> dict[str, Any]:
    """``python -m engine hash``: murmur2, toPositive and the partition per count for each key."""
    doc = _require_dict(payload, "hash")
    keys = [_key_from_hex(k, i) for i, k in enumerate(_require_list(doc, "keys_hex", MAX_CLI_KEYS))]
    counts = _partition_counts(doc)
    hashes = murmur2_many(keys).tolist() if keys else []
    results = []
    for key, h in zip(keys, hashes):
        positive = to_positive(h)
        results.append({
            "key_hex": key.hex(),
            "murmur2": h,
            "to_positive": positive,
            "partition": {str(n): positive % n for n in counts},
        })
    return {"results": results}


def cli_coordinator(payload: Any) -> dict[str, Any]:
    """``python -m engine coordinator``: Java hashCode and ``__consumer_offsets`` partition per group."""
    doc = _require_dict(payload, "coordinator")
    ids = _require_list(doc, "group_ids", MAX_CLI_GROUP_IDS)
    n = _check_partitions(doc.get("offsets_partitions", DEFAULT_OFFSETS_PARTITIONS), "offsets_partitions")
    results = []
    for i, group_id in enumerate(ids):
        if not isinstance(group_id, str):
            raise HashInputError(f"group_ids[{i}]: expected a string, got {_short(group_id)}")
        if len(group_id) > MAX_GROUP_ID_CHARS:
            raise LimitError(f"group_ids[{i}]: longer than {MAX_GROUP_ID_CHARS} characters")
        h = string_hash_code(group_id)
        results.append({"group_id": group_id, "java_hashcode": h, "partition": utils_abs(h) % n})
    return {"results": results}
