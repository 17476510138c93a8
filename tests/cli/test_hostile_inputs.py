"""Hostile input: a seeded few hundred inputs across every command and the dashboard's decoders.

Each CLI input must end in exit 2 with exactly one bounded, escaped stderr line, or exit 0 with strict JSON (a
batch: one answer per item, errors on one line); each decoder must return or raise one ``EngineError`` line.
The families are ``bench/fuzz_cli.py``'s (the slow exhaustive run, ``python -m bench fuzz_cli``); here they run
in-process with a fixed seed (``KPL_SEED`` overrides it), without the 60 MB documents.  Every command of
``engine.cli.COMMANDS`` must have seeds in the bench and a share of the sample here, or a test below fails.
"""

from __future__ import annotations

import base64
import io
import json
import os
import random
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from bench.fuzz_cli import (
    BASE,
    BATCHABLE,
    COMMANDS,
    JAVA_BLANKS,
    LONG_DIGITS,
    QUOTA,
    Case,
    Mutator,
    Outcome,
    documents,
    dumps,
    judge,
    mutated,
    surrogates,
)
from engine.cli import COMMANDS as CLI_COMMANDS
from engine.cli import main
from engine.errors import EngineError, InputError, ScenarioError
from engine.inputs import MAX_DEPTH, MAX_NUMBER_CHARS, decode_json, encode_json, scan_shape
from engine.producer.keysample import parse_pasted
from engine.scenario import dumps_scenario, loads_scenario
from engine.server.timer.workloads import parse_task_lines
from engine.sizing import parse_perf_output
from helpers import REPO

SEED = int(os.environ.get("KPL_SEED", 1818))
MUTATIONS = {"assign": 120, "server-assign": 80, "share-assign": 60, "wheel": 60, "replicas": 60, "hash": 40,
             "coordinator": 40, "produce": 60, "log": 30, "share-deliver": 60, "log-config": 60, "streams-assign": 60}


