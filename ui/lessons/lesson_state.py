"""The Lessons page's state and widgets: the position (session and ``?lesson=4&step=2``), the trainer's path,
answers, verdicts.

The position is 1-based in the URL and in ``st.session_state["lessons.position"]``; verdicts (the progress)
are ``{step id: correct}`` in ``lessons.verdicts``.  The path (``lessons.path``: the whole course, two hours or
one hour, ``engine.lessons.paths``) decides which steps next / previous walk; those buttons are keyed
``lessons.next`` / ``lessons.prev`` (presenter mode's arrow keys click them).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from engine.articles import article_name
from engine.errors import ScenarioError
from engine.lessons import LessonStep, PageLink, check, clamp_position, course
from engine.lessons.paths import DEFAULT_PATH, PATHS, lesson_numbers, minutes_of, neighbour, positions
from ui.frame.state import encode_scenario
from ui.inputs.numbers import optional_whole_number_input
from ui.text.i18n import QUERY_KEY as LANG_KEY
from ui.text.i18n import _, tr

POSITION = "lessons.position"
VERDICTS = "lessons.verdicts"
LESSON_BOX = "lessons.lesson"
PATH = "lessons.path"
URL_SEEN = "lessons.url_seen"
ANSWER_LIMIT = 10**15  # engine.lessons.model.check refuses a number answer of a larger magnitude


def position() -> tuple[int, int]:
    """(lesson, step), 1-based: the URL when it names a new position (a shared link), else the session's."""
    ss, params = st.session_state, st.query_params
    in_url = (params.get("lesson"), params.get("step"))
    if in_url != (None, None) and in_url != ss.get(URL_SEEN):
        ss[POSITION] = clamp_position(*in_url)
        ss[LESSON_BOX] = ss[POSITION][0]
    ss.setdefault(POSITION, (1, 1))
    lesson, step = ss[POSITION]
    params["lesson"], params["step"] = str(lesson), str(step)
    ss[URL_SEEN] = (str(lesson), str(step))
    return lesson, step


def path() -> str:
    """The trainer's path (``lessons.path``, also ``?lessons.path=``); anything else is the whole course."""
    if st.session_state.get(PATH) not in PATHS:
        st.session_state[PATH] = DEFAULT_PATH
    return str(st.session_state[PATH])


def path_labels() -> dict[str, str]:
    return {"course": _("Whole course"), "two_hours": _("Two hours"), "one_hour": _("One hour")}


def choose_path() -> None:
    labels = path_labels()
    st.radio(_("Path through the course"), list(PATHS), key=PATH, horizontal=True,
             format_func=lambda p: _("{path} ({minutes} minutes)").format(path=labels[p], minutes=PATHS[p].minutes),
             help=_("Previous / next and presenter mode's arrow keys walk only this path's steps."))


def go(lesson: int, step: int) -> None:
    """Move to a position (clamped)."""
    st.session_state[POSITION] = clamp_position(lesson, step)
    st.session_state[LESSON_BOX] = st.session_state[POSITION][0]


def step_along(lesson: int, step: int, delta: int) -> tuple[int, int] | None:
    """The path's next (+1) or previous (-1) step from (lesson, step); None at the path's end."""
    return neighbour(path(), lesson, step, delta)


def choose_lesson(titles: dict[str, str]) -> None:
    lessons = course()
    st.session_state.setdefault(LESSON_BOX, position()[0])
    options = sorted({*lesson_numbers(path()), st.session_state[LESSON_BOX]})  # a link may open a lesson off the path

    def first_step() -> None:
        number = int(st.session_state[LESSON_BOX])
        go(number, next((s for n, s in positions(path()) if n == number), 1))

    st.selectbox(_("Lesson"), options, key=LESSON_BOX, format_func=lambda n: f"{n}. {titles[lessons[n - 1].id]}",
                 on_change=first_step)


def _scene_headers() -> dict[str, str]:
    return {"member": _("consumer"), "topics": _("subscribes to (partitions)"), "owns": _("owns before"),
            "segment": _("segment file"), "offsets": _("offsets"),
            "largest_timestamp_ms": _("largest timestamp (ms)"), "broker": _("broker"), "alive": _("alive"),
            "leo": "LEO", "in_isr": _("in the ISR"), "leader": _("leader")}


