"""The animated rebalance: partitions travel from their old owner to their new owner.

Columns are the consumers (every member of either step) plus a pool on the left, "revoked /
unassigned".  Frame 0 is the assignment before the rebalance; in the first half the partitions that are
revoked travel to the pool (eager: ALL partitions of remaining members; cooperative: only those that
change owner, plus the partitions of departed members); in the second half they travel to their new
owner, and everything else slides to its place in the final assignment.  Partitions whose owner changed
are red, new partitions green, partitions revoked and handed back to the same owner light blue.

``rebalance_animations`` draws one panel per strategy with one Play and one slider.  A panel with
``before={"C0": [a, b], "C1": [c]}, after={"C0": [a, c]}`` has 3 partitions in every frame; ``b`` is not in
``after`` (its topic was deleted) and ends in the pool (tests/engine/charts/test_charts_rebalance.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from engine.charts.text import plain, plain_all
from engine.consumer.assignment import AssignmentView as Assignment
from engine.consumer.assignment import owners
from engine.consumer.pause import PauseReport
from engine.java.strings import string_compare_key
from engine.scenario import TopicPartition

KINDS = ("kept", "revoked, same owner", "moved to a new owner", "new / unassigned -> assigned", "deleted")
KIND_COLOURS = ("#4C78A8", "#9ecae9", "#E45756", "#54A24B", "#BAB0AC")


@dataclass(frozen=True)
class Travel:
    """Per-partition positions (column, slot) before, in the pool and after, and its kind index."""

    labels: list[str]
    kinds: np.ndarray
    start: np.ndarray  # (n, 2)
    pool: np.ndarray
    end: np.ndarray
    via_pool: np.ndarray  # bool


def _sort_key(topic_keys: dict[str, bytes]):
    def key(tp: TopicPartition) -> tuple[bytes, int]:
        k = topic_keys.get(tp.topic)
        if k is None:
            k = topic_keys[tp.topic] = string_compare_key(tp.topic)
        return (k, tp.partition)
    return key


def _slots(assignment: Assignment, columns: Mapping[str, int], key) -> dict[TopicPartition, tuple[int, int]]:
    out: dict[TopicPartition, tuple[int, int]] = {}
    for member, tps in assignment.items():
        for slot, tp in enumerate(sorted(tps, key=key)):
            out[tp] = (columns[member], slot)
    return out


def plan_travel(
    before: Assignment,
    after: Assignment,
    member_order: Sequence[str],
    revoked: Iterable[TopicPartition] | None,
) -> Travel:
    """Where every partition is at the start, in the pool and at the end (``revoked=None``: eager)."""
    columns = {m: i + 1 for i, m in enumerate(member_order)}
    key = _sort_key({})
    start, end = _slots(before, columns, key), _slots(after, columns, key)
    owner_before, owner_after = owners(before), owners(after)
    tps = sorted(set(start) | set(end), key=key)
    revoked_set = None if revoked is None else set(revoked)
    remaining = set(after)
    n = len(tps)
    kinds = np.zeros(n, dtype=np.int8)
    via = np.zeros(n, dtype=bool)
    s, e = np.zeros((n, 2)), np.zeros((n, 2))
    for i, tp in enumerate(tps):
        ob, oa = owner_before.get(tp), owner_after.get(tp)
        if ob is None:
            kinds[i], via[i] = 3, True
        elif oa is None:
            kinds[i], via[i] = 4, True
        else:
            eager_revoke = revoked_set is None and ob in remaining
            listed = revoked_set is not None and tp in revoked_set
            via[i] = eager_revoke or ob not in remaining or ob != oa or listed
            kinds[i] = 2 if ob != oa else (1 if via[i] else 0)
        s[i] = start.get(tp, end.get(tp, (0, 0)))
        e[i] = end.get(tp, (0, 0)) if oa is not None else (0, 0)
    pool = np.zeros((n, 2))
    pooled = np.flatnonzero(via)
    tallest = max([1, *(len(v) for v in before.values()), *(len(v) for v in after.values())])
    if pooled.size:
        pool[pooled, 1] = np.arange(pooled.size) * (tallest / max(pooled.size, 1))
    pool[:, 0] = 0
    for j in np.flatnonzero(kinds == 3):
        s[j] = pool[j]
    for j in np.flatnonzero(kinds == 4):
        e[j] = pool[j]
    return Travel([str(tp) for tp in tps], kinds, s, pool, e, via)


def frame_positions(travel: Travel, frames_per_leg: int) -> list[np.ndarray]:
    """Positions for each frame: leg 1 start -> pool (pooled partitions only), leg 2 -> end."""
    pooled = travel.via_pool[:, None]
    mid = np.where(pooled, travel.pool, travel.start)
    out = []
    for k in range(frames_per_leg + 1):
        t = _ease(k / frames_per_leg)
        out.append(travel.start + (mid - travel.start) * t)
    for k in range(1, frames_per_leg + 1):
        t = _ease(k / frames_per_leg)
        out.append(mid + (travel.end - mid) * t)
    return out


def default_frames_per_leg(partitions: int) -> int:
    """Fewer in-between frames for big groups: the browser and Streamlit handle every frame's arrays."""
    return 6 if partitions <= 1_000 else (4 if partitions <= 5_000 else 3)


