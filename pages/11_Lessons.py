"""Guided lessons: predict, then reveal. Every answer is computed by the live engine (engine.lessons)."""

from __future__ import annotations

import streamlit as st

from engine.lessons import Lesson, LessonStep, course
from ui.frame.layout import page_setup
from ui.frame.sidebar import render_sidebar
from ui.lessons.handout import handout_html
from ui.lessons.lesson_state import (
    VERDICTS,
    answer_widget,
    article_note,
    check_answer,
    choose_lesson,
    choose_path,
    go,
    guide_table,
    page_url,
    path,
    position,
    progress,
    scene_table,
    shown_answer,
    step_along,
)
from ui.lessons.texts import explanation, lesson_titles, production, question
from ui.text.i18n import _

page_setup(_("Guided lessons"), "🎓", _("A course for new engineers, from the consumer group to the producer, "
                                         "the log and replication. Predict the answer, then check it against the "
                                         "engine, which computes what Kafka computes."))
render_sidebar()


def header_section(lesson_no: int, step_no: int) -> LessonStep:
    titles = lesson_titles()
    choose_lesson(titles)
    lesson = course()[lesson_no - 1]
    done, total = progress()
    st.progress(done / total, text=_("{done} of {total} steps answered correctly").format(done=done, total=total))
    st.subheader(titles[lesson.id])
    st.caption(_("Lesson {lesson}, step {step} of {steps}").format(lesson=lesson_no, step=step_no,
                                                                  steps=len(lesson.steps)))
    return lesson.steps[step_no - 1]


def question_section(step: LessonStep) -> None:
    scene_table(step)
    st.markdown(f"**{question(step.id, step.facts)}**")
    given = answer_widget(step)
    st.button(_("Check my answer"), key="lessons.check", type="primary", on_click=check_answer, args=(step, given))
    if st.session_state.get("lessons.error"):
        st.error(st.session_state["lessons.error"])


def reveal_section(lesson: Lesson, step: LessonStep) -> None:
    verdict = st.session_state.get(VERDICTS, {}).get(step.id)
    if verdict is None:
        st.caption(_("Predict first: the explanation appears once you check an answer."))
        return
    if verdict:
        st.success(_("Correct: the engine says {answer}.").format(answer=shown_answer(step)))
    else:
        st.error(_("Not quite: the engine says {answer}.").format(answer=shown_answer(step)))
    st.markdown(explanation(step.id, step.facts))
    if step.source == "rule":
        st.markdown(_("A rule of thumb, not something Kafka computes: `{kafka}`").format(kafka=step.kafka))
    elif step.source == "model":
        st.markdown(_("The lab's model of what Kafka does, not a measurement: `{kafka}`").format(kafka=step.kafka))
    else:
        st.markdown(_("Kafka computes it in: `{kafka}`").format(kafka=step.kafka))
    note = article_note(step)
    if note:
        st.warning(note, icon=":material/menu_book:")
    if step.link:
        st.link_button(_("Open this scenario on the full page"), page_url(step.link), icon=":material/open_in_new:")
    if step is lesson.steps[-1]:
        st.info(_("**In production:** {line}").format(line=production()[lesson.id]), icon=":material/build:")


def navigation_section(lesson_no: int, step_no: int) -> None:
    """Previous / next along the trainer's path (presenter mode's arrow keys click them)."""
    before, after = step_along(lesson_no, step_no, -1), step_along(lesson_no, step_no, +1)
    left, right = st.columns(2)
    left.button(_("Previous step"), key="lessons.prev", icon=":material/arrow_back:", width="stretch",
                on_click=go, args=before or (lesson_no, step_no), disabled=before is None)
    right.button(_("Next step"), key="lessons.next", icon=":material/arrow_forward:", width="stretch",
                 on_click=go, args=after or (lesson_no, step_no), disabled=after is None)


def guide_section() -> None:
    """The trainer's guide: the path (whole course, two hours, one hour), its table (minutes, misconception,
    prompts, production line per lesson) and the handout to run the session from."""
    with st.expander(_("Trainer's guide")):
        choose_path()
        table = guide_table(lesson_titles(), path())
        st.caption(_("{lessons} lessons, {steps} predict-then-reveal steps, {minutes} minutes.").format(
            lessons=len(table), steps=progress()[1], minutes=int(table[_("minutes")].sum())))
        st.table(table, hide_index=True)
        st.download_button(_("Trainer's handout: every step's question, answer and link (HTML, works offline, "
                             "prints a page per lesson)"), lambda: handout_html(path()),
                           f"lessons-handout-{path()}.html", "text/html", key="lessons.handout",
                           icon=":material/description:")


lesson_no, step_no = position()
step = header_section(lesson_no, step_no)
question_section(step)
reveal_section(course()[lesson_no - 1], step)
navigation_section(lesson_no, step_no)
guide_section()
