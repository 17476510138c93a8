"""A streams group's views in Chinese (``?lang=zh``): Assignments at every step of the rolling restart and with
standby replicas it cannot place, Rebalance, Compare on a streams and a consumer preset: no English prose left
and nothing missing from the catalogues."""

from __future__ import annotations

from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from helpers import REPO
from support.i18n_pages import english_left
from ui.text import i18n


def run_zh(page: str, state: dict[str, Any] | None = None, **params: str) -> AppTest:
    at = AppTest.from_file(str(REPO / "pages" / page), default_timeout=180)
    at.query_params["lang"] = "zh"
    for key, value in params.items():
        at.query_params[key] = value
    for key, value in (state or {}).items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.fixture(autouse=True)
def no_missing() -> Any:
    i18n.MISSING.clear()
    yield
    assert sorted(m for lang, m in i18n.MISSING if lang == "zh") == []


@pytest.mark.parametrize("step", [0, 1, 2])
def test_assignments_in_chinese(step: int) -> None:
    at = run_zh("1_Assignments.py", {"assign.step": step}, preset="streams-rolling-restart")
    assert "Streams 组（KIP-1071）：粘性任务分配器" in [s.value for s in at.subheader]
    assert english_left(at) == []


def test_assignments_in_chinese_with_standbys_it_cannot_place() -> None:
    from engine.scenario import parse_scenario
    from ui.frame.state import encode_scenario

    scenario = parse_scenario({"group_type": "streams", "num_standby_replicas": 2, "topics": {"orders": 3},
                               "subtopologies": [{"id": "0", "source_topics": ["orders"], "stateful": True}],
                               "members": [{"id": "a1", "process": "a"}, {"id": "b1", "process": "b"}]})
    at = run_zh("1_Assignments.py", s=encode_scenario(scenario))
    assert at.warning and english_left(at) == []


@pytest.mark.parametrize("step", ["1", "2"])
def test_rebalance_in_chinese(step: str) -> None:
    at = run_zh("2_Rebalance.py", preset="streams-rolling-restart", **{"rebalance.step": step})
    assert "Streams 组（KIP-1071）：有什么变化" in [s.value for s in at.subheader]
    assert english_left(at) == []


@pytest.mark.parametrize("preset", ["streams-rolling-restart", "seed-d"])
def test_compare_in_chinese(preset: str) -> None:
    at = run_zh("12_Compare.py", {"compare.share_view": True, "compare.streams_view": True},  # lazy, opened
                preset=preset)
    assert "同样的主题：消费者组、共享组还是 Streams 组" in [e.label for e in at.expander]
    assert "同样的主题：消费者组、共享组还是 Streams 组" not in [s.value for s in at.subheader]  # the label only
    assert english_left(at) == []
