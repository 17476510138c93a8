"""Guided lessons: every step checked with a wrong and a right answer, URL resume, the course's answers.

The right answers are derived by hand (the worked examples of the engine's modules and seed vectors), so a
change in the engine that breaks a lesson fails here, not only in the page.
"""

from __future__ import annotations

import re

import pytest

from engine.articles import article_name
from engine.lessons import check, clamp_position, course, remap_counts, step_of
from helpers import REPO, open_page

EXPECTED = {  # step id -> the answer Kafka gives (hand-derived)
    "why.three": 2,  # 12 % 5 = 2 consumers carry 3
    "why.idle": 2,  # 8 consumers, 6 partitions
    "keys.partition": 40,  # toPositive(murmur2("21")) % 50 (engine/producer/murmur2.py worked example)
    "keys.remap": 76,  # ~75%: h % 12 == h % 16 only for h % 48 < 12; this sample: 7,587 of 10,000
    "assignors.range": {"t0-0", "t0-1", "t1-0", "t1-1"},
    "assignors.roundrobin": {"t0-1", "t1-0", "t1-2"},
    "assignors.count": 4,
    "leaves.sticky": {"t0-0", "t3-0", "t1-1", "t0-1"},
    "leaves.revoked": 5,
    "static.dynamic": 6,
    "static.static": 0,
    "kip848.revoked": 0,
    "sizing.partitions": 21,  # ceil(max(205/25, 205/10)) = ceil(20.5)
    "wheel.level": 1,
    "wheel.bucket": 1,
    # the data-path lessons (engine/lessons/data_path.py), hand-derived from the engine's worked examples
    "producer.order": "0, 2, 3, 1",  # seed article 002's BCA: the retried record lands last
    "producer.duplicates": 6,  # 3 records written twice
    "producer.acks0": "false",  # ProducerConfig: idempotence silently off when acks != all and it is unset
    "producer.expire": 0,
    "log.segment": 133,  # engine/storage/partition_log.py worked example
    "log.index": 656,  # engine/storage/index.py worked example: [22, 656]
    "log.retention": 40,  # tests/test_storage_partition_log.py: the first segment (largest ts 3,000) goes
    "replication.hw": 8,  # min(LEO 10, LEO 8) over ISR [0, 2]
    "replication.acks": 2,  # acks=0 and acks=1; acks=all gets NOT_ENOUGH_REPLICAS
    "replication.failover": 2,  # broker 1 is first in order but out of the ISR
    "replication.unclean": 4,  # HW 8 - broker 1's LEO 4
    "lag.coordinator": 17,  # abs("orders-service".hashCode()) % 50
    "lag.eager": 2800,  # 8 partitions paused from 1,000 ms (batch) to 4,500 ms (rejoin + sync): 28 s x 100/s
    "lag.cooperative": 750,  # C1's 3 partitions, from its leave at 1,000 ms to round 1's end at 3,500 ms
    "eos.committed": 3,  # T1's two records and the plain one
    "eos.lso": 2,  # T1's open send on partition 1
    # the streams group (engine/coordinator/streams): one subtopology reading topics of 6 and 4 partitions
    "streams.tasks": 6,  # max(6, 4)
    "streams.threads": 6,  # 6 tasks on 5 instances x 2 threads: one thread per task
    "streams.standbys": 6,  # 6 stateful tasks x 1 standby, 3 instances: every one placed
    "streams.alone": 0,  # one instance never holds two copies of a task
    "streams.restart": 2,  # app-2's 0_2 and 0_4 go to the threads that held their standbys
    "streams.rejoin": 2,  # 6 tasks on 6 threads again: one each for app-2's two threads
    # the share group (engine/coordinator/simple.py): 8 members on 3 partitions, D = ceil(8 / 3) = 3 members each
    "share.readers": 3,
    "share.two": 1,  # 9 memberships over 8 members: desired counts 2, 1, 1, 1, 1, 1, 1, 1
    "share.leave": 2,  # C3 read jobs-1 and jobs-2; 7 members want 2, 1, 1, 2, 1, 1, 1: two fill them
    "share.join": 1,  # C8 joins: 8 members again, only one may keep two partitions; C7 gives jobs-1 back
}
MEASURED = {"hot.share12", "hot.share96"}  # from a generated key sample: tests/engine/lessons/test_lessons_course.py
POSITIONS = [(i, j) for i, lesson in enumerate(course(), 1) for j in range(1, len(lesson.steps) + 1)]


def test_course_answers_are_what_kafka_gives() -> None:
    answers = {s.id: (set(s.answer) if s.kind == "partitions" else s.answer)
               for lesson in course() for s in lesson.steps}
    assert {k: v for k, v in answers.items() if k not in MEASURED} == \
        {k: v for k, v in EXPECTED.items() if k not in MEASURED}
    assert set(answers) == set(EXPECTED) | MEASURED
    assert remap_counts() == (7587, 10_000)


