"""The caching idiom (ui/cached.py): one hashable scenario reference, hashed by its key; one cache bounded by
bytes (ui/memo.py)."""

from __future__ import annotations

from pathlib import Path

import ui.cached as cached
from engine.comparison import CLIENT
from engine.presets import build_preset
from engine.scenario import dumps_scenario
from helpers import REPO
from ui.memo import memo
from ui.state import ScenarioRef


def test_a_reference_is_equal_and_hashed_by_its_key_alone() -> None:
    ref = ScenarioRef.from_json("{}")
    assert ref == ScenarioRef(ref.key, "anything") and hash(ref) == hash(ScenarioRef(ref.key, "else"))
    assert ref != ScenarioRef.from_json("{ }")
    assert ScenarioRef.of(build_preset("seed-a")).json == dumps_scenario(build_preset("seed-a"))
    assert "json" not in repr(ref)  # a 16 MiB scenario never ends up in a log line


def test_the_cache_looks_up_the_key_not_the_json() -> None:
    calls: list[str] = []

    @memo()
    def echo(ref: ScenarioRef) -> str:
        calls.append(ref.json)
        return ref.json

    assert echo(ScenarioRef("k", "A")) == "A"
    assert echo(ScenarioRef("k", "B")) == "A"  # same key: the cached value, the JSON is not looked at
    assert echo(ScenarioRef("j", "A")) == "A" and calls == ["A", "A"]


def test_every_cache_wrapper_is_in_the_byte_bounded_store_and_lives_in_ui_cached() -> None:
    wrappers = [f for f in vars(cached).values() if hasattr(f, "memo_name")]
    assert len(wrappers) >= 15
    mine = ["1_Assignments", "2_Rebalance", "3_Keys", "4_Sizing", "5_Timing_Wheel", "7_Group_Protocol",
            "8_Replicas"]
    pages = [REPO / "pages" / f"{name}.py" for name in mine] + [REPO / "app.py"]
    ui = [p for p in Path(REPO / "ui").glob("*.py") if p.name not in ("cached.py", "memo.py")]
    assert [p.name for p in pages + ui if "st.cache_" in p.read_text(encoding="utf-8")] == []
    assert "st.cache_" not in (REPO / "ui" / "cached.py").read_text(encoding="utf-8")


def test_the_same_reference_gives_the_very_same_figure() -> None:
    ref = ScenarioRef.of(build_preset("seed-d"))
    assert cached.grid_figure(ref, CLIENT["sticky"], 1) is cached.grid_figure(ScenarioRef(ref.key, ""),
                                                                            CLIENT["sticky"], 1)
