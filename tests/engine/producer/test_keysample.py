"""Key samples: generation, pasted and uploaded keys, limits, skew metrics."""

from __future__ import annotations

import uuid

import numpy as np
import pyarrow as pa
import pytest

from engine.errors import EngineError, LimitError
from engine.producer.keysample import (
    MAX_KEYS,
    MAX_UPLOAD_BYTES,
    SampleSpec,
    generate,
    hottest_keys,
    parse_pasted,
    parse_upload,
    partition_histogram,
    skew,
)


def test_docstring_worked_example() -> None:
    assert parse_pasted("a\n\nb\n<null>\n").to_pylist() == ["a", "b", None]


def test_generation_is_seeded_and_shaped() -> None:
    a = generate(SampleSpec(kind="uniform", count=1000, distinct=50, seed=3))
    assert a.equals(generate(SampleSpec(kind="uniform", count=1000, distinct=50, seed=3)))
    assert len(a) == 1000 and len(set(a.to_pylist())) <= 50
    assert all(k.startswith("user-") for k in a.to_pylist())


def test_zipf_is_skewed_and_uniform_is_not() -> None:
    zipf = hottest_keys(generate(SampleSpec(kind="zipf", count=50_000, distinct=1000, zipf_s=1.2, seed=1)), 1)[0][1]
    flat = hottest_keys(generate(SampleSpec(kind="uniform", count=50_000, distinct=1000, seed=1)), 1)[0][1]
    assert zipf > 10 * flat


def test_uuids_are_valid_version_4() -> None:
    keys = generate(SampleSpec(kind="uuid", count=500, seed=5)).to_pylist()
    assert all(uuid.UUID(k).version == 4 and str(uuid.UUID(k)) == k for k in keys)
    assert len(set(keys)) == 500


def test_null_share() -> None:
    keys = generate(SampleSpec(count=10_000, null_share=0.25, seed=2))
    assert 0.22 < keys.null_count / 10_000 < 0.28


def test_uploads_text_and_csv() -> None:
    assert parse_upload(b"k1\r\nk2\r\n", "keys.txt").to_pylist() == ["k1", "k2"]
    assert parse_upload(b"id,key\n1,a\n2,\n", "x.csv").to_pylist() == ["a", None]
    assert parse_upload(b"user\nu1\n", "x.csv").to_pylist() == ["u1"]
    assert parse_upload("\ufeffé\n".encode("utf-8"), "bom.txt").to_pylist() == ["é"]


@pytest.mark.parametrize(("data", "name", "match"), [
    (b"\x89PNG\r\n\x1a\n\x00\x00", "img.png", "not a text file"),
    (b"\xff\xfe\xfa", "bad.txt", "not UTF-8"),
    (b"", "empty.txt", "no keys"),
    (b"a,b\n", "x.csv", "no rows"),
    (b"a\n1\n", "x.csv", None),
])
def test_bad_uploads(data: bytes, name: str, match: str | None) -> None:
    if match is None:
        with pytest.raises(EngineError, match="no column"):
            parse_upload(data, name, column="missing")
        return
    with pytest.raises(EngineError, match=match):
        parse_upload(data, name)


def test_limits() -> None:
    with pytest.raises(LimitError):
        parse_upload(b"x" * (MAX_UPLOAD_BYTES + 1), "big.txt")
    with pytest.raises(LimitError):
        generate(SampleSpec(count=MAX_KEYS + 1))
    with pytest.raises(LimitError, match="longer"):
        parse_pasted("k" * 20_000)
    with pytest.raises(EngineError, match="kind"):
        generate(SampleSpec(kind="normal"))


def test_skew_docstring_example() -> None:
    s = skew(np.array([30, 10, 10, 10]))
    assert s.max_over_mean == 2.0 and s.cv == pytest.approx(0.57735, rel=1e-4) and s.hottest[0] == (0, 30)
    assert skew(np.zeros(3)).max_over_mean == 0.0


def test_histogram_ignores_unhashed() -> None:
    assert partition_histogram(np.array([0, 2, 2, -1]), 4).tolist() == [1, 0, 2, 0]


def test_hottest_keys_counts() -> None:
    assert hottest_keys(pa.array(["a", "b", "a", None, "a"]), 2) == [("a", 3), ("b", 1)]
