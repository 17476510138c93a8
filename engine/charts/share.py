"""Share-group figures (KIP-932): a partition may have several members, or none.

``members_per_partition`` draws one bar per subscribed partition, its height the number of members
reading it; a partition no member reads (Kafka's ``simple`` assignor can leave one after a subscription
change) is drawn as a red marker at zero, so it cannot be missed.  The consumer x partition grid of
``engine.charts.assignment.assignment_grid`` already shows several owners (several cells in a column).

Worked example (asserted by tests/test_worked_examples.py)::

    >>> from engine.scenario import TopicPartition as TP
    >>> fig = members_per_partition({TP("t", 0): ["a", "b"], TP("t", 1): []})
    >>> list(fig.data[0].y), list(fig.data[1].x)
    ([2, 0], ['t-1'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import plotly.graph_objects as go

from engine.charts.assignment import _axis, _layout
from engine.charts.text import plain_all
from engine.scenario import TopicPartition

SHARED_COLOUR = "#4C78A8"
UNREAD_COLOUR = "#E45756"


def members_per_partition(members_of: Mapping[TopicPartition, Sequence[str]], title: str = "") -> go.Figure:
    """Members reading each partition (bars); red markers where none does."""
    names = plain_all(str(tp) for tp in members_of)
    counts = [len(ms) for ms in members_of.values()]
    hover = [", ".join(ms) if ms else "no member" for ms in members_of.values()]
    unread = [name for name, n in zip(names, counts) if n == 0]
    fig = go.Figure([
        go.Bar(x=names, y=counts, marker_color=SHARED_COLOUR, name="members", hovertext=hover,
               hovertemplate="%{x}: %{y} member(s)<br>%{hovertext}<extra></extra>"),
        go.Scatter(x=unread, y=[0] * len(unread), mode="markers", name="no member",
                   marker=dict(color=UNREAD_COLOUR, size=12, symbol="x"),
                   hovertemplate="%{x}: no member reads it<extra></extra>"),
    ])
    return _layout(fig, title or "members per partition (share group)", 300,
                   xaxis=_axis("partition (topic-number)", len(names), 60, type="category"),
                   yaxis=_axis("members", 0, 1, dtick=1 if max(counts, default=0) <= 20 else None))


def members_change_animation(before: Mapping[TopicPartition, Sequence[str]],
                             after: Mapping[TopicPartition, Sequence[str]], title: str = "") -> go.Figure:
    """Members per partition before and after a member leaves or joins: two frames and a Play button."""
    order = list(dict.fromkeys([*before, *after]))
    names = plain_all(str(tp) for tp in order)

    def bar(side: Mapping[TopicPartition, Sequence[str]]) -> go.Bar:
        members = [list(side.get(tp, ())) for tp in order]
        return go.Bar(x=names, y=[len(ms) for ms in members], marker_color=SHARED_COLOUR, name="members",
                      hovertext=[", ".join(ms) or "no member" for ms in members],
                      hovertemplate="%{x}: %{y} member(s)<br>%{hovertext}<extra></extra>")

    frames = [go.Frame(data=[bar(before)], name="before"), go.Frame(data=[bar(after)], name="after")]
    top = max([len(ms) for ms in [*before.values(), *after.values()]], default=1)
    fig = go.Figure(data=[bar(before)], frames=frames)
    fig.update_layout(
        updatemenus=[dict(type="buttons", showactive=False, x=0, y=1.15, xanchor="left", buttons=[
            dict(label="Play", method="animate",
                 args=[None, dict(frame=dict(duration=1200, redraw=True), fromcurrent=False)])])],
        sliders=[dict(currentvalue=dict(prefix="members per partition: "), steps=[
            dict(label=label, method="animate", args=[[label], dict(mode="immediate", frame=dict(redraw=True))])
            for label in ("before", "after")])])
    return _layout(fig, title or "members per partition, before and after", 340,
                   xaxis=_axis("partition (topic-number)", len(names), 60, type="category"),
                   yaxis=_axis("members", 0, 1, range=[0, top + 0.5], dtick=1 if top <= 20 else None))
