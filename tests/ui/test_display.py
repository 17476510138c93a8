"""ui.text.display: every text drawn is valid UTF-8, a lone surrogate shown as ``\\udXXX`` (as the CLI writes it)."""

from __future__ import annotations

import csv
import doctest
import io
import json

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io
import pyarrow as pa
import pytest

import ui.text.display
from ui.text.display import display_figure_json, display_frame, display_text, display_value, needs_escape

LONE = "C\ud800x"
SHOWN = "C\\ud800x"


def test_worked_example() -> None:
    assert doctest.testmod(ui.text.display).failed == 0


def test_display_text_escapes_lone_surrogates_only() -> None:
    assert display_text(LONE) == SHOWN
    assert display_text("\udc00") == "\\udc00"  # a lone low surrogate
    assert display_text("a\ud83d\ude00b") == "a\U0001f600b"  # a pair written as two characters: its character
    assert display_text("\ude00\ud83d") == "\\ude00\\ud83d"  # the wrong order is no pair
    assert display_text("消费者 C\ud800") == "消费者 C\\ud800"
    text = "plain C0 😀 中文"
    assert display_text(text) is text
    for value in (LONE, "\udfff", "x\ud800\ud800y"):
        display_text(value).encode("utf-8")  # never raises


def test_the_escape_is_the_clis() -> None:
    """``engine.inputs.encode_json`` writes a lone surrogate the same way, inside its JSON strings."""
    from engine.inputs import encode_json

    assert encode_json([LONE, "中文"]) == f'["{SHOWN}","中文"]'


def test_display_value_keeps_what_needs_nothing() -> None:
    items = ["C0", "C1", 3, None]
    nested = {"a": ["b", ("c",)], "n": np.array(["x", "y"], dtype=object)}
    assert display_value(items) is items and display_value(nested) is nested
    assert display_value(7) == 7 and display_value(None) is None


def test_display_value_escapes_nested_texts() -> None:
    assert display_value([LONE, 1, (LONE, "a")]) == [SHOWN, 1, (SHOWN, "a")]
    assert display_value({LONE: [LONE]}) == {SHOWN: [SHOWN]}
    array = display_value(np.array([[LONE, "a"], ["b", 2]], dtype=object))
    assert array.shape == (2, 2) and array[0, 0] == SHOWN and array[1, 1] == 2
    assert needs_escape([["a"], {"k": LONE}]) and not needs_escape([["a"], {"k": "v"}])


def test_a_frame_with_lone_surrogates_becomes_an_arrow_table() -> None:
    frame = pd.DataFrame({"member": [LONE, "C0"], LONE: [1, 2], "topics": [[LONE], ["t0"]]}, index=[LONE, "i"])
    with pytest.raises(UnicodeEncodeError):
        pa.Table.from_pandas(frame)
    shown = display_frame(frame)
    table = pa.Table.from_pandas(shown)
    assert table.column("member").to_pylist() == [SHOWN, "C0"] and SHOWN in table.column_names
    assert list(shown.index) == [SHOWN, "i"] and shown["topics"].iloc[0] == [SHOWN]
    assert frame["member"].iloc[0] == LONE  # the caller's frame is left as it was


def test_a_frame_without_them_is_the_same_object() -> None:
    frame = pd.DataFrame({"member": ["C0", "消费者"], "n": [1, 2], "c": pd.Categorical(["a", "b"])})
    assert display_frame(frame) is frame
    series = pd.Series(["C0"], name="m")
    assert display_frame(series) is series


def test_categories_series_and_stylers() -> None:
    frame = pd.DataFrame({"c": pd.Categorical([LONE, "a", LONE])})
    assert list(display_frame(frame)["c"].astype(str)) == [SHOWN, "a", SHOWN]
    series = display_frame(pd.Series([LONE], index=[LONE], name=LONE))
    assert (list(series), list(series.index), series.name) == ([SHOWN], [SHOWN], SHOWN)
    styler = pd.DataFrame({"m": [LONE]}).style.highlight_max(axis=0, subset=[])
    assert list(display_frame(styler).data["m"]) == [SHOWN]


def test_downloads_round_trip() -> None:
    """JSON: ``\\udXXX`` is JSON's own escape, so the file reads back as the real ids.  CSV: no escapes exist,
    so the file holds the id as the page shows it (and reads back so)."""
    document = {LONE: ["t0-1"], "C0": [LONE]}
    text = display_text(json.dumps(document, ensure_ascii=False, indent=2))
    assert json.loads(text.encode("utf-8")) == document
    frame = pd.DataFrame({"member": [LONE, "C0"], "partition": [0, 1]})
    csv_text = display_text(frame.to_csv(index=False))
    rows = list(csv.DictReader(io.StringIO(csv_text.encode("utf-8").decode("utf-8"))))
    assert [r["member"] for r in rows] == [SHOWN, "C0"]


