"""AppTest of pages/9_Producer.py: presets, the verdicts the engine computes, Kafka's ConfigException and bad
fault lines shown inline, the transactions section; the first view (two charts, no grid) and the lazy tabs and
expanders that hold the rest."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from engine.producer.idempotence import PRESETS, parse_spec, report, simulate
from helpers import REPO, open_page


@pytest.fixture(scope="module")
def page() -> AppTest:
    return open_page("9_Producer.py")


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def charts(at: AppTest) -> list[str | None]:
    return [c.key for c in at.get("plotly_chart")]


def open_transactions(at: AppTest) -> AppTest:
    """The transactions' expander opened (closed on a fresh visit: its content does not run until then)."""
    at.session_state["producer.transactions"] = True
    return at.run()


def test_default_preset_is_the_seed_article_reordering(page: AppTest) -> None:
    at = page
    assert not at.error
    first = next(iter(PRESETS))
    assert at.selectbox(key="producer.preset").value == first
    expected = report(simulate(parse_spec(PRESETS[first])))["summary"]
    m = metrics(at)
    assert m["reordered partitions"] == "1" == str(len(expected["reordered_partitions"]))
    assert m["requests"] == str(expected["requests"])
    assert charts(at) == ["producer.log_chart", "producer.animation"]  # the timeline waits in its tab
    assert not any("read_committed gets offsets" in md.value for md in at.markdown)  # in a closed expander


def test_the_first_view_draws_two_charts_and_static_tables_only() -> None:
    """A fresh visit: the log strip and the animation (the first tab); no grid; the articles and the
    transactions closed."""
    at = open_page("9_Producer.py")
    assert charts(at) == ["producer.log_chart", "producer.animation"]
    assert len(at.dataframe) == 0 and len(at.table) == 0
    assert [e.label for e in at.expander] == ["Where the reference articles are out of date",
                                              "Transactions (as far as the seed articles go)"]
    assert "producer.txn_ops" not in [t.key for t in at.text_area]


IDEMPOTENT = "The same with the defaults (idempotence on since 3.0)"  # the broker keeps its batches


@pytest.mark.parametrize("tab,shown,preset", [
    ("Timeline", "producer.timeline", None), ("Events", "t_ms", None), ("Requests", "sent_ms", None),
    ("Batches", "base_offset", None), ("Broker: last 5 batches", "epoch", IDEMPOTENT)])
def test_each_tab_draws_its_view_alone(tab: str, shown: str, preset: str | None) -> None:
    """Only the open tab runs: the timeline, or one table with the engine's rows (static: a few rows)."""
    at = open_page("9_Producer.py")
    if preset:
        at.selectbox(key="producer.preset").set_value(preset).run()
    at.session_state["producer.view"] = tab
    at.run()
    assert not at.exception and not at.error
    expected = report(simulate(parse_spec(PRESETS[preset or next(iter(PRESETS))])))
    if tab == "Timeline":
        assert charts(at) == ["producer.log_chart", "producer.timeline"]
        return
    assert charts(at) == ["producer.log_chart"] and len(at.dataframe) == 0
    (table,) = at.table
    rows = {"Events": expected["events"], "Requests": expected["requests"], "Batches": expected["batches"],
            "Broker: last 5 batches": [m for b in expected["broker_state"] for m in b["batches"]]}[tab]
    assert shown in table.value.columns and len(table.value) == len(rows) > 0
    if tab == "Batches":
        assert list(table.value["base_offset"]) == [b["base_offset"] for b in rows]


def test_the_transactions_open_and_keep_their_operations_while_closed() -> None:
    at = open_transactions(open_page("9_Producer.py"))
    assert any("read_committed gets offsets [0, 1, 5]" in md.value for md in at.markdown)
    assert [len(t.value) for t in at.table] == [6, 3]  # p0 and p1's logs, static
    at.text_area(key="producer.txn_ops").set_value("T1, send 0 1\nT1, commit").run()
    at.session_state["producer.transactions"] = False
    at.run()
    assert not any("read_committed" in md.value for md in at.markdown)
    open_transactions(at)
    assert at.text_area(key="producer.txn_ops").value == "T1, send 0 1\nT1, commit"
    assert any("read_committed gets offsets [0]" in md.value for md in at.markdown)


def test_a_link_naming_the_transactions_opens_them() -> None:
    """A lesson step's link carries the operations: the page opens on them, not on a closed expander."""
    at = AppTest.from_file(str(REPO / "pages" / "9_Producer.py"), default_timeout=120)
    at.query_params["producer.txn_ops"] = "T1, send 0 2\nT1, abort"
    at.run()
    assert not at.exception
    assert at.text_area(key="producer.txn_ops").value == "T1, send 0 2\nT1, abort"
    assert any("read_committed gets offsets []" in md.value for md in at.markdown)


def test_the_articles_open_as_a_static_table() -> None:
    from engine import articles

    at = open_page("9_Producer.py")
    at.session_state["producer.articles_view"] = True
    at.run()
    (table,) = at.table
    assert len(table.value) == len(articles.rows(articles.PRODUCER_CORRECTIONS))