def test_texts_cover_every_step_in_both_languages() -> None:
    """Every lesson string has a Chinese translation with the same placeholders (the facts filled in)."""
    from babel.messages.extract import extract_from_file

    from ui.lessons.texts import step_ids
    from ui.text.i18n import catalog

    assert step_ids() == {s.id for lesson in course() for s in lesson.steps}
    zh = catalog("zh")
    files = ["ui/lessons/texts.py", "ui/lessons/lesson_state.py", "ui/lessons/handout.py", "ui/frame/presenter.py",
             "pages/11_Lessons.py"]
    ids = {m[1] for f in files for m in extract_from_file("python", str(REPO / f), keywords={"_": None})}
    assert len(ids) > 60
    for english in ids:
        assert english in zh, f"no Chinese for {english!r}"
        assert set(re.findall(r"\{\w+\}", english)) == set(re.findall(r"\{\w+\}", zh[english])), english


def test_check_rejects_malformed_answers() -> None:
    from engine.errors import ScenarioError

    with pytest.raises(ScenarioError, match="expected a number"):
        check(step_of(2, 1), "forty")
    assert check(step_of(2, 2), "75%").correct and not check(step_of(2, 2), 50).correct
    assert clamp_position("abc", "99") == (1, 2) and clamp_position("99", "0") == (len(course()), 1)


def _wrong(step) -> object:
    if step.kind == "partitions":
        return list(step.answer)[:-1]
    if step.kind == "choice":
        return next(c for c in step.choices if c != step.answer)
    return step.answer + step.tolerance + 1


def _right(step) -> object:
    return list(step.answer) if step.kind == "partitions" else step.answer


def _answer(at, step, value) -> None:
    key = f"lessons.answer.{step.id}"
    if step.kind == "number":
        at.text_input(key=key).set_value(str(int(value))).run()
    else:
        {"partitions": at.multiselect, "choice": at.radio}[step.kind](key=key).set_value(value).run()
    at.button(key="lessons.check").click().run()
    assert not at.exception, at.exception


def _lesson_page(**params: str):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(REPO / "pages" / "11_Lessons.py"), default_timeout=120)
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("lesson,step", POSITIONS)
def test_every_step_checks_a_wrong_then_a_right_answer(lesson: int, step: int) -> None:
    at = _lesson_page(lesson=str(lesson), step=str(step))
    s = step_of(lesson, step)
    assert not at.success and not at.error  # predict first: nothing revealed yet
    _answer(at, s, _wrong(s))
    assert [e.value for e in at.error] and "Not quite" in at.error[0].value
    _answer(at, s, _right(s))
    assert "Correct" in at.success[0].value
    shown = " ".join(m.value for m in at.markdown)
    assert s.kafka in shown  # the Kafka class/method (or the rule of thumb's source) is named once revealed
    if s.article:
        named = f"{s.article.article} {article_name(s.article.article)}"  # the id and the title
        told = {"typo": f"A typo in reference article {named}",
                "outdated": f"Reference article {named} is out of date since Kafka {s.article.since}",
                "wrong": f"Reference article {named} is wrong here",
                "exception": f"Reference article {named} holds for consumer groups"}[s.article.kind]
        assert told in at.warning[0].value
    if step == len(course()[lesson - 1].steps):  # the lesson closes with what to set in production
        assert any(i.value.startswith("**In production:**") for i in at.info)
    if s.link:  # the full page with the step's own scenario (tests/pages/test_page_lessons_links.py)
        assert at.get("link_button")[0].proto.url.startswith(s.link.page.split("_", 1)[1][:-3])
    else:
        assert not at.get("link_button")


def test_url_resumes_a_position_and_follows_the_buttons() -> None:
    at = _lesson_page(lesson="4", step="2")
    assert at.subheader[0].value == "A consumer leaves: eager vs cooperative"
    assert "revoke in total" in at.markdown[0].value
    at.button(key="lessons.next").click().run()
    assert at.query_params["lesson"] in ("5", ["5"]) and at.query_params["step"] in ("1", ["1"])
    at.button(key="lessons.prev").click().run()
    assert at.query_params["lesson"] in ("4", ["4"]) and at.query_params["step"] in ("2", ["2"])
    at.selectbox(key="lessons.lesson").set_value(8).run()
    assert at.query_params["lesson"] in ("8", ["8"]) and at.subheader[0].value == "The timing wheel"


def test_progress_counts_correct_answers() -> None:
    at = _lesson_page(lesson="2", step="1")
    _answer(at, step_of(2, 1), 40)
    total = sum(len(lesson.steps) for lesson in course())
    assert f"1 of {total} steps answered correctly" in at.get("progress")[0].proto.text


def test_bad_url_position_is_clamped() -> None:
    at = _lesson_page(lesson="abc", step="999")
    assert at.query_params["lesson"] in ("1", ["1"]) and at.query_params["step"] in ("2", ["2"])


def test_lesson_in_chinese() -> None:
    at = _lesson_page(lesson="2", step="1", lang="zh")
    assert at.title[0].value == "引导课程"
    assert "Java 生产者" in at.markdown[0].value and '"21"' in at.markdown[0].value


def test_default_page_opens() -> None:
    at = open_page("11_Lessons.py")
    assert at.query_params["lesson"] in ("1", ["1"])


@pytest.mark.parametrize("module", ["engine.lessons.course", "engine.lessons.model"])
def test_worked_examples_in_the_docstrings(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted >= 3 and result.failed == 0
