"""Every patch of a third-party library, installed here and nowhere else, once per process (``install``).

What each patch does (the pages call Streamlit and Plotly as documented and get):

* every ``DeltaGenerator`` method that takes a text, a table or options draws valid UTF-8 (a lone surrogate
  as ``\\udXXX``, ``ui.text.display``); options stay the values the widget returns;
* ``st.dataframe`` / ``st.table``: column headers and prose cells in the session's language
  (``ui.text.i18n.translate_columns``); ``st.download_button``: CSV data with a UTF-8 byte-order mark;
* ``st.plotly_chart``: a Plotly figure in the session's language and, in presenter mode, with enlarged fonts
  (each a ``variant`` made once per cached figure, ``ui.frame.figures``), with the chart download config
  (``ui.frame.presenter.chart_config``);
* ``plotly.io.to_json``: a frozen figure's JSON is the one it holds (made once); every figure's texts escaped;
* ``current_language`` keeps the language it read on Streamlit's ``ScriptRunContext.parallel_coordinator``,
  an object Streamlit makes anew for every script run.

The versions these patches are written against are the ranges ``requirements.txt`` declares for
``streamlit`` and ``plotly``; ``install`` answers the lines a page shows when the installed version is outside
its range or a patched attribute is gone or has another signature (``TARGETS``), and leaves such a patch out
rather than breaking the page.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import threading
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement

from ui.frame.figures import FrozenSpec, variant
from ui.frame.presenter import MODE, chart_config, presentation_figure
from ui.text import i18n
from ui.text.display import display_figure_json, display_text, display_value
from ui.text.i18n import DEFAULT_LANGUAGE, current_language, translate_columns, translate_figure, with_bom

REQUIREMENTS = Path(__file__).resolve().parents[2] / "requirements.txt"
PATCHED_PACKAGES = ("streamlit", "plotly")


@dataclass(frozen=True)
class Target:
    """One attribute a patch replaces or reads: ``owner`` (``module`` or ``module:Class``), ``name``, and the
    leading parameters the patch relies on, in order (a dataclass field: none)."""

    owner: str
    name: str
    params: tuple[str, ...] = ()

    def resolve(self) -> Any:
        """The class or module that holds the attribute."""
        module, _, cls = self.owner.partition(":")
        found = importlib.import_module(module)
        return getattr(found, cls) if cls else found

    def problem(self) -> str | None:
        """Why the patch cannot be installed on this version (``None``: it can)."""
        holder = self.resolve()
        if dataclasses.is_dataclass(holder) and not self.params:
            if self.name not in {f.name for f in dataclasses.fields(holder)}:
                return f"{self.owner}.{self.name} is gone"
            return None
        if not hasattr(holder, self.name):
            return f"{self.owner}.{self.name} is gone"
        params = tuple(inspect.signature(inspect.unwrap(getattr(holder, self.name))).parameters)
        if params[:len(self.params)] != self.params:
            return f"{self.owner}.{self.name} takes {params[:len(self.params)]}, not {self.params}"
        return None


DATAFRAME = Target("streamlit.elements.arrow:ArrowMixin", "dataframe", ("self", "data"))
TABLE = Target("streamlit.elements.table:TableMixin", "table", ("self", "data"))
DOWNLOAD = Target("streamlit.elements.widgets.button:ButtonMixin", "download_button",
                  ("self", "label", "data", "file_name", "mime"))
PLOTLY_CHART = Target("streamlit.elements.plotly_chart:PlotlyMixin", "plotly_chart", ("self", "figure_or_data"))
TO_JSON = Target("plotly.io", "to_json", ("fig", "validate", "pretty", "remove_uids", "engine"))
RUN_CONTEXT = Target("streamlit.runtime.scriptrunner:ScriptRunContext", "parallel_coordinator")
DELTA_GENERATOR = Target("streamlit.delta_generator:DeltaGenerator", "selectbox", ("self", "label", "options"))
TARGETS = (DELTA_GENERATOR, DATAFRAME, TABLE, DOWNLOAD, PLOTLY_CHART, TO_JSON, RUN_CONTEXT)


def supported(package: str) -> Requirement:
    """The range of ``package`` the patches are written against: its line in ``requirements.txt``."""
    for line in REQUIREMENTS.read_text(encoding="utf-8").splitlines():
        text = line.split("#", 1)[0].strip()
        if text and Requirement(text).name == package:
            return Requirement(text)
    raise LookupError(f"requirements.txt declares no range for {package}")


def version_problems() -> list[str]:
    """One line per patched package whose installed version is outside its declared range."""
    lines = []
    for package in PATCHED_PACKAGES:
        wanted = supported(package)
        try:
            found = version(package)
        except PackageNotFoundError:
            found = "none"
        if not wanted.specifier.contains(found, prereleases=True):
            lines.append(f"{package} {found} is installed; this dashboard supports {wanted} (requirements.txt): "
                         "translations, escaping and chart hooks may be missing")
    return lines


_INSTALLING = threading.Lock()
_installed: tuple[str, ...] | None = None


def install() -> tuple[str, ...]:
    """Once per process, whichever session's first run calls it first (the others wait: a patch installed twice
    would wrap its own wrapper): every patch whose target is as expected; the lines naming an unsupported
    version or a patch left out (empty when all is well)."""
    global _installed
    with _INSTALLING:
        if _installed is None:
            _installed = _install_each()
        return _installed


def _install_each() -> tuple[str, ...]:
    lines = version_problems()
    patches: tuple[tuple[tuple[Target, ...], Callable[[], None]], ...] = (
        ((DELTA_GENERATOR,), _escape_texts), ((DATAFRAME, TABLE), _translate_tables), ((DOWNLOAD,), _csv_with_bom),
        ((PLOTLY_CHART,), _chart), ((TO_JSON,), _frozen_json), ((RUN_CONTEXT,), _language_per_run))
    for targets, patch in patches:
        problems = [problem for target in targets if (problem := target.problem()) is not None]
        if problems:
            lines += [f"not patched: {problem}" for problem in problems]
        else:
            patch()
    return tuple(lines)


def _rebind(name: str) -> None:
    """``st.<name>``, bound to the main container when Streamlit was imported, bound again to the patched
    method."""
    import streamlit as st

    bound = getattr(st, name, None)
    if getattr(bound, "__self__", None) is st._main:
        setattr(st, name, getattr(st._main, name))


# ------------------------------------------------------------------ every text drawn valid UTF-8 (ui.text.display)

TEXT_PARAMS = frozenset({"body", "label", "help", "caption", "captions", "placeholder", "text", "title", "alt",
                         "x_label", "y_label", "name", "file_name", "delta", "delta_description"})
OWN_TEXT: dict[str, frozenset[str]] = {  # a method's further parameters that are drawn as text
    "metric": frozenset({"value"}), "text_input": frozenset({"value"}), "text_area": frozenset({"value"}),
    "tabs": frozenset({"tabs", "default"}),  # ``default`` names a tab by its label
    "dataframe": frozenset({"data"}), "table": frozenset({"data"}), "download_button": frozenset({"data"}),
    "json": frozenset({"body"}),
}
OPTION_WIDGETS = frozenset({"selectbox", "radio", "multiselect", "select_slider", "pills", "segmented_control",
                            "menu_button"})  # options stay; their labels (format_func) are escaped


def _label_of(format_func: Callable[[Any], Any] | None) -> Callable[[Any], str]:
    shown = format_func or str

    def label(option: Any) -> str:
        text = shown(option)
        return display_text(text) if isinstance(text, str) else text

    label.__wrapped__ = shown  # type: ignore[attr-defined]
    return label


def _download_data(data: Any) -> Any:
    if callable(data):  # a lazy download stays lazy: escaped when it is made, on click
        made = data
        return lambda: _download_data(made())
    return display_text(data) if isinstance(data, str) else data


def _escaping(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    """``original`` (a ``DeltaGenerator`` method) with its text parameters and its options' labels escaped."""
    params = list(inspect.signature(original).parameters)[1:]  # after self
    texts = TEXT_PARAMS | OWN_TEXT.get(name, frozenset())
    positions = {i: p for i, p in enumerate(params) if p in texts}
    options = name in OPTION_WIDGETS and "format_func" in params
    format_at = params.index("format_func") if options else -1
    default_format = inspect.signature(original).parameters["format_func"].default if options else None

    def escaped(param: str, value: Any) -> Any:
        if name == "download_button" and param == "data":
            return _download_data(value)
        return display_value(value)

    @functools.wraps(original)
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        if positions:
            args = tuple(escaped(positions[i], a) if i in positions else a for i, a in enumerate(args))
            for param in texts.intersection(kwargs):
                kwargs[param] = escaped(param, kwargs[param])
        if options:
            if len(args) > format_at:
                args = (*args[:format_at], _label_of(args[format_at]), *args[format_at + 1:])
            else:
                given = kwargs.get("format_func", default_format)
                kwargs["format_func"] = _label_of(given if given is not inspect.Parameter.empty else None)
        return original(self, *args, **kwargs)

    method.__display_hook__ = True  # type: ignore[attr-defined]
    return method


