"""AppTests: a name holding a lone surrogate (README: any string may, as Java strings do) never breaks a page.

A member id ``"C\\ud800x"`` made Assignments, Rebalance and Compare show an exception instead of their content
(a select box's options, a table's cells and the sidebar's text could not be encoded as UTF-8).  Each page now
shows the id as the command line writes it, ``C\\ud800x`` (``ui.text.display``), in English and in Chinese, and a
select box still answers the real id."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from helpers import REPO, shown_tables

LONE = "C\ud800x"  # a lone high surrogate in a member id
SHOWN = "C\\ud800x"  # how every page (and the CLI) writes it: the escape, visibly


def _swapped(node: Any, old: str, new: str) -> Any:
    """A scenario document with every name ``old`` (member ids, subscriptions, topic keys) renamed ``new``."""
    if isinstance(node, dict):
        return {(new if k == old else k): _swapped(v, old, new) for k, v in node.items()}
    if isinstance(node, list):
        return [_swapped(v, old, new) for v in node]
    return new if node == old else node


def _link(preset: str, old: str, new: str) -> str:
    """The share link code (``?s=``) of ``preset`` with the name ``old`` replaced by ``new``."""
    from engine.presets import build_preset
    from engine.scenario import parse_scenario, scenario_to_json
    from ui.frame.state import encode_scenario

    return encode_scenario(parse_scenario(_swapped(scenario_to_json(build_preset(preset)), old, new)))


def _opened(page: str, code: str, language: str, state: dict[str, Any] | None = None) -> AppTest:
    from ui.text import i18n

    at = AppTest.from_file(str(REPO / "pages" / page), default_timeout=180)
    at.session_state[i18n.STATE_KEY] = language
    for key, value in (state or {}).items():
        at.session_state[key] = value
    at.query_params["s"] = code
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _strings(key)
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)


def _shown(at: AppTest) -> list[str]:
    """Every text the run sent to the browser: labels, options, captions, table headers and cells, and every
    text of every chart (trace names, categories, hover texts, custom data)."""
    from support.rendered_text import rendered_texts

    texts = rendered_texts(at)
    for chart in at.get("plotly_chart"):
        texts.extend(_strings(json.loads(chart.proto.spec)))
    return texts


def _mentions(texts: list[str], shown: str = SHOWN) -> list[str]:
    return [t for t in texts if shown in t]


def _tables_with(at: AppTest, shown: str = SHOWN) -> list[Any]:
    """The tables (static or grids) with a cell that is, or holds, ``shown``."""
    return [t for t in shown_tables(at) if (t.astype(str) == shown).any().any()
            or any(shown in str(v) for v in t.astype(str).to_numpy().ravel())]


def _options(at: AppTest, shown: str = SHOWN) -> list[str]:
    return [o for w in [*at.selectbox, *at.multiselect] for o in w.options if shown in o]


LANGUAGES = ["en", "zh"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_assignments_of_a_share_group(language: str) -> None:
    """C3 of the share-group preset renamed: the share table lists it among a partition's readers."""
    at = _opened("1_Assignments.py", _link("share-group", "C3", LONE), language)
    assert _tables_with(at), "the share group's table names the member"
    assert any(SHOWN in o for o in _options(at))  # "step 1: C\ud800x leaves"
    texts = _shown(at)
    assert _mentions(texts) and not [t for t in texts if "\ud800" in t]


@pytest.mark.parametrize("language", LANGUAGES)
def test_assignments_of_a_consumer_group(language: str) -> None:
    at = _opened("1_Assignments.py", _link("seed-d", "C1", LONE), language)
    assert _options(at)  # the step selector: "step 1: C\ud800x leaves"
    assert any(SHOWN == t for t in _shown(at))  # each strategy's chart names the consumer
    at.selectbox(key="assign.step").set_value(1).run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.selectbox(key="assign.step").value == 1


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("preset, old", [("share-group", "C3"), ("seed-d", "C1")])
def test_rebalance(preset: str, old: str, language: str) -> None:
    """The member leaves in step 1: the step selector names it, and so does the crashed-members choice, which
    answers the real id; the share group's table of changes lists it as left."""
    at = _opened("2_Rebalance.py", _link(preset, old, LONE), language)
    assert _options(at)
    crashed = next(m for m in at.multiselect if m.key.startswith("rebalance.crashed"))
    assert crashed.options == [SHOWN]
    crashed.set_value([LONE]).run()
    assert not at.exception, [e.message for e in at.exception]
    assert next(m for m in at.multiselect if m.key.startswith("rebalance.crashed")).value == [LONE]
    if preset == "share-group":
        changes = next(d.value for d in at.dataframe if SHOWN in set(d.value.iloc[:, 0]))
        assert len(changes) == 3
    assert _mentions(_shown(at))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("preset, old", [("share-group", "C3"), ("seed-d", "C1")])