@pytest.mark.parametrize("name,duplicates,reordered", [
    ("The same with the defaults (idempotence on since 3.0)", "0", "0"),
    ("Response lost after the write, no idempotence: duplicates", "3", "0"),
    ("Response lost after the write, idempotence: duplicates recognised", "0", "0"),
])
def test_presets(name: str, duplicates: str, reordered: str) -> None:
    at = open_page("9_Producer.py")
    at.selectbox(key="producer.preset").set_value(name).run()
    assert not at.exception and not at.error
    m = metrics(at)
    assert (m["duplicated records"], m["reordered partitions"]) == (duplicates, reordered)


def test_config_exception_is_shown_inline() -> None:
    at = open_page("9_Producer.py")
    at.selectbox(key="producer.preset").set_value("Refused: enable.idempotence=true with 6 in flight").run()
    assert not at.exception
    assert any("ConfigException: Must set max.in.flight.requests.per.connection to at most 5" in e.value
               for e in at.error)


def test_default_idempotence_is_disabled_by_acks_1_with_a_note() -> None:
    at = open_page("9_Producer.py")
    at.selectbox(key="producer.idempotence").set_value("default")
    at.selectbox(key="producer.acks").set_value("1").run()
    assert not at.error
    assert any("Idempotence will be disabled because acks is set to 1" in i.value for i in at.info)


def test_bad_fault_lines_and_transactions() -> None:
    at = open_page("9_Producer.py")
    at.text_area(key="producer.faults").set_value("first, not_leader").run()
    assert any("faults line 1: expected 'request number, kind'" in e.value for e in at.error)
    at.text_area(key="producer.faults").set_value("1, explode").run()
    assert any("faults[0]: expected" in e.value for e in at.error)
    open_transactions(at).text_area(key="producer.txn_ops").set_value("plain, commit").run()
    assert any("'plain' has no transactional.id, it cannot commit" in e.value for e in at.error)


def test_the_page_names_the_release_its_defaults_and_what_is_not_checked(page: AppTest) -> None:
    # released Kafka's defaults (KIP-1030: linger.ms 5) are what the page fills in; the presets set linger.ms 0
    # explicitly, as the seed articles assume one record per request
    from engine.producer.producer_config import DEFAULTS
    from engine.release import model

    assert DEFAULTS["linger.ms"] == 5
    produce = model("produce")
    captions = " ".join(c.value for c in page.caption)
    assert f"Follows {produce.release.label} (commit {produce.release.commit[:12]}): {produce.kafka_class}." in captions
    assert f"Not checked against Kafka's code: {produce.not_verified}." in captions
    assert "On producers before Kafka 4.0: linger.ms defaults to 0, not 5 (KIP-1030)." in captions
    assert page.text_input(key="producer.linger.ms").value == "0"


def test_linger_left_at_the_default_is_released_kafkas_5_ms() -> None:
    # the page sends only the values that differ from released Kafka's defaults: linger.ms 5 is left out and
    # the answer's effective config still says 5; the two records 1 ms apart then share one batch
    at = open_page("9_Producer.py")
    at.text_input(key="producer.linger.ms").set_value("5")
    at.text_input(key="producer.records").set_value("2")
    at.text_area(key="producer.faults").set_value("").run()
    assert not at.exception and not at.error
    expected = report(simulate(parse_spec({"config": {"enable.idempotence": False}, "partitions": 1, "records": 2,
                                           "interval_ms": 1, "latency_ms": 20, "value_bytes": 100,
                                           "faults": []})))
    assert expected["effective_config"]["linger.ms"] == 5 and len(expected["batches"]) == 1
    assert metrics(at)["requests"] == str(expected["summary"]["requests"]) == "1"


def test_the_presets_linger_and_the_released_default_are_both_named(page: AppTest) -> None:
    """The presets fill in linger.ms 0 (one record per request, as the articles draw it); the caption under the
    preset says so and gives released Kafka's default, 5 ms, as the release caption does."""
    from engine.producer.producer_config import DEFAULTS

    captions = [c.value for c in page.caption]
    assert page.text_input(key="producer.linger.ms").value == "0"
    assert any(c.startswith("Every preset sets linger.ms to 0") and f"default is {DEFAULTS['linger.ms']} ms" in c
               for c in captions)


def test_the_animations_first_frame_shows_no_record_in_a_log_before_it_is_sent(page: AppTest) -> None:
    """The first picture has the first batch in the accumulator and every log empty; the record reaches the log
    in a later frame, once its request is out."""
    spec = next(json.loads(c.proto.spec) for c in page.get("plotly_chart")
                if "accumulator" in json.dumps(json.loads(c.proto.spec)["layout"].get("xaxis", {})))
    first = spec["frames"][0]
    assert first["layout"]["title"]["text"].endswith("logs empty")
    assert spec["layout"]["title"]["text"] == first["layout"]["title"]["text"]
    assert all("(request" not in t for t in first["data"][0]["text"])
    assert "p0: r0" in spec["frames"][1]["layout"]["title"]["text"]
