"""The course for new engineers.  Every step's answer is recomputed here through the engine calls the
pages make, independently of ``engine/lessons`` (other entry points where there are: the produce document itself,
the Arrow hashing path, one key at a time, a Java ``String.hashCode`` written out here), and compared with the
lesson's; a wrong answer is marked wrong.  The course has at least 13 lessons and 28 steps; every lesson closes
with a production line and has a trainer's guide entry in both languages; the guide's handout holds every
lesson."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from engine.comparison import CLIENT, SERVER, outcomes, revoked_count
from engine.consumer.membership import RollingRestartConfig, rolling_restart
from engine.consumer.pause import ProtocolTimings, pause_report
from engine.lessons import LessonStep, check, course
from engine.lessons.paths import COURSE_MINUTES
from engine.presets import build_preset
from engine.producer.arrow import partitions_for_arrow
from engine.producer.idempotence import parse_spec, report, simulate
from engine.producer.keysample import SampleSpec, generate
from engine.producer.murmur2 import partition_for_key
from engine.producer.producer_config import resolve
from engine.scenario import GroupState
from engine.server import replication as repl
from engine.server.timer.driver import simulate as wheel_simulate
from engine.server.timer.model import TaskSpec, WheelConfig
from engine.sizing import partitions_needed
from engine.storage import partition_log, txn_log
from engine.storage.index import largest_lower_bound
from helpers import REPO

STEPS = {s.id: s for lesson in course() for s in lesson.steps}


def _owned(preset: str, assignor: Any, step: int, member: str) -> set[str]:
    return {str(tp) for tp in outcomes(build_preset(preset), assignor)[step].assignment[member]}


def _range_counts(preset: str) -> list[int]:
    return [len(tps) for tps in outcomes(build_preset(preset), CLIENT["range"])[0].assignment.values()]


def _remap() -> int:
    import pyarrow as pa

    keys = pa.array([f"key-{i}" for i in range(10_000)])
    moved = int((partitions_for_arrow(keys, 12) != partitions_for_arrow(keys, 16)).sum())  # the Arrow path
    return round(100 * moved / 10_000)


def _restart(static: bool) -> int:
    first = build_preset("seed-a").first
    state = GroupState({"t0": 6}, first.members, first.partition_racks)
    return rolling_restart(state, "range", RollingRestartConfig(restart_ms=30_000, session_timeout_ms=45_000),
                           static=static).rebalances


def _wheel(what: str) -> int:
    placed = wheel_simulate(WheelConfig(1, 20, 0), [TaskSpec("t", 25)]).tasks[0].inserted
    return int(getattr(placed, what))


def _produced(config: dict[str, Any], faults: list[dict[str, Any]], records: int) -> list[int]:
    """The Producer page's engine, records 10 ms apart (what the lesson's questions state)."""
    document = {"config": config, "partitions": 1, "records": records, "interval_ms": 10, "latency_ms": 20,
                "faults": faults}
    return report(simulate(parse_spec(document)))["partitions"][0]["order"]


NOT_LEADER_2 = [{"request": 2, "kind": "not_leader"}]
LOST_RESPONSE = [{"request": 1, "kind": "timeout_after_write"}]
NEVER_WRITTEN = [{"request": 1, "kind": "timeout_before_write"}, {"request": 4, "kind": "timeout_before_write"}]


def _java_hash(text: str) -> int:
    h = 0
    for unit in text.encode("utf-16-be").hex(" ", 2).split():
        h = (31 * h + int(unit, 16)) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


def _pause_lag(strategy: str) -> int:
    seed_d = build_preset("seed-d")
    steps = outcomes(seed_d, CLIENT[strategy])
    protocol = "eager" if strategy == "sticky" else "cooperative"
    paused = pause_report(protocol, steps[0].assignment, steps[1].assignment, ProtocolTimings(), (),
                          steps[1].rounds or 1)
    return round(100 * paused.partition_seconds)


PAGE_TXN_OPS = "T1, send 0 2\nT1, send 1 1\nT2, send 0 1\nT1, commit\nT2, abort\nplain, send 0 1\nT1, send 1 1"


def _txn() -> list[dict[str, Any]]:
    return txn_log.replay(txn_log.parse_operations(PAGE_TXN_OPS, "T1, T2"))["partitions"]


def _hot(partitions: int) -> int:
    keys = generate(SampleSpec("zipf", 100_000, 10_000, 1.1, 0.0, 42)).to_pylist()
    counts = np.bincount([partition_for_key(k, partitions) for k in keys], minlength=partitions)  # one key at a time
    return round(100 * counts.max() / counts.sum())


def _share(what: str) -> int:
    """The share-group lesson through the CLI's JSON path (``share-assign`` on the preset as a case)."""
    from engine.coordinator.share_assignment import cli_share_assign, scenario_to_share_case

    steps = [s["assignment"] for s in cli_share_assign(scenario_to_share_case(build_preset("share-group")))["steps"]]
    readers = Counter(tp for tps in steps[0].values() for tp in tps)
    if what == "readers":
        assert len(set(readers.values())) == 1  # every partition has the same number of members
        return min(readers.values())
    if what == "two":
        return sum(1 for tps in steps[0].values() if len(tps) == 2)
    if what == "leave":  # members of both steps that hold a partition they did not hold before
        return sum(1 for m, tps in steps[1].items() if m in steps[0] and set(tps) - set(steps[0][m]))
    return sum(1 for m, tps in steps[1].items() if m in steps[2] and set(tps) - set(steps[2][m]))


