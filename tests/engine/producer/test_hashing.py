"""Unit and property tests for engine.producer (Kafka's murmur2, librdkafka partitioners, CLI)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import zlib

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, seed, settings
from hypothesis import strategies as st

from engine.coordinator.offsets_partition import cli_coordinator, coordinator_partition
from engine.errors import EngineError, LimitError
from engine.java.strings import string_hash_code
from engine.producer.arrow import (
    NUMBA_MIN_KEYS,
    _buffers,
    _crc32_buffers,
    _fnv1a_numpy,
    _murmur2_numpy,
    murmur2_arrow,
    murmur2_many,
    partitions_for_arrow,
)
from engine.producer.cli import MAX_CLI_KEYS, cli_hash
from engine.producer.murmur2 import crc32, fnv1a, murmur2, partition_for_key
from engine.producer.partitioners import PARTITIONERS, UNHASHED, client_partition, client_partitions
from engine.producer.remap import client_disagreement, remap_curve, remap_share
from helpers import REPO

HYPOTHESIS_SEED = 20240926

# Kafka's own clients/src/test/java/org/apache/kafka/common/utils/UtilsTest.java#testMurmur2
KAFKA_UTILS_TEST = {
    b"21": -973932308,
    b"foobar": -790332482,
    b"a-little-bit-long-string": -985981536,
    b"a-little-bit-longer-string": -1486304829,
    b"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8": -58897971,
    bytes([ord("a"), ord("b"), ord("c")]): 479470107,
}

# librdkafka src/rdmurmur2.c and src/rdfnv1a.c unit tests (keys, expected uint32)
_UNALIGNED = "PreAmbleWillBeRemoved,ThePrePartThatIs"
LIBRDKAFKA_KEYS = ["kafka", "giberish123456789", "1234", "234", "34", "4",
                   _UNALIGNED, _UNALIGNED[1:], _UNALIGNED[2:], _UNALIGNED[3:], ""]
LIBRDKAFKA_MURMUR2 = [0xD067CF64, 0x8F552B0C, 0x9FC97B14, 0xE7C009CA, 0x873930DA, 0x5A4B5CA1,
                      0x78424F1C, 0x4A62B377, 0xE0E4E09E, 0x62B8B43F, 0x106E08D9]
LIBRDKAFKA_FNV1A = [0xD33C4E1, 0x77A58295, 0x23BDD03, 0x2DEA3CD2, 0x740FA83E, 0x310CA263,
                    0x65CBD69C, 0x6E49C79A, 0x69EED356, 0x6ABCC023, 0x7EE3623B]


@pytest.mark.parametrize(("key", "expected"), KAFKA_UTILS_TEST.items())
def test_kafka_utils_test_murmur2_values(key: bytes, expected: int) -> None:
    assert murmur2(key) == expected
    assert murmur2_arrow(pa.array([key])).tolist() == [expected]


def test_module_docstring_worked_example() -> None:
    assert murmur2(b"21") == -973932308
    assert partition_for_key("21", 50) == 1173551340 % 50 == 40
    assert murmur2(b"") == 275646681 and partition_for_key(b"", 12) == 9


def test_to_positive_is_a_mask_not_abs() -> None:
    # murmur2(b"foobar") = -790332482: toPositive gives 1357151166, abs would give 790332482
    assert partition_for_key(b"foobar", 1_000_000_000) == (-790332482 & 0x7FFFFFFF) % 1_000_000_000 == 357151166


def test_librdkafka_murmur2_and_fnv1a_unit_test_values() -> None:
    assert [murmur2(k.encode()) & 0xFFFFFFFF for k in LIBRDKAFKA_KEYS] == LIBRDKAFKA_MURMUR2
    assert [fnv1a(k.encode()) for k in LIBRDKAFKA_KEYS] == LIBRDKAFKA_FNV1A


def test_crc32_is_zlib_crc32() -> None:
    assert crc32(b"") == 0 and crc32(b"a") == 3904355907


def test_client_partitions_docstring_example() -> None:
    assert client_partitions(pa.array(["a", "", None]), 12, "consistent").tolist() == [3, 0, 0]


def test_null_and_empty_key_semantics_per_partitioner() -> None:
    keys = pa.array(["k", "", None])
    empty_m2 = (275646681 & 0x7FFFFFFF) % 12
    empty_fnv = 0x7EE3623B % 12
    expect = {
        "java": [partition_for_key("k", 12), empty_m2, UNHASHED],
        "murmur2_random": [partition_for_key("k", 12), empty_m2, UNHASHED],
        "murmur2": [partition_for_key("k", 12), empty_m2, empty_m2],
        "consistent_random": [crc32(b"k") % 12, UNHASHED, UNHASHED],
        "consistent": [crc32(b"k") % 12, 0, 0],
        "fnv1a_random": [fnv1a(b"k") % 12, empty_fnv, UNHASHED],
        "fnv1a": [fnv1a(b"k") % 12, empty_fnv, empty_fnv],
    }
    for name, want in expect.items():
        assert client_partitions(keys, 12, name).tolist() == want, name
    assert client_partition(None, 12, "consistent") == 0


def test_numba_and_numpy_paths_agree_on_variable_length_keys() -> None:
    rng = random.Random(7)
    keys = [bytes(rng.randrange(256) for _ in range(rng.randrange(0, 70))) for _ in range(NUMBA_MIN_KEYS + 10)]
    arr = pa.array(keys + [None], type=pa.binary())
    offsets, data = _buffers(arr)
    expected = [murmur2(k) for k in keys]
    assert _murmur2_numpy(offsets, data)[:-1].tolist() == expected
    assert murmur2_arrow(arr)[:-1].tolist() == expected  # numba kernel when installed
    assert _fnv1a_numpy(offsets, data)[:-1].tolist() == [fnv1a(k) for k in keys]
    assert _crc32_buffers(offsets, data)[:-1].tolist() == [zlib.crc32(k) for k in keys]
    assert murmur2_arrow(arr)[-1] == 0 and partitions_for_arrow(arr, 7)[-1] == -1


def test_arrow_layouts_sliced_chunked_large_dictionary_view() -> None:
    words = ["x", "yy", None, "abcdefgh", "q"]
    expected = [0 if w is None else murmur2(w.encode()) for w in words]
    assert murmur2_arrow(pa.array(words, pa.large_string()).slice(1)).tolist() == expected[1:]
    chunked = pa.chunked_array([pa.array(words[:2]), pa.array(words[2:])])
    assert murmur2_arrow(chunked).tolist() == expected
    assert murmur2_arrow(pa.array(words).dictionary_encode()).tolist() == expected
    assert murmur2_arrow(pa.array(words, pa.string_view())).tolist() == expected
    assert murmur2_arrow(pa.array([], pa.string())).tolist() == []
    assert partitions_for_arrow(pa.nulls(3), 5).tolist() == [-1, -1, -1]
    with pytest.raises(EngineError, match="string or binary"):
        murmur2_arrow(pa.array([1, 2]))


@seed(HYPOTHESIS_SEED)
@settings(max_examples=200, deadline=None)
@given(keys=st.lists(st.one_of(st.none(), st.binary(max_size=40)), max_size=50),
       n=st.integers(min_value=1, max_value=2**31 - 1),
       name=st.sampled_from(sorted(PARTITIONERS)))
def test_partitioner_properties(keys: list[bytes | None], n: int, name: str) -> None:
    print(f"hypothesis seed {HYPOTHESIS_SEED}")
    arr = pa.array(keys, type=pa.binary())
    got = client_partitions(arr, n, name)
    assert got.dtype == np.int32 and len(got) == len(keys)
    assert ((got >= 0) & (got < n) | (got == UNHASHED)).all()
    assert client_partitions(arr, n, name).tolist() == got.tolist()  # deterministic
    assert [client_partition(k, n, name) for k in keys] == got.tolist()  # vectorised == scalar


@seed(HYPOTHESIS_SEED)
@settings(max_examples=200, deadline=None)
@given(keys=st.lists(st.text(max_size=30), max_size=40), n=st.integers(min_value=1, max_value=5000))
def test_vectorised_equals_scalar_for_text(keys: list[str], n: int) -> None:
    print(f"hypothesis seed {HYPOTHESIS_SEED}")
    assert partitions_for_arrow(pa.array(keys, pa.string()), n).tolist() == [partition_for_key(k, n) for k in keys]
    assert murmur2_many(keys).tolist() == [murmur2(k.encode()) for k in keys]


def test_remap_share_doubling_moves_half_the_keys(seeded_rng: random.Random) -> None:
    keys = pa.array([f"user-{seeded_rng.randrange(10**9)}" for _ in range(20000)])
    assert remap_share(keys, 6, 6) == 0.0
    assert 0.47 < remap_share(keys, 6, 12) < 0.53  # p % 6 == (p % 12) % 6: half stay
    share_6_7 = remap_share(keys, 6, 7)
    assert 0.80 < share_6_7 < 0.89  # 1 - 1/7 ... close to (n-1)/n for coprime counts
    assert dict(remap_curve(keys, 6, [6, 7, 12]))[7] == pytest.approx(share_6_7)
    assert remap_share(pa.array([None, None], pa.string()), 3, 4) == 0.0


def test_java_vs_librdkafka_default_disagree_on_most_keys(seeded_rng: random.Random) -> None:
    keys = pa.array([f"order-{seeded_rng.randrange(10**9)}" for _ in range(20000)])
    share = client_disagreement(keys, 12, "java", "consistent_random")
    assert 0.88 < share < 0.95  # ~ 11/12: independent hashes
    assert client_disagreement(keys, 12, "java", "murmur2_random") == 0.0


def test_coordinator_partition_worked_example() -> None:
    assert coordinator_partition("my-group") == 12
    # Java "polygenelubricants".hashCode() == Integer.MIN_VALUE; Utils.abs maps it to 0
    assert string_hash_code("polygenelubricants") == -(2**31)
    assert coordinator_partition("polygenelubricants", 7) == 0  # abs would overflow; % 7 of 2**31 is 2


def test_cli_hash_shape_and_errors() -> None:
    out = cli_hash({"keys_hex": ["3231", ""], "partitions": [1, 12, 50]})
    assert out["results"][0] == {"key_hex": "3231", "murmur2": -973932308, "to_positive": 1173551340,
                                 "partition": {"1": 0, "12": 0, "50": 40}}
    assert out["results"][1]["murmur2"] == 275646681
    for bad, match in [({"keys_hex": ["zz"], "partitions": [3]}, r"keys_hex\[0\]"),
                       ({"keys_hex": ["abc"], "partitions": [3]}, "even-length"),
                       ({"keys_hex": ["00"], "partitions": [0]}, r"partitions\[0\]"),
                       ({"keys_hex": ["00"], "partitions": [-4]}, "-4"),
                       ({"keys_hex": ["00"], "partitions": [True]}, "integer"),
                       ({"keys_hex": ["00"], "partitions": []}, "at least one"),
                       ({"keys_hex": "00", "partitions": [3]}, "keys_hex"),
                       ([1, 2], "JSON object")]:
        with pytest.raises(EngineError, match=match):
            cli_hash(bad)
    with pytest.raises(LimitError, match="keys_hex"):
        cli_hash({"keys_hex": ["00"] * (MAX_CLI_KEYS + 1), "partitions": [3]})


def test_cli_coordinator_shape_and_errors() -> None:
    out = cli_coordinator({"group_ids": ["my-group", ""], "offsets_partitions": 50})
    assert out == {"results": [{"group_id": "my-group", "java_hashcode": -1906497762, "partition": 12},
                               {"group_id": "", "java_hashcode": 0, "partition": 0}]}
    for bad in [{"group_ids": [3]}, {"group_ids": ["a"], "offsets_partitions": 0}, {"group_ids": None}]:
        with pytest.raises(EngineError):
            cli_coordinator(bad)


@pytest.mark.parametrize("doc", ['{"keys_hex": ["xyz"], "partitions": [3]}', '{"keys_hex": ["00"], "partitions": [0]}',
                                 "not json"])
def test_cli_bad_input_exits_2_with_one_line(doc: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "engine", "hash"], input=doc, capture_output=True, text=True,
                          cwd=REPO, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_cli_hash_end_to_end() -> None:
    proc = subprocess.run([sys.executable, "-m", "engine", "hash"], input='{"keys_hex": ["3231"], "partitions": [50]}',
                          capture_output=True, text=True, cwd=REPO, timeout=60)
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["results"][0]["partition"] == {"50": 40}


@pytest.mark.parametrize("n", [1, 7, 12, 1000, 65_537, 2**31 - 1])
def test_compiled_modulo_is_exact(n: int) -> None:
    rng = random.Random(11)
    keys = pa.array([rng.randbytes(rng.randrange(0, 24)) for _ in range(NUMBA_MIN_KEYS + 5)], pa.binary())
    expected = [(murmur2(k) & 0x7FFFFFFF) % n for k in keys.to_pylist()]
    assert partitions_for_arrow(keys, n).tolist() == expected
    assert partitions_for_arrow(keys.slice(3), n).tolist() == expected[3:]  # other byte lanes
