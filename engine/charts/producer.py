"""Figures of the producer simulation (``engine.producer.idempotence``): each partition's log with duplicates
and out-of-order records marked, an animation of batches moving from the accumulator into requests and to
acknowledged or failed, and a timeline of the produce requests.  Pure: data in, ``go.Figure`` out."""

from __future__ import annotations

from typing import Any, Final

import plotly.graph_objects as go

from engine.charts.animation import play_controls

MAX_LOG_CELLS: Final = 300  # records drawn per partition
MAX_ANIMATED_BATCHES: Final = 60
MAX_TIMELINE_REQUESTS: Final = 200
LANES: Final = ("accumulator", "in flight", "acked", "failed")
COLORS: Final = {
    "ok": "#4c78a8",
    "duplicate": "#d62728",
    "out of order": "#ff7f0e",
    "accumulator": "#9ecae9",
    "in flight": "#f2cf5b",
    "acked": "#54a24b",
    "failed": "#d62728",
}


def _cell_kinds(order: list[int]) -> list[str]:
    """Per log position: ``duplicate`` (seen before), ``out of order`` (a later record came first), or
    ``ok``."""
    seen: set[int] = set()
    highest = -1
    kinds = []
    for record in order:
        if record in seen:
            kinds.append("duplicate")
        elif record < highest:
            kinds.append("out of order")
        else:
            kinds.append("ok")
        seen.add(record)
        highest = max(highest, record)
    return kinds


def log_strip(partitions: list[dict[str, Any]]) -> go.Figure:
    """One row per partition: offset -> record number, coloured by what the record tells."""
    fig = go.Figure()
    for kind in ("ok", "out of order", "duplicate"):
        xs, ys, texts, hovers = [], [], [], []
        for p in partitions:
            entries = p["log"][:MAX_LOG_CELLS]
            for entry, k in zip(entries, _cell_kinds([e["record"] for e in entries])):
                if k != kind:
                    continue
                xs.append(entry["offset"])
                ys.append(f"p{p['partition']}")
                texts.append(f"r{entry['record']}")
                hovers.append(
                    f"offset {entry['offset']}: record r{entry['record']} (batch B{entry['batch']}, request "
                    f"{entry['request']}, epoch {entry['epoch']}, sequence {entry['sequence']}) - {kind}"
                )
        fig.add_scatter(
            x=xs,
            y=ys,
            mode="markers+text",
            text=texts,
            textposition="middle center",
            name=kind,
            marker={"symbol": "square", "size": 30, "color": COLORS[kind]},
            hovertext=hovers,
            hoverinfo="text",
            textfont={"color": "white", "size": 10},
        )
    rows = max(len(partitions), 1)
    fig.update_layout(
        height=120 + 60 * rows,
        margin={"l": 40, "r": 10, "t": 40, "b": 40},
        title="Each partition's log (offset ->; the label is the record's send order)",
        xaxis={"title": "offset", "dtick": 1},
        yaxis={"autorange": "reversed", "type": "category"},
        legend={"orientation": "h", "y": -0.35},
    )
    return fig


def _lane_points(frame: dict[str, Any], ids: list[int], labels: dict[int, str]) -> dict[str, Any]:
    xs, ys, texts, colors = [], [], [], []
    for row, batch_id in enumerate(ids):
        where = frame["batches"].get(batch_id)
        if where is None:
            continue
        lane = (
            "accumulator"
            if where.startswith("accumulator")
            else "in flight"
            if where.startswith("request")
            else where
            if where in LANES
            else "accumulator"
        )
        xs.append(LANES.index(lane))
        ys.append(row)
        suffix = f" ({where})" if where.startswith("request") else ""
        texts.append(labels[batch_id] + suffix)
        colors.append(COLORS[lane])
    return {"x": xs, "y": ys, "text": texts, "marker": {"color": colors, "size": 16, "symbol": "square"}}


def _log_text(frame: dict[str, Any]) -> str:
    parts = [
        f"p{p}: " + " ".join(f"r{r}" for r in records[:40]) + (" ..." if len(records) > 40 else "")
        for p, records in sorted(frame["logs"].items())
    ]
    return f"t = {frame['t_ms']:,} ms   |   " + ("   ".join(parts) if parts else "logs empty")