def test_compare(preset: str, old: str, language: str) -> None:
    """The differences table and the lazy sections' tables (the consumer-vs-share and the group types ones,
    opened) name the member."""
    at = _opened("12_Compare.py", _link(preset, old, LONE), language,
                 {"compare.share_view": True, "compare.streams_view": True})
    assert _tables_with(at)
    assert _options(at)  # the step selector
    assert _mentions(_shown(at))


def test_a_member_chosen_by_its_escaped_label_is_the_real_member() -> None:
    """The events form's consumer choice shows ``C\\ud800x`` and answers ``"C\\ud800x"`` itself: the event built
    from it makes that member leave."""
    at = _opened("2_Rebalance.py", _link("share-group", "C0", LONE), "en", {"rebalance.source": "events"})
    at.selectbox(key="rebalance.kind").set_value("remove").run()
    member = at.selectbox(key="rebalance.member")
    assert SHOWN in member.options
    member.set_value(LONE).run()
    assert at.selectbox(key="rebalance.member").value == LONE
    at.button(key="rebalance.add_event").click().run()
    assert not at.exception and not at.error, [e.message for e in at.exception]
    changes = next(d.value for d in at.dataframe if "gained" in d.value.columns)
    assert list(changes["member"])[-1] == SHOWN and list(changes["change"])[-1] == "left"


@pytest.mark.parametrize("page", ["1_Assignments.py", "2_Rebalance.py", "12_Compare.py"])
def test_a_scenario_name_with_a_lone_surrogate(page: str) -> None:
    """The sidebar shows the scenario's name (a custom scenario): escaped like an id."""
    from engine.presets import build_preset
    from engine.scenario import parse_scenario, scenario_to_json
    from ui.frame.state import encode_scenario

    document = scenario_to_json(build_preset("seed-d")) | {"name": "orders \udc00 group"}
    at = _opened(page, encode_scenario(parse_scenario(document)), "en")
    assert any(t.value.startswith("orders \\udc00 group\n") for t in at.sidebar.text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_topic_name_with_a_lone_surrogate(language: str) -> None:
    """A topic of the scenario must be a legal Kafka topic name ([a-zA-Z0-9._-]), so a link holding
    ``"t\\udc00y"`` is refused in one line that names it escaped, and the page shows the default scenario; a
    member may still subscribe to such a name (a topic that does not exist), beside a member id holding one."""
    import base64
    import zlib

    from engine.presets import build_preset
    from engine.scenario import scenario_to_json

    document = _swapped(scenario_to_json(build_preset("seed-d")), "t1", "t\udc00y")
    text = json.dumps(document)  # ASCII: the lone surrogate as \udc00, as a saved file holds it
    code = base64.urlsafe_b64encode(zlib.compress(text.encode("ascii"), 9)).decode("ascii").rstrip("=")
    at = _opened("1_Assignments.py", code, language)
    assert any("t\\udc00y" in e.value for e in at.sidebar.error)
    subscribed = scenario_to_json(build_preset("share-group"))
    for member in subscribed["members"]:
        member["topics"].append("t\udc00y")
    from engine.scenario import parse_scenario
    from ui.frame.state import encode_scenario

    code = encode_scenario(parse_scenario(_swapped(subscribed, "C3", LONE)))
    for page in ("1_Assignments.py", "2_Rebalance.py", "12_Compare.py"):
        at = _opened(page, code, language)
        assert not at.sidebar.error and _mentions(_shown(at))


def test_downloads_are_utf8_and_json_gives_back_the_real_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    """Downloads are bytes: each is valid UTF-8.  The JSON writes the lone surrogate as JSON's own escape, so
    it reads back as the real id; a CSV has no escapes and holds the id as the page shows it."""
    from streamlit.runtime.media_file_manager import MediaFileManager

    registered: dict[str, Callable[[], object]] = {}
    real = MediaFileManager.add_deferred

    def add_deferred(self: MediaFileManager, fn: Callable[[], object], *args: object, **kwargs: object) -> str:
        registered[str(kwargs.get("file_name"))] = fn
        return real(self, fn, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(MediaFileManager, "add_deferred", add_deferred)
    _opened("1_Assignments.py", _link("seed-d", "C1", LONE), "en")  # 3 consumers, 8 partitions: each reads some
    made = {name: fn() for name, fn in registered.items()}
    files = {name: (data if isinstance(data, bytes) else str(data).encode("utf-8")).decode("utf-8-sig")
             for name, data in made.items()}  # .encode: what Streamlit sends; it fails on a lone surrogate
    by_label = json.loads(files["assignments.json"])
    members = {m for assignment in by_label.values() for m in assignment}
    assert LONE in members and SHOWN not in members
    rows = list(csv.DictReader(io.StringIO(files["assignments.csv"])))
    assert SHOWN in {r["member"] for r in rows}
    assert json.dumps(SHOWN) in files["assignments-handout.html"]  # its charts: "C\\ud800x" in their JSON