def run_in_process(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Outcome:
    """``python -m engine`` on the case, in this process (the input as a file), judged like a subprocess."""
    source = tmp_path / "input.json"
    source.write_bytes(case.data or b"")
    argv = list(case.argv) if case.argv is not None else [case.command, str(source)]
    out, err = io.BytesIO(), io.StringIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stderr", err)
    start = time.monotonic()
    try:
        rc = main(argv)
    except Exception as exc:  # noqa: BLE001 - a traceback is what the judge must see
        err.write(f"Traceback (in-process): {type(exc).__name__}: {exc}\n")
        rc = 1
    stdout.flush()
    monkeypatch.undo()
    return Outcome(
        rc,
        out.getvalue(),
        err.getvalue().encode("utf-8", "backslashreplace"),
        time.monotonic() - start,
        0,
        None,
    )


def hostile_cli_cases() -> list[Case]:
    rng = random.Random(SEED)
    cases = [c for command in COMMANDS for c in mutated(rng, command, MUTATIONS[command], use_vectors=False)]
    cases += [c for command in COMMANDS for c in documents(command, big=False)]
    return cases + list(surrogates())


CASES = hostile_cli_cases()


def test_the_sample_is_a_few_hundred_inputs_across_every_command() -> None:
    inputs = sum(c.batch or 1 for c in CASES)
    assert 400 <= inputs <= 2_000
    assert {c.command for c in CASES} == set(COMMANDS)


def test_every_command_of_the_cli_is_in_every_family() -> None:
    """A command added to ``engine.cli.COMMANDS`` fails here until the bench has seeds for it (``BASE``), a
    lone surrogate case (``surrogates``) and a share of this sample (``MUTATIONS``)."""
    assert COMMANDS == tuple(CLI_COMMANDS)
    assert set(BATCHABLE) == {name for name, command in CLI_COMMANDS.items() if command.batchable}
    assert [name for name in CLI_COMMANDS if not BASE.get(name)] == []
    assert set(MUTATIONS) == set(CLI_COMMANDS) and set(QUOTA) == set(CLI_COMMANDS)
    assert {c.command for c in surrogates()} == set(CLI_COMMANDS)
    produce = {frozenset(seed) for seed in BASE["produce"]}
    assert any("timeline" in seed for seed in produce) and any("records" in seed for seed in produce)


@pytest.mark.parametrize(("command", "seed"), [(name, seed) for name in COMMANDS for seed in BASE[name]],
                         ids=[f"{name}-{i}" for name in COMMANDS for i in range(len(BASE[name]))])
def test_every_seed_is_an_input_the_cli_answers(command: str, seed: object, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    case = Case(command, f"{command} seed", dumps(seed), expect="ok")
    got = run_in_process(case, tmp_path, monkeypatch)
    assert got.rc == 0 and judge(case, got) == [], got.err[-300:]
    assert "error" not in json.loads(got.out)


def test_mutations_write_numbers_as_strings_java_reads_differently() -> None:
    """The mutated family turns numbers into long digit strings and strings ``String.trim`` does not trim."""
    mutator = Mutator(random.Random(SEED))
    seen = [mutator.mutate(2_097_152) for _ in range(2_000)]
    texts = [v for v in seen if isinstance(v, str)]
    assert any(t in LONG_DIGITS for t in texts)
    assert any(t.startswith("0" * 5000) for t in texts)
    assert any(t[:1] in JAVA_BLANKS and t[:1] > " " for t in texts)
    assert any("\u0662" in t or "\uff12" in t for t in texts)


@pytest.mark.parametrize("case", CASES, ids=[f"{i}-{c.command}" for i, c in enumerate(CASES)])
def test_cli_keeps_its_promise(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    got = run_in_process(case, tmp_path, monkeypatch)
    assert judge(case, got) == [], (case.description, got.rc, got.err[-300:])


def test_the_judge_catches_each_broken_promise() -> None:
    case, batch = Case("assign", "x", b"{}"), Case("assign", "x", b"[{}, {}]", batch=2)
    assert (
        judge(case, Outcome(1, b"", b"Traceback (most recent call last):\n  boom", 0.1, 10, None))[0][0]
        == "crash"
    )
    assert judge(case, Outcome(2, b"", b"usage: x\nerror: y\n", 0.1, 10, None)) == [
        ("multiline", "2 stderr lines")
    ]
    assert judge(case, Outcome(0, b"NaN", b"", 0.1, 10, None))[0][0] == "badjson"
    assert judge(batch, Outcome(0, b"[{}]", b"", 0.1, 10, None))[0][0] == "badjson"
    assert judge(case, Outcome(None, b"", b"", 20.0, 10, "time>20 s")) == [("hang", "time>20 s")]
    assert (
        judge(Case("assign", "x", b"{}", expect="ok"), Outcome(2, b"", b"error: no\n", 0.1, 1, None))[0][0]
        == "expect"
    )
    assert judge(case, Outcome(2, b"", b"error: " + b"9" * 5000 + b"\n", 0.1, 1, None)) == [
        ("unsafe", "a line of 5,007 characters")
    ]
    assert judge(case, Outcome(2, b"", b"error: \x1b[2J\n", 0.1, 1, None)) == [("unsafe", "a raw \\x1b in the line")]
    answer = json.dumps([{"error": "a\u202eb"}, {}]).encode()
    assert judge(batch, Outcome(0, answer, b"", 0.1, 1, None)) == [
        ("unsafe", "a batch item's error: a raw \\u202e in the line")
    ]


# ------------------------------------------------------------------------------------ the boundary


def test_module_worked_example() -> None:
    assert decode_json(b'{"partitions": 12}') == {"partitions": 12}
    with pytest.raises(InputError, match=r"input: a number of 5,000 digits \(at most 100\)"):
        decode_json(b'{"x": ' + b"9" * 5000 + b"}")
    with pytest.raises(InputError, match="input: nested deeper than 64 levels"):
        decode_json(b"[" * 65 + b"]" * 65)
    assert encode_json({"id": "\ud800", "n": 1}) == '{"id":"\\ud800","n":1}'


def test_limits_sit_exactly_at_their_edge() -> None:
    assert decode_json(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH) is not None
    assert decode_json(b"9" * MAX_NUMBER_CHARS) == int("9" * MAX_NUMBER_CHARS)
    with pytest.raises(InputError, match="101 digits"):
        decode_json(b"-" + b"9" * (MAX_NUMBER_CHARS + 1))


def test_strings_hide_structure_and_digits_from_the_scan() -> None:
    text = b'{"a": ["[[[[", "\\"]]]]", "' + b"7" * 5000 + b'", "\\\\"], "b": {}}'
    shape = scan_shape(text)
    assert (shape.depth, shape.containers, shape.items, shape.digits) == (2, 3, None, 0)
    assert decode_json(text)["a"][1] == '"]]]]'
    big = b"[" + b'"[{,",' * 300_000 + b"[1,[2]]]"  # over 64 KiB: the chunked (numpy) scan
    chunked = scan_shape(big)
    assert (chunked.depth, chunked.containers, chunked.items, chunked.digits) == (3, 3, 300_001, 1)


@pytest.mark.parametrize("text", ["\u00b2", "\u0663", "9" * 5000, "", "-1", " 1", "1_000", "1e3"])
def test_whole_numbers_from_pasted_text_are_ascii_and_bounded(text: str) -> None:
    from engine.inputs import parse_whole_number

    with pytest.raises(InputError):
        parse_whole_number(text, "PartitionCount")
    assert parse_whole_number("0042", "PartitionCount") == 42


def test_lone_surrogates_round_trip_and_encode_as_utf8() -> None:
    value = {"ids": ["\ud800", "a\ud83d", "\udfff\ud800", "\U0001f600", "caf\u00e9"]}
    text = encode_json(value)
    assert json.loads(text) == value
    text.encode("utf-8")  # strict: no surrogate reaches the encoder
    assert "\\ud800" in text and "\U0001f600" in text and "caf\u00e9" in text


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"1" * 60 + b"." + b"1" * 60, "a number of 121 characters"),
        (b"0." + b"1" * 5000, "5,000 digits"),
        (b"\xff\xfe", "not UTF-8 text (byte 0xff at offset 0)"),
        (b'"' + b'\\"' * 1000, "not valid JSON"),
        (b"[" + b"0," * 10_000 + b"0]", None),
    ],
)
def test_document_refusals_are_one_line(raw: bytes, message: str | None) -> None:
    from engine.inputs import MAX_BATCH_ITEMS, DocumentLimits

    with pytest.raises(InputError) as info:
        decode_json(raw, "input", DocumentLimits(max_items=MAX_BATCH_ITEMS))
    assert "\n" not in str(info.value)
    assert message is None or message in str(info.value)


