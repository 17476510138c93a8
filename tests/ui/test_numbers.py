"""A refused or out-of-range number says so next to the field; a decimal in an integer field
is refused with a message, never reinterpreted (Streamlit's number_input made 2.5 into 25 and -5 into 5,
ignored 0 and clamped 200000 to 100,000, each without a word)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from engine.errors import InputError, ScenarioError
from engine.lessons import check, step_of
from engine.presets import build_preset
from helpers import REPO, open_page
from ui.inputs.numbers import decimal, whole_number
from ui.lessons.lesson_state import ANSWER_LIMIT
from ui.scenario.builder import members_frame, tables_to_scenario, topics_frame


@pytest.mark.parametrize("typed,message", [
    ("2.5", "got '2.5' (a decimal is not rounded)"),
    ("-5", "must be a whole number 1..100,000, got '-5'"),
    ("0", "must be 1..100,000, got 0 (not clamped)"),
    ("200000", "must be 1..100,000, got 200,000 (not clamped)"),
    ("²", "must be a whole number"),
])
def test_whole_numbers_are_refused_with_the_reason(typed: str, message: str) -> None:
    with pytest.raises(InputError, match=None) as caught:
        whole_number(typed, "partitions", 1, 100_000)
    assert message in str(caught.value)
    assert whole_number(" 12 ", "partitions", 1, 100_000) == 12
    with pytest.raises(InputError, match="0..10"):
        decimal("-5", "T", 0.0, 10.0)


@pytest.mark.parametrize("cell,message", [
    ("2.5", "partitions must be a whole number 1..100,000, got 2.5 (a decimal is not rounded)"),
    ("200000", "got 200000"), ("-5", "got -5"), ("0", "got 0"),
])
def test_a_partition_cell_is_refused_not_rounded_or_clamped(cell: str, message: str) -> None:
    seed_a = build_preset("seed-a")
    topics = topics_frame(seed_a)
    assert str(topics["partitions"].dtype) == "string"  # a text column: the browser cannot rewrite it
    topics.loc[0, "partitions"] = cell
    scenario, errors = tables_to_scenario(topics, members_frame(seed_a), seed_a)
    assert scenario is None
    assert any(message in e for e in errors.errors["topics"]), errors.errors


def test_home_page_quick_action_counts_say_what_they_refuse() -> None:
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60).run()
    at.text_input(key="builder.add_n").set_value("2.5").run()
    assert not at.exception
    assert any("consumers to add" in e.value and "decimal is not rounded" in e.value for e in at.error)
    members = len(at.session_state["scenario.current"].first.members)
    at.button(key="builder.add").click().run()  # the last accepted value (1), not 25
    assert len(at.session_state["scenario.current"].first.members) == members + 1
    at.text_input(key="builder.rf").set_value("200000").run()
    assert any("replication factor" in e.value and "not clamped" in e.value for e in at.error)


def test_topics_frame_round_trips_as_text() -> None:
    s = build_preset("large")
    frame = topics_frame(s)
    assert list(frame["partitions"]) == ["500"] * 4 and isinstance(frame, pd.DataFrame)


def _number_input_calls(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sorted(node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
                  and (getattr(node.func, "attr", None) or getattr(node.func, "id", None)) == "number_input")


def test_no_page_draws_streamlits_number_input() -> None:
    sources = sorted((REPO / "ui").rglob("*.py")) + sorted((REPO / "pages").glob("*.py")) + [REPO / "app.py"]
    left = [f"{path.relative_to(REPO)}:{line}" for path in sources if path != REPO / "ui" / "inputs" / "numbers.py"
            for line in _number_input_calls(path)]
    assert left == [], "st.number_input rewrites what is typed; use ui.inputs.numbers instead"


@pytest.mark.parametrize("typed,low,value", [("-1", -1, -1), (" -0 ", -1, 0), ("7", -1, 7)])
def test_a_negative_range_takes_a_minus_sign(typed: str, low: int, value: int) -> None:
    assert whole_number(typed, "start", low, 10) == value


@pytest.mark.parametrize("typed,message", [
    ("-2", "start: must be -1..10, got -2 (not clamped)"),
    ("-1.5", "start: must be a whole number -1..10, got '-1.5' (a decimal is not rounded)"),
    ("--1", "start: must be a whole number -1..10, got '--1'"),
    ("-", "start: must be a whole number, got ''"),
])
def test_a_negative_range_refuses_what_is_not_in_it(typed: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        whole_number(typed, "start", -1, 10)
    assert str(caught.value) == message


def test_the_lesson_answer_limit_is_the_engines() -> None:
    step = step_of(1, 1)
    assert step.kind == "number"
    check(step, ANSWER_LIMIT)
    check(step, -ANSWER_LIMIT)
    with pytest.raises(ScenarioError):
        check(step, ANSWER_LIMIT + 1)


def _shown(at: Any) -> list[str]:
    """What a page shows besides its errors: its texts, captions and metrics."""
    return [*(m.value for m in at.markdown), *(c.value for c in at.caption), *(m.value for m in at.metric)]


def _radio(key: str, value: str) -> Callable[[Any], Any]:
    return lambda at: at.radio(key=key).set_value(value).run()


def _expand(key: str) -> Callable[[Any], Any]:
    """A lazy expander opened (its fields are not drawn while it is closed)."""
    return _open(key, True)


def _open(key: str, value: Any) -> Callable[[Any], Any]:
    """A lazy tab (its label) or expander (True) opened: its fields are not drawn while it is closed."""
    def open_it(at: Any) -> Any:
        at.session_state[key] = value
        return at.run()

    return open_it


# page, what to do first, the field, a value it refuses, the line under the field
REFUSALS = [
    ("9_Producer.py", None, "producer.records", "2.5",
     "records: must be a whole number 1..2,000, got '2.5' (a decimal is not rounded). Still using 4."),
    ("9_Producer.py", None, "producer.retries", "-1",
     "retries: must be a whole number 0..2,147,483,647, got '-1'. Still using 2,147,483,647."),
    ("10_Partition_Log.py", None, "log.segment_size", "9999999999",
     "segment size (bytes): must be 14..2,147,483,647, got 9,999,999,999 (not clamped). Still using 16,384."),
    ("10_Partition_Log.py", None, "log.retention.bytes", "-2",
     "retention.bytes: must be -1..9,223,372,036,854,775,807, got -2 (not clamped). Still using -1."),
    ("10_Partition_Log.py", None, "log.ratio", "1.5",
     "min.cleanable.dirty.ratio: must be a number in 0..1, got '1.5'. Still using 0.5."),
    ("10_Partition_Log.py", None, "log.offset", "-5",
     "offset: must be a whole number 0..4,611,686,018,427,387,904, got '-5'. Still using 23."),
    ("10_Partition_Log.py", _expand("log.maintenance"), "log.delete_before", "x",
     "DeleteRecords before offset (0 = none): must be a whole number, got 'x'. Still using 0."),
    ("10_Partition_Log.py", _expand("log.sizing"), "log.days", "-2",
     "retention (days, -1 = none): must be a number in -1..3650, got '-2'. Still using 7.0."),
    ("3_Keys.py", None, "keys.count", "2.5",
     "Records: must be a whole number 1..1,000,000, got '2.5' (a decimal is not rounded). Still using 100,000."),
    ("3_Keys.py", _open("keys.view", "Null keys over time"), "keys.sim_brokers", "0",
     "Brokers: must be 1..20, got 0 (not clamped). Still using 3."),
    ("8_Replicas.py", None, "replicas.seed", "-5",
     "seed of new Random(seed): must be a whole number 0..2,147,483,647, got '-5'. Still using 42."),
    ("8_Replicas.py", _radio("replicas.placer", "admin-utils"), "replicas.start", "-2",
     "fixed start index (-1 = random, as Kafka): must be -1..10,000, got -2 (not clamped). Still using 0."),
    ("5_Timing_Wheel.py", None, "wheel.preset_duration", "500",
     "Duration (ms): must be 1,000..60,000, got 500 (not clamped). Still using 20,000."),
    ("5_Timing_Wheel.py", _radio("wheel.source", "Random batch"), "wheel.random_seed", "1.5",
     "Seed: must be a whole number -9,223,372,036,854,775,808..9,223,372,036,854,775,807, got '1.5' "
     "(a decimal is not rounded). Still using 1."),
    ("5_Timing_Wheel.py", None, "wheel.wheel_size", "600",
     "wheel_size: must be 2..512, got 600 (not clamped). Still using 20."),
    ("3_Keys.py", None, "keys.partitions", "2.5",
     "Partitions: must be a whole number 1..10,000, got '2.5' (a decimal is not rounded). Still using 12."),
    ("3_Keys.py", _open("keys.view", "Group coordinator"), "keys.offsets_partitions", "2147483648",
     "offsets.topic.num.partitions: must be 1..2,147,483,647, got 2,147,483,648 (not clamped). Still using 50."),
    ("7_Group_Protocol.py", None, "protocol.heartbeat_ms", "-1",
     "heartbeat.interval.ms: must be a whole number 1..2,147,483,647, got '-1'. Still using 3,000."),
    ("7_Group_Protocol.py", _expand("protocol.restart_view"), "protocol.restart_s", "3601",
     "restart time per member (s): must be 0..3,600, got 3,601 (not clamped). Still using 30."),
    ("8_Replicas.py", None, "replicas.brokers", "0", "brokers: must be 1..100, got 0 (not clamped). Still using 6."),
    ("8_Replicas.py", _expand("replicas.decommission_view"), "replicas.size_gb", "-1",
     "partition size (GB): must be a number in 0..10000, got '-1'. Still using 10.0."),
    ("12_Compare.py", None, "compare.right_partitions", "100001",
     "Partitions per topic (0: the scenario's own): must be 0..100,000, got 100,001 (not clamped). Still using 0."),
]


@pytest.mark.parametrize("page,first,key,typed,message", REFUSALS, ids=[f"{r[0]}:{r[2]}" for r in REFUSALS])
def test_a_refused_value_is_named_and_the_last_one_kept(page: str, first: Callable[[Any], Any] | None, key: str,
                                                        typed: str, message: str) -> None:
    at = open_page(page)
    if first:
        first(at)
    shown, errors = _shown(at), [e.value for e in at.error]
    at.text_input(key=key).set_value(typed).run()
    assert not at.exception, at.exception
    assert [e.value for e in at.error] == [message, *errors]
    assert _shown(at) == shown  # the page still works from the last accepted value


def test_a_lesson_answer_may_stay_empty_and_a_bad_one_is_refused() -> None:
    at = AppTest.from_file(str(REPO / "pages" / "11_Lessons.py"), default_timeout=120)
    at.query_params["lesson"], at.query_params["step"] = "1", "1"
    at.run()
    key = f"lessons.answer.{step_of(1, 1).id}"
    assert at.text_input(key=key).value == "" and not at.error
    at.text_input(key=key).set_value("2.5").run()
    assert [e.value for e in at.error] == [
        "Your answer: must be a whole number -1,000,000,000,000,000..1,000,000,000,000,000, got '2.5' "
        "(a decimal is not rounded). Still empty."]
    at.text_input(key=key).set_value("3").run()
    at.text_input(key=key).set_value("x").run()
    assert [e.value for e in at.error] == ["Your answer: must be a whole number, got 'x'. Still using 3."]
    at.button(key="lessons.check").click().run()
    assert not at.exception and at.session_state["lessons.verdicts"] == {step_of(1, 1).id: False}  # 3, not 2


def _load_target() -> None:
    from types import SimpleNamespace

    import streamlit as st

    from ui.load.spark_load import target_input

    config: Any = SimpleNamespace(consumers=(2, 3))
    st.markdown(f"target {target_input(config, {'topic_peak_messages_per_s': 100.0})}")


def test_the_load_target_refuses_zero_and_keeps_its_default() -> None:
    at = AppTest.from_function(_load_target, default_timeout=60).run()
    assert at.markdown[0].value == "target 50.0" and not at.error
    at.text_input(key="load.target").set_value("0").run()
    assert [e.value for e in at.error] == [
        "Target: the peak messages/s one consumer can sustain: must be a number in 0.001..9.22337e+18, got '0'. "
        "Still using 50.0."]
    assert at.markdown[0].value == "target 50.0"


def test_the_import_timeout_is_refused_in_one_line() -> None:
    at = open_page("../app.py")
    at.text_input(key="import.f0.bootstrap").set_value("127.0.0.1:9")
    at.text_input(key="import.f0.timeout").set_value("0.1")
    next(b for b in at.button if b.label == "Read the cluster").click().run()
    assert not at.exception
    assert [e.value for e in at.error] == ["Timeout (s): must be a number in 0.5..120, got '0.1'"]