def _streams(what: str) -> int:
    """The streams-group lesson through the assignor's JSON case (``streams-assign``), groups written out here."""
    from engine.coordinator.streams.cli import cli_streams_assign

    def run(instances: int, threads: int, partitions: int, stateful: bool, standbys: int,
            previous: dict[str, Any] | None = None, gone: str = "") -> dict[str, Any]:
        members = [{"member_id": f"app-{i}-t{t}", "process_id": f"app-{i}",
                    **(previous or {}).get(f"app-{i}-t{t}", {})}
                   for i in range(1, instances + 1) if f"app-{i}" != gone for t in range(1, threads + 1)]
        case = {"configs": {"num.standby.replicas": str(standbys)}, "members": members,
                "subtopologies": [{"id": "0", "partitions": partitions, "stateful": stateful}]}
        return cli_streams_assign(case)["assignment"]

    def holding(assignment: dict[str, Any], kind: str, task: int) -> set[str]:
        return {m.rsplit("-", 1)[0] for m, tasks in assignment.items() if task in tasks[kind].get("0", [])}

    if what == "tasks":
        return max(6, 4)
    if what == "threads":
        return sum(1 for tasks in run(5, 2, 6, False, 0).values() if tasks["active"])
    if what in ("standbys", "alone"):
        instances, threads = (3, 2) if what == "standbys" else (1, 6)
        return sum(len(ps) for tasks in run(instances, threads, 6, True, 1).values()
                   for ps in tasks["standby"].values())
    first = run(3, 2, 6, True, 1)
    after = run(3, 2, 6, True, 1, first, gone="app-2")
    if what == "restart":
        moved = [p for p in range(6) if holding(first, "active", p) == {"app-2"}]
        return sum(1 for p in moved if holding(after, "active", p) <= holding(first, "standby", p))
    back = run(3, 2, 6, True, 1, after)
    return sum(len(ps) for m, tasks in back.items() if m.startswith("app-2-") for ps in tasks["active"].values())


REPLICAS = (0, 1, 2)
BEHIND = repl.ReplicaState(REPLICAS, (0, 2), 0, {0: 10, 1: 4, 2: 8})
ALONE = repl.ReplicaState(REPLICAS, (0,), 0, {0: 10, 1: 4, 2: 8}, frozenset({2}))

