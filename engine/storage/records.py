"""Exact sizes of the v2 record format (uncompressed): ``DefaultRecord.sizeInBytes`` and
``DefaultRecordBatch.RECORD_BATCH_OVERHEAD``.

Worked example (asserted in ``tests/engine/storage/test_storage_log.py``): a record with an 8-byte key, a 100-byte
value, no headers, offset delta 0 and timestamp delta 0 has a body of 1 (attributes) + 1 (offset delta) + 1 (timestamp
delta) + 1 + 8 (key) + 2 + 100 (value: 100 zig-zags to 200, two varint bytes) + 1 (header count) = 115 bytes,
plus 2 bytes for its varint length: 117 bytes.  Ten of them in one batch: 61 + 10 x 117 = 1,231 bytes (offset
deltas 0..9 stay one byte).  A tombstone (null value) writes -1 as a one-byte varint: the same record is 15
bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

RECORD_BATCH_OVERHEAD: Final = 61  # DefaultRecordBatch.RECORDS_OFFSET
NULL_VARINT_SIZE_BYTES: Final = 1  # ByteUtils.sizeOfVarint(-1)


def size_of_unsigned_varint(value: int) -> int:
    """``ByteUtils.sizeOfUnsignedVarint``: 7 bits per byte."""
    value &= 0xFFFFFFFFFFFFFFFF
    size = 1
    while value >= 0x80:
        value >>= 7
        size += 1
    return size


def size_of_varint(value: int) -> int:
    """``ByteUtils.sizeOfVarint``: zig-zag, then 7 bits per byte (32-bit)."""
    return size_of_unsigned_varint(((value << 1) ^ (value >> 31)) & 0xFFFFFFFF)


def size_of_varlong(value: int) -> int:
    """``ByteUtils.sizeOfVarlong``: zig-zag, then 7 bits per byte (64-bit)."""
    return size_of_unsigned_varint(((value << 1) ^ (value >> 63)) & 0xFFFFFFFFFFFFFFFF)


def record_size(offset_delta: int, timestamp_delta: int, key_size: int | None, value_size: int | None) -> int:
    """``DefaultRecord.sizeInBytes`` with no headers; ``None`` is a null key or value (a tombstone)."""
    body = 1 + size_of_varint(offset_delta) + size_of_varlong(timestamp_delta)
    body += NULL_VARINT_SIZE_BYTES if key_size is None else size_of_varint(key_size) + key_size
    body += NULL_VARINT_SIZE_BYTES if value_size is None else size_of_varint(value_size) + value_size
    body += size_of_varint(0)  # header count
    return body + size_of_varint(body)


@dataclass(frozen=True)
class Record:
    """One record as the log stores it: its offset, key (None = no key), value size (None = tombstone)."""

    offset: int
    timestamp: int
    key: str | None
    value_size: int | None

    @property
    def is_tombstone(self) -> bool:
        return self.value_size is None


def batch_size(records: list[Record], base_offset: int, base_timestamp: int) -> int:
    """Bytes of one uncompressed v2 batch holding ``records``: the 61-byte header plus each record."""
    total = RECORD_BATCH_OVERHEAD
    for r in records:
        key_size = None if r.key is None else len(r.key.encode("utf-8", "replace"))  # getBytes: a lone surrogate is "?"
        total += record_size(r.offset - base_offset, r.timestamp - base_timestamp, key_size, r.value_size)
    return total
