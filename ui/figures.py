"""Figures every session shares, drawn without being encoded again on every rerun.

A cached figure (``ui.cached``) is ``frozen``: its ``to_dict()`` is made once and kept as a ``FrozenSpec``, a
dict that also holds the figure's JSON, made at the same time.  ``st.plotly_chart`` asks Plotly for that JSON on
every rerun of every session (a 2,000-partition animation: tenths of a second); ``install_json_cache`` makes
``plotly.io.to_json`` answer a ``FrozenSpec`` with the JSON it holds.  A figure drawn in another language or
for a projector is a ``variant`` of the frozen one, made once for the whole server and kept in the one cache
(``ui.memo``, bounded by bytes) beside it.

>>> import plotly.graph_objects as go
>>> fig = frozen(go.Figure(go.Bar(x=["a"], y=[1])))
>>> import plotly.io
>>> install_json_cache()
>>> plotly.io.to_json(fig.to_dict(), validate=False) is fig.to_dict().json
True
>>> variant(fig, "same", lambda f: f) is variant(fig, "same", lambda f: f)
True
"""

from __future__ import annotations

import copy
import functools
import itertools
from collections.abc import Callable, Hashable
from typing import Any

import plotly.graph_objects as go

from engine.charts.text import readable
from ui.display import display_figure_json
from ui.memo import cached_call

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
    """Plotly's own ``to_json``, its texts escaped for display (``ui.display.display_figure_json``)."""
    import plotly.io

    return display_figure_json(getattr(plotly.io.to_json, "__wrapped__", plotly.io.to_json), fig, *args, **kwargs)


@functools.cache
def install_json_cache() -> None:
    """``plotly.io.to_json`` of a ``FrozenSpec`` (what ``st.plotly_chart`` encodes for a frozen figure) is
    the JSON it holds; anything else is encoded as before.  Either way every text in it is valid UTF-8 to
    draw, a lone surrogate shown as ``\\udXXX`` (``ui.display``).  Once per process."""
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
