"""Paths through the course for the time a trainer has: the whole course, two hours or one hour.

A path lists its lessons in course order, each with the steps it keeps (all of them when ``None``) and the
minutes it gets; the minutes add up to the path's ``minutes``.  Positions stay the course's own (``?lesson=15&step=2``
is the same step on every path); ``neighbour`` walks a path from any position, on it or not::

    >>> [p.minutes for p in PATHS.values()]
    [205, 120, 60]
    >>> positions("one_hour")[:3]
    ((1, 2), (2, 1), (2, 2))
    >>> neighbour("one_hour", 1, 1, +1), neighbour("one_hour", 3, 3, -1)
    ((1, 2), (3, 1))
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Final

from engine.errors import ScenarioError
from engine.lessons.course import course


@dataclass(frozen=True)
class PathLesson:
    lesson: str  # Lesson.id
    minutes: int
    steps: tuple[str, ...] | None = None  # LessonStep ids kept, in course order; None: every step


@dataclass(frozen=True)
class Path:
    id: str
    minutes: int
    lessons: tuple[PathLesson, ...]


COURSE_MINUTES: Final = {"why": 10, "keys": 10, "assignors": 15, "leaves": 15, "static": 10, "kip848": 10,
                         "sizing": 10, "wheel": 10, "producer": 20, "log": 15, "replication": 20, "lag": 15,
                         "eos": 10, "hot": 10, "streams": 15, "share": 10}

PATHS: Final = {
    "course": Path("course", 205, tuple(PathLesson(lesson, minutes) for lesson, minutes in COURSE_MINUTES.items())),
    "two_hours": Path("two_hours", 120, (
        PathLesson("why", 8), PathLesson("keys", 8),
        PathLesson("assignors", 10, ("assignors.range", "assignors.roundrobin")),
        PathLesson("leaves", 12), PathLesson("static", 8), PathLesson("kip848", 7), PathLesson("sizing", 7),
        PathLesson("producer", 12, ("producer.order", "producer.duplicates", "producer.acks0")),
        PathLesson("replication", 12, ("replication.hw", "replication.acks", "replication.unclean")),
        PathLesson("lag", 8, ("lag.eager", "lag.cooperative")),
        PathLesson("hot", 5, ("hot.share12",)),
        PathLesson("streams", 15),
        PathLesson("share", 8, ("share.readers", "share.leave")),
    )),
    "one_hour": Path("one_hour", 60, (
        PathLesson("why", 4, ("why.idle",)), PathLesson("keys", 6),
        PathLesson("assignors", 6, ("assignors.range",)),
        PathLesson("leaves", 10), PathLesson("kip848", 5),
        PathLesson("producer", 8, ("producer.order", "producer.duplicates")),
        PathLesson("replication", 8, ("replication.hw", "replication.acks")),
        PathLesson("streams", 7, ("streams.tasks", "streams.standbys")),
        PathLesson("share", 6, ("share.readers",)),
    )),
}
DEFAULT_PATH: Final = "course"


def path_of(path_id: str) -> Path:
    if path_id not in PATHS:
        raise ScenarioError(f"path: unknown {path_id!r}; one of {', '.join(PATHS)}")
    return PATHS[path_id]


@functools.cache
def positions(path_id: str) -> tuple[tuple[int, int], ...]:
    """The path's steps as 1-based course positions (lesson, step), in course order."""
    numbers = {lesson.id: number for number, lesson in enumerate(course(), 1)}
    found = []
    for part in path_of(path_id).lessons:
        lesson = course()[numbers[part.lesson] - 1]
        ids = [s.id for s in lesson.steps]
        kept = ids if part.steps is None else part.steps
        found += [(numbers[part.lesson], ids.index(step_id) + 1) for step_id in kept]
    return tuple(sorted(found))


def lesson_numbers(path_id: str) -> tuple[int, ...]:
    """The 1-based numbers of the path's lessons."""
    return tuple(dict.fromkeys(lesson for lesson, _ in positions(path_id)))


def neighbour(path_id: str, lesson: int, step: int, delta: int) -> tuple[int, int] | None:
    """The path's next (``delta`` = +1) or previous (-1) position from (lesson, step); None past either end."""
    on_path = positions(path_id)
    if delta > 0:
        return next((p for p in on_path if p > (lesson, step)), None)
    return next((p for p in reversed(on_path) if p < (lesson, step)), None)


def minutes_of(path_id: str) -> dict[str, int]:
    """Lesson id -> the minutes the path gives it."""
    return {part.lesson: part.minutes for part in path_of(path_id).lessons}
