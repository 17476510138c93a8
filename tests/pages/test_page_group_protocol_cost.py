"""Group Protocol's rolling restart replays each strategy and membership kind once.

One replay serves both the comparison rows and the timelines: a second one would double the page's script time
on the large preset.
"""

from __future__ import annotations

import pytest

import engine.consumer.group as group
from helpers import open_page, shown_tables
from ui.runtime import memo


def test_rolling_restart_replays_each_strategy_and_membership_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = group.replay

    def counting(scenario, strategy, *args, **kwargs):
        calls.append(strategy)
        return real(scenario, strategy, *args, **kwargs)

    memo.clear()
    monkeypatch.setattr(group, "replay", counting)
    at = open_page("7_Group_Protocol.py")
    assert calls == []  # section 5 is a lazy expander: closed, it replays nothing
    at.session_state["protocol.restart_view"] = True
    at.run()
    assert not at.exception, at.exception
    strategies = at.multiselect(key="protocol.strategies").value
    assert len(strategies) == 2
    assert sorted(calls) == sorted(s for s in strategies for _ in ("dynamic", "static"))
    table = shown_tables(at)[-1]
    assert "membership" in table.columns and len(table) == 2 * len(strategies)


def test_a_restart_too_large_for_the_page_is_refused_at_once_with_the_numbers() -> None:
    from bench.browser_groups import group_scenario, parse_group
    from engine.consumer.membership import MAX_RESTART_WORK, RollingRestartConfig, rolling_restart
    from engine.errors import LimitError

    state = group_scenario(parse_group("200x20000x100")).first
    with pytest.raises(LimitError, match=r"200² x 20,000 = 800,000,000") as info:
        rolling_restart(state, "range", RollingRestartConfig(), static=False)
    assert f"{MAX_RESTART_WORK:,}" in str(info.value)


def test_the_page_says_a_restart_is_too_large_as_a_warning_and_keeps_the_rest() -> None:
    from streamlit.testing.v1 import AppTest

    from bench.browser_groups import parse_group, share_code
    from helpers import REPO

    at = AppTest.from_file(str(REPO / "pages" / "7_Group_Protocol.py"), default_timeout=300)
    at.query_params["s"] = share_code(parse_group("200x20000x100"))
    at.session_state["protocol.restart_view"] = True  # section 5's lazy expander, opened
    at.run()
    assert not at.exception and not at.error
    assert any("over the dashboard's ceiling" in w.value and "200 members restarted" in w.value
               for w in at.warning)  # the cost model's one line (ui.runtime.offload), before any replay
    assert at.get("plotly_chart")  # the sequence diagram is still drawn


def test_too_many_members_for_a_restart_is_a_limit() -> None:
    from engine.consumer.membership import MAX_RESTART_MEMBERS, RollingRestartConfig, rolling_restart
    from engine.errors import LimitError
    from engine.scenario import parse_scenario

    n = MAX_RESTART_MEMBERS + 1
    state = parse_scenario({"topics": {"t": 1}, "members": [{"id": f"m{i}", "topics": ["t"]} for i in range(n)]}).first
    with pytest.raises(LimitError, match=f"at most {MAX_RESTART_MEMBERS} for a rolling restart, got {n}"):
        rolling_restart(state, "range", RollingRestartConfig(), static=False)
