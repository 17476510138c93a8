"""Keys and Sizing in Chinese beyond their first run: the paste and upload key sources, the librdkafka
partitioner choice and the inline errors on Keys; a pasted kafka-producer-perf-test.sh run, the ZooKeeper era with
an over-the-limit count and an error on Sizing.  Each state shows no English prose and nothing asked of
``_()`` / ``tr()`` is missing."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest
from test_page_sizing import CONSUMER_OUT, PRODUCER_OUT

from engine import EngineError, keysample
from support.i18n_pages import english_left, run_page
from ui.text import i18n


def missing() -> list[str]:
    return sorted(m for lang, m in i18n.MISSING if lang == "zh")


def open_tab(at: AppTest, key: str, index: int) -> None:
    """Open the page's lazy tab ``index`` by its label as shown (in Chinese), and run the page."""
    at.session_state[key] = at.tabs[index].label
    at.run()


@pytest.mark.parametrize(("page", "key"), [("pages/3_Keys.py", "keys.view"), ("pages/4_Sizing.py", "sizing.view")])
def test_every_lazy_tab_in_chinese(page: str, key: str) -> None:
    """The pages' check in Chinese (tests/pages/test_i18n_pages.py) sees the first tab: each other tab, and
    Sizing's closed expanders, opened here."""
    i18n.MISSING.clear()
    at = run_page(page, "zh")
    if key == "sizing.view":
        at.session_state["sizing.constants"] = at.session_state["sizing.costs"] = True
        at.run()
        assert len(at.get("plotly_chart")) == 2 and english_left(at) == []
    for index in range(1, len(at.tabs)):
        open_tab(at, key, index)
        assert not at.exception and not at.error and english_left(at) == [], at.tabs[index].label
    assert missing() == []


def test_keys_sources_partitioners_and_errors_in_chinese() -> None:
    i18n.MISSING.clear()
    at = run_page("pages/3_Keys.py", "zh")
    at.radio(key="client.keys").set_value("librdkafka").run()
    at.multiselect(key="keys.partitioners.librdkafka").set_value(["consistent_random", "consistent", "java"]).run()
    assert not at.exception and english_left(at) == []
    at.multiselect(key="keys.partitioners.librdkafka").set_value([]).run()
    assert [e.value for e in at.error] == ["分区器：请至少选择一个。"]
    at.radio(key="keys.source").set_value("paste").run()
    at.text_area(key="keys.paste").set_value("\n\n\n").run()
    assert [e.value for e in at.error] == ["粘贴的消息键：没有找到消息键（每行一个键）"]
    at.radio(key="keys.source").set_value("upload").run()
    assert "上传文件后即可查看其中的消息键。" in [c.value for c in at.caption]
    open_tab(at, "keys.view", 2)
    at.text_input(key="keys.sim_rate").set_value("1000000").run()
    at.slider(key="keys.sim_duration").set_value(20_000).run()
    assert any(e.value.startswith("messages_per_sec x duration：最多") for e in at.error)
    assert not at.exception and english_left(at) == [] and missing() == []
    with pytest.raises(EngineError) as caught:  # AppTest cannot upload: the error the upload path shows
        keysample.parse_upload(b"a\x00b", "keys.bin", None)
    assert i18n.translate(str(caught.value), "zh") == "上传文件 'keys.bin'：不是文本文件（包含 NUL 字节）"


def test_sizing_perf_paste_zookeeper_and_errors_in_chinese() -> None:
    i18n.MISSING.clear()
    at = run_page("pages/4_Sizing.py", "zh")
    at.text_area(key="sizing.producer_perf").set_value(PRODUCER_OUT).run()
    assert [s.value for s in at.success] == ["解析得到 47.67 MB/s（49,985 条消息/秒）：已填入上面的字段。"]
    at.text_area(key="sizing.consumer_perf").set_value(PRODUCER_OUT).run()
    assert [e.value for e in at.error] == [
        "消费者 perf 输出：这看起来是 kafka-producer-perf-test.sh 的输出（上面的字段未改变）"]
    at.text_area(key="sizing.consumer_perf").set_value(CONSUMER_OUT).run()
    at.radio(key="sizing.era").set_value("zookeeper").run()
    at.text_input(key="sizing.chosen").set_value("5000").run()
    assert "未满足" in set(at.table[0].value["结果"])
    summary = at.code[0].value.split("\n")
    assert summary[0].startswith("目标 200 MB/s") and summary[-1].startswith("3 项检查未通过：")
    assert any(line.endswith("——超出；2015 年针对延迟敏感集群的建议") for line in summary)
    assert not at.exception and english_left(at) == [] and missing() == []
    at.text_input(key="sizing.rf").set_value("5").run()
    assert [e.value for e in at.error] == ["replication_factor：必须在 1 到 3 之间，实际为 5"]
    assert not at.exception and english_left(at) == [] and missing() == []
