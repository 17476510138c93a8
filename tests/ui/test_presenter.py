"""Presenter mode: ?present=1 and the toggle, the chart hook (fonts, PNG/SVG download at 1920x1080),
the offline HTML handout, prev/next stepping on Rebalance, and every page's choices in the share URL."""

from __future__ import annotations

import json

import plotly.graph_objects as go

from helpers import REPO, open_page


def _page(name: str, **params: str):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(REPO / "pages" / name), default_timeout=120)
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, at.exception
    return at


def _presenting(at) -> bool:
    return any("kpl-presenting" in m.value for m in at.markdown)


def test_present_query_turns_it_on_and_the_button_off() -> None:
    at = _page("11_Lessons.py", present="1")
    assert _presenting(at) and at.get("iframe")  # the CSS and the arrow-key script
    at.button(key="present.leave").click().run()
    assert not _presenting(at) and "present" not in at.query_params
    assert at.toggle(key="present.toggle").value is False  # the sidebar switch follows


def test_sidebar_toggle_turns_it_on_and_keeps_it_in_the_url() -> None:
    at = open_page("11_Lessons.py")
    assert not _presenting(at)
    at.toggle(key="present.toggle").set_value(True).run()
    assert _presenting(at) and at.query_params["present"] in ("1", ["1"])


def test_home_hides_the_builder_in_presenter_mode() -> None:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=120)
    at.query_params["present"] = "1"
    at.run()
    assert not at.exception and "Scenario builder" not in [h.value for h in at.header]


def test_charts_get_large_text_and_a_presentation_size_download() -> None:
    at = _page("1_Assignments.py", preset="seed-d", present="1")
    chart = at.get("plotly_chart")[0].proto
    config = json.loads(chart.config)["toImageButtonOptions"]
    assert (config["width"], config["height"], config["format"]) == (1920, 1080, "png")
    assert json.loads(chart.spec)["layout"]["font"]["size"] >= 19
    at.radio(key="present.format").set_value("svg").run()
    assert json.loads(at.get("plotly_chart")[0].proto.config)["toImageButtonOptions"]["format"] == "svg"


def test_presentation_figure_scales_every_font() -> None:
    from ui.frame.presenter import presentation_figure

    fig = go.Figure(go.Bar(x=[1], y=[2], textfont={"size": 10}), layout={"title": {"text": "t", "font": {"size": 20}},
                                                                         "xaxis": {"tickfont": {"size": 10}}})
    big = presentation_figure(fig, 2.0)
    assert big.layout.title.font.size == 40 and big.layout.xaxis.tickfont.size == 20 and big.data[0].textfont.size == 20
    assert fig.layout.title.font.size == 20  # the cached figure is not touched


def test_handout_is_one_offline_page() -> None:
    import pandas as pd

    from ui.frame.presenter import handout_html

    fig = go.Figure(go.Bar(x=["C0"], y=[3]))
    page = handout_html("Handout <1>", "intro", pd.DataFrame([{"strategy": "range", "spread": 1}]),
                        [("range", fig), ("sticky", fig)])
    assert page.startswith("<!doctype html>") and "Handout &lt;1&gt;" in page and "<td>range</td>" in page
    assert page.count("plotly.js v") == 1  # plotly.js inlined once: works offline
    assert "cdn.plot.ly" not in page.split("plotly.js v")[0]


def test_assignments_offers_the_handout() -> None:
    at = _page("1_Assignments.py", preset="seed-d")
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Handout (one-page HTML, works offline)" in labels


def test_rebalance_prev_next_buttons_and_step_in_url() -> None:
    at = _page("2_Rebalance.py", preset="seed-c")
    at.radio(key="rebalance.source").set_value("events").run()
    assert not at.exception
    keys = [b.key for b in at.button]
    assert "rebalance.prev" in keys and "rebalance.next" in keys
    assert at.query_params["rebalance.step"] in ("1", ["1"])
    at.button(key="rebalance.next").click().run()  # the default timeline has one rebalance: clamped
    assert not at.exception and at.query_params["rebalance.step"] in ("1", ["1"])


def test_rebalance_step_from_a_shared_link() -> None:
    from engine import Scenario, build_timeline, make_event
    from engine.presets import build_preset
    from ui.frame.state import encode_scenario

    base = build_preset("seed-d")
    two = build_timeline(base, [make_event("remove", member="C2"), make_event("remove", member="C0")]).scenario
    assert isinstance(two, Scenario) and len(two.steps) == 3
    at = _page("2_Rebalance.py", s=encode_scenario(two), **{"rebalance.step": "2"})
    assert [s.value for s in at.selectbox if s.label == "Rebalance"] == [2]
    at.button(key="rebalance.prev").click().run()
    assert [s.value for s in at.selectbox if s.label == "Rebalance"] == [1]
    assert at.query_params["rebalance.step"] in ("1", ["1"])


def test_page_choices_travel_in_the_url() -> None:
    at = _page("1_Assignments.py", preset="seed-d", **{"assign.step": "1", "assign.config_strategy": "sticky"})
    assert at.selectbox(key="assign.step").value == 1
    assert at.selectbox(key="assign.config_strategy").value == "sticky"
    at.selectbox(key="assign.step").set_value(0).run()
    assert at.query_params["assign.step"] in ("0", ["0"])


def test_bad_url_choices_are_ignored() -> None:
    at = _page("1_Assignments.py", preset="seed-d", **{"assign.step": "x", "assign.config_strategy": "nope"})
    assert at.selectbox(key="assign.step").value == 0


def test_lesson_deep_links_open_their_pages_with_the_same_numbers() -> None:
    from engine.lessons import course

    links: dict[str, dict[str, str]] = {}
    for s in (s for lesson in course() for s in lesson.steps if s.link and s.link.params):
        links.setdefault(s.link.page, dict(s.link.params))  # the first lesson that links each page with numbers
    keys = _page("3_Keys.py", **links["pages/3_Keys.py"])
    assert (keys.text_input(key="keys.partitions").value, keys.text_input(key="keys.remap_to").value) == ("12", "16")
    wheel = _page("5_Timing_Wheel.py", **links["pages/5_Timing_Wheel.py"])
    assert (wheel.text_input(key="wheel.tick_ms").value, wheel.text_input(key="wheel.wheel_size").value) == ("1", "20")
    sizing = _page("4_Sizing.py", **links["pages/4_Sizing.py"])
    assert sizing.text_input(key="sizing.target_mb_s").value == "205"  # 205 / 10 = 20.5: rounded up to 21
    protocol = _page("7_Group_Protocol.py", **links["pages/7_Group_Protocol.py"])
    assert protocol.text_input(key="protocol.restart_s").value == "30"


def test_presenter_css_enlarges_tables_and_widget_values() -> None:
    """Charts and text grew, tables and selectbox values did not.  A dataframe is a canvas (its font
    ignores CSS), so it is zoomed; st.table's cells, select values and typed inputs get the larger font."""
    from ui.frame.presenter import CSS

    rules = {selector.strip(): body for block in CSS.split("}") if "{" in block
             for body in [block.split("{")[1]] for selector in block.split("{")[0].split(",")}
    assert "zoom: 1.4" in rules['[data-testid="stDataFrame"]']
    for selector in ('[data-testid="stTable"] td', '[data-baseweb="select"] div',
                     '[data-testid="stNumberInputContainer"] input'):
        assert "font-size: 1.4rem" in rules[selector], selector