def _ease(t: float) -> float:
    return t * t * (3 - 2 * t)


SPEEDS = {"slow": 400, "normal": 160, "fast": 60}  # ms per frame of the Play button
LABEL_LIMIT = 60  # partitions per panel up to which every dot carries its label (hover always does)
PANEL_COLUMNS = 2


@dataclass(frozen=True)
class Panel:
    """One strategy's rebalance in a combined animation (``revoked=None``: eager)."""

    title: str
    before: Assignment
    after: Assignment
    member_order: Sequence[str]
    revoked: Iterable[TopicPartition] | None = None


def _panel_traces(travel: Travel, pos: np.ndarray, axis: str, legend: Sequence[bool], full: bool) -> list[dict]:
    """The dots of one panel at ``pos`` (``full``: with style, labels and hover; else positions only);
    ``legend[k]``: this panel names kind k in the legend (the first panel that has such dots)."""
    labelled = len(travel.labels) <= LABEL_LIMIT
    labels = np.array(plain_all(travel.labels), dtype=object)
    out = []
    for k in range(len(KINDS)):
        idx = np.flatnonzero(travel.kinds == k)
        trace: dict = {"type": "scatter", "x": pos[idx, 0], "y": pos[idx, 1]}
        if full:
            trace.update(
                xaxis=f"x{axis}", yaxis=f"y{axis}", mode="markers+text" if labelled else "markers",
                name=KINDS[k], legendgroup=KINDS[k], showlegend=bool(legend[k]),
                marker={"color": KIND_COLOURS[k], "size": 9 if idx.size < 400 else 5, "line": {"width": 0}},
                text=labels[idx], textposition="middle right", textfont={"size": 10},
                hovertemplate="%{text}<extra></extra>")
        out.append(trace)
    return out


COLUMN_LABELS_LIMIT = 40  # consumer columns named on an animation's axis; beyond, evenly spaced ones


def _labelled_columns(count: int, limit: int = COLUMN_LABELS_LIMIT) -> list[int]:
    """The consumer columns (0-based) whose names the axis shows: all up to ``limit``, else ``limit`` evenly
    spaced ones, the first and the last among them.

    >>> _labelled_columns(3), _labelled_columns(2_000, limit=5)
    ([0, 1, 2], [0, 500, 1000, 1499, 1999])
    """
    if count <= limit:
        return list(range(count))
    return sorted({round(i * (count - 1) / (limit - 1)) for i in range(limit)})