RECOMPUTE: dict[str, Callable[[], Any]] = {
    "why.three": lambda: _range_counts("order-service").count(max(_range_counts("order-service"))),
    "why.idle": lambda: _range_counts("more-consumers").count(0),
    "keys.partition": lambda: partition_for_key("21", 50),
    "keys.remap": _remap,
    "assignors.range": lambda: _owned("seed-b-4p", CLIENT["range"], 0, "C0"),
    "assignors.roundrobin": lambda: _owned("seed-b-3p", CLIENT["roundrobin"], 0, "C1"),
    "assignors.count": lambda: len(_owned("seed-a", CLIENT["range"], 0, "C0")),
    "leaves.sticky": lambda: _owned("seed-d", CLIENT["sticky"], 1, "C0"),
    "leaves.revoked": lambda: revoked_count(outcomes(build_preset("seed-d"), CLIENT["sticky"])[1]),
    "static.dynamic": lambda: _restart(False),
    "static.static": lambda: _restart(True),
    "kip848.revoked": lambda: revoked_count(outcomes(build_preset("seed-d"), SERVER["uniform"])[1]),
    "sizing.partitions": lambda: partitions_needed(205, 25, 10),
    "wheel.level": lambda: _wheel("level"),
    "wheel.bucket": lambda: _wheel("bucket"),
    "producer.order": lambda: ", ".join(map(str, _produced({"enable.idempotence": False}, NOT_LEADER_2, 4))),
    "producer.duplicates": lambda: len(_produced({"enable.idempotence": False, "request.timeout.ms": 1000},
                                                 LOST_RESPONSE, 3)),
    "producer.acks0": lambda: str(resolve({"acks": "0"}).idempotence).lower(),
    "producer.expire": lambda: len(_produced({"request.timeout.ms": 1000, "delivery.timeout.ms": 1500},
                                             NEVER_WRITTEN, 3)),
    "log.segment": lambda: partition_log.simulate(partition_log.SEED_133)[1]["segments"][1]["base_offset"],
    "log.index": lambda: [0, 328, 656, 984][largest_lower_bound([6, 14, 22, 30], 23, 8).slot],
    "log.retention": lambda: partition_log.simulate({
        "config": {"internal.segment.bytes": 5000, "retention.ms": 10_000},
        "workload": {"batches": 10, "records_per_batch": 10, "key_bytes": 8, "keys": 3, "interval_ms": 1000},
        "actions": [{"retention_at_ms": 14_500}]})[1]["log_start_offset"],
    "replication.hw": lambda: repl.high_watermark(BEHIND, 2),
    "replication.acks": lambda: sum(repl.produce_error(ALONE, acks, 2) == "NONE" for acks in (0, 1, -1)),
    "replication.failover": lambda: repl.elect_leader(REPLICAS, (2,), frozenset({1, 2}), unclean=False)[0],
    "replication.unclean": lambda: repl.high_watermark(BEHIND, 2) - BEHIND.leo[
        repl.elect_leader(REPLICAS, (0,), frozenset({1}), unclean=True)[0] or 0],
    "lag.coordinator": lambda: abs(_java_hash("orders-service")) % 50,
    "lag.eager": lambda: _pause_lag("sticky"),
    "lag.cooperative": lambda: _pause_lag("cooperative-sticky"),
    "eos.committed": lambda: len(_txn()[0]["read_committed"]),
    "eos.lso": lambda: _txn()[1]["last_stable_offset"],
    "hot.share12": lambda: _hot(12),
    "hot.share96": lambda: _hot(96),
    "streams.tasks": lambda: _streams("tasks"),
    "streams.threads": lambda: _streams("threads"),
    "streams.standbys": lambda: _streams("standbys"),
    "streams.alone": lambda: _streams("alone"),
    "streams.restart": lambda: _streams("restart"),
    "streams.rejoin": lambda: _streams("rejoin"),
    "share.readers": lambda: _share("readers"),
    "share.two": lambda: _share("two"),
    "share.leave": lambda: _share("leave"),
    "share.join": lambda: _share("join"),
}


def test_the_course_is_long_enough_and_every_step_is_recomputed_here() -> None:
    assert len(course()) >= 13 and len(STEPS) >= 28
    assert set(STEPS) == set(RECOMPUTE)


def _wrong(step: LessonStep) -> Any:
    if step.kind == "partitions":
        return list(step.answer)[1:]
    if step.kind == "choice":
        return next(c for c in step.choices if c != step.answer)
    return step.answer + step.tolerance + 1


@pytest.mark.parametrize("step_id", sorted(RECOMPUTE))
def test_every_answer_is_what_the_engine_computes(step_id: str) -> None:
    step, expected = STEPS[step_id], RECOMPUTE[step_id]()
    given = sorted(expected) if isinstance(expected, set) else expected
    assert check(step, given).correct, (step_id, step.answer, expected)
    if step.kind == "number":
        assert abs(step.answer - expected) <= step.tolerance
    assert not check(step, _wrong(step)).correct
    if step.kind == "choice":
        assert step.answer in step.choices and len(step.choices) >= 3
    if step_id != "log.index":  # seed article 002's own offset index: no page builds it
        assert step.link and (REPO / step.link.page).is_file()


