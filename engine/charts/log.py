"""Figures of a partition's log (``engine.storage``): segments filling and rolling (animated), the segments
along the offset axis with their sparse index entries and a lookup's path, and compaction's fate of each
record.
Pure: data in, ``go.Figure`` out."""

from __future__ import annotations

from typing import Any, Final

import plotly.graph_objects as go

from engine.charts.animation import play_controls

MAX_DRAWN_SEGMENTS: Final = 40
MAX_INDEX_MARKS: Final = 2_000
MAX_COMPACTION_POINTS: Final = 3_000
ACTIVE, CLOSED, LIMIT = "#f58518", "#4c78a8", "#888888"


def _frame_bars(frame: dict[str, Any]) -> dict[str, Any]:
    segments = frame["segments"][-MAX_DRAWN_SEGMENTS:]
    return {
        "x": list(range(len(segments))),
        "y": [s["bytes"] for s in segments],
        "text": [f"{s['base_offset']:,}" for s in segments],
        "marker": {"color": [ACTIVE if s["active"] else CLOSED for s in segments]},
        "hovertext": [
            f"{s['base_offset']:020d}.log: {s['bytes']:,} bytes, {s['records']:,} records"
            + (" (active)" if s["active"] else "")
            for s in segments
        ],
    }


def _frame_title(frame: dict[str, Any]) -> str:
    n = len(frame["segments"])
    hidden = f" (the newest {MAX_DRAWN_SEGMENTS} drawn)" if n > MAX_DRAWN_SEGMENTS else ""
    return (
        f"after {frame['appended']:,} batch(es), t = {frame['now_ms']:,} ms: {n} segment(s){hidden}, "
        f"log start offset {frame['log_start_offset']:,}"
    )


def segments_animation(frames: list[dict[str, Any]], segment_size: int,
                       size_property: str = "segment.bytes") -> go.Figure:
    """Bars = segments (label = base offset, orange = active); the dashed line is the segment size, labelled
    with the property that set it (``segment.bytes`` or ``internal.segment.bytes``).
    Play + slider over the appends; it opens on the last frame, the log the page describes."""
    if not frames:
        return go.Figure()
    peak = max(max((s["bytes"] for s in f["segments"]), default=0) for f in frames)
    fig = go.Figure(
        data=[go.Bar(textposition="outside", hoverinfo="text", **_frame_bars(frames[-1]))],
        frames=[
            go.Frame(
                data=[go.Bar(**_frame_bars(f))], name=str(i), layout={"title": {"text": _frame_title(f)}}
            )
            for i, f in enumerate(frames)
        ],
    )
    fig.add_hline(
        y=segment_size,
        line_dash="dash",
        line_color=LIMIT,
        annotation_text=size_property,
        annotation_position="top left",
    )
    fig.update_layout(
        title={"text": _frame_title(frames[-1]), "font": {"size": 13}},
        height=420,
        showlegend=False,
        xaxis={
            "range": [-0.6, MAX_DRAWN_SEGMENTS - 0.4],
            "showticklabels": False,
            "title": "segments, oldest first",
        },
        yaxis={"range": [0, max(peak, segment_size) * 1.15], "title": "bytes"},
        margin={"l": 60, "r": 10, "t": 60, "b": 40},
        **play_controls([f"{f['appended']:,}" for f in frames], prefix="batches appended: ", duration_ms=250,
                        on_last=True),
    )
    return fig


