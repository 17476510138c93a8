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
    assert _presenting(at) and any("kplPresenterKeys" in h.proto.body for h in at.get("html"))  # the keys' script
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

    links = {s.id: dict(s.link.params) for lesson in course() for s in lesson.steps if s.link}
    keys = _page("3_Keys.py", **links["keys.remap"])
    assert (keys.text_input(key="keys.partitions").value, keys.text_input(key="keys.remap_to").value) == ("12", "16")
    wheel = _page("5_Timing_Wheel.py", **links["wheel.level"])
    assert (wheel.text_input(key="wheel.tick_ms").value, wheel.text_input(key="wheel.wheel_size").value) == ("1", "20")
    sizing = _page("4_Sizing.py", **links["sizing.partitions"])
    assert sizing.text_input(key="sizing.target_mb_s").value == "205"  # 205 / 10 = 20.5: rounded up to 21
    protocol = _page("7_Group_Protocol.py", **links["static.dynamic"])
    # the link names section 5's fields (protocol.restart_s, protocol.restart_session): it opens that lazy
    # expander (ui.frame.lazy.linked, as Replicas and Partition Log do), or the lesson's numbers are not on the page
    assert protocol.session_state["protocol.restart_view"], "the lesson link left section 5 closed"
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


def _font_sizes(node, in_font: bool = False):
    """Every font ``size`` in a Plotly JSON node."""
    if isinstance(node, dict):
        for k, v in node.items():
            if in_font and k == "size" and isinstance(v, (int, float)):
                yield v
            else:
                yield from _font_sizes(v, "font" in k)
    elif isinstance(node, list):
        for v in node:
            yield from _font_sizes(v, in_font)


def test_presentation_figure_writes_in_the_sizes_left_to_the_theme() -> None:
    """Streamlit's Plotly theme draws what a figure leaves unsized at 16 (title), 14 (axis titles) and 12 px
    (legend, ticks, annotations): presenter mode writes those in, times 1.6, so they grow with the text."""
    from plotly.subplots import make_subplots

    from ui.frame.presenter import FONT_SCALE, MIN_CHART_FONT, presentation_figure

    fig = make_subplots(rows=1, cols=2)
    fig.add_trace(go.Scatter(x=[1], y=[2], name="a"), row=1, col=1)
    fig.add_trace(go.Heatmap(z=[[1, 2]], xaxis="x2", yaxis="y2"), row=1, col=2)
    fig.add_trace(go.Pie(values=[1, 2], domain={"x": [0, 0.1], "y": [0, 0.1]}))
    fig.update_layout(title="t", legend={"title": {"text": "who"}}, annotations=[{"text": "note", "x": 0, "y": 0}])
    fig.frames = [go.Frame(data=[go.Scatter(textfont={"size": 10})])]
    big = presentation_figure(fig).to_plotly_json()
    layout = big["layout"]
    assert layout["font"]["size"] == MIN_CHART_FONT == 19.2 and FONT_SCALE == 1.6
    assert layout["title"]["font"]["size"] == 25.6 and layout["title"]["text"] == "t"
    assert layout["legend"]["font"]["size"] == 19.2 and layout["legend"]["title"]["font"]["size"] == 19.2
    for axis in ("xaxis", "yaxis", "xaxis2", "yaxis2"):
        assert layout[axis]["title"]["font"]["size"] == 22.4 and layout[axis]["tickfont"]["size"] == 19.2, axis
    assert "xaxis3" not in layout  # the pie has no axes: none made for it
    assert layout["annotations"][0]["font"]["size"] == 19.2 and layout["hoverlabel"]["font"]["size"] == 19.2
    assert big["data"][1]["colorbar"]["tickfont"]["size"] == 19.2
    assert big["frames"][0]["data"][0]["textfont"]["size"] == 16  # animation frames scaled too
    assert min(_font_sizes(big["layout"])) >= MIN_CHART_FONT
    assert "font" not in fig.layout.legend.to_plotly_json()  # the cached figure is not touched


