"""Every question states what its answer depends on.

Each step carries ``states``: what its question tells the trainee (counts, configs, faults, the table it points
at), machine-readable.  Here, for every step of the course:

* the answer is recomputed from ``states`` alone (``FROM_STATES``), through the engine calls the pages make;
* ``states`` equals what the course actually runs (the presets, the produce documents the lesson simulates, the
  log documents, the timings, the sample);
* the question shows every stated input, in English and in Chinese (its text, the questions of the same lesson
  before it, which it refers back to with "the same", and the table above it), faults by request number and kind.

So a question can never omit a fault again: "the first requests time out" over a run whose first retry times
out too fails the last check.  The course's other stumbles are checked at the end.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest
from test_lessons_streams import RECOMPUTE as STREAMS_FROM_STATED

from engine.comparison import CLIENT, SERVER, outcomes, revoked_count
from engine.consumer.membership import RollingRestartConfig, rolling_restart
from engine.consumer.pause import ProtocolTimings
from engine.lessons import LessonStep, course
from engine.lessons import data_path as dp
from engine.presets import build_preset
from engine.producer.arrow import partitions_for_arrow
from engine.producer.idempotence import parse_spec, report, simulate
from engine.producer.keysample import SampleSpec, generate, partition_histogram
from engine.producer.murmur2 import partition_for_key
from engine.producer.producer_config import ConfigError, resolve
from engine.release import model
from engine.scenario import GroupState, Member, Scenario
from engine.server import replication as repl
from engine.server.timer.driver import simulate as wheel_simulate
from engine.server.timer.model import TaskSpec, WheelConfig
from engine.storage import partition_log, txn_log
from helpers import REPO

LESSONS = {lesson.id: lesson for lesson in course()}
STEPS: dict[str, LessonStep] = {s.id: s for lesson in course() for s in lesson.steps}
LESSON_OF = {s.id: lesson for lesson in course() for s in lesson.steps}


# ------------------------------------------------------------------------------ the answer from what is stated

def _group(s: Mapping[str, Any], group_type: str = "consumer") -> Scenario:
    """The stated group: every member on every stated topic; the leavers leave, then the joiners join."""
    topics = dict(s["topics"])
    first = GroupState(topics, tuple(Member(m, tuple(topics)) for m in s["members"]))
    steps = [first]
    if s.get("leaves"):
        steps.append(GroupState(topics, tuple(m for m in first.members if m.id not in s["leaves"])))
    if s.get("joins"):
        steps.append(GroupState(topics, (*steps[-1].members, *(Member(m, tuple(topics)) for m in s["joins"]))))
    return Scenario(tuple(steps), group_type=group_type)


def _consumers(s: Mapping[str, Any]) -> Scenario:
    """``consumers`` members C0.. on one topic of ``partitions``."""
    return _group({"members": [f"C{i}" for i in range(s["consumers"])], "topics": {"t0": s["partitions"]}})


def _owned(scenario: Scenario, strategy: str, member: str) -> set[str]:
    return {str(tp) for tp in outcomes(scenario, CLIENT[strategy])[-1].assignment.get(member, [])}


def _idle(s: Mapping[str, Any]) -> int:
    """The question names no assignor: every client assignor leaves as many idle."""
    idle = {sum(1 for tps in outcomes(_consumers(s), CLIENT[name])[0].assignment.values() if not tps)
            for name in ("range", "roundrobin", "sticky", "cooperative-sticky")}
    assert len(idle) == 1
    return idle.pop()


def _remap(s: Mapping[str, Any]) -> int:
    import pyarrow as pa

    keys = pa.array([f"key-{i}" for i in range(s["keys"])])
    moved = int((partitions_for_arrow(keys, s["before"]) != partitions_for_arrow(keys, s["after"])).sum())
    return round(100 * moved / s["keys"])


def _restart(s: Mapping[str, Any]) -> int:
    config = RollingRestartConfig(restart_ms=s["restart_s"] * 1000, session_timeout_ms=s["session_s"] * 1000)
    return rolling_restart(_consumers({"consumers": s["members"], "partitions": s["partitions"]}).first,
                           s["strategy"], config, static=s["group.instance.id"]).rebalances


def _wheel(s: Mapping[str, Any], what: str) -> int:
    placed = wheel_simulate(WheelConfig(s["tickMs"], s["wheelSize"], s["start_ms"]),
                            [TaskSpec("t", s["delay"])]).tasks[0].inserted
    return int(getattr(placed, what))


def _produced(s: Mapping[str, Any]) -> list[int]:
    """The Producer page's engine on exactly the stated document."""
    document = {"config": dict(s["config"]), "partitions": s["partitions"], "records": s["records"],
                "interval_ms": s["interval_ms"], "latency_ms": s["latency_ms"],
                "faults": [{"request": n, "kind": kind} for n, kind in s["faults"]]}
    return report(simulate(parse_spec(document)))["partitions"][0]["order"]


