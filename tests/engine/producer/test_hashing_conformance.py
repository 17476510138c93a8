"""engine.producer and engine.coordinator against vectors produced by real Kafka.

(../shared/vectors/murmur2.json, coordinator.json)
"""

from __future__ import annotations

import pyarrow as pa
import pytest

from engine.coordinator.offsets_partition import coordinator_partition
from engine.java.strings import string_hash_code, to_positive, utils_abs
from engine.producer.arrow import murmur2_many, partitions_for_arrow
from engine.producer.murmur2 import murmur2, partition_for_key
from helpers import load_vectors


@pytest.fixture(scope="module")
def murmur2_vectors() -> dict:
    return load_vectors("murmur2.json")


@pytest.fixture(scope="module")
def coordinator_vectors() -> dict:
    return load_vectors("coordinator.json")


def test_scalar_murmur2_matches_kafka(murmur2_vectors: dict) -> None:
    bad = []
    for case in murmur2_vectors["cases"]:
        key = bytes.fromhex(case["key_hex"])
        h = murmur2(key)
        got = {str(n): partition_for_key(key, n) for n in map(int, case["partition"])}
        if (h, to_positive(h), got) != (case["murmur2"], case["to_positive"], case["partition"]):
            bad.append(case["key_hex"])
    assert not bad, f"{len(bad)} keys differ from Kafka, first {bad[:5]}"
    assert len(murmur2_vectors["cases"]) == 2300


def test_vectorised_paths_match_kafka(murmur2_vectors: dict) -> None:
    cases = murmur2_vectors["cases"]
    keys = [bytes.fromhex(c["key_hex"]) for c in cases]
    assert murmur2_many(keys).tolist() == [c["murmur2"] for c in cases]
    arrow = pa.array(keys, type=pa.binary())
    for n in murmur2_vectors["header"]["partition_counts"]:
        assert partitions_for_arrow(arrow, n).tolist() == [c["partition"][str(n)] for c in cases], n


def test_utf8_text_keys_hash_as_their_bytes(murmur2_vectors: dict) -> None:
    cases = [c for c in murmur2_vectors["cases"] if c.get("key_utf8") is not None]
    assert cases
    strings = pa.array([c["key_utf8"] for c in cases], type=pa.string())
    assert partitions_for_arrow(strings, 12).tolist() == [c["partition"]["12"] for c in cases]


def test_coordinator_matches_kafka(coordinator_vectors: dict) -> None:
    n = coordinator_vectors["header"]["num_partitions"]
    bad = [
        c["group_id"]
        for c in coordinator_vectors["cases"]
        if (string_hash_code(c["group_id"]), utils_abs(string_hash_code(c["group_id"])),
            coordinator_partition(c["group_id"], n)) != (c["java_hashcode"], c["utils_abs"], c["partition_50"])
    ]
    assert not bad, f"{len(bad)} group ids differ from Kafka, first {bad[:5]!r}"
    assert len(coordinator_vectors["cases"]) == 499
