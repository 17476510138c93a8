"""AppTest of pages/13_Share_Delivery.py: the summary is the engine's, the timeline animates, bad input is named;
the first view draws the timeline alone, the events and the settings when opened."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from engine.share.consumers import Workload, simulate
from engine.share.report import event_rows
from engine.share.settings import DELIVERY_COUNT_LIMIT, MAX_RECORD_LOCKS, SETTINGS, ShareSettings
from engine.share.summary import summarize
from helpers import open_page

PAGE_DEFAULT = Workload(poison=frozenset({7}), rejected=frozenset({12}))


def _metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def _open(at: AppTest, **state: object) -> AppTest:
    """The page rerun with lazy tabs or expanders opened (``deliver.view``: a tab's label; ``deliver.settings``:
    True for the keys, offsets and broker settings)."""
    for key, value in state.items():
        at.session_state[key.replace("_", ".")] = value
    return at.run()


@pytest.fixture(scope="module")
def page() -> AppTest:
    return open_page("13_Share_Delivery.py")


def test_the_summary_is_the_engine_models(page: AppTest) -> None:
    expected = summarize(simulate(PAGE_DEFAULT))
    assert _metric(page, "Processed") == f"{expected.processed:,}"
    assert _metric(page, "Redelivered") == f"{expected.redelivered:,}"
    assert _metric(page, "Archived") == f"{expected.archived:,}"
    assert _metric(page, "Duplicates") == f"{expected.duplicates:,}"
    assert _metric(page, "Keys whose order was lost") == f"{expected.keys_out_of_order} / {expected.keys}"
    # the crash costs what Kafka's lock makes it cost: C1's 10 records wait out the 30 s lock, 4 were processed
    assert (expected.held_at_failure, expected.locked_after_failure_ms, expected.duplicates) == (10, 28_000, 4)
    assert expected.archived_at_limit == 1  # the poison record, archived after its 5th delivery


def test_the_timeline_is_animated_with_kafkas_states(page: AppTest) -> None:
    chart = next(c for c in page.get("plotly_chart"))
    spec = json.loads(chart.proto.spec)
    names = [t["name"] for t in spec["data"]]
    assert names[:4] == ["in the log, not fetched yet", "AVAILABLE", "ACKNOWLEDGED", "ARCHIVED"]
    assert "ACQUIRED by C1" in names
    assert len(spec["frames"]) > 10
    assert [b["label"] for b in spec["layout"]["updatemenus"][0]["buttons"]] == ["Play", "Pause"]
    titles = [f["layout"]["title"]["text"] for f in spec["frames"]]
    assert any("C1 crashes" in t for t in titles)


def test_the_first_view_draws_the_timeline_alone(page: AppTest) -> None:
    assert [c.key for c in page.get("plotly_chart")] == ["share.timeline"]
    assert not page.dataframe and not page.table and not page.get("download_button") and not page.info
    assert {t.key for t in page.text_input} >= {"share.records", "share.failure_ms"}
    assert not {"share.poison", "share.keys", "share.lock_ms"} & {t.key for t in page.text_input}  # closed


def test_downloads_and_the_release_note() -> None:
    at = _open(open_page("13_Share_Delivery.py"), deliver_view="Events and downloads")
    assert len(at.get("download_button")) == 3 and not at.get("plotly_chart")
    consumers = next(t.value for t in at.table if "consumer" in t.value.columns)  # 3 rows: static
    assert list(consumers["consumer"]) == ["C1", "C2", "C3"]
    events = next(d.value for d in at.dataframe if "event" in d.value.columns)  # 106 rows: the searchable grid
    assert list(events["event"]) == [row["event"] for row in event_rows(simulate(PAGE_DEFAULT))]
    _open(at, deliver_view="Kafka release")
    assert any("KIP-1222" in m.value and "4.2" in m.value for m in at.info)


def test_settings_keep_their_values_while_closed() -> None:
    """The keys, offsets and broker settings are drawn when their expander is open; closed, the page computes
    with the values they hold."""
    at = _open(open_page("13_Share_Delivery.py"), deliver_settings=True)
    at.text_input(key="share.lock_ms").set_value("5000").run()
    at.text_input(key="share.reject").set_value("12, 13").run()
    opened = [m.value for m in at.metric]
    _open(at, deliver_settings=False)
    assert "share.lock_ms" not in {t.key for t in at.text_input}
    assert [m.value for m in at.metric] == opened
    settings = ShareSettings(5_000, *(SETTINGS[name][0] for name in (DELIVERY_COUNT_LIMIT, MAX_RECORD_LOCKS)))
    expected = summarize(simulate(Workload(poison=frozenset({7}), rejected=frozenset({12, 13}), settings=settings)))
    assert _metric(at, "Archived") == f"{expected.archived:,}" == "3"  # offset 13 REJECTed too
    assert _metric(at, "Finished at") == f"{expected.end_ms / 1000:,.1f} s" == "16.5 s"  # a 5 s lock, not 30 s
    assert _open(at, deliver_settings=True).text_input(key="share.lock_ms").value == "5000"


def test_nobody_failing_means_no_redelivery_but_the_poison_record() -> None:
    at = open_page("13_Share_Delivery.py")
    at.radio(key="share.failure").set_value("none").run()
    expected = summarize(simulate(Workload(failure=None, poison=frozenset({7}), rejected=frozenset({12}))))
    assert _metric(at, "Redelivered") == f"{expected.redelivered:,}" == "1"
    assert _metric(at, "Duplicates") == "0"


def test_bad_input_is_named_and_nothing_half_done() -> None:
    at = _open(open_page("13_Share_Delivery.py"), deliver_settings=True)
    at.text_input(key="share.records").set_value("1000").run()
    assert any("Records" in e.value and "1000" in e.value.replace(",", "") for e in at.error)
    at.text_input(key="share.poison").set_value("7, x").run()
    assert any("poison offsets" in e.value and "'x'" in e.value for e in at.error)
    assert not at.metric  # stopped before any run


def test_what_the_failing_consumers_records_cost_follows_how_it_failed() -> None:
    """A crash leaves the records locked for the broker config's lock; a graceful leave releases them at once
    (never "locked for 0.0 s")."""
    at = open_page("13_Share_Delivery.py")
    crash = [c.value for c in at.caption if c.value.startswith("The crashed consumer held")]
    assert crash and "stayed locked for 28.0 s" in crash[0] and "group.share.record.lock.duration.ms" in crash[0]
    at.radio(key="share.failure").set_value("leave").run()
    captions = [c.value for c in at.caption]
    assert any(c.startswith("The leaving consumer held") and "released them at once" in c for c in captions)
    assert not any("locked for 0.0 s" in c or "The crashed consumer" in c for c in captions)


def test_offsets_that_no_longer_fit_open_their_fields() -> None:
    """Fewer records than a kept offset: the settings expander opens, the refusal is seen beside its field."""
    at = open_page("13_Share_Delivery.py")
    assert "share.reject" not in {t.key for t in at.text_input}
    at.text_input(key="share.records").set_value("10").run()
    assert at.session_state["deliver.settings"] is True
    assert at.text_input(key="share.reject").value == "12"
    assert any("rejected offsets" in e.value and "'12'" in e.value for e in at.error) and not at.metric
    at.text_input(key="share.reject").set_value("").run()
    assert not at.error and at.metric
