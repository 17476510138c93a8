"""Play / Pause buttons and a frame slider for Plotly animations, one shape for every animated chart.

>>> controls = play_controls(["0", "1"], prefix="step: ", duration_ms=250)
>>> [b["label"] for b in controls["updatemenus"][0]["buttons"]], len(controls["sliders"][0]["steps"])
(['Play', 'Pause'], 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def _step(name: str, label: str) -> dict[str, Any]:
    return {
        "args": [[name], {"frame": {"duration": 0, "redraw": True}, "mode": "immediate"}],
        "label": label,
        "method": "animate",
    }


def play_controls(
    labels: Sequence[str], *, prefix: str = "", duration_ms: int = 500, y: float = -0.12, on_last: bool = False
) -> dict[str, Any]:
    """``updatemenus`` and ``sliders`` for ``fig.update_layout``: frames are named ``"0"``, ``"1"``, ...
    and ``labels[i]`` names frame ``i`` on the slider; Play runs from the current frame.  ``on_last``: the
    figure opens on its last frame (the state the page's heading describes) and Play replays from the first."""
    play = {"frame": {"duration": duration_ms, "redraw": True}, "fromcurrent": not on_last}
    pause = {"frame": {"duration": 0}, "mode": "immediate"}
    buttons = [
        {"label": "Play", "method": "animate", "args": [None, play]},
        {"label": "Pause", "method": "animate", "args": [[None], pause]},
    ]
    menu = {"type": "buttons", "direction": "left", "x": 0, "y": y, "xanchor": "left", "yanchor": "top",
            "buttons": buttons}
    active = len(labels) - 1 if on_last and labels else 0
    slider = {"active": active, "steps": [_step(str(i), label) for i, label in enumerate(labels)],
              "x": 0.15, "len": 0.85, "y": y, "currentvalue": {"prefix": prefix}}
    return {"updatemenus": [menu], "sliders": [slider]}
