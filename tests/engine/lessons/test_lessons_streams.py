"""The streams-group lesson (KIP-1071): each answer recomputed here from the values its question states, and only
those (the placeholders of the English question), through Kafka 4.2.0's assignor called directly; the texts quote
what the assignor did, in both languages."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from engine.coordinator.streams.group import (
    StreamsGroup,
    StreamsGroupResult,
    StreamsProcess,
    Subtopology,
    assign_streams_group,
)
from engine.lessons import course
from engine.lessons.paths import minutes_of
from ui.lessons import texts

LESSON = next(lesson for lesson in course() if lesson.id == "streams")
STEPS = {step.id: step for step in LESSON.steps}


def _stated(step_id: str) -> dict[str, Any]:
    """The facts the English question names: all a trainee is told."""
    names = set(re.findall(r"\{(\w+)\}", texts._questions()[step_id]))
    return {name: STEPS[step_id].facts[name] for name in names}


def _group(instances: int, threads: int, tasks: int, stateful: bool, standbys: int,
           previous: Mapping[str, Any] | None = None) -> StreamsGroup:
    """``app-1`` .. ``app-{instances}``, threads ``app-i-t1`` .. joining in that order, one subtopology."""
    processes = tuple(StreamsProcess(f"app-{i}", tuple(f"app-{i}-t{t}" for t in range(1, threads + 1)))
                      for i in range(1, instances + 1))
    return StreamsGroup((Subtopology("0", tasks, stateful),), processes, standbys, previous or {})


def _active_instances(result: StreamsGroupResult) -> dict[str, str]:
    return {row.task: row.active.process_id for row in result.rows}


def _tasks(q: Mapping[str, Any]) -> int:
    return max(q["topic_a"], q["topic_b"])  # the largest source topic's partition count


def _threads(q: Mapping[str, Any]) -> int:
    assert q["spread_total"] == q["spread_instances"] * q["spread_threads"]
    group = _group(q["spread_instances"], q["spread_threads"], _tasks(q), False, 0)
    return sum(1 for tasks in assign_streams_group(group).members.values() if tasks.active)


def _standbys(q: Mapping[str, Any]) -> int:
    group = _group(q["instances"], q["threads"], q["partitions"], True, q["standbys"])
    return sum(len(row.standbys) for row in assign_streams_group(group).rows)


def _alone(q: Mapping[str, Any]) -> int:
    return _standbys({"instances": 1, "threads": q["alone_threads"], "partitions": q["partitions"],
                      "standbys": q["standbys"]})


def _restart(q: Mapping[str, Any]) -> tuple[StreamsGroup, StreamsGroupResult, StreamsGroupResult]:
    """The group, its assignment, and the one after ``restarted``'s threads left (the others' tasks kept)."""
    group = _group(q["instances"], q["threads"], q["partitions"], True, q["standbys"])
    first = assign_streams_group(group)
    stay = tuple(p for p in group.processes if p.process_id != q["restarted"])
    kept = {m for p in stay for m in p.member_ids}
    after = assign_streams_group(StreamsGroup(group.subtopologies, stay, q["standbys"],
                                              {m: a for m, a in first.members.items() if m in kept}))
    return group, first, after


def _warm(q: Mapping[str, Any]) -> int:
    _, first, after = _restart(q)
    had = [t for t, p in _active_instances(first).items() if p == q["restarted"]]
    assert ", ".join(had) == q["restarted_active"]  # what the question quotes is what the assignor did
    standby_of = {row.task: {s.process_id for s in row.standbys} for row in first.rows}
    return sum(1 for t in had if _active_instances(after)[t] in standby_of[t])


def _rejoin(q: Mapping[str, Any]) -> int:
    group, _, after = _restart(q)
    back = assign_streams_group(StreamsGroup(group.subtopologies, group.processes, q["standbys"], after.members))
    return sum(1 for p in _active_instances(back).values() if p == q["restarted"])


RECOMPUTE: dict[str, Callable[[Mapping[str, Any]], int]] = {
    "streams.tasks": _tasks, "streams.threads": _threads, "streams.standbys": _standbys,
    "streams.alone": _alone, "streams.restart": _warm, "streams.rejoin": _rejoin,
}


def test_the_lesson_sits_before_share_groups_and_links_to_sizing() -> None:
    ids = [lesson.id for lesson in course()]
    assert ids.index("streams") == ids.index("share") - 1
    assert list(STEPS) == list(RECOMPUTE)
    assert all(step.link and step.link.page == "pages/4_Sizing.py" for step in LESSON.steps)
    assert all("org.apache.kafka.coordinator.group.streams" in step.kafka for step in LESSON.steps)


@pytest.mark.parametrize("step_id", list(RECOMPUTE))
def test_each_answer_from_what_its_question_states(step_id: str) -> None:
    stated = _stated(step_id)
    if step_id == "streams.rejoin":  # follows the restart step: the rejoin question adds only what changes
        stated = {**_stated("streams.restart"), **stated}
    assert RECOMPUTE[step_id](stated) == STEPS[step_id].answer


def test_the_answers_kafka_gives() -> None:
    """6 tasks (max(6, 4)) on 10 threads: 6 busy; 6 standbys on 3 instances, none on one instance; app-2's two
    active tasks both promoted from warm standbys; app-2 back gets 2 (6 tasks on 6 threads)."""
    assert {s: step.answer for s, step in STEPS.items()} == {
        "streams.tasks": 6, "streams.threads": 6, "streams.standbys": 6, "streams.alone": 0, "streams.restart": 2,
        "streams.rejoin": 2}
    facts = LESSON.steps[0].facts
    assert (facts["same_instance"], facts["alone_missing"], facts["cold"], facts["bare_cold"]) == (0, 6, 0, 2)
    assert facts["idle"] == 4 and facts["returned_again"] <= facts["returned"]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_text_is_filled_in_both_languages(language: str, monkeypatch) -> None:
    from ui.text import i18n

    monkeypatch.setattr(i18n, "current_language", lambda: language)
    for step in LESSON.steps:
        for text in (texts.question(step.id, step.facts), texts.explanation(step.id, step.facts)):
            assert "{" not in text and str(step.answer) in text + str(step.facts)
            if language == "zh":
                assert not i18n.untranslated(text), text
    assert texts.lesson_titles()["streams"] and texts.production()["streams"] and minutes_of("course")["streams"] == 15
