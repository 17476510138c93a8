"""Refusals of ``python -m engine`` are one bounded, escaped line, whatever the input holds.

Kafka's ``ConfigException`` repeats the bad value in full; the CLI repeats at most ``MAX_QUOTED`` characters of
it (then ``…`` and its length) with control characters, line breaks and lone surrogates escaped, and a last
guard (``engine.cli.refusal``) bounds and escapes every line it prints, whoever built the message.  Config
strings are read by the JDK's rules (``tests/engine/common/test_config_def_java.py`` has the Java-checked
table), so a few thousand digits are Kafka's ``Not a number`` refusal, never Python's 4,300-digit limit.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from engine.errors import MAX_MESSAGE, MAX_QUOTED, ScenarioError, escaped
from helpers import REPO

PRODUCE = {"partitions": 1, "records": 2, "latency_ms": 1, "max_time_ms": 60_000}


def run(command: str, document: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", command, "-"], input=json.dumps(document),
                          capture_output=True, text=True, encoding="utf-8", errors="backslashreplace", cwd=REPO,
                          timeout=60)


def one_safe_line(text: str) -> str:
    """The text's only line, after checking it is bounded and holds no character a terminal acts on."""
    lines = text.splitlines()
    assert len(lines) == 1, lines[:3]
    assert len(lines[0]) <= len("error: ") + MAX_MESSAGE + len("… (9,999,999,999 characters)")
    assert all(escaped(c) == c for c in lines[0]), ascii(lines[0][:300])
    return lines[0]


@pytest.mark.parametrize(
    ("command", "document", "message"),
    [
        ("log-config", {"config": {"segment.bytes": "1" * 5000}},
         f"error: ConfigException: Invalid value {'1' * MAX_QUOTED}… (5,000 characters) for configuration "
         "segment.bytes: Not a number of type INT"),
        ("log-config", {"config": {"retention.ms": "9" * 4301}},
         f"error: ConfigException: Invalid value {'9' * MAX_QUOTED}… (4,301 characters) for configuration "
         "retention.ms: Not a number of type LONG"),
        ("produce", {"config": {"linger.ms": "9" * 5000}, **PRODUCE},
         f"error: ConfigException: Invalid value {'9' * MAX_QUOTED}… (5,000 characters) for configuration "
         "linger.ms: Not a number of type LONG"),
        ("log", {"config": {"segment.bytes": "-" + "0" * 4400 + "7"}, "batches": [{"records": [{"key": "a"}]}]},
         "error: ConfigException: Invalid value -7 for configuration segment.bytes: Value must be at least 1048576"),
    ],
)
def test_a_few_thousand_digits_are_kafkas_refusal(command: str, document: Any, message: str) -> None:
    proc = run(command, document)
    assert proc.returncode == 2 and proc.stdout == ""
    assert one_safe_line(proc.stderr) == message


def test_a_batch_answers_every_item_after_a_long_number() -> None:
    good = {"config": {"segment.bytes": " +2097152\u0000"}}
    proc = run("log-config", [{"config": {"segment.bytes": "1" * 5000}}, good, {"config": {"segment.ms": "0" * 5000}}])
    assert proc.returncode == 0, proc.stderr
    first, second, third = json.loads(proc.stdout)
    assert first["error"].endswith("… (5,000 characters) for configuration segment.bytes: Not a number of type INT")
    assert second["config"]["segment.bytes"] == 2_097_152
    assert third == {"error": "ConfigException: Invalid value 0 for configuration segment.ms: Value must be at least 1"}


