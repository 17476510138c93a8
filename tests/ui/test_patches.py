"""ui.frame.patches: every patched attribute of Streamlit and Plotly still exists with the signature its patch
expects, the installed versions are in the range requirements.txt declares, and each hook is installed.

A Streamlit or Plotly upgrade that renames, moves or changes one of them fails here, not silently on a page."""

from __future__ import annotations

import inspect

import pytest

from ui.frame import patches


@pytest.mark.parametrize("target", patches.TARGETS, ids=lambda t: f"{t.owner}.{t.name}")
def test_each_patched_attribute_exists_with_the_signature_the_patch_expects(target: patches.Target) -> None:
    assert target.problem() is None


def test_the_installed_versions_are_the_supported_ones() -> None:
    assert patches.version_problems() == []
    assert str(patches.supported("streamlit").specifier) and str(patches.supported("plotly").specifier)


def test_an_unexpected_signature_is_named_not_patched() -> None:
    moved = patches.Target("plotly.io", "to_json", ("figure",))
    gone = patches.Target("streamlit.runtime.scriptrunner:ScriptRunContext", "run_coordinator")
    assert "takes ('fig',), not ('figure',)" in (moved.problem() or "")
    assert "is gone" in (gone.problem() or "")


def test_install_reports_nothing_and_every_hook_is_in_place() -> None:
    import plotly.io
    import streamlit as st
    from streamlit.delta_generator import DeltaGenerator
    from streamlit.elements.arrow import ArrowMixin
    from streamlit.elements.plotly_chart import PlotlyMixin
    from streamlit.elements.table import TableMixin
    from streamlit.elements.widgets.button import ButtonMixin

    from ui.text import i18n

    assert patches.install() == ()
    for name in ("text", "markdown", "caption", "selectbox", "radio", "multiselect", "metric", "tabs", "dataframe",
                 "table", "download_button", "text_input"):
        assert getattr(getattr(DeltaGenerator, name), "__display_hook__", False), name
    for owner, name in ((ArrowMixin, "dataframe"), (TableMixin, "table"), (ButtonMixin, "download_button"),
                        (PlotlyMixin, "plotly_chart")):
        hooked = getattr(owner, name)
        assert hooked.__code__.co_filename == patches.__file__, name
        assert getattr(st, name).__func__ is hooked, f"st.{name} is not bound to the hook"
    assert plotly.io.to_json.__code__.co_filename == patches.__file__
    assert i18n._run_holder[0](type("Ctx", (), {"parallel_coordinator": "run"})()) == "run"
    assert inspect.unwrap(plotly.io.to_json) is not plotly.io.to_json


def test_sessions_starting_at_once_install_each_patch_once() -> None:
    """A fresh server's first runs call ``install`` from several script threads at once; a patch installed twice
    would wrap its own wrapper (``plotly.io.to_json``'s would then read a figure's JSON before it exists)."""
    import subprocess
    import sys

    from helpers import REPO

    code = (
        "import threading, plotly.io\n"
        "from ui.frame import patches\n"
        "start = threading.Barrier(8)\n"
        "def first_run():\n"
        "    start.wait()\n"
        "    patches.install()\n"
        "threads = [threading.Thread(target=first_run) for _ in range(8)]\n"
        "[t.start() for t in threads]; [t.join() for t in threads]\n"
        "inner = plotly.io.to_json.__wrapped__\n"
        "print(getattr(inner, '__wrapped__', None) is None)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120,
                         check=True)
    assert out.stdout.strip() == "True", out.stderr