def _panel_axes(panels: Sequence[Panel], tallest: Sequence[float], rows_px: Sequence[int],
                top_px: int) -> tuple[dict, list[dict]]:
    """Each panel's x and y axis in its grid cell (paper coordinates), its title above the consumer names."""
    n, height = len(panels), sum(rows_px) + top_px * len(rows_px)
    layout: dict = {}
    titles = []
    width = 1 / min(n, PANEL_COLUMNS)
    for i, (panel, tall) in enumerate(zip(panels, tallest, strict=True)):
        row, col = divmod(i, PANEL_COLUMNS)
        y_top = 1 - (sum(rows_px[:row]) + (row + 1) * top_px) / height
        y_bottom = y_top - rows_px[row] / height
        suffix = "" if i == 0 else str(i + 1)
        members = panel.member_order
        shown = _labelled_columns(len(members))
        layout[f"xaxis{suffix}"] = {
            "domain": [col * width + 0.01, (col + 1) * width - 0.01], "anchor": f"y{suffix}", "side": "top",
            "tickvals": [0, *(c + 1 for c in shown)],
            "ticktext": ["revoked / unassigned", *plain_all(members[c] for c in shown)],
            "range": [-0.7, len(members) + 0.7], "showgrid": False, "zeroline": False}
        layout[f"yaxis{suffix}"] = {"domain": [max(0.0, y_bottom), y_top], "anchor": f"x{suffix}",
                                    "autorange": False, "range": [tall + 1, -1], "visible": False}
        titles.append({"text": f"<b>{plain(panel.title)}</b>", "x": (col + 0.5) * width, "xref": "paper",
                       "y": y_top + (top_px - 12) / height, "yref": "paper", "showarrow": False,
                       "xanchor": "center", "yanchor": "bottom", "font": {"size": 14}})
    return layout, titles


