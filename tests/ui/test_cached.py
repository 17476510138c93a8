"""The caching idiom (each feature's ui/<feature>/cached.py): one hashable scenario reference, hashed by its key;
one cache bounded by bytes (ui/runtime/memo.py)."""

from __future__ import annotations

from pathlib import Path

from engine.comparison import CLIENT
from engine.presets import build_preset
from engine.scenario import dumps_scenario
from helpers import REPO
from ui.assignments.cached import grid_figure
from ui.frame.state import ScenarioRef
from ui.runtime.memo import memo


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


def test_every_cache_wrapper_is_in_the_byte_bounded_store_and_lives_in_a_feature_cached_module() -> None:
    import importlib

    modules = sorted((REPO / "ui").glob("*/cached.py"))
    wrappers = [f for path in modules
                for f in vars(importlib.import_module(f"ui.{path.parent.name}.cached")).values()
                if hasattr(f, "memo_name")]
    assert len(wrappers) >= 15
    mine = ["1_Assignments", "2_Rebalance", "3_Keys", "4_Sizing", "5_Timing_Wheel", "7_Group_Protocol",
            "8_Replicas"]
    pages = [REPO / "pages" / f"{name}.py" for name in mine] + [REPO / "app.py"]
    ui = [p for p in Path(REPO / "ui").rglob("*.py") if p.name != "memo.py"]
    assert [p.name for p in pages + ui if "st.cache_" in p.read_text(encoding="utf-8")] == []


def test_the_same_reference_gives_the_very_same_figure() -> None:
    ref = ScenarioRef.of(build_preset("seed-d"))
    assert grid_figure(ref, CLIENT["sticky"], 1) is grid_figure(ScenarioRef(ref.key, ""), CLIENT["sticky"], 1)
