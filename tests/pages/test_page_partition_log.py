"""AppTest of pages/10_Partition_Log.py: the segment table is the engine's, the seed article's 133, a lookup,
retention and compaction sections, bad input shown inline, and the segment size sent as segment.bytes from 1 MiB
on and as internal.segment.bytes below it; the first view (two charts, static tables) and the lazy expanders that
hold retention and compaction, the sizing and the articles."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from engine.release import model
from engine.storage.partition_log import simulate
from helpers import open_page

SMALL = "sent as internal.segment.bytes: segments this small need Kafka's test-only internal.segment.bytes"


@pytest.fixture(scope="module")
def page() -> AppTest:
    return open_page("10_Partition_Log.py")


def segments(at: AppTest) -> list[str]:
    """The segments table's names: static up to 40 segments, the scrolling grid above."""
    return list(next(t.value for t in [*at.table, *at.dataframe] if "roll_reasons" in t.value.columns)["segment"])


def open_section(at: AppTest, key: str) -> AppTest:
    """A lazy expander opened (``log.maintenance``, ``log.sizing``, ``log.articles_view``): closed on a fresh
    visit, its content does not run until then."""
    at.session_state[key] = True
    return at.run()


def test_default_segments_are_the_engines(page: AppTest) -> None:
    at = page
    assert not at.error
    doc = {"config": {"internal.segment.bytes": 16_384, "segment.ms": 604_800_000, "segment.index.bytes": 10_485_760,
                      "index.interval.bytes": 4_096, "retention.ms": 604_800_000, "retention.bytes": -1,
                      "delete.retention.ms": 86_400_000, "cleanup.policy": "delete",
                      "min.cleanable.dirty.ratio": 0.5},
           "workload": {"batches": 200, "records_per_batch": 10, "value_bytes": 100, "keys": 0,
                        "tombstone_every": 0, "interval_ms": 60_000, "retention_checks": False}}
    _, out = simulate(doc)
    assert segments(at) == [s["segment"] for s in out["segments"]]
    assert any(md.value.startswith("1. Segment: the greatest base offset <= 23") for md in at.markdown)
    assert not any("Retention at" in md.value for md in at.markdown)  # in a closed expander


def test_the_first_view_draws_two_charts_and_static_tables() -> None:
    """A fresh visit: the segments' animation and the lookup's map, the segments, probes and scan as static
    tables, no grid; retention and compaction, the sizing and the articles closed."""
    at = open_page("10_Partition_Log.py")
    assert [c.key for c in at.get("plotly_chart")] == ["log.animation", "log.map"]
    assert len(at.dataframe) == 0 and len(at.table) == 3
    assert [e.label for e in at.expander] == [
        "Retention and compaction",
        "Sizing: a day of data on a broker (Kafka's default log settings, not the ones above)",
        "Where the reference articles are right, and where Kafka differs"]
    keys = {t.key for t in at.text_input}
    assert "log.offset" in keys and not keys & {"log.at", "log.delete_before", "log.mib_s"}


def test_many_segments_scroll_in_the_grid() -> None:
    """More than 40 segments: the segments table is the grid (scrolling, search), its rows the engine's."""
    at = open_page("10_Partition_Log.py")
    at.text_input(key="log.batches").set_value("3000").run()
    assert not at.exception and not at.error
    assert len(segments(at)) > 40 and "roll_reasons" in at.dataframe[0].value.columns


def test_retention_opens_and_keeps_its_fields_while_closed() -> None:
    at = open_section(open_page("10_Partition_Log.py"), "log.maintenance")
    assert any(md.value.startswith("**Retention at") for md in at.markdown)
    at.text_input(key="log.at").set_value("1000").run()
    assert any(md.value.startswith("**Retention at 1,000 ms** deletes 0 segment(s)") for md in at.markdown)
    at.session_state["log.maintenance"] = False
    at.run()
    assert not any("Retention at" in md.value for md in at.markdown)
    open_section(at, "log.maintenance")
    assert at.text_input(key="log.at").value == "1000"


def test_a_link_naming_the_run_time_opens_retention() -> None:
    """A lesson step's link carries ``log.at``: the page opens on retention, not on a closed expander."""
    from helpers import REPO

    at = AppTest.from_file(str(REPO / "pages" / "10_Partition_Log.py"), default_timeout=120)
    at.query_params["log.at"] = "1000"
    at.run()
    assert not at.exception
    assert any(md.value.startswith("**Retention at 1,000 ms**") for md in at.markdown)


def test_the_sizing_and_the_articles_open_as_static_tables() -> None:
    from engine import articles

    at = open_section(open_section(open_page("10_Partition_Log.py"), "log.sizing"), "log.articles_view")
    tables = [t.value for t in at.table]
    assert any(list(t.columns) == ["what", "value", "from"] for t in tables)
    assert any(len(t) == len(articles.rows(articles.LOG_CORRECTIONS)) and "verdict" in t.columns for t in tables)