@pytest.mark.parametrize(
    ("config", "answer"),
    [
        ({"segment.bytes": "\u30002097152"}, None),  # String.trim keeps U+3000: NumberFormatException
        ({"segment.bytes": "2097152\u00a0"}, None),
        ({"segment.bytes": "\u00852097152"}, None),
        ({"segment.bytes": "\U0001d7d0097152"}, None),  # a digit outside the BMP is two UTF-16 units to Java
        ({"segment.bytes": "2_097_152"}, None),
        ({"segment.bytes": "\uff12\uff10\uff19\uff17\uff11\uff15\uff12"}, ("segment.bytes", 2_097_152)),
        ({"segment.bytes": "\u0000\u001f+2097152\t"}, ("segment.bytes", 2_097_152)),
        ({"min.cleanable.dirty.ratio": "0x1p-2"}, ("min.cleanable.dirty.ratio", 0.25)),
        ({"min.cleanable.dirty.ratio": ".25f"}, ("min.cleanable.dirty.ratio", 0.25)),
        ({"min.cleanable.dirty.ratio": "inf"}, None),
        ({"cleanup.policy": "compact\u001c,delete"}, None),  # Java's \s is ASCII: U+001C stays in the item
        ({"cleanup.policy": "compact\u000b,\u000cdelete"}, ("cleanup.policy", "compact,delete")),
    ],
)
def test_config_strings_are_read_by_javas_rules(config: dict[str, str], answer: tuple[str, Any] | None) -> None:
    proc = run("log-config", {"config": config})
    if answer is None:
        assert proc.returncode == 2
        assert one_safe_line(proc.stderr).startswith("error: ConfigException: Invalid value ")
    else:
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["config"][answer[0]] == answer[1]


def test_the_producer_reads_booleans_by_equals_ignore_case() -> None:
    """``"falſe"`` (U+017F, whose upper case is ``S``) is ``false`` to ``equalsIgnoreCase``."""
    proc = run("produce", {"config": {"enable.idempotence": " fal\u017fe\u0000", "acks": "1"}, **PRODUCE})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["effective_config"]["enable.idempotence"] is False


@pytest.mark.parametrize(
    ("document", "shown"),
    [
        ({"config": {"segment.bytes": "\u001b[2J\u001b]0;pwned\u0007"}},
         "Invalid value \\x1b[2J\\x1b]0;pwned\\x07 for"),
        ({"config": {"segment.bytes": "1\n2\r3\u2028"}}, "Invalid value 1\\n2\\r3\\u2028 for"),
        ({"config": {"segment.bytes": "\ud800\u202e"}}, "Invalid value \\ud800\\u202e for"),
        ({"config": {"x\u001b[31m" + "y" * 5000: 1}}, "unknown property 'x\\x1b[31myyy"),
    ],
)
def test_refusals_escape_what_a_terminal_would_act_on(document: Any, shown: str) -> None:
    proc = run("log-config", document)
    assert proc.returncode == 2
    assert shown in one_safe_line(proc.stderr)
    batch = run("log-config", [document])
    error = json.loads(batch.stdout)[0]["error"]
    assert shown in error and all(escaped(c) == c for c in error) and len(error) <= MAX_MESSAGE + 30


def test_a_value_of_millions_of_characters_is_quoted_in_a_bounded_line() -> None:
    proc = run("log-config", {"config": {"cleanup.policy": "x" * 3_000_000}})
    assert proc.returncode == 2
    line = one_safe_line(proc.stderr)
    assert line.endswith(f"{'x' * MAX_QUOTED}… (3,000,000 characters) for configuration cleanup.policy: "
                         "String must be one of: compact, delete")


def test_the_last_guard_bounds_a_message_built_anywhere(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A message that skipped ``EngineError``'s own bounding (``Exception.__init__`` called directly) still
    leaves as one bounded, escaped line, on its own and in a batch."""
    from engine import cli
    from engine.storage import log_config

    def raw(document: Any) -> Any:
        error = ScenarioError("x")
        Exception.__init__(error, "line one\nline two \u001b[31m" + "z" * 50_000)
        raise error

    monkeypatch.setattr(log_config, "cli_log_config", raw)
    assert cli.run_one(raw, {})["error"].endswith("… (50,023 characters)")
    assert cli.refusal("a\nb\u001b") == "a\\nb\\x1b"
    monkeypatch.setattr(cli, "read_document", lambda source: {})
    assert cli.main(["log-config", "-"]) == 2
    line = one_safe_line(capsys.readouterr().err)
    assert line.startswith("error: line one\\nline two \\x1b[31mzzz") and line.endswith("… (50,023 characters)")
