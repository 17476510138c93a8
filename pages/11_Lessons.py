"""Guided lessons: predict, then reveal. Every answer is computed by the live engine (engine.lessons)."""

from __future__ import annotations

import streamlit as st

from engine.lessons import LessonStep, course
from ui.i18n import _, tr
from ui.layout import page_setup
from ui.lessons import (
    VERDICTS,
    answer_widget,
    check_answer,
    choose_lesson,
    go,
    page_url,
    position,
    progress,
    scene_table,
    shown_answer,
)
from ui.lessons_text import explanation, lesson_titles, question
from ui.sidebar import render_sidebar

page_setup(_("Guided lessons"), "🎓", _("A short course along the seed articles' path. Predict the answer, "
                                         "then check it against the engine, which computes what Kafka computes."))
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


def reveal_section(step: LessonStep) -> None:
    verdict = st.session_state.get(VERDICTS, {}).get(step.id)
    if verdict is None:
        st.caption(_("Predict first: the explanation appears once you check an answer."))
        return
    if verdict:
        st.success(_("Correct: the engine says {answer}.").format(answer=shown_answer(step)))
    else:
        st.error(_("Not quite: the engine says {answer}.").format(answer=shown_answer(step)))
    st.markdown(explanation(step.id, step.facts))
    st.markdown(_("Kafka computes it in: `{kafka}`").format(kafka=step.kafka))
    if step.article and step.article.wrong:
        st.warning(_("Seed article {article} is wrong here. It says: {says}. Kafka gives: {kafka}.").format(
            article=step.article.article, says=tr(step.article.says), kafka=tr(step.article.kafka)))
    elif step.article:  # right for consumer groups, silent on share groups
        st.info(_("The article ({article}) says: {says}. Kafka does: {kafka}.").format(
            article=step.article.article, says=tr(step.article.says), kafka=tr(step.article.kafka)))
    if step.link:
        st.link_button(_("Open this scenario on the full page"), page_url(step.link), icon=":material/open_in_new:")


def navigation_section(lesson_no: int, step_no: int) -> None:
    last = (lesson_no, step_no) == (len(course()), len(course()[-1].steps))
    left, right = st.columns(2)
    left.button(_("Previous step"), key="lessons.prev", icon=":material/arrow_back:", width="stretch",
                on_click=go, args=(lesson_no, step_no - 1), disabled=(lesson_no, step_no) == (1, 1))
    right.button(_("Next step"), key="lessons.next", icon=":material/arrow_forward:", width="stretch",
                 on_click=go, args=(lesson_no, step_no + 1), disabled=last)


lesson_no, step_no = position()
step = header_section(lesson_no, step_no)
question_section(step)
reveal_section(step)
navigation_section(lesson_no, step_no)
