"""The trainer's handout of a path: one offline HTML page to rehearse and run the session from.

The path's guide table, then one section per lesson (a page of its own in print): per step the question, the
engine's answer with its one-line reason (the explanation's first sentence), the misconception it targets (the
lesson's, and a reference article's error where the step has one) and a link that opens the step on the Lessons
page (``Lessons?lesson=N&step=M``, relative: it works where the page is served; print shows it).  Every word goes
through ``_()`` / the lesson texts, so the handout is in the session's language; no external asset.
"""

from __future__ import annotations

import html
import re
from urllib.parse import urlencode

import streamlit as st

from engine.lessons import course
from engine.lessons.paths import PATHS, minutes_of, positions
from ui.lessons.lesson_state import PATH, article_note, guide_table, path_labels, shown_answer
from ui.lessons.texts import explanation, guide, lesson_titles, production, question
from ui.text.i18n import QUERY_KEY as LANG_KEY
from ui.text.i18n import _

SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"(`{0-9])|(?<=[。！？])")
CSS = """body{font-family:sans-serif;margin:2rem;max-width:60rem;line-height:1.4}
table{border-collapse:collapse;font-size:.9rem}td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top}
th{text-align:left}
section.lesson{margin-top:2.5rem}.step{border-left:4px solid #1f77b4;padding:.2rem 1rem;margin:1rem 0}
dt{font-weight:bold;margin-top:.4rem}dd{margin-left:1rem}.answer{font-size:1.15rem}
@media print{body{margin:0;max-width:none}section.lesson{break-before:page;page-break-before:always}
.step{break-inside:avoid;page-break-inside:avoid}a{color:inherit}a[href]::after{content:" (" attr(href) ")"}}"""


def one_line(text: str, least: int = 40) -> str:
    """An explanation's first sentence, with the next ones while it is shorter than ``least`` characters
    (English or Chinese)::

        >>> one_line("Range gives each consumer 12 / 5 partitions. The first 2 get one more.")
        'Range gives each consumer 12 / 5 partitions.'
        >>> one_line("No ISR member is alive. Broker 1 leads, unclean. It lacks 4 records.")
        'No ISR member is alive. Broker 1 leads, unclean.'
        >>> one_line("范围分配器按主题逐个分配连续的分区，每个消费者得到一段。第一个多一个。", least=20)
        '范围分配器按主题逐个分配连续的分区，每个消费者得到一段。'
    """
    line = ""
    for sentence in SENTENCE_END.split(text.strip()):
        line += ("" if not line or line.endswith(("。", "！", "？")) else " ") + sentence.strip()
        if len(line) >= least:
            break
    return line


def step_href(lesson: int, step: int, path_id: str) -> str:
    """The relative link that opens (lesson, step) on the Lessons page, on the path, in the session's language."""
    params = {"lesson": str(lesson), "step": str(step), PATH: path_id}
    if st.query_params.get(LANG_KEY):
        params[LANG_KEY] = st.query_params[LANG_KEY]
    return f"Lessons?{urlencode(params)}"


def _item(term: str, body: str) -> str:
    return f"<dt>{html.escape(term)}</dt><dd>{body}</dd>"


def _step_html(lesson: int, number: int, path_id: str) -> str:
    lesson_obj = course()[lesson - 1]
    step = lesson_obj.steps[number - 1]
    misconception = html.escape(guide()[lesson_obj.id][0])
    note = article_note(step)
    if note:
        misconception += "<br>" + html.escape(note).replace("\n\n", "<br>")
    href = step_href(lesson, number, path_id)
    reason = one_line(explanation(step.id, step.facts))
    answer = shown_answer(step)
    heading = _("Step {step}").format(step=number)
    return (f"<div class='step'><h3>{html.escape(heading)}</h3><dl>"
            + _item(_("Question"), html.escape(question(step.id, step.facts)))
            + _item(_("Expected answer"), f"<span class='answer'>{html.escape(answer)}</span>")
            + _item(_("Why"), html.escape(reason))
            + _item(_("Misconception it targets"), misconception)
            + _item(_("Open this step"), f"<a href='{html.escape(href)}'>{html.escape(href)}</a>")
            + "</dl></div>")


def handout_html(path_id: str) -> str:
    """The whole handout of ``path_id`` in the session's language."""
    titles, minutes, on_path = lesson_titles(), minutes_of(path_id), positions(path_id)
    label = path_labels()[path_id]
    title = _("Kafka Partition Lab: trainer's handout, {path}").format(path=label)
    intro = _("{lessons} lessons, {steps} predict-then-reveal steps, {minutes} minutes.").format(
        lessons=len(minutes), steps=len(on_path), minutes=PATHS[path_id].minutes)
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>",
             f"<style>{CSS}</style></head><body><h1>{html.escape(title)}</h1><p>{html.escape(intro)}</p>",
             guide_table(titles, path_id).to_html(index=False)]
    for lesson in dict.fromkeys(n for n, _step in on_path):
        lesson_id = course()[lesson - 1].id
        heading = _("Lesson {lesson}: {title} ({minutes} minutes)").format(lesson=lesson, title=titles[lesson_id],
                                                                          minutes=minutes[lesson_id])
        parts.append(f"<section class='lesson'><h2>{html.escape(heading)}</h2>")
        parts += [_step_html(lesson, step, path_id) for n, step in on_path if n == lesson]
        line = _("In production: {line}").format(line=production()[lesson_id])
        parts.append(f"<p>{html.escape(line)}</p></section>")
    return "".join(parts) + "</body></html>"
