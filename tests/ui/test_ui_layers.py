"""The layers of ui/, read from every module's imports (ast, function-level imports included).

Floors, lowest first: ``text`` < ``runtime`` < ``frame`` < ``inputs``.  A floor imports its own floor and the
floors below it, never a higher floor nor a feature.  A feature folder (every other folder of ui/) imports the
floors, its own folder and the ``scenario`` feature; ``scenario`` imports only the floors and itself.  The
runtime floor never imports Streamlit.  No import cycle between ui's modules.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from helpers import REPO

UI = REPO / "ui"
FLOORS = {"text": 0, "runtime": 1, "frame": 2, "inputs": 3}
SHARED_FEATURE = "scenario"


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(UI.rglob("*.py"))}


def imports(path: Path) -> list[str]:
    """Every module ``path`` imports (``from ui.x import y`` is ``ui.x.y`` when that is a module)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found += [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in MODULES else node.module
                      for a in node.names]
    return found


def folder(module: str) -> str | None:
    """The floor or feature folder of a ui module (``None``: the ``ui`` package itself)."""
    parts = module.split(".")
    return parts[1] if parts[0] == "ui" and len(parts) > 1 else None


def allowed(source: str, target: str) -> bool:
    if source in FLOORS:
        return target in FLOORS and FLOORS[target] <= FLOORS[source]
    return target in FLOORS or target in (source, SHARED_FEATURE)


def ui_edges() -> dict[str, set[str]]:
    return {m: {t for t in imports(p) if t in MODULES and t != m and folder(t)} for m, p in MODULES.items()}


def test_every_ui_module_sits_in_a_floor_or_a_feature_folder() -> None:
    loose = [m for m in MODULES if m != "ui" and len(m.split(".")) < 3 and not (UI / m.split(".")[1]).is_dir()]
    assert loose == []
    assert set(FLOORS) <= {folder(m) for m in MODULES}


def test_no_import_goes_up_a_floor_or_across_features() -> None:
    wrong = [f"{m} -> {t}" for m, targets in ui_edges().items() if folder(m)
             for t in sorted(targets) if not allowed(folder(m) or "", folder(t) or "")]
    assert wrong == []


def test_the_runtime_floor_never_imports_streamlit() -> None:
    wrong = [f"{m} -> {t}" for m, p in MODULES.items() if folder(m) == "runtime"
             for t in imports(p) if t.split(".")[0] == "streamlit"]
    assert wrong == []


def test_there_is_no_import_cycle() -> None:
    edges = ui_edges()
    state: dict[str, int] = {}  # 1: on the path, 2: done
    cycles: list[list[str]] = []

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(edges[module]):
            if state.get(target) == 1:
                cycles.append(path[path.index(target):] + [target])
            elif target not in state:
                visit(target, [*path, target])
        state[module] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])
    assert cycles == []


@pytest.mark.parametrize(("source", "target", "ok"), [
    ("text", "runtime", False), ("runtime", "text", True), ("frame", "inputs", False), ("inputs", "frame", True),
    ("frame", "scenario", False), ("keys", "scenario", True), ("keys", "share", False), ("scenario", "keys", False),
])
def test_the_rule_itself(source: str, target: str, ok: bool) -> None:
    assert allowed(source, target) is ok
