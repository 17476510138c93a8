"""ui.frame.figures: a frozen figure's JSON is made once and answered by plotly.io.to_json (ui.frame.patches);
its variants are made once."""

from __future__ import annotations

import copy
import doctest
import json

import plotly.graph_objects as go
import plotly.io

import ui.frame.figures
from ui.frame.figures import FrozenSpec, frozen, variant
from ui.frame.patches import install


def test_worked_example() -> None:
    assert doctest.testmod(ui.frame.figures).failed == 0


def test_the_held_json_is_plotlys_own_encoding() -> None:
    fig = go.Figure(go.Scatter(x=[1, 2], y=[3, 4], name="a"))
    expected = json.loads(plotly.io.to_json(fig, validate=False))
    held = frozen(go.Figure(fig))
    install()
    assert json.loads(plotly.io.to_json(held.to_dict(), validate=False)) == json.loads(held.to_dict().json)
    assert json.loads(held.to_dict().json)["data"] == expected["data"]


def test_a_deep_copy_is_a_plain_dict_whose_changes_are_encoded() -> None:
    held = frozen(go.Figure(go.Bar(x=["a"], y=[1], name="english")))
    changed = copy.deepcopy(held.to_dict())
    assert type(changed) is dict and not isinstance(changed, FrozenSpec)
    changed["data"][0]["name"] = "中文"
    install()
    assert "中文" in json.loads(plotly.io.to_json(changed, validate=False))["data"][0]["name"]
    assert held.to_dict()["data"][0]["name"] == "english"


def test_variants_are_made_once_per_frozen_figure_and_kind() -> None:
    calls: list[str] = []

    def make(kind: str):
        def build(f: go.Figure) -> go.Figure:
            calls.append(kind)
            return go.Figure(f).update_layout(title=kind)
        return build

    held = frozen(go.Figure(go.Bar(x=["a"], y=[1])))
    first = variant(held, "zh", make("zh"))
    assert variant(held, "zh", make("zh")) is first and calls == ["zh"]
    assert variant(held, "presenter", make("presenter")) is not first and calls == ["zh", "presenter"]
    assert first.to_dict().json != held.to_dict().json
    loose = go.Figure(go.Bar(x=["a"], y=[1]))  # not frozen: made each time, never kept
    assert variant(loose, "zh", make("zh")) is not variant(loose, "zh", make("zh"))
