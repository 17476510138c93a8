"""murmur2 (and librdkafka's hashes) over Arrow offsets + data buffers: a numba kernel when numba is
importable (and the batch is large), otherwise a numpy word-by-word loop.  Same numbers as ``engine.producer.murmur2``.
"""

from __future__ import annotations

import os
import threading
import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from engine.producer.murmur2 import (
    FNV1A_OFFSET,
    FNV1A_PRIME,
    MURMUR2_M,
    MURMUR2_R,
    MURMUR2_SEED,
    HashInputError,
    _as_bytes,
    check_partition_count,
)

if TYPE_CHECKING:  # pragma: no cover
    pass


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
    n = check_partition_count(num_partitions)
    return _per_chunk(keys, _partitions_buffers(n), np.int32, -1)


def murmur2_many(keys: Sequence[bytes | str]) -> np.ndarray:
    """``murmur2`` of each key (bytes, or str as UTF-8) as an int32 array."""
    pa = _arrow()
    encoded = [_as_bytes(k) for k in keys]
    return murmur2_arrow(pa.array(encoded, type=pa.large_binary()))


