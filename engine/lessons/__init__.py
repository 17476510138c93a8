"""Guided lessons: predict-then-reveal questions whose answers the live engine computes (no prose here).

``course()`` is the course (``Lesson`` -> ``LessonStep``), ``step_of(lesson, step)`` a 1-based position, ``check``
a trainee's answer against the engine's.  The dashboard's ``ui/lessons/texts.py`` holds the translated texts.
"""

from engine.lessons.course import clamp_position, course, remap_counts, scene_of, step_of
from engine.lessons.model import ArticleNote, Lesson, LessonStep, PageLink, Verdict, check

__all__ = ["ArticleNote", "Lesson", "LessonStep", "PageLink", "Verdict", "check", "clamp_position", "course",
           "remap_counts", "scene_of", "step_of"]