def _escape_texts() -> None:
    """Every element and widget method of ``DeltaGenerator`` that takes a text, a table or options (``st.*``,
    ``st.sidebar.*``, columns, tabs, containers) escapes what it draws, replaced on the class that defines it
    (the mixin), so every ``DeltaGenerator`` calls the escaping one."""
    from streamlit.delta_generator import DeltaGenerator

    for name in sorted(set(dir(DeltaGenerator))):
        if name.startswith("_"):
            continue
        owner = next((k for k in DeltaGenerator.__mro__ if name in vars(k)), None)
        original = vars(owner).get(name) if owner is not None else None
        if not inspect.isfunction(original) or getattr(original, "__display_hook__", False):
            continue
        try:
            params = set(list(inspect.signature(original).parameters)[1:])
        except (TypeError, ValueError):  # no signature to read: nothing known to escape
            continue
        if not params & (TEXT_PARAMS | OWN_TEXT.get(name, frozenset())) and name not in OPTION_WIDGETS:
            continue
        setattr(owner, name, _escaping(name, original))
        _rebind(name)


# ------------------------------------------------------------------ tables and downloads in the session's language


def _translated_table(original: Any) -> Any:
    @functools.wraps(original)
    def table(self: Any, data: Any = None, *args: Any, **kwargs: Any) -> Any:
        return original(self, translate_columns(data, current_language()), *args, **kwargs)

    return table