def _acks0(s: Mapping[str, Any]) -> str:
    try:
        return str(resolve(dict(s["config"])).idempotence).lower()
    except ConfigError:
        return "ConfigException"


def _retention(s: Mapping[str, Any]) -> int:
    """Whole segments, oldest first, while their largest timestamp is more than retention.ms old."""
    start = s["segments"][0][0]
    for _base, last, largest in s["segments"]:
        if s["at"] - largest <= s["retention.ms"]:
            break
        start = last + 1
    return start


def _replicas(s: Mapping[str, Any]) -> repl.ReplicaState:
    return repl.ReplicaState(tuple(s["replicas"]), tuple(s["isr"]), s["leader"], dict(s["leo"]),
                             frozenset(s.get("dead", ())))


def _elected(s: Mapping[str, Any], unclean: bool) -> int | None:
    live = [b for b in s["replicas"] if b not in s["dead"]]
    return repl.elect_leader(s["replicas"], [b for b in s["isr"] if b in live], live, unclean)[0]


def _java_hash(text: str) -> int:
    h = 0
    for unit in text.encode("utf-16-be").hex(" ", 2).split():
        h = (31 * h + int(unit, 16)) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


def _txn(s: Mapping[str, Any]) -> dict[str, Any]:
    parsed = txn_log.parse_operations("\n".join(s["operations"]), ", ".join(s["transactional.id"]))
    return txn_log.replay(parsed)["partitions"][s["partition"]]


def _hot(s: Mapping[str, Any]) -> float:
    """The busiest partition's share of the stated sample (the seed decides which ids are hot)."""
    keys = generate(SampleSpec("zipf", s["records"], s["distinct"], s["zipf_s"], 0.0, s["seed"]))
    counts = partition_histogram(partitions_for_arrow(keys, s["partitions"]), s["partitions"])
    return 100 * float(counts.max()) / float(counts.sum())


def _share(s: Mapping[str, Any], what: str) -> int:
    from engine.coordinator.share_assignment import share_assign

    steps = [{m: {str(tp) for tp in tps} for m, tps in r.assignment.items()}
             for r in share_assign(_group(s, "share")).steps]
    if what == "readers":
        readers = Counter(tp for tps in steps[0].values() for tp in tps)
        assert len(set(readers.values())) == 1
        return min(readers.values())
    if what == "two":
        return sum(1 for tps in steps[0].values() if len(tps) == 2)
    if what == "leave":  # members of both steps that hold a partition they did not hold before
        return sum(1 for m, tps in steps[1].items() if m in steps[0] and tps - steps[0][m])
    return sum(1 for m, tps in steps[1].items() if m in steps[2] and tps - steps[2][m])  # join: who lost one


