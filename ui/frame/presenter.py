"""Presenter mode: a projector view of every page (``?present=1`` or the sidebar toggle).

* ``apply()`` (called by ``ui.frame.layout.page_setup``) injects one CSS block that hides the sidebar and the
  toolbar and enlarges the text, tables (a dataframe is drawn on a canvas: zoomed, since its font ignores CSS)
  and the values of selectboxes and inputs, and a tiny script (``st.html`` with its JavaScript allowed, run in
  the app's document: no iframe to load) that clicks the page's namespaced ``*.prev`` / ``*.next`` buttons on
  ArrowLeft / ArrowRight (Streamlit has no key events).  Once the
  run a key started has finished (and when a page opens in presenter mode), the script scrolls the section being
  stepped (the last ``h2`` / ``h3`` above the ``*.next`` button: a lesson's title, then its table and question)
  to the top of the window, so a step fits a 1280 x 720 projector without the presenter scrolling.
* ``apply()`` answers the presenter bar (``present.bar``, one compact row at the top: Leave presenter mode; the
  page chrome adds the language switch, ``ui.frame.layout``), since the sidebar is hidden.
* Charts: ``chart_config()`` is the one Plotly config every chart gets (the modebar camera downloads a PNG or an
  SVG at presentation size, 1920 x 1080); ``presentation_figure`` scales every font of a figure, the sizes a
  figure leaves to Streamlit's Plotly theme (title, legend, axis titles, ticks, annotations) included.  Both
  are applied in one place: ``ui.frame.patches`` wraps ``st.plotly_chart`` once per process, and the wrapper
  reads this session's choices, so no page changes.
* ``handout_html``: one offline HTML page of a table and figures.
* ``step_buttons`` draws previous / next buttons for a keyed step selector (the keyboard's targets).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ui.text.display import display_value
from ui.text.i18n import _

MODE = "present.mode"  # the session's choice (not a widget key: survives page switches)
TOGGLE = "present.toggle"
FORMAT = "present.format"
QUERY_KEY = "present"
BAR = "present.bar"  # the presenter bar's container: Leave presenter mode and the language switch
FONT_SCALE = 1.6  # presenter text is 1.6rem: every chart font grows by the same factor
# The sizes (px) Streamlit's Plotly theme gives what a figure leaves unsized (streamlit 1.67, PlotlyChart's
# CustomTheme: fontSizes.twoSm 12, sm 14, md 16); presenter mode writes them, scaled, into the figure.
THEME_SIZES = {"font": 12, "title": 16, "legend": 12, "legend_title": 12, "axis_title": 14, "tick": 12,
               "annotation": 12, "hoverlabel": 12, "colorbar_title": 14}
MIN_CHART_FONT = round(min(THEME_SIZES.values()) * FONT_SCALE, 1)  # px: the smallest chart text presented (19.2)
CARTESIAN = frozenset({"scatter", "scattergl", "bar", "box", "violin", "histogram", "histogram2d",
                       "histogram2dcontour", "heatmap", "contour", "waterfall", "funnel", "candlestick", "ohlc",
                       "image"})
COLORBAR = frozenset({"heatmap", "contour", "histogram2d", "histogram2dcontour"})  # a colour bar unless hidden
_AXIS = re.compile(r"^[xy]axis\d*$")
EXPORT_SIZE = (1920, 1080)
FORMATS = ("png", "svg")

CSS = """<style>
section[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stHeader"],
[data-testid="stToolbar"], [data-testid="stDecoration"] {display: none !important;}
[data-testid="stMainBlockContainer"] {max-width: 100% !important; padding-top: 1.5rem !important;}
[data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li, [data-testid="stCaptionContainer"],
[data-testid="stWidgetLabel"] p, .stButton button p, [data-testid="stAlertContainer"] p {font-size: 1.6rem !important;}
h1 {font-size: 3.4rem !important;} h2 {font-size: 2.6rem !important;} h3 {font-size: 2.1rem !important;}
[data-testid="stTable"] th, [data-testid="stTable"] td {padding: 0.3rem 0.6rem !important; line-height: 1.35 !important;
}
[data-testid="stTable"] table, [data-testid="stTable"] th, [data-testid="stTable"] td {font-size: 1.4rem !important;}
[data-testid="stDataFrame"] {zoom: 1.4;}
[data-baseweb="select"] div, [data-baseweb="select"] input, [data-baseweb="tag"] span, [data-baseweb="popover"] li,
[data-testid="stNumberInputContainer"] input, [data-testid="stTextInputRootElement"] input,
[data-testid="stTextArea"] textarea {font-size: 1.4rem !important;}
.st-key-present-keys {display: none !important;}
[data-testid="stHeading"] {scroll-margin-top: 0.75rem;}
.st-key-present-bar {gap: 0.75rem !important;}
.st-key-present-bar .stButton button p,
.st-key-present-bar [data-testid="stButtonGroup"] p {font-size: 1.1rem !important;}
</style>"""

KEYS_JS = """<script>
const doc = window.parent.document;
if (!doc.kplPresenterKeys) {
  doc.kplPresenterKeys = true;
  const win = window.parent;
  const keyed = (dir) => [...doc.querySelectorAll("[class*='st-key-']")].find(
    (el) => [...el.classList].some((c) => c.startsWith("st-key-") && c.endsWith("-" + dir)));
  const showStep = () => {  // the stepped section's heading (the last h2 / h3 above *.next) at the top
    const box = keyed("next") || keyed("prev");
    if (!box || !doc.querySelector(".kpl-presenting")) return;
    const heads = [...doc.querySelectorAll("[data-testid='stMain'] h2, [data-testid='stMain'] h3")].filter(
      (h) => h.compareDocumentPosition(box) & 4);  // DOCUMENT_POSITION_FOLLOWING: the buttons come after it
    const head = heads[heads.length - 1];
    if (head) (head.closest("[data-testid='stElementContainer']") || head).scrollIntoView({block: "start"});
  };
  const afterRun = (then) => {  // once the run a click started has finished (or none started in 1.5 s)
    const app = doc.querySelector("[data-testid='stApp']");
    const start = Date.now();
    let ran = false;
    const poll = () => {
      const state = app ? app.getAttribute("data-test-script-state") : "notRunning";
      ran = ran || state === "running";
      if ((ran && state !== "running") || (!ran && Date.now() - start > 1500)) {
        win.requestAnimationFrame(() => win.requestAnimationFrame(then));
      } else if (Date.now() - start < 60000) {
        win.setTimeout(poll, 40);
      }
    };
    poll();
  };
  doc.addEventListener("keydown", (e) => {
    const where = e.target && e.target.closest ? e.target.closest("input, textarea, [contenteditable]") : null;
    const dir = e.key === "ArrowRight" ? "next" : (e.key === "ArrowLeft" ? "prev" : null);
    if (where || !dir || !doc.querySelector(".kpl-presenting")) return;
    const box = keyed(dir);
    const button = box && box.querySelector("button:not([disabled])");
    if (button) { e.preventDefault(); button.click(); afterRun(showStep); }
  });
  afterRun(showStep);  // a page opened in presenter mode: at its step
}
</script>"""


def presenting() -> bool:
    """This session's presenter mode: the toggle, else ``?present=1``; kept in the URL while on."""
    ss = st.session_state
    if MODE not in ss:
        ss[MODE] = str(st.query_params.get(QUERY_KEY, "")).strip().lower() in ("1", "true", "yes", "on")
    if ss[MODE] and st.query_params.get(QUERY_KEY) != "1":
        st.query_params[QUERY_KEY] = "1"
    elif not ss[MODE] and QUERY_KEY in st.query_params:
        del st.query_params[QUERY_KEY]
    return bool(ss[MODE])


def _set_mode(on: bool) -> None:
    st.session_state[MODE] = st.session_state[TOGGLE] = on


def apply() -> DeltaGenerator | None:
    """Once per run, before anything is drawn: in presenter mode the CSS, the keys and the presenter bar (one
    row: Leave presenter mode, then what the caller adds: the language switch); ``None`` when not presenting."""
    if not presenting():
        return None
    st.markdown(CSS + '<span class="kpl-presenting"></span>', unsafe_allow_html=True)
    with st.container(key="present.keys"):  # hidden by CSS
        st.html(KEYS_JS, unsafe_allow_javascript=True)  # in the app's document: no iframe to load
    bar = st.container(key=BAR, horizontal=True, vertical_alignment="center")
    bar.button(_("Leave presenter mode"), key="present.leave", icon=":material/close_fullscreen:",
               on_click=_set_mode, args=(False,), type="tertiary")
    return bar


def render_toggle() -> None:
    """The sidebar switch (hidden with the sidebar in presenter mode; ``Leave presenter mode`` turns it off)."""
    st.session_state.setdefault(TOGGLE, presenting())
    st.toggle(_("Presenter mode"), key=TOGGLE, on_change=lambda: _set_mode(bool(st.session_state[TOGGLE])),
              help=_("Projector view: no sidebar or builder, large text; ArrowLeft / ArrowRight step through "
                     "a rebalance or a lesson. Also ?present=1 in the URL."))
    st.radio(_("Chart downloads"), FORMATS, key=FORMAT, horizontal=True, format_func=str.upper,
             help=_("The camera icon of every chart saves it at 1920 x 1080 in this format."))


def chart_config(name: str = "kafka-partition-lab") -> dict[str, Any]:
    """The Plotly config of every chart: its own download button at presentation size."""
    width, height = EXPORT_SIZE
    fmt = st.session_state.get(FORMAT) if st.session_state.get(FORMAT) in FORMATS else "png"
    return {"displaylogo": False, "toImageButtonOptions": {"format": fmt, "filename": name, "width": width,
                                                           "height": height, "scale": 1}}


def _scaled(node: Any, factor: float, in_font: bool = False) -> Any:
    """A copy of a Plotly JSON node with every font ``size`` multiplied by ``factor``."""
    if isinstance(node, dict):
        return {k: (round(v * factor, 1) if in_font and k == "size" and isinstance(v, (int, float))
                    else _scaled(v, factor, "font" in k)) for k, v in node.items()}
    if isinstance(node, list):
        return [_scaled(v, factor, in_font) for v in node]
    return node


def _sized(node: dict[str, Any], key: str, size: float) -> None:
    """``node[key]`` (a font) gets ``size`` unless it has one (already scaled)."""
    font = node.get(key)
    if not isinstance(font, dict):
        font = node[key] = {}
    if not isinstance(font.get("size"), (int, float)):
        font["size"] = size


def _titled(node: dict[str, Any], size: float) -> None:
    """``node``'s title font gets ``size`` unless it has one (a bare string title becomes ``{"text": ...}``)."""
    title = node.get("title")
    if isinstance(title, str):
        title = node["title"] = {"text": title}
    if not isinstance(title, dict):
        title = node["title"] = {}
    _sized(title, "font", size)


def _colorbar(bar: dict[str, Any], factor: float) -> None:
    _titled(bar, round(THEME_SIZES["colorbar_title"] * factor, 1))
    _sized(bar, "tickfont", round(THEME_SIZES["tick"] * factor, 1))


def _theme_sizes(layout: dict[str, Any], data: list[dict[str, Any]], factor: float) -> None:
    """Every font the figure leaves to the theme (Streamlit's, ``THEME_SIZES``) written in, scaled: the title,
    the legend and its title, each cartesian axis's title and ticks, annotations, hover labels, colour bars."""
    size = {name: round(px * factor, 1) for name, px in THEME_SIZES.items()}
    _sized(layout, "font", size["font"])
    _titled(layout, size["title"])
    legend = layout.setdefault("legend", {})
    _sized(legend, "font", size["legend"])
    if isinstance(legend.get("title"), (dict, str)):
        _titled(legend, size["legend_title"])
    axes = {name for name in layout if _AXIS.match(name)}
    for trace in data:
        if trace.get("type", "scatter") in CARTESIAN:
            axes |= {f"{axis}axis{str(trace.get(f'{axis}axis') or axis)[1:]}" for axis in ("x", "y")}
        if trace.get("type") in COLORBAR and trace.get("showscale") is not False and not trace.get("coloraxis"):
            trace.setdefault("colorbar", {})
        marker = trace.get("marker")
        if isinstance(marker, dict) and marker.get("showscale"):
            marker.setdefault("colorbar", {})
        for holder in (trace, marker):
            if isinstance(holder, dict) and isinstance(holder.get("colorbar"), dict):
                _colorbar(holder["colorbar"], factor)
    for name in sorted(axes):
        axis = layout.setdefault(name, {})
        _titled(axis, size["axis_title"])
        _sized(axis, "tickfont", size["tick"])
    for note in layout.get("annotations") or []:
        _sized(note, "font", size["annotation"])
    _sized(layout.setdefault("hoverlabel", {}), "font", size["hoverlabel"])
    coloraxis = layout.get("coloraxis")
    if isinstance(coloraxis, dict) and isinstance(coloraxis.get("colorbar"), dict):
        _colorbar(coloraxis["colorbar"], factor)


def presentation_figure(fig: go.Figure, factor: float = FONT_SCALE) -> go.Figure:
    """``fig`` with every font enlarged for a projector: the sizes it sets (layout, traces, animation frames)
    multiplied by ``factor``, and the sizes it leaves to Streamlit's theme (title 16, axis titles 14, legend,
    ticks and annotations 12 px) written in, multiplied too; a set height grows by half as much."""
    data = fig.to_plotly_json()
    layout = _scaled(data.get("layout", {}), factor)
    traces = _scaled(data.get("data", []), factor)
    _theme_sizes(layout, traces, factor)
    if isinstance(layout.get("height"), (int, float)):
        layout["height"] = int(layout["height"] * (1 + (factor - 1) / 2))
    frames = _scaled(data.get("frames"), factor) if data.get("frames") else None
    return go.Figure(data=traces, layout=layout, frames=frames, skip_invalid=True)


def step_buttons(key: str, options: Sequence[Any], prefix: str) -> None:
    """Previous / next buttons (keys ``<prefix>.prev`` / ``<prefix>.next``) moving the selectbox ``key``."""
    def move(delta: int) -> None:
        current = st.session_state.get(key, options[0])
        index = list(options).index(current) if current in options else 0
        st.session_state[key] = options[min(max(index + delta, 0), len(options) - 1)]

    left, right = st.columns(2)
    left.button(_("Previous"), key=f"{prefix}.prev", icon=":material/arrow_back:", on_click=move, args=(-1,),
                width="stretch")
    right.button(_("Next"), key=f"{prefix}.next", icon=":material/arrow_forward:", on_click=move, args=(1,),
                 width="stretch")


def handout_html(title: str, intro: str, table: Any, figures: Sequence[tuple[str, go.Figure]]) -> str:
    """One offline HTML page: a heading, a table (a DataFrame) and the figures; plotly.js is inlined once."""
    import html


    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>",
             "<style>body{font-family:sans-serif;margin:2rem}table{border-collapse:collapse}"
             "td,th{border:1px solid #ccc;padding:4px 8px}</style></head><body>",
             f"<h1>{html.escape(title)}</h1><p>{html.escape(intro)}</p>", table.to_html(index=False)]
    for i, (heading, fig) in enumerate(figures):
        parts.append(f"<h2>{html.escape(heading)}</h2>")
        spec = fig.to_dict()
        if (shown := display_value(spec)) is not spec:  # a lone surrogate as the page shows it (ui.text.display)
            fig = go.Figure(shown, skip_invalid=True)
        parts.append(fig.to_html(full_html=False, include_plotlyjs=i == 0, config={"displaylogo": False}))
    return "".join(parts) + "</body></html>"