def _before_first_send(frame: dict[str, Any]) -> dict[str, Any]:
    """The moment before ``frame`` when the engine's first frame already has a request out: its batches still in
    the accumulator (``send()`` appends there, the sender drains), nothing written to any log yet."""
    return {**frame, "batches": {b: "accumulator" if where.startswith("request") else where
                                 for b, where in frame["batches"].items()}, "logs": {}, "in_flight": []}


def batch_animation(frames: list[dict[str, Any]], batches: list[dict[str, Any]]) -> go.Figure:
    """Batches as squares moving accumulator -> in flight (request n) -> acked / failed, one frame per
    change; the first ``MAX_ANIMATED_BATCHES`` batches are drawn.  Play + slider."""
    shown = batches[:MAX_ANIMATED_BATCHES]
    ids = [b["batch"] for b in shown]
    labels = {
        b["batch"]: f"B{b['batch']} p{b['partition']} r{b['records'][0]}"
        + (f"-r{b['records'][-1]}" if len(b["records"]) > 1 else "")
        for b in shown
    }
    if not frames:
        return go.Figure()
    if any(frames[0]["logs"].values()):  # the first picture never shows a record in a log before it is sent
        frames = [_before_first_send(frames[0]), *frames]
    first = _lane_points(frames[0], ids, labels)
    fig = go.Figure(
        data=[go.Scatter(mode="markers+text", textposition="middle right", hoverinfo="text", **first)],
        frames=[
            go.Frame(
                data=[go.Scatter(**_lane_points(f, ids, labels))],
                name=str(i),
                layout={"title": {"text": _log_text(f)}},
            )
            for i, f in enumerate(frames)
        ],
    )
    fig.update_layout(
        title={"text": _log_text(frames[0]), "font": {"size": 12}},
        height=220 + 22 * len(ids),
        xaxis={"range": [-0.3, 3.9], "tickvals": list(range(4)), "ticktext": list(LANES), "side": "top"},
        yaxis={"range": [len(ids), -1], "showticklabels": False},
        margin={"l": 10, "r": 10, "t": 90, "b": 10},
        showlegend=False,
        **play_controls([f"t={f['t_ms']:,}" for f in frames], duration_ms=700, y=-0.02),
    )
    return fig


def _request_end(request: dict[str, Any], events: list[dict[str, Any]]) -> int:
    ends = [
        e["t_ms"]
        for e in events
        if e["event"] in ("acked", "retry", "failed", "disconnect") and e["t_ms"] >= request["sent_ms"]
    ]
    return min(ends) if ends else request["sent_ms"] + 1


def request_timeline(report: dict[str, Any]) -> go.Figure:
    """Each produce request from its send to its answer (or timeout), labelled with its batches' fate."""
    fig = go.Figure()
    requests = report["requests"][:MAX_TIMELINE_REQUESTS]
    for r in requests:
        outcome = ", ".join(f"B{b['batch']}: {b['broker']}" for b in r["batches"])
        end = _request_end(
            r,
            [
                e
                for e in report["events"]
                if e.get("batch") in {b["batch"] for b in r["batches"]} or e["event"] == "disconnect"
            ],
        )
        color = (
            "#d62728"
            if "TIMED_OUT" in r["client"]
            else "#ff7f0e"
            if any(b["broker"] not in ("appended", "duplicate") for b in r["batches"])
            else "#54a24b"
        )
        fig.add_bar(
            x=[max(end - r["sent_ms"], 1)],
            y=[f"req {r['request']}"],
            base=[r["sent_ms"]],
            orientation="h",
            marker_color=color,
            text=[outcome],
            textposition="inside",
            insidetextanchor="start",
            hovertext=[f"request {r['request']} sent at {r['sent_ms']} ms: {outcome}; client: {r['client']}"],
            hoverinfo="text",
            showlegend=False,
        )
    fig.update_layout(
        height=120 + 26 * max(len(requests), 1),
        barmode="overlay",
        title="Produce requests over time",
        xaxis={"title": "ms"},
        yaxis={"autorange": "reversed"},
        margin={"l": 60, "r": 10, "t": 40, "b": 40},
    )
    return fig