def test_chart_json_shows_the_escape() -> None:
    fig = go.Figure(go.Bar(x=[LONE, "C0"], y=[1, 2], name=LONE, hovertext=[LONE, "b"], customdata=[[LONE], ["c"]]))
    fig.update_layout(title_text=f"owner {LONE}")
    encode = getattr(plotly.io.to_json, "__wrapped__", plotly.io.to_json)
    spec = json.loads(display_figure_json(encode, fig, validate=False))
    trace = spec["data"][0]
    assert trace["x"] == [SHOWN, "C0"] and trace["name"] == SHOWN and trace["hovertext"][0] == SHOWN
    assert trace["customdata"][0] == [SHOWN] and spec["layout"]["title"]["text"] == f"owner {SHOWN}"
    plain = go.Figure(go.Bar(x=["C0", "😀"], y=[1, 2]))
    assert display_figure_json(encode, plain, validate=False) == encode(plain, validate=False)


def test_frozen_and_hooked_figures_show_the_escape() -> None:
    from ui.frame.figures import frozen
    from ui.frame.patches import install

    install()
    held = frozen(go.Figure(go.Scatter(x=[1], y=[LONE], text=[LONE])))
    assert json.loads(plotly.io.to_json(held.to_dict(), validate=False))["data"][0]["y"] == [SHOWN]
    loose = go.Figure(go.Scatter(x=[1], y=[LONE]))
    assert json.loads(plotly.io.to_json(loose, validate=False))["data"][0]["y"] == [SHOWN]


def _hooked_page() -> None:
    """An app script: every kind of text a page draws, each holding a lone surrogate."""
    import pandas as pd
    import plotly.graph_objects as go
    import streamlit as st

    from ui.frame.patches import install

    install()
    lone = "C\ud800x"
    ids = [lone, "C0"]
    st.title(f"group {lone}")
    st.markdown(f"**{lone}** leaves")
    st.caption(lone, help=lone)
    st.sidebar.text(lone)
    left, right = st.columns(2)
    left.metric(lone, lone, delta=lone)
    right.info(lone)
    st.session_state["picked"] = st.selectbox(lone, ids, key="box")
    st.session_state["labelled"] = st.selectbox("labelled", ids, format_func=lambda m: f"member {m}", key="fmt")
    st.session_state["radio"] = st.radio("r", ids, key="radio_in")
    st.session_state["many"] = st.multiselect("m", ids, default=[lone], key="many_in")
    st.session_state["slid"] = st.select_slider("s", ids, value=lone, key="slider")
    st.session_state["pill"] = st.pills("p", ids, default=lone, key="pills")
    st.session_state["typed"] = st.text_input("t", lone, key="typed_in")
    tab, _ = st.tabs([lone, "other"])
    tab.dataframe(pd.DataFrame({"member": ids, lone: [1, 2]}))
    with st.expander(lone):
        st.table(pd.DataFrame({"member": ids}))
    st.download_button(lone, f'{{"{lone}": 1}}', f"{lone}.json", "application/json", key="dl")
    st.plotly_chart(go.Figure(go.Bar(x=ids, y=[1, 2], name=lone)), key="chart")


def test_the_hooks_draw_every_text_escaped_and_widgets_answer_the_real_ids() -> None:
    from streamlit.testing.v1 import AppTest

    from support.rendered_text import rendered_texts

    at = AppTest.from_function(_hooked_page, default_timeout=60).run()
    assert not at.exception, [e.message for e in at.exception]
    texts = rendered_texts(at)
    assert not [t for t in texts if "\ud800" in t]
    assert {f"group {SHOWN}", f"**{SHOWN}** leaves", SHOWN} <= set(texts)
    assert at.selectbox(key="box").options == [SHOWN, "C0"] and at.session_state["picked"] == LONE
    assert at.selectbox(key="fmt").options == [f"member {SHOWN}", "member C0"]
    assert at.session_state["labelled"] == LONE and at.session_state["radio"] == LONE
    assert at.session_state["many"] == [LONE] and at.session_state["slid"] == LONE
    assert at.session_state["pill"] == LONE and at.session_state["typed"] == SHOWN  # typed text: as shown
    at.selectbox(key="box").set_value("C0").run()
    assert at.session_state["picked"] == "C0"
    at.selectbox(key="box").set_value(LONE).run()
    assert at.session_state["picked"] == LONE
    assert [t.label for t in at.tabs][:1] == [SHOWN] and at.metric[0].value == SHOWN
    assert list(at.dataframe[0].value["member"]) == [SHOWN, "C0"] and SHOWN in at.dataframe[0].value.columns
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert chart["data"][0]["x"] == [SHOWN, "C0"] and chart["data"][0]["name"] == SHOWN