def test_nan_and_infinity_are_values_that_a_batch_item_refuses_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Python reads NaN, Infinity and 1e999 as floats; the fields refuse them, item by item."""
    assert decode_json(b"[NaN, -Infinity, 1e999]")[1:] == [float("-inf"), float("inf")]
    good = {"tick_ms": 1, "wheel_size": 20, "tasks": [{"id": "a", "delay_ms": 5}]}
    batch = (
        b"["
        + json.dumps(good).encode()
        + b', {"tick_ms": NaN, "tasks": []}, {"tick_ms": 1e999, "tasks": []}]'
    )
    got = run_in_process(Case("wheel", "NaN items", batch, batch=3), tmp_path, monkeypatch)
    assert got.rc == 0 and got.err == b""
    answers = json.loads(got.out)
    assert "tasks" in answers[0]
    assert answers[1:] == [
        {"error": "tick_ms: an integer is required, got nan"},
        {"error": "tick_ms: an integer is required, got inf"},
    ]
    with pytest.raises(ValueError):  # and never leave as non-strict JSON
        encode_json({"x": float("nan")})


# --------------------------------------------------------------------------------- dashboard decoders


def _share_code(raw: bytes) -> str:
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


SCENARIO = {"topics": {"t0": 3}, "members": [{"id": "C0", "topics": ["t0"]}]}
SCENARIO_PAYLOADS = [c.data or b"" for c in documents("assign", big=False)] + [
    json.dumps({**SCENARIO, "weights": {"t0": [1e308, 1e308, -1]}}).encode(),
    b'{"topics": {"t0": ' + b"9" * 5000 + b'}, "members": []}',
    json.dumps({**SCENARIO, "members": [{"id": f"C{i}", "topics": ["t0"]} for i in range(20_001)]}).encode(),
    json.dumps({"steps": [SCENARIO] * 201}).encode(),
]


@pytest.mark.parametrize("raw", SCENARIO_PAYLOADS, ids=range(len(SCENARIO_PAYLOADS)))
def test_scenario_upload_paste_and_share_link_refuse_at_once(raw: bytes) -> None:
    from ui.frame.state import decode_scenario

    for decode in (
        loads_scenario,
        lambda r: loads_scenario(r.decode("utf-8", "replace")),
        lambda r: decode_scenario(_share_code(r)),
    ):
        try:
            decode(raw)
        except ScenarioError as exc:
            assert "\n" not in str(exc) and str(exc)


def test_share_link_refuses_garbage_and_bombs() -> None:
    from ui.frame.state import decode_scenario

    bomb = _share_code(b"[" + b" " * (64 * 2**20) + b"]")
    for code in ["", "!!!!", "A" * 10, "eJz", bomb, _share_code(b"[" * 100_000)]:
        with pytest.raises(ScenarioError):
            decode_scenario(code)


def test_lone_surrogate_member_survives_save_and_share_link() -> None:
    from ui.frame.state import decode_scenario, encode_scenario

    scenario = loads_scenario(
        json.dumps(
            {
                "topics": {"t0": 2},
                "members": [{"id": "\ud800", "topics": ["t0"]}, {"id": "a\udfff", "topics": ["t0"]}],
            }
        )
    )
    assert loads_scenario(dumps_scenario(scenario)) == scenario
    assert decode_scenario(encode_scenario(scenario)) == scenario


@pytest.mark.parametrize(
    "text",
    [
        "a, " + "9" * 5000,
        "a, \u00b2",
        "a, 1e3",
        "a, 5, 4, 3, 2",
        "a",
        ",,,",
        "\u0000, 1",
        "a, -1",
        "\n".join(f"t{i}, 1" for i in range(100_001)),
        "a, " + "1" * 4300,
        "a,1\n" * 3,
        "\ud800, 5",
    ],
)
def test_wheel_task_lines_return_or_refuse_in_one_line(text: str) -> None:
    try:
        tasks = parse_task_lines(text)
    except EngineError as exc:
        assert "\n" not in str(exc)
    else:
        assert all(isinstance(t.delay_ms, int) for t in tasks)


@pytest.mark.parametrize(
    "text", ["a\n\ud800\nb", "x" * 2_000_001, "\n" * 1000, "k" * 10_001, "<null>\n\\N\n"]
)
def test_key_pastes_return_or_refuse_in_one_line(text: str) -> None:
    try:
        keys = parse_pasted(text)
    except EngineError as exc:
        assert "\n" not in str(exc)
    else:
        assert len(keys) >= 1


PERF_PASTES = [
    "9" * 100_000,
    "9" * 100_000 + " records sent, 1 records/sec (1 MB/sec), 1 ms avg latency, 1 ms max latency",
    "5 records sent, 1.2.3 records/sec (1 MB/sec), 1 ms avg latency, 1 ms max latency",
    "5 records sent, 1 records/sec (. MB/sec), 1 ms avg latency, 1 ms max latency",
    "5 records sent, 1 records/sec (" + "9" * 100_000 + " MB/sec), 1 ms avg latency, 1 ms max latency",
    "start.time, end.time, MB.sec, data.consumed.in.nMsg\n1, 2, inf, 5",
    "start.time, end.time, MB.sec, data.consumed.in.nMsg\n1, 2, 3, 1e999",
    "start.time, end.time, MB.sec, data.consumed.in.nMsg\n1, 2, nan, 5",
    "start.time, end.time, MB.sec\n1, 2, " + "9" * 100_000,
    "1 records sent, " * 60_000,
]
LONG_DETAILED_RUN = "time, threadId, MB.sec, nMsg.sec\n" + "x, 1, 2, 3\n" * 20_000  # valid: 20,000 intervals


def test_perf_paste_parser_answers_every_hostile_paste_at_once() -> None:
    """In a child process with a 60 s guard: catastrophic backtracking would hang, not fail."""
    script = (
        "import json, sys\nfrom engine.errors import EngineError\n"
        "from engine.sizing import parse_perf_output\n"
        "out = []\nfor text in json.load(sys.stdin):\n"
        "    try:\n        r = parse_perf_output(text); out.append(['ok', r.mb_per_sec])\n"
        "    except EngineError as exc:\n        out.append(['error', str(exc)])\nprint(json.dumps(out))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps([*PERF_PASTES, LONG_DETAILED_RUN]),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    *answers, long_run = json.loads(proc.stdout)
    assert [kind for kind, _ in answers] == ["error"] * len(PERF_PASTES)
    assert all("\n" not in message and message.startswith("perf output") for _, message in answers)
    assert "records/sec: not a number, got '1.2.3'" in answers[2][1]
    assert long_run == ["ok", 2.0]


def test_perf_paste_still_reads_real_output() -> None:
    line = (
        "500000 records sent, 49985.0 records/sec (47.67 MB/sec), 373.25 ms avg latency, "
        "632.00 ms max latency, 355 ms 50th, 590 ms 95th, 623 ms 99th, 630 ms 99.9th."
    )
    assert parse_perf_output("[2024-10-25 10:00:00] " + line).mb_per_sec == 47.67


def test_kafkas_own_errors_share_one_root_with_the_engines() -> None:
    from engine.coordinator.group_spec import PartitionAssignorError
    from engine.errors import KafkaError
    from engine.server.replicas import KafkaAdminError

    for error in (
        PartitionAssignorError("Partitions were left unassigned"),
        KafkaAdminError("InvalidPartitionsException", "Number of partitions must be larger than 0."),
    ):
        assert isinstance(error, KafkaError) and isinstance(error, EngineError)
    assert str(KafkaAdminError("X", "a\nb")) == "X: a b"  # one line, like every EngineError
