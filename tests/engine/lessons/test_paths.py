"""The trainer's paths: every path's lesson minutes add up to its total (205, 120, 60), its steps are the course's,
the two-hour path keeps the whole streams lesson, and ``neighbour`` walks a path from any position."""

from __future__ import annotations

import doctest

import pytest

from engine.lessons import course
from engine.lessons import paths as lesson_paths
from engine.lessons.paths import PATHS, lesson_numbers, minutes_of, neighbour, positions

STEP_IDS = {lesson.id: [s.id for s in lesson.steps] for lesson in course()}


@pytest.mark.parametrize("path_id", list(PATHS))
def test_lesson_minutes_add_up_to_the_paths_total(path_id: str) -> None:
    path = PATHS[path_id]
    assert sum(part.minutes for part in path.lessons) == path.minutes == sum(minutes_of(path_id).values())
    assert all(part.minutes > 0 for part in path.lessons)


def test_the_paths_are_a_whole_course_two_hours_and_one_hour() -> None:
    assert {p: PATHS[p].minutes for p in PATHS} == {"course": 205, "two_hours": 120, "one_hour": 60}
    assert positions("course") == tuple((n, s) for n, lesson in enumerate(course(), 1)
                                        for s in range(1, len(lesson.steps) + 1))
    assert len(positions("one_hour")) < len(positions("two_hours")) < len(positions("course"))


@pytest.mark.parametrize("path_id", list(PATHS))
def test_a_path_keeps_course_steps_in_course_order(path_id: str) -> None:
    order = [part.lesson for part in PATHS[path_id].lessons]
    assert order == [lesson_id for lesson_id in STEP_IDS if lesson_id in order]  # course order, each once
    for part in PATHS[path_id].lessons:
        if part.steps is not None:
            assert part.steps and list(part.steps) == [s for s in STEP_IDS[part.lesson] if s in part.steps]
    on_path = positions(path_id)
    assert list(on_path) == sorted(set(on_path))
    assert lesson_numbers(path_id) == tuple(dict.fromkeys(n for n, _ in on_path))


def test_the_two_hour_path_holds_every_streams_step() -> None:
    streams = next(n for n, lesson in enumerate(course(), 1) if lesson.id == "streams")
    assert [s for n, s in positions("two_hours") if n == streams] == list(range(1, len(STEP_IDS["streams"]) + 1))


@pytest.mark.parametrize("path_id", list(PATHS))
def test_neighbour_walks_the_path_both_ways(path_id: str) -> None:
    on_path = positions(path_id)
    walked = [on_path[0]]
    while (after := neighbour(path_id, *walked[-1], +1)) is not None:
        walked.append(after)
    assert tuple(walked) == on_path
    assert neighbour(path_id, *on_path[0], -1) is None and neighbour(path_id, *on_path[-1], +1) is None
    back = [on_path[-1]]
    while (before := neighbour(path_id, *back[-1], -1)) is not None:
        back.append(before)
    assert tuple(reversed(back)) == on_path


def test_an_unknown_path_is_refused_in_one_line() -> None:
    from engine.errors import ScenarioError

    with pytest.raises(ScenarioError, match="path: unknown 'three_hours'"):
        positions("three_hours")


def test_worked_examples() -> None:
    assert doctest.testmod(lesson_paths).failed == 0
