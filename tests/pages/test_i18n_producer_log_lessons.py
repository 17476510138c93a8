"""Producer, Partition Log and Lessons in Chinese beyond their first run: the producer's presets, its
notes, fault-line and transaction errors; the log's compaction, an offset out of range and a segment too small;
every step of every lesson (check without an answer, check, reveal: no English sentence left inside the Chinese
either, in the question, the reveal or the trainer's guide) and presenter mode.  Each state shows no
English prose and nothing asked of ``_()`` / ``tr()`` is missing.

A translated selectbox (``format_func``) is moved with ``select_index``: AppTest formats ``set_value`` outside
the script run, where the session's language is not known."""

from __future__ import annotations

from typing import Any

from engine.lessons import course
from support.i18n_pages import english_left, run_page, sentences_left
from ui.text import i18n


def missing() -> list[str]:
    return sorted(m for lang, m in i18n.MISSING if lang == "zh")


def visible_english(at: Any) -> list[str]:
    """``english_left`` without presenter mode's injected ``<style>`` / ``<script>`` blocks (not visible text)."""
    return [t for t in english_left(at) if not t.lstrip().startswith(("<style>", "<script>"))]


def test_producer_presets_notes_and_errors_in_chinese() -> None:
    i18n.MISSING.clear()
    at = run_page("pages/9_Producer.py", "zh")
    at.selectbox(key="producer.preset").select_index(3).run()  # response lost, no idempotence: duplicates
    assert "重复的消息" in [m.label for m in at.metric]
    assert not at.exception and english_left(at) == [] and missing() == []
    at.selectbox(key="producer.preset").select_index(2).run()  # the defaults: idempotence on since 3.0
    at.selectbox(key="producer.acks").select_index(2).run()  # acks=0 turns idempotence off, with a note
    assert [i.value for i in at.info][-1] == "幂等将被禁用，因为 acks 被设为 0，而不是 'all'。"
    at.text_area(key="producer.faults").set_value("x, y").run()
    assert [e.value for e in at.error] == ["故障第 1 行：应为“请求编号, 类型”，实际为 'x, y'"]
    at.session_state["producer.transactions"] = True  # the transactions' lazy expander, opened
    at.run()
    at.text_area(key="producer.txn_ops").set_value("P1, send 0 1\nP1, commit").run()
    assert [e.value for e in at.error][-1] == "operations[1]：'P1' 没有 transactional.id，不能提交"
    assert not at.exception and english_left(at) == [] and missing() == []
    at.selectbox(key="producer.preset").select_index(7).run()  # refused: enable.idempotence=true, 6 in flight
    assert [e.value for e in at.error][0].startswith("ConfigException：使用幂等生产者必须")
    assert not at.exception and english_left(at) == [] and missing() == []


PRODUCER_TABS = ("在途批次", "时间线", "事件", "请求", "批次", "Broker：最近 5 个批次")


def test_producer_tabs_and_expanders_in_chinese() -> None:
    """Each lazy tab opened by its Chinese label, then the articles and the transactions: no English prose."""
    i18n.MISSING.clear()
    at = run_page("pages/9_Producer.py", "zh")
    at.selectbox(key="producer.preset").select_index(2).run()  # idempotence on: the broker keeps batches
    for tab in PRODUCER_TABS:
        at.session_state["producer.view"] = tab
        at.run()
        assert len(at.get("plotly_chart")) + len(at.table) == 2, tab  # the log strip and the tab's one view
        assert not at.exception and english_left(at) == [], tab
    at.session_state["producer.articles_view"] = True
    at.session_state["producer.transactions"] = True
    at.run()
    assert any(m.value.startswith("**p0**") for m in at.markdown)
    assert not at.exception and english_left(at) == [] and missing() == []


def test_partition_log_compaction_and_errors_in_chinese() -> None:
    i18n.MISSING.clear()
    at = run_page("pages/10_Partition_Log.py", "zh")
    for section in ("log.maintenance", "log.sizing", "log.articles_view"):  # the lazy expanders, opened
        at.session_state[section] = True
    at.selectbox(key="log.policy").set_value("compact").run()
    at.text_input(key="log.keys").set_value("20").run()
    at.text_input(key="log.tombstone_every").set_value("7").run()
    assert "**在 616,740,000 毫秒执行日志压实**：已清理。" in [m.value for m in at.markdown]
    assert not at.exception and english_left(at) == [] and missing() == []
    at.text_input(key="log.offset").set_value(str(10**9)).run()
    assert any(m.value.startswith("OffsetOutOfRangeException：偏移量 1,000,000,000 超出") for m in at.markdown)
    at.text_input(key="log.segment_size").set_value("14").run()
    assert [e.value for e in at.error][0].startswith("RecordBatchTooLargeException：")
    assert not at.exception and english_left(at) == [] and missing() == []


def test_every_lesson_step_and_presenter_mode_in_chinese() -> None:
    i18n.MISSING.clear()
    at = run_page("pages/11_Lessons.py", "zh")
    for lesson_no, lesson in enumerate(course(), 1):
        for step_no, step in enumerate(lesson.steps, 1):
            at.session_state["lessons.position"] = (lesson_no, step_no)
            at.session_state["lessons.lesson"] = lesson_no
            at.run()
            at.button(key="lessons.check").click().run()  # no answer yet
            assert [e.value for e in at.error] == ["请先给出答案。"]
            key = f"lessons.answer.{step.id}"
            if step.kind == "partitions":
                at.multiselect(key=key).set_value(list(step.answer)).run()
            elif step.kind == "choice":
                at.radio(key=key).set_value(step.answer).run()
            else:
                at.text_input(key=key).set_value(str(step.answer)).run()
            at.button(key="lessons.check").click().run()  # the reveal: verdict, explanation, article note
            assert [s.value for s in at.success][0].startswith("正确："), step.id
            assert not at.exception and english_left(at) == [], step.id
            # no English sentence inside the Chinese: the question, the reveal (explanation, Kafka line, article
            # note, production line) and the trainer's guide under the course
            assert sentences_left(at) == [], step.id
    at.session_state["present.mode"] = True
    at.run()
    assert "退出演示模式" in [b.label for b in at.button]
    assert not at.exception and visible_english(at) == [] and missing() == []