def test_seed_article_button() -> None:
    at = open_page("10_Partition_Log.py")
    at.button(key="log.seed").click().run()
    assert not at.error
    assert segments(at)[:2] == ["00000000000000000000.log", "00000000000000000133.log"]
    assert at.text_input(key="log.segment_size").value == "22610"
    assert any(c.value.startswith("Segment size 22,610 bytes, " + SMALL) for c in at.caption)


def test_a_small_segment_size_is_sent_as_internal_segment_bytes(page: AppTest) -> None:
    # segment.bytes is at least 1 MiB (LogConfig atLeast(1024 * 1024)); below it the page sends Kafka's
    # test-only internal.segment.bytes, which LogConfig.segmentSize() prefers, and says so in one line
    captions = [c.value for c in page.caption]
    note = next(c for c in captions if c.startswith("Segment size 16,384 bytes"))
    assert SMALL in note and "segment.bytes itself is at least 1 MiB (1,048,576 bytes)" in note
    spec = json.loads(next(c.proto.spec for c in page.get("plotly_chart") if "batches appended" in c.proto.spec))
    assert [a["text"] for a in spec["layout"]["annotations"]] == ["internal.segment.bytes"]  # the size line


def test_one_mib_and_more_is_sent_as_segment_bytes() -> None:
    at = open_page("10_Partition_Log.py")
    at.text_input(key="log.segment_size").set_value("1048576").run()
    assert not at.exception and not at.error
    captions = [c.value for c in at.caption]
    assert "Segment size 1,048,576 bytes, sent as segment.bytes." in captions
    assert not any("internal.segment.bytes" in c for c in captions)
    assert segments(at) == ["00000000000000000000.log"]  # 200 batches of 10 records: 230,200 bytes, one segment


def test_lookup_moves_with_the_offset() -> None:
    at = open_page("10_Partition_Log.py")
    at.text_input(key="log.offset").set_value("1500").run()
    story = next(md.value for md in at.markdown if md.value.startswith("1. Segment"))
    assert "greatest base offset <= 1,500" in story and "holds offset 1,500" in story


def test_compaction_section() -> None:
    at = open_section(open_page("10_Partition_Log.py"), "log.maintenance")
    at.selectbox(key="log.policy").set_value("compact")
    at.text_input(key="log.keys").set_value("20").run()
    assert not at.error
    assert any("Compaction at" in md.value and "cleaned" in md.value for md in at.markdown)
    assert any("records removed" in c.value for c in at.caption)
    spec = json.loads(next(c.proto.spec for c in at.get("plotly_chart") if c.key == "log.compaction"))
    assert {t["type"] for t in spec["data"]} == {"scattergl"}  # 2,000 records: WebGL markers, not SVG nodes
    segments = next(t.value for t in at.table if "roll_reasons" in t.value.columns)
    cleaned = int(segments.loc[~segments["active"], "records"].sum())  # the active segment is never cleaned
    assert sum(len(t["x"]) for t in spec["data"]) == cleaned > 1_000  # every record of the cleaned segments


def test_bad_input_is_shown_inline() -> None:
    at = open_page("10_Partition_Log.py")
    at.text_input(key="log.segment_size").set_value("100").run()
    assert not at.exception
    assert any("RecordBatchTooLargeException" in e.value for e in at.error)


def test_the_page_names_the_release_and_what_is_not_checked(page: AppTest) -> None:
    # ui.frame.release_note.release_caption("log"): read from engine.release, nothing retyped here
    log = model("log")
    captions = " ".join(c.value for c in page.caption)
    assert f"Follows {log.release.label} (commit {log.release.commit[:12]}): {log.kafka_class}." in captions
    assert f"Not checked against Kafka's code: {log.not_verified}." in captions


def test_the_animation_opens_on_the_last_frame(page: AppTest) -> None:
    """Under the heading "N segment(s)" the chart shows N segments, not the first append's one."""
    n = len(segments(page))
    spec = json.loads(next(c.proto.spec for c in page.get("plotly_chart") if "batches appended" in c.proto.spec))
    assert len(spec["data"][0]["x"]) == min(n, len(spec["frames"][-1]["data"][0]["x"]))
    assert spec["data"][0]["x"] == spec["frames"][-1]["data"][0]["x"]
    assert spec["layout"]["sliders"][0]["active"] == len(spec["frames"]) - 1
    assert f"{n} segment(s)" in spec["layout"]["title"]["text"]


def test_the_article_button_offers_the_example_rather_than_stating_it() -> None:
    """The button loads the book's example; it does not assert a second segment the run below need not have."""
    at = open_page("10_Partition_Log.py")
    label = at.button(key="log.seed").label
    assert label.startswith("Load the example of 《深入理解 Kafka》") and "00000000000000000133.log" in label
