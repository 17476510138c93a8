"""Kafka's ``org.apache.kafka.common.Uuid``: topic ids as the group coordinator sees them.

A Uuid is two signed 64-bit longs (``msb``, ``lsb``); ``toString()`` is the URL-safe base64 of the
16 bytes ``msb || lsb`` without padding (22 characters).  ``hashCode()`` folds ``msb ^ lsb`` to an
int and ``compareTo`` orders by signed ``msb`` then signed ``lsb``.  Both leak into the KIP-848
assignors' results (HashSet iteration order, topic tie-breaking).

Example (asserted in tests/engine/coordinator/test_server_assign.py)::

    >>> u = Uuid.from_string("AAAAAAAAAAAAAAAAAAAAAg")
    >>> (u.msb, u.lsb, u.hash_code(), str(u))
    (0, 2, 2, 'AAAAAAAAAAAAAAAAAAAAAg')
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from functools import total_ordering

from engine.errors import EngineError
from engine.java.strings import to_int32


def _to_int64(value: int) -> int:
    value &= 0xFFFFFFFFFFFFFFFF
    return value - (1 << 64) if value & (1 << 63) else value


@total_ordering
class Uuid:
    """A Kafka Uuid (immutable); ordering ``(msb, lsb)`` on signed longs is ``Uuid.compareTo``."""

    __slots__ = ("msb", "lsb", "_key", "_py_hash", "_java_hash")

    def __init__(self, msb: int, lsb: int) -> None:
        self.msb = _to_int64(msb)
        self.lsb = _to_int64(lsb)
        self._key = (self.msb, self.lsb)
        self._py_hash = hash(self._key)
        xor = (self.msb ^ self.lsb) & 0xFFFFFFFFFFFFFFFF
        self._java_hash = to_int32((xor >> 32) ^ (xor & 0xFFFFFFFF))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Uuid) and self._key == other._key

    def __lt__(self, other: Uuid) -> bool:
        return self._key < other._key

    def __hash__(self) -> int:
        return self._py_hash

    def __repr__(self) -> str:
        return f"Uuid({self.msb}, {self.lsb})"

    @classmethod
    def from_string(cls, text: str) -> Uuid:
        """``Uuid.fromString``: URL-safe base64 (padding optional) of exactly 16 bytes."""
        if not isinstance(text, str) or len(text) > 24:
            raise EngineError(f"topic id {text!r}: not a 22-character base64 Kafka Uuid")
        if any(c not in _URLSAFE for c in text.rstrip("=")):
            raise EngineError(f"topic id {text!r}: not URL-safe base64")
        try:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        except (binascii.Error, ValueError):
            raise EngineError(f"topic id {text!r}: not valid base64") from None
        if len(raw) != 16:
            raise EngineError(f"topic id {text!r}: decodes to {len(raw)} bytes, expected 16")
        return cls(_to_int64(int.from_bytes(raw[:8], "big")), _to_int64(int.from_bytes(raw[8:], "big")))

    @classmethod
    def for_name(cls, name: str) -> Uuid:
        """A deterministic id for a topic name (the dashboard's stand-in for a broker-made random id)."""
        digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).digest()
        msb = _to_int64(int.from_bytes(digest[:8], "big") & 0x7FFFFFFFFFFFFFFF)  # never starts with '-'
        return cls(msb, _to_int64(int.from_bytes(digest[8:16], "big")))

    def __str__(self) -> str:
        raw = (self.msb & 0xFFFFFFFFFFFFFFFF).to_bytes(8, "big") + (self.lsb & 0xFFFFFFFFFFFFFFFF).to_bytes(8, "big")
        return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")

    def hash_code(self) -> int:
        """``Uuid.hashCode()``: ``(int)(x >> 32) ^ (int)x`` with ``x = msb ^ lsb``."""
        return self._java_hash


_URLSAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def uuid_hash_code(uuid: Uuid) -> int:
    """``Uuid.hashCode`` as a plain function (for ``JavaHashMap``)."""
    return uuid.hash_code()


def uuid_compare(a: Uuid, b: Uuid) -> int:
    """``a.compareTo(b)``: by the most significant bits, then the least, each a signed long (a tree bin's order
    of ``Uuid`` keys of equal hash, ``TreeBinHashMap``'s ``compare``).

    >>> uuid_compare(Uuid(-1, 5), Uuid(1, 0)), uuid_compare(Uuid(1, 2), Uuid(1, 2))
    (-1, 0)
    """
    return (a > b) - (a < b)


