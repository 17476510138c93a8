"""AppTest of pages/10_Partition_Log.py: the segment table is the engine's, the seed article's 133, a lookup,
retention and compaction sections, bad input shown inline."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from engine.storage.partition_log import simulate
from helpers import open_page


@pytest.fixture(scope="module")
def page() -> AppTest:
    return open_page("10_Partition_Log.py")


def segments(at: AppTest) -> list[str]:
    return list(at.dataframe[0].value["segment"])  # the first table is the segments


def test_default_segments_are_the_engines(page: AppTest) -> None:
    at = page
    assert not at.error
    doc = {"config": {"segment.bytes": 16_384, "segment.ms": 604_800_000, "segment.index.bytes": 10_485_760,
                      "index.interval.bytes": 4_096, "retention.ms": 604_800_000, "retention.bytes": -1,
                      "delete.retention.ms": 86_400_000, "cleanup.policy": "delete",
                      "min.cleanable.dirty.ratio": 0.5},
           "workload": {"batches": 200, "records_per_batch": 10, "value_bytes": 100, "keys": 0,
                        "tombstone_every": 0, "interval_ms": 60_000, "retention_checks": False}}
    _, out = simulate(doc)
    assert segments(at) == [s["segment"] for s in out["segments"]]
    assert any(md.value.startswith("1. Segment: the greatest base offset <= 23") for md in at.markdown)
    assert any("Retention at" in md.value for md in at.markdown)


def test_seed_article_button() -> None:
    at = open_page("10_Partition_Log.py")
    at.button(key="log.seed").click().run()
    assert not at.error
    assert segments(at)[:2] == ["00000000000000000000.log", "00000000000000000133.log"]


def test_lookup_moves_with_the_offset() -> None:
    at = open_page("10_Partition_Log.py")
    at.number_input(key="log.offset").set_value(1_500).run()
    story = next(md.value for md in at.markdown if md.value.startswith("1. Segment"))
    assert "greatest base offset <= 1,500" in story and "holds offset 1,500" in story


def test_compaction_section() -> None:
    at = open_page("10_Partition_Log.py")
    at.selectbox(key="log.policy").set_value("compact")
    at.number_input(key="log.keys").set_value(20).run()
    assert not at.error
    assert any("Compaction at" in md.value and "cleaned" in md.value for md in at.markdown)
    assert any("records removed" in c.value for c in at.caption)


def test_bad_input_is_shown_inline() -> None:
    at = open_page("10_Partition_Log.py")
    at.number_input(key="log.segment.bytes").set_value(100).run()
    assert not at.exception
    assert any("RecordBatchTooLargeException" in e.value for e in at.error)


def test_the_page_names_the_release_and_what_is_not_checked(page: AppTest) -> None:
    captions = " ".join(c.value for c in page.caption)
    assert "Kafka 4.0 code line (apache/kafka 1eb7644349cb); defaults: the 4.0 code line's LogConfig" in captions
    assert ("not yet checked against Kafka: retention by time and size, and compaction (dirty ratio, delete "
            "horizon, tombstones)") in captions


def test_the_animation_opens_on_the_last_frame(page: AppTest) -> None:
    """Issue 25: under the heading "N segment(s)" the chart shows N segments, not the first append's one."""
    import json

    n = len(segments(page))
    spec = json.loads(next(c.proto.spec for c in page.get("plotly_chart") if "batches appended" in c.proto.spec))
    assert len(spec["data"][0]["x"]) == min(n, len(spec["frames"][-1]["data"][0]["x"]))
    assert spec["data"][0]["x"] == spec["frames"][-1]["data"][0]["x"]
    assert spec["layout"]["sliders"][0]["active"] == len(spec["frames"]) - 1
    assert f"{n} segment(s)" in spec["layout"]["title"]["text"]
