"""Every text a page shows, read from an AppTest run's element protos: bodies, labels, help texts, options,
tab and expander labels, table headers (from the Arrow schema) and Plotly titles, axis titles, legends,
annotations and button labels (from the figure's JSON), and the text cells of every table (from the Arrow data:
dataframes are drawn on a canvas, so only the values a page sends show what a reader sees).  Code blocks are
code."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

SKIP_FIELDS = {"id", "form_id", "key", "spec", "data", "type", "format", "theme", "icon", "url", "page",
               "page_script_hash", "language", "default", "value", "raw_value", "selection_mode", "styles",
               "columns", "arrow_data", "column_order", "mime", "file_name", "set_value", "body_type", "width_config",
               "height_config", "text_alignment_config", "gap_config", "color", "config"}


def _nodes(node: Any) -> Iterator[Any]:
    children = getattr(node, "children", None)
    if isinstance(children, dict):
        for child in children.values():
            yield from _nodes(child)
    yield node


def _strings(message: Any) -> Iterator[str]:
    for field, value in message.ListFields():
        if field.name in SKIP_FIELDS:
            continue
        if not isinstance(value, (str, bytes)) and not hasattr(value, "ListFields") and not hasattr(value, "__iter__"):
            continue
        items = [value] if isinstance(value, str) or hasattr(value, "ListFields") else list(value)
        for item in items:
            if isinstance(item, str):
                yield item
            elif hasattr(item, "ListFields"):
                yield from _strings(item)


def figure_texts(spec: dict[str, Any]) -> Iterator[str]:
    layout = spec.get("layout", {})
    for name, axis in layout.items():
        if name.startswith(("xaxis", "yaxis")) and isinstance(axis, dict):
            yield from [str((axis.get("title") or {}).get("text") or ""), *map(str, axis.get("ticktext") or ())]
    yield str((layout.get("title") or {}).get("text") or "")
    yield str(((layout.get("legend") or {}).get("title") or {}).get("text") or "")
    yield from (str(a.get("text") or "") for a in layout.get("annotations") or ())
    for menu in layout.get("updatemenus") or ():
        yield from (str(b.get("label") or "") for b in menu.get("buttons") or ())
    for slider in layout.get("sliders") or ():
        yield str((slider.get("currentvalue") or {}).get("prefix") or "")
    for trace in spec.get("data") or ():
        if trace.get("showlegend") is not False:
            yield str(trace.get("name") or "")


def table_headers(data: bytes) -> list[str]:
    import pyarrow as pa

    with pa.ipc.open_stream(io.BytesIO(data)) as reader:
        return [str(n) for n in reader.schema.names if not str(n).startswith("__index_level")]


def table_cells(data: bytes) -> list[str]:
    """The text values of a table's cells (its index included: a row label is read as much as a cell)."""
    import pyarrow as pa

    with pa.ipc.open_stream(io.BytesIO(data)) as reader:
        table = reader.read_all()
    found: list[str] = []
    for column in table.columns:
        if pa.types.is_dictionary(column.type):
            column = column.cast(column.type.value_type)
        if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
            found.extend(str(v) for v in column.to_pylist() if v is not None and not _json(str(v)))
    return found


def _json(text: str) -> bool:
    """A cell holding a JSON list or object is data (a request's batches), not prose."""
    if not text.startswith(("[", "{")):
        return False
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def rendered_texts(at: Any) -> list[str]:
    """Every visible text of the last run of ``at`` (an AppTest)."""
    found: list[str] = []
    for node in _nodes(at._tree):
        proto = getattr(node, "proto", None)
        if proto is None or type(proto).__name__ == "Code":
            continue
        found.extend(_strings(proto))
        if type(proto).__name__ == "PlotlyChart" and proto.spec:
            found.extend(figure_texts(json.loads(proto.spec)))
        arrow = getattr(proto, "arrow_data", None) or proto  # st.dataframe's proto wraps the Arrow table
        if type(proto).__name__ in ("Arrow", "ArrowTable", "Dataframe", "Table") and getattr(arrow, "data", None):
            found.extend(table_headers(arrow.data))
            found.extend(table_cells(arrow.data))
    return [t for t in found if t.strip()]
