"""Page chrome every page shares: config, the language switch, the translated page list, title, caption."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from ui.i18n import install_hooks, language_switch, tr

REPO = Path(__file__).resolve().parent.parent


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


def page_setup(title: str, icon: str, caption: str) -> None:
    """Set the page config and draw the title (both already translated); call first on every page."""
    st.set_page_config(page_title=f"{title} · Kafka Partition Lab", page_icon=icon, layout="wide")
    install_hooks()  # table headers in the session's language, CSV downloads with a UTF-8 BOM
    from ui.presenter import apply as apply_presenter_mode

    apply_presenter_mode()  # presenter mode's CSS and arrow keys; every chart's download config
    from ui.state import sync_url_widgets

    sync_url_widgets()  # every page's choices in the share link, before any widget is drawn
    language_switch()
    page_links(st.sidebar)
    st.title(title)  # the icon stays in the tab: headless browsers without an emoji font draw a box
    st.caption(caption)