def rebalance_animations(panels: Sequence[Panel], frame_ms: int = SPEEDS["normal"], note: str = "") -> go.Figure:
    """Every strategy's rebalance in one figure: one Play, one slider, the same frames for all of them.

    Dots carry their partition on hover, and on the dot itself up to ``LABEL_LIMIT`` partitions a panel.
    """
    travels = [plan_travel(p.before, p.after, p.member_order, p.revoked) for p in panels]
    leg = default_frames_per_leg(max([1, *(len(t.labels) for t in travels)]))
    positions = [frame_positions(t, leg) for t in travels]
    tallest = [max([1.0, *(float(f[:, 1].max()) for f in pos if len(f))]) for pos in positions]
    rows_px = [int(max(200, 60 + 16 * max(tallest[r:r + PANEL_COLUMNS])))
               for r in range(0, len(panels), PANEL_COLUMNS)]
    top_px, margin = 80, {"l": 10, "r": 10, "t": 80 if note else 40, "b": 150}  # t: room for the mode bar
    axes, titles = _panel_axes(panels, tallest, rows_px, top_px)
    has = [[bool((t.kinds == k).any()) for k in range(len(KINDS))] for t in travels]
    legend = [[h[k] and not any(earlier[k] for earlier in has[:i]) for k in range(len(KINDS))]
              for i, h in enumerate(has)]
    data = [tr for i, (t, pos) in enumerate(zip(travels, positions, strict=True))
            for tr in _panel_traces(t, pos[0], "" if i == 0 else str(i + 1), legend[i], True)]
    names = [str(f) for f in range(2 * leg + 1)]
    frames = [{"name": names[f], "traces": list(range(len(data))),
               "data": [tr for t, pos in zip(travels, positions, strict=True)
                        for tr in _panel_traces(t, pos[f], "", (), False)]} for f in range(len(names))]
    steps = ["before"] + [""] * (leg - 1) + ["revoked"] + [""] * (leg - 1) + ["after"]
    play = {"frame": {"duration": frame_ms, "redraw": False}, "fromcurrent": True,
            "transition": {"duration": frame_ms // 2}, "mode": "immediate"}
    still = {"frame": {"duration": 0, "redraw": False}, "mode": "immediate"}
    layout = {
        **axes, "annotations": titles, "title": {"text": note} if note else {}, "margin": margin,
        "height": sum(rows_px) + top_px * len(rows_px) + margin["t"] + margin["b"],
        "legend": {"orientation": "h", "x": 0, "y": 0, "yanchor": "top"},
        "updatemenus": [{"type": "buttons", "direction": "left", "x": 0, "y": -0.02, "xanchor": "left",
                         "yanchor": "top", "showactive": False, "pad": {"t": 60},
                         "buttons": [{"label": "Play all", "method": "animate", "args": [None, play]},
                                     {"label": "Pause", "method": "animate", "args": [[None], still]}]}],
        "sliders": [{"active": 0, "x": 0.25, "len": 0.75, "y": -0.02, "yanchor": "top",
                     "currentvalue": {"prefix": "frame "}, "pad": {"t": 60, "b": 0},
                     "steps": [{"label": steps[f] or names[f], "method": "animate", "args": [[names[f]], still]}
                               for f in range(len(names))]}],
    }
    return go.Figure({"data": data, "layout": layout, "frames": frames}, _validate=False)


PAUSE_COLOURS = {"processing": "#C7E9C0", "in transit": "#F2B447", "stopped": "#E45756"}


PAUSE_ROWS_LIMIT = 40  # consumers per protocol drawn one row each; beyond, consumers with the same pauses share a row


def pause_rows(report: PauseReport, limit: int = PAUSE_ROWS_LIMIT) -> list[tuple[str, list[str]]]:
    """(row name, its consumers) of one protocol: a row per consumer up to ``limit`` consumers, else one row per
    distinct timeline (the same in-transit and stopped intervals), named by its count and first consumer; the
    intervals drawn are each consumer's own, exactly.

    >>> from engine.consumer.pause import PauseReport
    >>> report = PauseReport("eager", (), {"C0": ((0, 5),), "C1": ((0, 5),), "C2": ()}, 5, 0.0, 0.0, 0)
    >>> pause_rows(report, limit=2)
    [('2 consumers (C0, ...)', ['C0', 'C1']), ('1 consumer (C2)', ['C2'])]
    """
    members = list(report.member_pauses)
    if len(members) <= limit:
        return [(m, [m]) for m in members]
    alike: dict[tuple, list[str]] = {}
    for m in members:
        alike.setdefault((report.member_pauses[m], report.member_stops.get(m, ())), []).append(m)
    return [(f"{len(group):,} consumer{'s' if len(group) > 1 else ''} ({group[0]}{', ...' if len(group) > 1 else ''})",
             group) for group in alike.values()]


def _spans(reports: Mapping[str, PauseReport], stops: bool) -> tuple[list[str], list[float], list[float]]:
    """(row, start s, length s) of every row's pause intervals (``stops``: consuming nothing)."""
    rows: list[str] = []
    base: list[float] = []
    length: list[float] = []
    for label, report in reports.items():
        per_member = report.member_stops if stops else report.member_pauses
        for name, group in pause_rows(report):
            for s, e in per_member.get(group[0], ()):
                rows.append(f"{plain(label)} · {plain(name)}")
                base.append(s / 1000)
                length.append((e - s) / 1000)
    return rows, base, length


def pause_timeline_figure(reports: Mapping[str, PauseReport]) -> go.Figure:
    """One row per (protocol, consumer): green while consuming, amber while some of its partitions are in
    transit (it keeps consuming the others), red while it consumes nothing (eager's stop-the-world).
    The legend sits above the plot area, so it covers no bar.  Above ``PAUSE_ROWS_LIMIT`` consumers a protocol's
    consumers with the same pauses share one row (``pause_rows``)."""
    end = max([1, *(r.end_ms for r in reports.values())]) / 1000
    rows = [f"{plain(label)} · {plain(name)}" for label, r in reports.items() for name, _ in pause_rows(r)]
    fig = go.Figure()
    fig.add_trace(go.Bar(y=rows, x=[end] * len(rows), base=[0] * len(rows), orientation="h", name="consuming",
                         marker_color=PAUSE_COLOURS["processing"], hoverinfo="skip"))
    for name, stops in (("some partitions in transit", False), ("stopped (consuming nothing)", True)):
        y, base, x = _spans(reports, stops)
        fig.add_trace(go.Bar(y=y, x=x, base=base, orientation="h", name=name,
                             marker_color=PAUSE_COLOURS["stopped" if stops else "in transit"],
                             hovertemplate=f"%{{y}}: {name} from %{{base:.1f}} s for %{{x:.1f}} s<extra></extra>"))
    fig.update_layout(barmode="overlay", height=int(min(900, 170 + 24 * max(1, len(rows)))),
                      margin=dict(l=10, r=10, t=70, b=10), xaxis_title="seconds since the group changed",
                      yaxis=dict(autorange="reversed", type="category", title="protocol · consumer"),
                      legend=dict(orientation="h", x=0, xanchor="left", y=1.02, yanchor="bottom"))
    return fig
