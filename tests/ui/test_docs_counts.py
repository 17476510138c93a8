"""README.md and docs/lessons.md count the course as ``engine.lessons.course.course()`` builds it."""

from __future__ import annotations

import re

from engine.lessons.course import course
from helpers import REPO


def _counts(text: str) -> tuple[int, int]:
    found = re.search(r"(\d+) lessons(?:,| and)\s+(\d+) predict-then-reveal steps", text)
    assert found is not None
    return int(found.group(1)), int(found.group(2))


def test_the_readme_and_the_lessons_guide_count_the_course() -> None:
    lessons = course()
    expected = (len(lessons), sum(len(lesson.steps) for lesson in lessons))
    for doc in ("README.md", "docs/lessons.md"):
        assert _counts((REPO / doc).read_text(encoding="utf-8")) == expected, doc
