"""The engine's layering promises: no streamlit anywhere in engine/, pyspark only in engine/spark/."""

from __future__ import annotations

import subprocess
import sys

from helpers import REPO


def imported_modules(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys; print(' '.join(sys.modules))"],
                         capture_output=True, text=True, cwd=REPO, timeout=120, check=True).stdout
    return set(out.split())


def test_engine_public_api_imports_neither_streamlit_nor_pyspark() -> None:
    mods = imported_modules("import engine\nfor n in engine.__all__: getattr(engine, n)\n"
                            "import engine.charts.assignment, engine.charts.rebalance, engine.cli")
    assert "streamlit" not in mods
    assert not any(m == "pyspark" or m.startswith("pyspark.") for m in mods)


def test_no_engine_module_mentions_streamlit() -> None:
    offenders = [p for p in (REPO / "engine").rglob("*.py") if "import streamlit" in p.read_text(encoding="utf-8")]
    assert offenders == []


def test_pyspark_is_imported_only_under_engine_spark() -> None:
    offenders = [
        p for p in (REPO / "engine").rglob("*.py")
        if "spark" not in p.relative_to(REPO / "engine").parts[:1]
        and ("import pyspark" in p.read_text(encoding="utf-8") or "from pyspark" in p.read_text(encoding="utf-8"))
    ]
    assert offenders == []