def scene_table(step: LessonStep) -> None:
    if step.scene:
        table = pd.DataFrame(step.scene).rename(columns=_scene_headers())
        st.table(table, hide_index=True)  # HTML (not a canvas): presenter mode's CSS enlarges it


def answer_widget(step: LessonStep) -> Any:
    key = f"lessons.answer.{step.id}"
    if step.kind == "partitions":
        return st.multiselect(_("Your answer: the partitions"), list(step.choices), key=key)
    if step.kind == "choice":
        return st.radio(_("Your answer"), list(step.choices), index=None, key=key)
    return optional_whole_number_input(_("Your answer"), -ANSWER_LIMIT, ANSWER_LIMIT, key)


def check_answer(step: LessonStep, given: Any) -> None:
    """on_click of "Check": the verdict against the engine's answer, kept as progress."""
    if given is None or given == []:
        st.session_state["lessons.error"] = _("Give an answer first.")
        return
    try:
        st.session_state.setdefault(VERDICTS, {})[step.id] = check(step, given).correct
        st.session_state.pop("lessons.error", None)
    except ScenarioError as exc:
        st.session_state["lessons.error"] = tr(str(exc))


def shown_answer(step: LessonStep) -> str:
    if step.kind == "partitions":
        return ", ".join(step.answer)
    return f"{step.answer:,}{step.unit}" if isinstance(step.answer, int) else f"{step.answer}{step.unit}"


def article_note(step: LessonStep) -> str | None:
    """What a reference article says here, told apart: a typo, out of date since a release, or wrong; and why."""
    note = step.article
    if note is None:
        return None
    values = dict(article=f"{note.article} {article_name(note.article)}", says=tr(note.says), kafka=tr(note.kafka),
                  since=note.since)
    if note.kind == "typo":
        text = _("A typo in reference article {article}: it says {says}; Kafka gives {kafka}.")
    elif note.kind == "outdated":
        text = _("Reference article {article} is out of date since Kafka {since}: it says {says}; Kafka {since} "
                 "and later give {kafka}.")
    elif note.kind == "exception":
        text = _("Reference article {article} holds for consumer groups: it says {says}; Kafka adds {kafka}.")
    else:
        text = _("Reference article {article} is wrong here: it says {says}; Kafka gives {kafka}.")
    return text.format(**values) + (f"\n\n{tr(note.why)}" if note.why else "")


def guide_table(titles: dict[str, str], path_id: str) -> pd.DataFrame:
    """The trainer's guide on a path, one row per lesson, in the page's language (the handout's table).  The
    lesson's number has a column of its own: ``st.table`` reads a cell as Markdown, and "10. …" would be an
    ordered list whose marker is cut to "0."."""
    from ui.lessons.texts import guide, production

    minutes, counts = minutes_of(path_id), {n: 0 for n in lesson_numbers(path_id)}
    for number, _step in positions(path_id):
        counts[number] += 1
    rows = []
    for number, steps in counts.items():
        lesson = course()[number - 1]
        misconception, prompts = guide()[lesson.id]
        rows.append({_("lesson"): number, _("title"): titles[lesson.id], _("minutes"): minutes[lesson.id],
                     _("steps"): steps, _("misconception it targets"): misconception,
                     _("discussion prompts"): " / ".join(prompts), _("in production"): production()[lesson.id]})
    return pd.DataFrame(rows)


def page_url(link: PageLink) -> str:
    """A relative link to the full page with the step's scenario, the language and presenter mode kept."""
    page = re.sub(r"^[0-9]+[_\- ]*", "", link.page.rsplit("/", 1)[-1].removesuffix(".py"))
    params = dict(link.params)
    if link.scenario is not None:
        params["s"] = encode_scenario(link.scenario)
    for key in (LANG_KEY, "present"):
        if st.query_params.get(key):
            params[key] = st.query_params[key]
    return f"{page}?{urlencode(params)}" if params else page


def progress() -> tuple[int, int]:
    """(steps of the path answered correctly, steps on the path)."""
    verdicts, on_path = st.session_state.get(VERDICTS, {}), positions(path())
    ids = {course()[lesson - 1].steps[step - 1].id for lesson, step in on_path}
    return sum(1 for step_id, ok in verdicts.items() if ok and step_id in ids), len(on_path)