def test_recomputed_facts_the_texts_quote() -> None:
    assert math.ceil(max(205 / 25, 205 / 10)) == STEPS["sizing.partitions"].answer == 21
    wheel = STEPS["wheel.bucket"].facts
    assert wheel["level_tick"] == 20 and (wheel["delay"] // wheel["level_tick"]) % wheel["size"] == wheel["bucket"]
    assert STEPS["producer.acks0"].facts["explicit"] == "ConfigException"
    unclean = STEPS["replication.unclean"].facts
    assert unclean["lost_to"] - unclean["lost_from"] + 1 == STEPS["replication.unclean"].answer
    assert STEPS["hot.share96"].facts["top_share"] <= STEPS["hot.share96"].facts["share_96"]


def test_the_segment_question_names_the_property_that_sizes_the_segments() -> None:
    # 22,610 bytes is below segment.bytes' minimum (1 MiB): the seed article's log needs internal.segment.bytes
    from ui.lessons import texts as lessons_text

    facts = STEPS["log.segment"].facts
    assert partition_log.SEED_133["config"] == {"internal.segment.bytes": facts["segment_bytes"]} and (
        facts["segment_bytes"] == 22_610)
    assert "internal.segment.bytes = 22610" in lessons_text.question("log.segment", facts)


def test_the_share_lesson_quotes_what_the_assignor_did() -> None:
    """8 members on 3 partitions: D = ceil(8 / 3) = 3 members each, 9 memberships, so one member reads two; C3
    (that member) leaves and its two partitions go to two members below their desired count; C8 joins and one
    member that read two gives one back. Balance first: the join takes a partition from a member that held it."""
    facts = STEPS["share.readers"].facts
    assert (facts["sharing"], facts["each"], facts["most"], facts["memberships"]) == (3, 3, 3, 9)
    assert (facts["two"], facts["two_names"], facts["consumer_idle"]) == (1, "C3", 5)
    assert (facts["left"], facts["left_held"], facts["short"]) == ("C3", "jobs-1, jobs-2", 2)
    assert (facts["stayed"], facts["stayed_sharing"], facts["stayed_want_two"]) == (7, 3, 2)
    assert facts["lost_on_leave"] == 0 and facts["kept_on_leave"] == 5 and facts["gainers"].count("(jobs-") == 2
    assert (facts["joined"], facts["join_size"], facts["join_want_two"], facts["lost"]) == ("C8", 8, 1, 1)
    assert facts["joiner_got"] == facts["given_back"]
    assert [s.id for s in course()[-1].steps] == ["share.readers", "share.two", "share.leave", "share.join"]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_share_lesson_teaches_the_balancing_assignor(language: str, monkeypatch) -> None:
    """No share-lesson text (question, explanation, production line, guide) describes hashing member ids or a
    share group that never revokes."""
    from ui.lessons import texts as lessons_text
    from ui.text import i18n

    monkeypatch.setattr(i18n, "current_language", lambda: language)
    steps = [s for s in course()[-1].steps]
    texts = [lessons_text.question(s.id, s.facts) + " " + lessons_text.explanation(s.id, s.facts) for s in steps]
    texts += [lessons_text.production()["share"], " ".join(map(str, lessons_text.guide()["share"]))]
    for text in texts:
        assert not re.search(r"hash of (its|their|the) member|hashed partition|never revoke|keep what they hold|"
                             r"成员 ID 的哈希|从不撤销", text, re.IGNORECASE), text
    assert "ceil(8 / 3) = 3" in texts[0]


def test_lesson_four_shows_who_owned_what_before() -> None:
    scene = {row["member"]: row["owns"] for row in STEPS["leaves.sticky"].scene}
    before = outcomes(build_preset("seed-d"), CLIENT["sticky"])[0].assignment
    assert scene == {m: ", ".join(str(tp) for tp in tps) for m, tps in before.items()} and scene["C1"]
    assert all("owns" in row for row in STEPS["leaves.revoked"].scene + STEPS["kip848.revoked"].scene)


def test_article_notes_are_told_apart() -> None:
    kinds = {s.id: (s.article.kind, s.article.since) for s in STEPS.values() if s.article}
    assert kinds == {"assignors.range": ("wrong", ""), "assignors.roundrobin": ("typo", ""),
                     "leaves.sticky": ("outdated", "3.0"), "sizing.partitions": ("wrong", ""),
                     "share.readers": ("exception", "")}
    assert STEPS["sizing.partitions"].source == "rule" and "Jun Rao" in STEPS["sizing.partitions"].kafka


@pytest.mark.parametrize("language", ["en", "zh"])
def test_production_lines_and_trainer_guide_for_every_lesson(language: str, monkeypatch) -> None:
    from ui.lessons import texts as lessons_text
    from ui.text import i18n

    monkeypatch.setattr(i18n, "current_language", lambda: language)
    ids = [lesson.id for lesson in course()]
    production, guide = lessons_text.production(), lessons_text.guide()
    assert set(production) == set(ids) == set(guide) == set(lessons_text.lesson_titles())
    for lesson_id in ids:
        misconception, prompts = guide[lesson_id]
        assert 5 <= COURSE_MINUTES[lesson_id] <= 30 and misconception and len(prompts) == 2
        texts = [production[lesson_id], misconception, *prompts]
        if language == "zh":
            assert all(not i18n.untranslated(t) for t in texts), texts


def test_trainer_guide_handout_holds_every_lesson() -> None:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(REPO / "pages" / "11_Lessons.py"), default_timeout=120)
    at.run()
    assert not at.exception
    guide = [t for t in at.table if "misconception it targets" in t.value.columns][0].value
    assert len(guide) == len(course()) and guide["minutes"].sum() >= 60
    assert at.get("download_button")  # the offline handout of the same table