def test_share_delivery_timeline_is_legible_in_presenter_mode() -> None:
    """The figure Share Delivery sends in presenter mode: every font at least the presenter's minimum (legend
    19.2 px, was 12), delivery counts in a contrasting colour, the rows named by their first offset; the
    numbers on the squares are the engine's delivery counts, as without presenter mode."""
    from ui.frame.presenter import MIN_CHART_FONT

    plain = json.loads(_page("13_Share_Delivery.py").get("plotly_chart")[0].proto.spec)
    spec = json.loads(_page("13_Share_Delivery.py", present="1").get("plotly_chart")[0].proto.spec)
    layout = spec["layout"]
    assert layout["legend"]["font"]["size"] == 19.2 and layout["title"]["font"]["size"] == 25.6
    assert layout["yaxis"]["tickfont"]["size"] == 19.2 and layout["yaxis"]["title"]["font"]["size"] == 22.4
    assert all(t["textfont"]["size"] >= MIN_CHART_FONT for t in spec["data"])
    assert min(_font_sizes(layout)) >= MIN_CHART_FONT and min(_font_sizes(spec["data"])) >= MIN_CHART_FONT
    assert layout["yaxis"]["ticktext"] == ["0", "20", "40"]  # 60 records: three rows of 20 offsets
    assert [t["text"] for t in spec["data"]] == [t["text"] for t in plain["data"]]  # the same counts
    assert [f["data"] for f in spec["frames"]] == [f["data"] for f in plain["frames"]]


def test_share_delivery_labels_fewer_rows_when_crowded() -> None:
    from engine.charts.share_delivery import MAX_ROW_LABELS, delivery_animation, row_labels
    from engine.share.consumers import Workload
    from engine.share.timeline import MAX_TIMELINE_RECORDS, build_timeline

    fig = delivery_animation(build_timeline(Workload(records=MAX_TIMELINE_RECORDS, consumers=2, failure=None)))
    assert len(fig.layout.yaxis.tickvals) <= MAX_ROW_LABELS < MAX_TIMELINE_RECORDS // 20
    assert list(fig.layout.yaxis.ticktext[:2]) == ["0", "40"]
    assert row_labels(10) == (list(range(10)), [str(20 * r) for r in range(10)])  # ten rows: every row


def test_language_switch_in_the_presenter_bar() -> None:
    """The sidebar is hidden in presenter mode: the bar holds English | 简体中文 beside Leave presenter mode."""
    from ui.frame.layout import BAR_SWITCH_KEY, SWITCH_KEY

    at = _page("11_Lessons.py", present="1")
    assert [s.key for s in at.selectbox if s.key == SWITCH_KEY] == []  # not drawn in the hidden sidebar
    switch = at.segmented_control(key=BAR_SWITCH_KEY)
    assert switch.value == "en" and at.title[0].value == "Guided lessons"
    switch.set_value("zh").run()
    assert not at.exception and _presenting(at)
    assert at.title[0].value == "引导课程" and at.query_params["lang"] in ("zh", ["zh"])
    assert at.segmented_control(key=BAR_SWITCH_KEY).value == "zh"
    at.button(key="present.leave").click().run()  # out of presenter mode: the sidebar's switch, still Chinese
    assert not _presenting(at) and at.selectbox(key=SWITCH_KEY).value == "zh" and at.title[0].value == "引导课程"


def test_arrow_keys_scroll_the_stepped_section_into_view() -> None:
    """The key script clicks *.next / *.prev, waits for the run, then scrolls the last h2 / h3 above the step
    buttons to the top (also when a page opens in presenter mode); the table rows are tighter."""
    from ui.frame.presenter import CSS, KEYS_JS

    assert "scrollIntoView" in KEYS_JS and "data-test-script-state" in KEYS_JS
    assert "afterRun(showStep);  // a page opened" in KEYS_JS
    assert "line-height: 1.35" in CSS and "scroll-margin-top" in CSS
