"""Every text a page hands to Streamlit's frontend made valid UTF-8: a lone surrogate shown as ``\\udXXX``.

Member ids, group ids and other names may hold lone surrogates (``"C\\ud800x"``), as Java strings do (README);
the engine keeps them as they are.  Streamlit cannot send one: a protobuf string field (a select box's
options, a metric, a caption), an Arrow table (``st.dataframe``) and a download's UTF-8 encoding all refuse
it, and the page shows an exception instead of its content.  ``display_text`` writes each lone surrogate the
way the command line does (``engine.inputs.encode_json``: the ``\\udXXX`` escape, visibly), so two such ids
still read apart; a surrogate *pair* is the character it encodes in UTF-16 (Java's reading of it).

It is applied in one place, not by the pages: ``ui.frame.patches`` wraps every Streamlit element and widget
method that takes text with it (before the language hooks, so that the translated text is what gets escaped),
and its ``plotly.io.to_json`` hook runs every chart's JSON through ``display_figure_json``.  What the hooks
change is only what is *drawn*:

* labels, bodies, captions, help, placeholders, metric values, tab names, text inputs' values: escaped;
* tables (``st.dataframe`` / ``st.table``): cells, column headers and index labels, escaped;
* select boxes, radios, multiselects, sliders of options, pills, segmented controls: each option's label
  (``format_func``'s text, ``str`` by default) is escaped, the options themselves are not, so the widget
  still returns the real id (the frontend answers with the label; Streamlit maps it back to its option);
* downloads: text data escaped as well.  A JSON download stays exact (``\\udXXX`` is JSON's own escape:
  ``json.loads`` gives back the real id); a CSV has no escapes, so it holds the id as the page shows it,
  valid UTF-8 that a spreadsheet opens.  Bytes are sent as they are.

Not escaped: ``st.data_editor``'s data (what it shows it answers back: an escaped id would come back as
another id, so the home page's builder is left to decide how to edit such ids), widget keys, and the
options a widget returns.

Worked example::

    >>> display_text("C\\ud800x")  # a lone high surrogate
    'C\\\\ud800x'
    >>> print(display_text("C\\ud800x"), display_text("\\udfffB"), display_text("C0"))
    C\\ud800x \\udfffB C0
    >>> display_text("\\ud83d\\ude00") == "\\U0001f600"  # a pair: the character it encodes (Java reads 😀)
    True
    >>> display_text(display_text("C\\ud800x")) == display_text("C\\ud800x")  # escaping twice changes nothing
    True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")  # lone or one half of a pair (two Python characters)
_ESCAPED = re.compile(r"\\u[dD][89a-fA-F]")  # a surrogate written as a JSON escape (``ensure_ascii`` output)


def display_text(text: str) -> str:
    """``text`` as valid UTF-8 to draw: each lone surrogate as its ``\\udXXX`` escape (see the module)."""
    if text.isascii() or not _SURROGATE.search(text):
        return text
    paired = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")  # pairs joined
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", paired)


def needs_escape(value: Any) -> bool:
    """True when ``value`` (a text, or a list, tuple, dict or array of them, nested) holds a surrogate."""
    if isinstance(value, str):
        return not value.isascii() and _SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return needs_escape(list(value)) or needs_escape(list(value.values()))
    if isinstance(value, (list, tuple)) or _is_text_array(value):
        try:
            joined = "".join(value)  # one C-level pass over a column of texts
        except TypeError:  # not all texts: each one
            return any(needs_escape(v) for v in value)
        return not joined.isascii() and _SURROGATE.search(joined) is not None
    return False


def _is_text_array(value: Any) -> bool:
    kind = getattr(getattr(value, "dtype", None), "kind", None)
    return kind in ("O", "U") and hasattr(value, "ravel")


def display_value(value: Any) -> Any:
    """``value`` with ``display_text`` applied to every text in it: a text, a list, tuple or dict (keys
    too), a NumPy array of objects, a pandas DataFrame, Series or Styler (cells, headers, index labels).
    Anything else, and anything that holds no surrogate, is returned as it is (the same object)."""
    if isinstance(value, str):
        return display_text(value)
    if _is_frame(value):
        return display_frame(value)
    array = _is_text_array(value)
    if isinstance(value, (list, tuple)) or array:
        try:
            joined = "".join(value)  # texts only: one C-level pass decides
        except TypeError:
            pass
        else:
            if joined.isascii() or not _SURROGATE.search(joined):
                return value
        flat = list(value.ravel()) if array else value
        items = [display_value(v) for v in flat]
        if all(a is b for a, b in zip(items, flat)):
            return value
        if array:
            import numpy as np

            out = np.empty(value.shape, dtype=object)
            out.ravel()[:] = items
            return out
        return items if isinstance(value, list) else tuple(items)
    if isinstance(value, dict):
        pairs = [(display_value(k), display_value(v)) for k, v in value.items()]
        if all(k is k0 and v is v0 for (k, v), (k0, v0) in zip(pairs, value.items())):
            return value
        return dict(pairs)
    return value


def _is_frame(value: Any) -> bool:
    module = type(value).__module__
    return module.startswith("pandas.") and type(value).__name__ in ("DataFrame", "Series", "Styler")


def _texts(dtype: Any) -> bool:
    """A dtype whose values may be texts: objects, NumPy or pandas strings, categories."""
    return getattr(dtype, "kind", "") in ("O", "U", "T") or getattr(dtype, "name", "") == "category"


def _labels(index: Any) -> Any:
    """An index (columns or rows) with its texts escaped, or ``None`` when none needs it."""
    if not _texts(index.dtype) or not needs_escape(list(index.to_flat_index())):
        return None
    return index.map(display_value)


def _column(column: Any) -> Any:
    """A Series with its cells (or a categorical's categories) escaped, or ``None`` when none needs it."""
    dtype = column.dtype
    if getattr(dtype, "name", "") == "category":
        categories = dtype.categories
        if _texts(categories.dtype) and needs_escape(list(categories)):
            return column.cat.rename_categories(display_value)
        return None
    if not _texts(dtype):
        return None
    values = column.to_numpy(dtype=object)
    if not needs_escape(values):
        return None
    return column.map(display_value)


def display_frame(frame: Any) -> Any:
    """A pandas DataFrame, Series or Styler as ``display_value`` describes; the same object when nothing in
    it holds a surrogate (the usual case: one ``str.join`` and one regular-expression search per text
    column)."""
    from pandas import DataFrame, Series
    from pandas.io.formats.style import Styler

    if isinstance(frame, Styler):
        data = display_frame(frame.data)
        if data is frame.data:
            return frame
        styled = frame._copy(deepcopy=False)  # styles are kept by position: the same shape, the same cells
        styled.data, styled.index, styled.columns = data, data.index, data.columns
        return styled
    if isinstance(frame, Series):
        cells, index = _column(frame), _labels(frame.index)
        if cells is None and index is None and not needs_escape(frame.name):
            return frame
        out = (frame if cells is None else cells).copy(deep=False)
        if index is not None:
            out.index = index
        out.name = display_value(frame.name)
        return out
    if not isinstance(frame, DataFrame):
        return frame
    texts = [i for i, dtype in enumerate(frame.dtypes) if _texts(dtype)]
    cells = {i: c for i in texts if (c := _column(frame.iloc[:, i])) is not None}
    columns, index = _labels(frame.columns), _labels(frame.index)
    if not cells and columns is None and index is None:
        return frame
    out = frame.copy(deep=False)
    for i, column in cells.items():
        out.isetitem(i, column)
    if columns is not None:
        out.columns = columns
    if index is not None:
        out.index = index
    return out


def display_figure_json(encode: Callable[..., str], fig: Any, *args: Any, **kwargs: Any) -> str:
    """A Plotly figure's JSON (``encode`` is ``plotly.io.to_json``) with every text in it escaped: trace
    names, tick labels, hover texts, custom data, titles.  Encoded as before, then again from an escaped copy
    of its dict only when the JSON shows a surrogate (``\\udXXX`` from the ``json`` engine) or the encoder
    refused one (``orjson``)."""
    try:
        text = encode(fig, *args, **kwargs)
    except (TypeError, ValueError, UnicodeError):  # orjson: "str is not valid UTF-8: surrogates not allowed"
        text = None
    if text is not None and not _ESCAPED.search(text) and not (not text.isascii() and _SURROGATE.search(text)):
        return text
    spec = fig.to_plotly_json() if hasattr(fig, "to_plotly_json") else fig
    return str(encode(display_value(dict(spec)), *args, **kwargs))