def segment_map(segments: list[dict[str, Any]], lookup: dict[str, Any] | None = None) -> go.Figure:
    """Segments along the offset axis (bar = [base offset, last offset]) with their offset-index entries as
    ticks;
    with ``lookup``: the target offset, the index entry found and the batches scanned."""
    shown = segments[-MAX_DRAWN_SEGMENTS:]
    fig = go.Figure()
    fig.add_bar(
        x=[max(s["last_offset"] - s["base_offset"] + 1, 1) for s in shown],
        base=[s["base_offset"] for s in shown],
        y=["segments"] * len(shown),
        orientation="h",
        text=[s["segment"][-12:] for s in shown],
        marker_color=[ACTIVE if s["active"] else CLOSED for s in shown],
        textposition="inside",
        hovertext=[
            f"{s['segment']}: offsets {s['base_offset']:,}..{s['last_offset']:,}, {s['bytes']:,} bytes, "
            f"{s['offset_index_entries']} index entries"
            for s in shown
        ],
        hoverinfo="text",
        name="segments",
    )
    marks = [(o, p, s["segment"]) for s in shown for o, p in s["offset_index"]][:MAX_INDEX_MARKS]
    fig.add_scatter(
        x=[m[0] for m in marks],
        y=["offset index"] * len(marks),
        mode="markers",
        name="index entries",
        marker={"symbol": "line-ns-open", "size": 14, "color": CLOSED},
        hovertext=[f"[{o:,}, {p:,}] in {name}" for o, p, name in marks],
        hoverinfo="text",
    )
    if lookup and lookup.get("segment"):
        _draw_lookup(fig, lookup)
    fig.update_layout(
        height=300,
        barmode="overlay",
        margin={"l": 90, "r": 10, "t": 30, "b": 40},
        xaxis={"title": "offset"},
        yaxis={"categoryorder": "array", "categoryarray": ["scan", "offset index", "segments"]},
        legend={"orientation": "h", "y": -0.3},
    )
    return fig


def _draw_lookup(fig: go.Figure, lookup: dict[str, Any]) -> None:
    """The target offset, the offset-index entry found, and the batches read from its position."""
    target = lookup.get("offset")
    entry = lookup.get("index_entry", [None, None])
    fig.add_vline(x=target, line_color="#d62728", annotation_text=f"target {target:,}")
    fig.add_scatter(
        x=[entry[0]],
        y=["offset index"],
        mode="markers+text",
        text=[f"[{entry[0]:,}, {entry[1]:,}]"],
        textposition="top center",
        marker={"size": 14, "color": "#d62728", "symbol": "diamond"},
        name="entry found",
    )
    scanned = lookup.get("scan", [])
    fig.add_scatter(
        x=[s["last_offset"] for s in scanned],
        y=["scan"] * len(scanned),
        mode="markers+lines",
        marker={"size": 10, "color": ["#54a24b" if s["match"] else "#bbbbbb" for s in scanned]},
        name="batches read",
        hovertext=[
            f"batch {s['base_offset']}..{s['last_offset']} at position {s['position']:,}" for s in scanned
        ],
        hoverinfo="text",
    )


def compaction_scatter(before: list[dict[str, Any]], kept: set[int]) -> go.Figure:
    """Each record before cleaning at (offset, key): kept, removed, or a tombstone kept until its horizon."""
    points = before[:MAX_COMPACTION_POINTS]
    fig = go.Figure()
    groups = {
        "kept": ("#54a24b", "circle"),
        "removed": ("#bbbbbb", "x"),
        "tombstone kept": ("#d62728", "diamond"),
        "tombstone removed": ("#f2a0a0", "x"),
    }
    for name, (color, symbol) in groups.items():
        sel = [r for r in points if _fate(r, kept) == name]
        fig.add_scatter(
            x=[r["offset"] for r in sel],
            y=[r["key"] for r in sel],
            mode="markers",
            name=name,
            marker={"color": color, "symbol": symbol, "size": 8},
        )
    fig.update_layout(
        height=360,
        title="Compaction: every record of the cleaned segments (latest per key kept)",
        xaxis={"title": "offset"},
        yaxis={"title": "key", "type": "category"},
        margin={"l": 70, "r": 10, "t": 40, "b": 40},
        legend={"orientation": "h", "y": -0.2},
    )
    return fig


def _fate(record: dict[str, Any], kept: set[int]) -> str:
    alive = record["offset"] in kept
    if record["tombstone"]:
        return "tombstone kept" if alive else "tombstone removed"
    return "kept" if alive else "removed"