FROM_STATES: dict[str, Callable[[Mapping[str, Any]], Any]] = {
    "why.three": lambda s: [len(t) for t in outcomes(_consumers(s), CLIENT[s["strategy"]])[0].assignment.values()
                            ].count(s["most"]),
    "why.idle": _idle,
    "keys.partition": lambda s: partition_for_key(s["key"], s["partitions"]),
    "keys.remap": _remap,
    "assignors.range": lambda s: _owned(_group(s), s["strategy"], s["member"]),
    "assignors.roundrobin": lambda s: _owned(_group(s), s["strategy"], s["member"]),
    "assignors.count": lambda s: len(_owned(_consumers(s), s["strategy"], s["member"])),
    "leaves.sticky": lambda s: _owned(_group(s), s["strategy"], s["member"]),
    "leaves.revoked": lambda s: revoked_count(outcomes(_group(s), CLIENT[s["strategy"]])[-1]),
    "static.dynamic": _restart,
    "static.static": _restart,
    "kip848.revoked": lambda s: revoked_count(outcomes(_group(s), SERVER[s["assignor"]])[-1]),
    "sizing.partitions": lambda s: math.ceil(max(s["target"] / s["producer"], s["target"] / s["consumer"])),
    "wheel.level": lambda s: _wheel(s, "level"),
    "wheel.bucket": lambda s: _wheel(s, "bucket"),
    "producer.order": lambda s: ", ".join(map(str, _produced(s))),
    "producer.duplicates": lambda s: len(_produced(s)),
    "producer.acks0": _acks0,
    "producer.expire": lambda s: len(set(_produced(s))),
    "log.segment": lambda s: s["internal.segment.bytes"] // s["batch_bytes"],  # one record per batch
    "log.index": lambda s: max(position for offset, position in s["entries"] if offset <= s["target"]),
    "log.retention": _retention,
    "replication.hw": lambda s: repl.high_watermark(_replicas(s), s["min.insync.replicas"]),
    "replication.acks": lambda s: sum(repl.produce_error(_replicas(s), -1 if a == "all" else int(a),
                                                         s["min.insync.replicas"]) == "NONE" for a in s["acks"]),
    "replication.failover": lambda s: _elected(s, unclean=False),
    "replication.unclean": lambda s: s["hw"] - s["leo"][_elected(s, unclean=s["unclean.leader.election.enable"])],
    "lag.coordinator": lambda s: abs(_java_hash(s["group"])) % s["offsets.topic.num.partitions"],
    # eager: every partition paused from the end of its owner's batch to the end of SyncGroup
    "lag.eager": lambda s: round(s["rate"] * s["partitions"] * (s["rejoin_ms"] + s["sync_ms"]) / 1000),
    # cooperative: only C1's partitions, from the end of its batch to the end of round 1 (which began at once)
    "lag.cooperative": lambda s: round(s["rate"] * s["c1_owned"]
                                       * (s["rejoin_ms"] + s["sync_ms"] - s["processing_ms"]) / 1000),
    "eos.committed": lambda s: len(_txn(s)["read_committed"]),
    "eos.lso": lambda s: _txn(s)["last_stable_offset"],
    "hot.share12": _hot,
    "hot.share96": _hot,
    **{sid: (lambda f: lambda s: f(s))(f) for sid, f in STREAMS_FROM_STATED.items()},
    "share.readers": lambda s: _share(s, "readers"),
    "share.two": lambda s: _share(s, "two"),
    "share.leave": lambda s: _share(s, "leave"),
    "share.join": lambda s: _share(s, "join"),
}


def test_every_step_states_its_inputs() -> None:
    assert set(FROM_STATES) == set(STEPS)
    assert all(step.states for step in STEPS.values())


@pytest.mark.parametrize("step_id", sorted(FROM_STATES))
def test_the_answer_follows_from_what_the_question_states(step_id: str) -> None:
    step = STEPS[step_id]
    got = FROM_STATES[step_id](step.states)
    if step.kind == "partitions":
        assert got == set(step.answer)
    elif step.kind == "number":
        assert abs(got - step.answer) <= step.tolerance, (step_id, got, step.answer)
    else:
        assert got == step.answer


