"""Figures every session shares, drawn without being encoded again on every rerun.

A cached figure (``ui.<feature>.cached``) is ``frozen``: its ``to_dict()`` is made once and kept as a
``FrozenSpec``, a dict that also holds the figure's JSON, made at the same time.  ``st.plotly_chart`` asks Plotly
for that JSON on every rerun of every session (a 2,000-partition animation: tenths of a second);
``ui.frame.patches`` makes ``plotly.io.to_json`` answer a ``FrozenSpec`` with the JSON it holds.  A figure drawn
in another language or for a projector is a ``variant`` of the frozen one, made once for the whole server and
kept in the one cache (``ui.runtime.memo``, bounded by bytes) beside it.

>>> import plotly.graph_objects as go
>>> fig = frozen(go.Figure(go.Bar(x=["a"], y=[1])))
>>> fig.to_dict().json == fig.to_dict().json and isinstance(fig.to_dict(), FrozenSpec)
True
>>> variant(fig, "same", lambda f: f) is variant(fig, "same", lambda f: f)
True
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Hashable
from typing import Any

import plotly.graph_objects as go

from engine.charts.text import readable
from ui.runtime.memo import cached_call
from ui.text.display import display_figure_json

_tokens = itertools.count()


class FrozenSpec(dict[str, Any]):
    """A frozen figure's ``to_dict()`` with its JSON (``json``) and a token naming it in the cache
    (``token``).  A deep copy is a plain dict: a copy may be changed, its JSON would no longer be its own."""

    json: str
    token: int

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return copy.deepcopy(dict(self), memo)


def frozen(fig: go.Figure) -> go.Figure:
    """``fig`` with its tick labels made readable (``engine.charts.text.readable``: at least 12 px) and its
    ``to_dict()`` and JSON made once: the cached figure is never modified."""
    spec = FrozenSpec(readable(fig).to_dict())
    spec.json = _plain_to_json(spec, validate=False)
    spec.token = next(_tokens)
    fig.to_dict = lambda: spec
    fig._frozen_spec = spec
    return fig


def variant(fig: go.Figure, kind: Hashable, make: Callable[[go.Figure], go.Figure]) -> go.Figure:
    """``make(fig)``, frozen, made once per frozen figure and ``kind`` for the whole server; for a figure that
    is not frozen (drawn once), ``make(fig)`` itself."""
    spec = getattr(fig, "_frozen_spec", None)
    if spec is None:
        return make(fig)
    return cached_call(("figure variant", spec.token, kind), lambda: frozen(make(fig)))


def _plain_to_json(fig: Any, *args: Any, **kwargs: Any) -> str:
    """Plotly's own ``to_json``, its texts escaped for display (``ui.text.display.display_figure_json``)."""
    import plotly.io

    return display_figure_json(getattr(plotly.io.to_json, "__wrapped__", plotly.io.to_json), fig, *args, **kwargs)