def _translate_tables() -> None:
    """``st.dataframe`` / ``st.table``: headers and prose cells translated (wrapping the escaping methods, so
    the translated text is the one escaped)."""
    from streamlit.elements.arrow import ArrowMixin
    from streamlit.elements.table import TableMixin

    ArrowMixin.dataframe = _translated_table(ArrowMixin.dataframe)  # type: ignore[method-assign]
    TableMixin.table = _translated_table(TableMixin.table)  # type: ignore[method-assign]
    _rebind("dataframe")
    _rebind("table")


def _csv_with_bom() -> None:
    """``st.download_button``: CSV data (made now or on click) with a UTF-8 byte-order mark."""
    from streamlit.elements.widgets.button import ButtonMixin

    original = ButtonMixin.download_button

    @functools.wraps(original)
    def download_button(self: Any, label: str, data: Any, file_name: str | None = None, mime: str | None = None,
                        *args: Any, **kwargs: Any) -> Any:
        if callable(data) and mime == "text/csv":
            made = data
            data = lambda: with_bom(made(), mime)  # noqa: E731 - lazy downloads stay lazy
        return original(self, label, with_bom(data, mime), file_name, mime, *args, **kwargs)

    ButtonMixin.download_button = download_button  # type: ignore[method-assign]
    _rebind("download_button")


# ------------------------------------------------------------------ charts


def _chart() -> None:
    """``st.plotly_chart`` (and the same method on columns, tabs...): a figure in the session's language, for a
    projector in presenter mode, with the chart download config."""
    import plotly.graph_objects as go
    import streamlit as st
    from streamlit.elements.plotly_chart import PlotlyMixin

    original = PlotlyMixin.plotly_chart

    @functools.wraps(original)
    def plotly_chart(self: Any, figure_or_data: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(figure_or_data, go.Figure):  # a cached figure's variants are made once (ui.frame.figures)
            language = current_language()
            if language != DEFAULT_LANGUAGE:
                figure_or_data = variant(figure_or_data, language, lambda f: translate_figure(f, language))
            if st.session_state.get(MODE):
                figure_or_data = variant(figure_or_data, "presenter", presentation_figure)
            kwargs["config"] = {**chart_config(str(kwargs.get("key") or "chart")), **(kwargs.get("config") or {})}
        return original(self, figure_or_data, *args, **kwargs)

    PlotlyMixin.plotly_chart = plotly_chart  # type: ignore[method-assign]
    _rebind("plotly_chart")


def _frozen_json() -> None:
    """``plotly.io.to_json`` of a ``FrozenSpec`` (what ``st.plotly_chart`` encodes for a frozen figure) is the
    JSON it holds; anything else is encoded by Plotly.  Either way every text in it is valid UTF-8 to draw."""
    import plotly.io

    original = plotly.io.to_json

    @functools.wraps(original)
    def to_json(fig: Any, validate: bool = True, pretty: bool = False, remove_uids: bool = True,
                engine: str | None = None) -> str:
        if isinstance(fig, FrozenSpec) and not pretty and remove_uids and engine is None:
            return fig.json
        return display_figure_json(original, fig, validate=validate, pretty=pretty, remove_uids=remove_uids,
                                   engine=engine)

    plotly.io.to_json = to_json


# ------------------------------------------------------------------ the language, read once per script run


def _language_per_run() -> None:
    """``current_language`` keeps its answer on the run's ``parallel_coordinator`` (made anew per run)."""
    i18n.keep_per_run(lambda ctx: getattr(ctx, RUN_CONTEXT.name, None))