# ------------------------------------------------------------------------------ what the course actually runs

PRESETS = {"why.three": "order-service", "why.idle": "more-consumers", "assignors.range": "seed-b-4p",
           "assignors.roundrobin": "seed-b-3p", "assignors.count": "seed-a", "leaves.sticky": "seed-d",
           "leaves.revoked": "seed-d", "kip848.revoked": "seed-d", "lag.eager": "seed-d",
           "lag.cooperative": "seed-d", **{f"share.{k}": "share-group" for k in ("readers", "two", "leave", "join")}}


def _members(state: GroupState) -> list[tuple[str, tuple[str, ...]]]:
    return [(m.id, m.topics) for m in state.members]


@pytest.mark.parametrize("step_id", sorted(PRESETS))
def test_a_preset_is_the_group_the_question_states(step_id: str) -> None:
    s, preset = STEPS[step_id].states, build_preset(PRESETS[step_id])
    if "members" in s:  # the whole sequence: members, topics, who leaves and who joins, in order
        stated = _group(s)
        assert [_members(st) for st in stated.steps] == [_members(st) for st in preset.steps[:len(stated.steps)]]
        assert [st.topics for st in stated.steps] == [st.topics for st in preset.steps[:len(stated.steps)]]
    else:
        assert preset.first.total_partitions == s["partitions"]
    if "consumers" in s:
        assert len(preset.first.members) == s["consumers"]
    if step_id.startswith("lag."):
        assert s["leaves"] == next(m for m in preset.first.member_ids if m not in preset.steps[1].member_ids)


def test_the_producer_questions_state_the_documents_the_lesson_runs(monkeypatch) -> None:
    """Every produce document the producer lesson simulates for an answer, recorded as it runs."""
    ran: list[dict[str, Any]] = []
    real = dp._produce

    def recording(config: Mapping[str, Any], faults: list[tuple[int, str]], records: int,
                  one_per_request: bool = True) -> dict[str, Any]:
        ran.append({"config": dict(config), "faults": tuple(faults), "records": records})
        return real(config, faults, records, one_per_request)

    monkeypatch.setattr(dp, "_produce", recording)
    lesson = dp._producer()
    for step in lesson.steps:
        s = step.states
        if "faults" not in s:
            continue
        assert (s["partitions"], s["interval_ms"], s["latency_ms"]) == (1, dp.INTERVAL_MS, dp.LATENCY_MS)
        matching = [r for r in ran if r["faults"] == s["faults"] and r["records"] == s["records"]
                    and all(s["config"].get(k) == v for k, v in r["config"].items())]
        assert matching, (step.id, s, ran)
        defaults = {k: v for k, v in s["config"].items() if k not in matching[0]["config"]}  # stated defaults
        effective = report(simulate(parse_spec({"config": {}, "partitions": 1, "records": 1, "interval_ms": 10,
                                                 "latency_ms": 20, "faults": []})))["effective_config"]
        assert all(effective[k] == v for k, v in defaults.items()), defaults


