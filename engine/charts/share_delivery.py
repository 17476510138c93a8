"""The share partition's records over time: one square per record, coloured by its state, animated.

Frames come from ``engine.share.timeline`` (the ``SharePartition`` model itself); a record ACQUIRED is coloured
by the consumer holding it, its square shows its delivery count (dark or white, whichever reads on the square).
The y axis names each row by its first offset (a row holds ``COLUMNS`` offsets), at most ``MAX_ROW_LABELS``
labels: a tall partition labels every second, fifth... row.  Play / Pause and the slider are
``engine.charts.animation.play_controls``.  Trace order is fixed (states, then one per consumer) so that
every frame updates the same traces.

>>> from engine.share.consumers import Workload
>>> from engine.share.timeline import build_timeline
>>> fig = delivery_animation(build_timeline(Workload(records=12, consumers=2, max_records=4, failure=None)))
>>> [t.name for t in fig.data]
['in the log, not fetched yet', 'AVAILABLE', 'ACKNOWLEDGED', 'ARCHIVED', 'ACQUIRED by C1', 'ACQUIRED by C2']
>>> len(fig.frames) > 2, fig.layout.sliders[0].steps[0].label
(True, '0.0 s')
>>> row_labels(3)
([0, 1, 2], ['0', '20', '40'])
>>> row_labels(20)[1]
['0', '40', '80', '120', '160', '200', '240', '280', '320', '360']
"""

from __future__ import annotations

from typing import Any, Final

import plotly.graph_objects as go

from engine.charts.animation import play_controls
from engine.charts.text import plain
from engine.share.timeline import LOG, Frame, Timeline

COLUMNS: Final = 20
MAX_ROW_LABELS: Final = 10  # offset labels on the y axis; more rows: every n-th row labelled
SQUARE: Final = 28  # px, a record's marker
COUNT_FONT: Final = 12  # px, the delivery count in a square (presenter mode: x 1.6 = its minimum, 19.2)
STATE_TRACES: Final = {LOG: ("in the log, not fetched yet", "#e5e7eb"), "AVAILABLE": ("AVAILABLE", "#f2b134"),
                       "ACKNOWLEDGED": ("ACKNOWLEDGED", "#54a24b"), "ARCHIVED": ("ARCHIVED", "#b6403a")}
MEMBER_COLORS: Final = ("#4c78a8", "#b279a2", "#72b7b2", "#9d755d", "#ff9da6", "#79706e", "#eeca3b", "#439894")
DARK_TEXT: Final = "#1f2937"
LIGHT_TEXT: Final = "#ffffff"
HOVER: Final = "offset %{customdata[0]} · key %{customdata[1]} · deliveries %{customdata[2]}<extra></extra>"
WHAT: Final = {"fetch": "{member} fetches", "ack": "{member} acknowledges", "crash": "{member} crashes",
               "leave": "{member} leaves", "tick": "time passes"}


def frame_title(frame: Frame) -> str:
    """``t = 2.0 s · C1 crashes · locks run out: 0`` (runtime.po holds the template)."""
    what = WHAT[frame.event].format(member=plain(frame.member or ""))
    return f"t = {frame.time_s} s · {what} · locks run out: {frame.expired}"


def text_color(fill: str) -> str:
    """The delivery count's colour on a square of ``fill``: dark on a light square, white on a dark one
    (relative luminance, WCAG).

    >>> text_color("#e5e7eb"), text_color("#4c78a8")
    ('#1f2937', '#ffffff')
    """
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(fill[i:i + 2], 16)) for i in (1, 3, 5))
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return DARK_TEXT if (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05) else LIGHT_TEXT


def row_labels(rows: int) -> tuple[list[int], list[str]]:
    """The y axis's ticks: rows and their first offsets, at most ``MAX_ROW_LABELS`` (every n-th row)."""
    every = -(-rows // MAX_ROW_LABELS)
    shown = list(range(0, rows, every))
    return shown, [str(row * COLUMNS) for row in shown]


def _traces(frame: Frame, members: list[str], keys: int) -> list[dict[str, Any]]:
    groups: dict[str, list[int]] = {name: [] for name in [*STATE_TRACES, *members]}
    for offset, (state, holder) in enumerate(zip(frame.states, frame.holders)):
        groups[holder if state == "ACQUIRED" and holder in groups else state].append(offset)
    traces = []
    for name, offsets in groups.items():
        traces.append({
            "x": [o % COLUMNS for o in offsets], "y": [o // COLUMNS for o in offsets],
            "text": [str(frame.delivery_counts[o]) if frame.delivery_counts[o] else "" for o in offsets],
            "customdata": [[o, o % keys, frame.delivery_counts[o]] for o in offsets],
        })
    return traces


def delivery_animation(timeline: Timeline) -> go.Figure:
    members = timeline.workload.members()
    keys = timeline.workload.keys
    names = [label for label, _ in STATE_TRACES.values()] + [f"ACQUIRED by {plain(m)}" for m in members]
    colors = [color for _, color in STATE_TRACES.values()] + [
        MEMBER_COLORS[i % len(MEMBER_COLORS)] for i in range(len(members))]
    first = _traces(timeline.frames[0], members, keys)
    fig = go.Figure([go.Scatter(mode="markers+text", name=name, hovertemplate=HOVER, **data,
                                marker={"symbol": "square", "size": SQUARE, "color": color},
                                textfont={"size": COUNT_FONT, "color": text_color(color)})
                     for name, color, data in zip(names, colors, first)])
    fig.frames = [go.Frame(name=str(i), data=[go.Scatter(**data) for data in _traces(f, members, keys)],
                           layout={"title": {"text": frame_title(f)}})
                  for i, f in enumerate(timeline.frames)]
    rows = -(-timeline.workload.records // COLUMNS)
    ticks, labels = row_labels(rows)
    fig.update_layout(
        title={"text": frame_title(timeline.frames[0])}, height=max(320, 200 + 42 * rows),
        xaxis={"visible": False, "range": [-0.7, COLUMNS - 0.3]},
        yaxis={"autorange": "reversed", "title": {"text": "offset"}, "tickmode": "array", "tickvals": ticks,
               "ticktext": labels, "showgrid": False, "zeroline": False, "showline": False, "ticks": ""},
        legend={"orientation": "h", "y": 1.02, "yanchor": "bottom"}, margin={"t": 90, "b": 110},
        **play_controls([f"{f.time_s} s" for f in timeline.frames], prefix="t = ", duration_ms=400, y=-0.05),
    )
    return fig
