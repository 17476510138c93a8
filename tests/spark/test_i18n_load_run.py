"""A finished Load run in Chinese (Spark in-process): every result section shows no English prose and
nothing asked of ``_()`` / ``tr()`` is missing.  The Load page's other states in Chinese need no Spark:
tests/pages/test_i18n_wheel_load.py."""

from __future__ import annotations

import pytest

from support.i18n_pages import english_left, run_page
from ui.text import i18n


def missing() -> list[str]:
    return sorted(m for lang, m in i18n.MISSING if lang == "zh")


def clean(at: object) -> bool:
    return not at.exception and english_left(at) == [] and missing() == []  # type: ignore[attr-defined]


@pytest.mark.spark
def test_a_finished_load_run_in_chinese() -> None:
    """The sample through Spark (starts it when this process has none), then every result section in Chinese."""
    from ui.load.cached import spark_starter

    i18n.MISSING.clear()
    at = run_page("pages/6_Load.py", "zh")
    at.text_input(key="load.partitions").set_value("3,12")
    at.text_input(key="load.consumers").set_value("2,3")
    at.multiselect(key="load.strategies").set_value(["range", "roundrobin"])
    try:
        at.button(key="load.run").click().run(timeout=600)
    finally:  # test_page_load's first run must still see a starter of its own ("Spark started in ...")
        spark_starter.clear()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert [m.label for m in at.metric][:2] == ["消息数", "null 键"]
    assert any(s.value.startswith("建议：") for s in [*at.success, *at.warning])
    assert clean(at)
    at.radio(key="load.metric").set_value("peak_messages_per_s").run()
    at.selectbox(key="load.view_partitions").set_value(3).run()
    assert clean(at)
