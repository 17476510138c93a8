"""``python -m engine hash``: murmur2, toPositive and the partition per count for each key."""

from __future__ import annotations

import re
from typing import Any, Final

from engine.cost import CLI_CEILING, admit, estimate_hash
from engine.errors import LimitError
from engine.java.strings import to_positive
from engine.producer.arrow import murmur2_many
from engine.producer.murmur2 import HashInputError, check_partition_count, murmur2

MAX_CLI_KEYS: Final = 100_000
MAX_CLI_KEY_BYTES: Final = 1_048_576
MAX_CLI_PARTITION_COUNTS: Final = 100
LONG_KEY_BYTES: Final = 4096  # longer keys are hashed one by one

_HEX = re.compile(r"[0-9a-fA-F]*")  # one character class: linear, no backtracking


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
    if len(text) % 2 or not _HEX.fullmatch(text):
        raise HashInputError(f"keys_hex[{index}]: not an even-length hex string: {_short(text)}")
    return bytes.fromhex(text)


def _partition_counts(payload: dict[str, Any]) -> list[int]:
    raw = payload.get("partitions")
    counts = [raw] if isinstance(raw, int) and not isinstance(raw, bool) else _require_list(
        payload, "partitions", MAX_CLI_PARTITION_COUNTS
    )
    if not counts:
        raise HashInputError("partitions: expected at least one partition count, got []")
    return [check_partition_count(c, f"partitions[{i}]") for i, c in enumerate(counts)]


def cli_hash(payload: Any) -> dict[str, Any]:
    """``python -m engine hash``: murmur2, toPositive and the partition per count for each key."""
    doc = _require_dict(payload, "hash")
    raw_keys = _require_list(doc, "keys_hex", MAX_CLI_KEYS)
    counts = _partition_counts(doc)
    admit(estimate_hash(len(raw_keys), len(counts)), CLI_CEILING, "hash")
    keys = [_key_from_hex(k, i) for i, k in enumerate(raw_keys)]
    hashes = _murmur2_all(keys)
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


def _murmur2_all(keys: list[bytes]) -> list[int]:
    """Short keys through the array kernel; a long key alone (the array path loops once per word of the
    longest key, ~6 s for one 1 MiB key, the scalar function ~0.1 s)."""
    short = [k for k in keys if len(k) <= LONG_KEY_BYTES]
    hashed = iter(murmur2_many(short).tolist() if short else [])
    return [next(hashed) if len(k) <= LONG_KEY_BYTES else murmur2(k) for k in keys]
