"""Page chrome every page shares: config, the patches and the door installed, the language switch, the
translated page list, title, caption."""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ui.frame import door, patches, presenter
from ui.frame.state import sync_url_widgets
from ui.text.i18n import LANGUAGES, STATE_KEY, current_language, normalise, tr

REPO = Path(__file__).resolve().parents[2]
SWITCH_KEY = "i18n.switch"  # the sidebar language widget's own key
BAR_SWITCH_KEY = "i18n.switch_bar"  # presenter mode's: the presenter bar's (the sidebar is hidden)


def page_files() -> list[str]:
    """``app.py`` and ``pages/<n>_<Name>.py`` in their number order (Streamlit's ``pages/`` discovery)."""
    pages = sorted((REPO / "pages").glob("*.py"), key=lambda p: int(p.stem.split("_", 1)[0]))
    return ["app.py", *(f"pages/{p.name}" for p in pages)]


def page_label(path: str) -> str:
    """A page's English name from its file: ``pages/5_Timing_Wheel.py`` -> ``Timing Wheel``; ``app.py`` -> ``Home``."""
    stem = Path(path).stem
    return "Home" if stem == "app" else stem.split("_", 1)[-1].replace("_", " ")


def page_links(container: object = None, home: bool = True) -> None:
    """Every page as a link with its name in the session's language (the sidebar's navigation).

    Links are relative to the entrypoint, ``app.py``; a page run on its own (AppTest) draws none."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None or Path(ctx.main_script_path).resolve() != REPO / "app.py":
        return
    for path in page_files()[0 if home else 1:]:
        (container or st).page_link(path, label=tr(page_label(path)))  # type: ignore[attr-defined]


def language_switch(bar: DeltaGenerator | None = None) -> None:
    """The language choice (kept in the URL as ``?lang=``): the sidebar's selectbox or, in presenter mode (the
    sidebar hidden), a compact ``English | 简体中文`` control in the presenter ``bar``.

    The choice lives in ``ui.text.i18n.STATE_KEY``, not in the widget's own key: Streamlit forgets a widget's
    value when the user follows a link to another page, the session's language must not."""
    key = SWITCH_KEY if bar is None else BAR_SWITCH_KEY

    def remember() -> None:
        chosen = st.session_state.get(key)
        if chosen is not None:
            st.session_state[STATE_KEY] = normalise(chosen)

    st.session_state[key] = current_language()
    if bar is None:
        st.sidebar.selectbox("Language · 语言", list(LANGUAGES), format_func=LANGUAGES.__getitem__, key=key,
                             on_change=remember)
    else:
        bar.segmented_control("Language · 语言", list(LANGUAGES), format_func=LANGUAGES.__getitem__, key=key,
                              required=True, on_change=remember, label_visibility="collapsed")


def page_setup(title: str, icon: str, caption: str) -> None:
    """Set the page config and draw the title (both already translated); call first on every page."""
    st.set_page_config(page_title=f"{title} · Kafka Partition Lab", page_icon=icon, layout="wide")
    for line in patches.install():  # a Streamlit or Plotly outside the supported range says so here
        st.warning(line, icon=":material/warning:")
    door.install()  # progress, Cancel and refusals shown the same way on every page
    bar = presenter.apply()  # presenter mode's CSS, arrow keys and bar (None when not presenting)
    sync_url_widgets()  # every page's choices in the share link, before any widget is drawn
    language_switch(bar)  # in the sidebar, or in the presenter bar (the sidebar is hidden)
    page_links(st.sidebar)
    st.title(title)  # the icon stays in the tab: headless browsers without an emoji font draw a box
    st.caption(caption)
