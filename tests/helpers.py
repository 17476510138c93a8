"""Helpers shared by the tests (import them from here, never from conftest): where the repo and the real-Kafka
vectors live, loading a vector file, and opening a dashboard page under AppTest."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
VECTORS = Path(os.environ.get("KPL_VECTORS", REPO.parent / "shared" / "vectors"))
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

def load_vectors(name: str) -> dict[str, Any]:
    """Load ../shared/vectors/<name>, or skip with a clear message when the folder is absent."""
    path = VECTORS / name
    if not path.is_file():
        pytest.skip(f"real-Kafka vectors not found at {path} (expected ../shared/vectors beside the repo)",
                    allow_module_level=True)
    return json.loads(path.read_text(encoding="utf-8"))


def open_page(page_file: str, preset: str | None = None) -> Any:
    """AppTest of ``pages/<page_file>`` after a first run, optionally with a sidebar preset loaded."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(REPO / "pages" / page_file), default_timeout=120).run()
    assert not at.exception, at.exception
    if preset:
        at.selectbox(key="sidebar.preset").set_value(preset).run()
        assert not at.exception, at.exception
    return at