def test_the_other_questions_state_the_documents_the_lessons_run() -> None:
    seed = partition_log.simulate(partition_log.SEED_133)[1]
    assert STEPS["log.segment"].states["internal.segment.bytes"] == seed["config"]["internal.segment.bytes"]
    assert {s["bytes"] // s["batches"] for s in seed["segments"][:-1]} == {STEPS["log.segment"].states["batch_bytes"]}
    assert STEPS["log.index"].states["entries"] == dp.INDEX_ENTRIES
    before = partition_log.simulate(dp.RETENTION_DOC)[1]["segments"]
    retention = STEPS["log.retention"].states
    assert retention["segments"] == tuple((s["base_offset"], s["last_offset"], s["largest_timestamp"]) for s in before)
    assert retention["retention.ms"] == dp.RETENTION_DOC["config"]["retention.ms"]
    assert retention["at"] == dp.RETENTION_AT_MS
    timings = ProtocolTimings()
    for sid in ("lag.eager", "lag.cooperative"):
        s = STEPS[sid].states
        assert (s["processing_ms"], s["rejoin_ms"], s["sync_ms"]) == (timings.processing_ms, timings.rejoin_ms,
                                                                      timings.sync_ms)
    seed_d = build_preset("seed-d")
    assert STEPS["lag.cooperative"].states["c1_owned"] == len(
        outcomes(seed_d, CLIENT["cooperative-sticky"])[0].assignment["C1"])
    assert STEPS["eos.lso"].states["operations"] == tuple(dp.TXN_OPERATIONS.splitlines())
    for sid in ("hot.share12", "hot.share96"):
        s = STEPS[sid].states
        assert (s["records"], s["distinct"], s["zipf_s"]) == (dp.HOT_SAMPLE.count, dp.HOT_SAMPLE.distinct,
                                                              dp.HOT_SAMPLE.zipf_s)


# ------------------------------------------------------------------------------ the question shows every input

FAULT_WORDS = {"not_leader": "NOT_LEADER_OR_FOLLOWER", "timeout_after_write": "no response",
               "timeout_before_write": "never reach the broker"}


def _shown(step_id: str, language: str, monkeypatch) -> str:
    """The question, the questions of its lesson before it, and the table above it, in ``language``."""
    from ui.lessons import texts
    from ui.text import i18n

    monkeypatch.setattr(i18n, "current_language", lambda: language)
    lesson, step = LESSON_OF[step_id], STEPS[step_id]
    before = lesson.steps[:[s.id for s in lesson.steps].index(step_id) + 1]
    cells = [str(v) for row in step.scene for v in row.values()]
    return " ".join([texts.question(s.id, s.facts) for s in before] + cells)


def _number(value: float) -> list[str]:
    return [str(value), f"{value:,}"]


def _pieces(key: str, value: Any, nested: bool = False) -> Iterator[tuple[str, list[str]]]:
    """(what, the texts any of which must appear) for one stated input; inside a mapping (topics, configs,
    LEOs) its keys are shown too."""
    if nested and key:
        yield key, [key]
    if key == "faults":
        for n, kind in value:
            yield f"fault {n}", [f"request {n}", f"requests {n}", f"请求 {n}"]
            yield f"fault kind {kind}", [FAULT_WORDS[kind]]
        return
    if ("." in key or isinstance(value, bool)) and not nested:  # a Kafka config or a switch: the question names it
        yield key, [key]
    if isinstance(value, bool):
        pass
    elif isinstance(value, int | float):
        yield key, _number(value)
    elif isinstance(value, str):
        yield key, [value]
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield from _pieces(str(k), v, nested=bool(key))
            if isinstance(v, bool) and key:
                yield f"{k} value", [str(v).lower()]
    else:
        for item in value:
            for part in (item if isinstance(item, tuple | list) else (item,)):
                yield from _pieces("", part)


def _missing(states: Mapping[str, Any], shown: str, language: str) -> list[tuple[str, list[str]]]:
    """The stated inputs ``shown`` does not show (English words are checked in English only)."""
    from ui.text.i18n import untranslated

    missing = []
    for what, texts in _pieces("", states):
        if what.startswith("fault ") and not what.startswith("fault kind"):  # the request number
            texts = [t for t in texts if t.startswith("请求") == (language == "zh")]
        elif language == "zh" and not any(re.search(r"\d|[._]", t) or not untranslated(t) for t in texts):
            continue  # English words (the Chinese names them in Chinese): checked in English
        if not any(t.lower() in shown.lower() for t in texts):
            missing.append((what, texts))
    return missing


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("step_id", sorted(STEPS))
def test_the_question_shows_every_stated_input(step_id: str, language: str, monkeypatch) -> None:
    assert not _missing(STEPS[step_id].states, _shown(step_id, language, monkeypatch), language)


def test_the_old_producer_questions_fail_here() -> None:
    """The questions before: "the first requests time out before the broker writes them" over a run whose first
    retry (request 4) stalls too, and "the broker writes the first request" over a stall of every response."""
    old = {"producer.expire": "3 records; the first requests time out before the broker writes them. "
                              "request.timeout.ms=1000, delivery.timeout.ms=1500. How many of the records reach "
                              "the log?",
           "producer.duplicates": "enable.idempotence=false. 3 records are sent 10 ms apart, one request each; the "
                                  "broker writes the first request but its response is lost (request.timeout.ms "
                                  "expires), so the producer retries. How many records does the partition's log "
                                  "hold at the end?"}
    missing = {sid: {what for what, _texts in _missing(STEPS[sid].states, text, "en")} for sid, text in old.items()}
    assert {"fault 4", "fault kind timeout_before_write"} <= missing["producer.expire"]
    assert {"fault 1", "fault kind timeout_after_write"} <= missing["producer.duplicates"]


# ------------------------------------------------------------------------------ not checked against Kafka

def test_answers_on_unchecked_models_say_so_from_the_registry(monkeypatch) -> None:
    """A step whose answer rests on request timeouts (the produce model) or retention (the log model) says,
    under "Kafka computes it in", what the release registry says is not checked, in both languages, never
    retyped in the lessons' code."""
    from ui.lessons import texts
    from ui.text import i18n

    timeouts = {sid for sid, s in STEPS.items()
                if any(kind.startswith("timeout") for _n, kind in s.states.get("faults", ()))}
    assert {sid: s.unchecked for sid, s in STEPS.items() if s.unchecked} == {
        **dict.fromkeys(timeouts, "produce"), "log.retention": "log"}
    assert timeouts == {"producer.duplicates", "producer.expire"}
    for sid, key in texts.unchecked_models().items():
        assert STEPS[sid].source == "kafka" and model(key).not_verified
        for language in ("en", "zh"):
            monkeypatch.setattr(i18n, "current_language", lambda language=language: language)
            shown = texts.explanation(sid, STEPS[sid].facts)
            assert i18n.translate(model(key).not_verified, language) in shown, (sid, language)
            if language == "zh":
                assert "未与 Kafka 的代码核对" in shown and not i18n.untranslated(shown)
    for path in ("ui/lessons/texts.py", "engine/lessons/course.py", "engine/lessons/data_path.py"):
        code = (REPO / path).read_text(encoding="utf-8")
        assert all(model(k).not_verified[:40] not in code for k in ("produce", "log")), path
    checked = [s for s in STEPS.values() if not s.unchecked]
    assert all("Not checked against Kafka" not in texts.explanation(s.id, s.facts) for s in checked)


# ------------------------------------------------------------------------------ the course's stumbles

def _both(monkeypatch) -> Iterator[str]:
    from ui.text import i18n

    for language in ("en", "zh"):
        monkeypatch.setattr(i18n, "current_language", lambda language=language: language)
        yield language


def test_the_send_notation_is_explained_before_the_operations(monkeypatch) -> None:
    from ui.lessons import texts

    step = STEPS["eos.committed"]
    for language in _both(monkeypatch):
        text = texts.question(step.id, step.facts)
        notation = text.find("send <")
        assert 0 <= notation < text.index(step.facts["operations"]), language
        assert "commit" in text[:text.index(step.facts["operations"])]


def test_the_index_example_says_its_interval_is_below_the_default(monkeypatch) -> None:
    from ui.lessons import texts

    step = STEPS["log.index"]
    positions = [p for _o, p in step.states["entries"]]
    assert {b - a for a, b in zip(positions, positions[1:], strict=False)} == {step.facts["spacing"]} == {328}
    for _language in _both(monkeypatch):
        question = texts.question(step.id, step.facts)
        assert "index.interval.bytes" in question and "328" in question and "4 KiB" in question


def test_waiting_is_counted_in_partition_seconds_in_lessons_5_and_12(monkeypatch) -> None:
    from ui.lessons import texts

    facts = STEPS["static.static"].facts
    assert facts["static_paused"] == facts["partitions"] * facts["restart_s"]  # each partition waits its owner out
    for language in _both(monkeypatch):
        said = " ".join(texts.question(s.id, s.facts) + " " + texts.explanation(s.id, s.facts)
                        for lesson in ("static", "lag") for s in LESSONS[lesson].steps)
        unit, other = ("partition-seconds", "consumer-seconds") if language == "en" else ("分区·秒", "消费者·秒")
        assert unit in texts.explanation("static.static", facts) and unit in said and other not in said


def _sorted_partitions(items: list[str]) -> list[str]:
    return sorted(items, key=lambda tp: (tp.rsplit("-", 1)[0], int(tp.rsplit("-", 1)[1])))


def test_list_answers_are_listed_sorted() -> None:
    from ui.lessons.lesson_state import shown_answer

    lists = [s for s in STEPS.values() if s.kind == "partitions"]
    assert lists
    for step in lists:
        assert list(step.answer) == _sorted_partitions(list(step.answer)), step.id
        assert shown_answer(step) == ", ".join(_sorted_partitions(list(step.answer)))
    for step in STEPS.values():
        for row in step.scene:
            owns = [tp for tp in row.get("owns", "").split(", ") if tp]
            assert owns == _sorted_partitions(owns), (step.id, row)
    owned = STEPS["assignors.count"].facts["owned"].split(", ")
    assert owned == _sorted_partitions(owned)


def test_the_sizing_step_never_says_kafka_computes_the_rule(monkeypatch) -> None:
    """Lesson 7 is a rule of thumb ("not something Kafka computes"): its article note must not say Kafka gives
    the rule's number."""
    from ui.lessons import texts
    from ui.lessons.lesson_state import article_note

    step = STEPS["sizing.partitions"]
    assert step.source == "rule" and step.article is not None
    for language in _both(monkeypatch):
        note = article_note(step) or ""
        said = note + " " + texts.explanation(step.id, step.facts)
        assert str(step.answer) in note
        if language == "en":
            assert "Kafka gives max(" not in note and "Kafka gives no partition count" in note
            assert "rule of thumb gives max(Tt/Tp, Tt/Tc) = 21" in note and "not something Kafka computes" in said
        else:
            assert "经验法则" in note and "Kafka 不计算分区数" in note


def test_the_share_lock_advice_is_the_same_in_lesson_16_and_on_sizing(monkeypatch) -> None:
    """A whole fetched batch must finish inside the lock: max.poll.records × the processing time per record
    below the lock duration, in the lesson's production line and in the Sizing tab's caption and error."""
    import streamlit as st

    from engine.share.capacity import CapacityInputs
    from engine.share.settings import ShareSettings
    from ui.lessons import texts
    from ui.share.capacity import lock_advice

    rule = {"en": ("A whole fetched batch must be processed within the acquisition lock",
                   "max.poll.records × the processing time per record", "below the lock duration",
                   "share.record.lock.duration.ms"),
            "zh": ("拉取到的一整批消息必须在获取锁的时长内处理完", "max.poll.records × 每条消息的处理时间",
                   "低于锁的时长", "share.record.lock.duration.ms")}
    shown: list[str] = []
    monkeypatch.setattr(st, "caption", lambda text, **_: shown.append(text))
    monkeypatch.setattr(st, "error", lambda text, **_: shown.append(text))
    lock = ShareSettings().lock_duration_ms
    for language in _both(monkeypatch):
        shown.clear()
        lock_advice(CapacityInputs(100, 10, 1, 10), fits=True)
        lock_advice(CapacityInputs(100, lock / 10, 1, 10), fits=False)  # a batch exactly as long as the lock
        for text in [texts.production()["share"], *shown]:
            assert all(part in text for part in rule[language]), (language, text)
