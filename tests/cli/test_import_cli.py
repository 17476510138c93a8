"""``python -m engine import --from-text``: a scenario file out, or exit 2 with one line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.admin.cli import main
from engine.scenario import loads_scenario
from helpers import REPO, TESTS

FIXTURES = TESTS / "fixtures" / "kafka_tools"


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine", "import", *args],
        cwd=REPO,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_paste_file_becomes_a_loadable_scenario_file() -> None:
    done = cli("--from-text", str(FIXTURES / "cluster_bundle.txt"))
    assert done.returncode == 0 and done.stderr == ""
    document = json.loads(done.stdout)
    scenario = loads_scenario(done.stdout)
    assert scenario.name == "orders-service (imported)" and scenario.first.topics == {
        "orders": 6,
        "payments": 3,
    }
    assert set(document["current_assignment"]) <= {m.id for m in scenario.first.members}
    assert {m: [str(tp) for tp in tps] for m, tps in scenario.current_assignment.items()} == document[
        "current_assignment"
    ]  # loaded, not ignored: step 0 starts from it
    assert document["current_assignment"][
        "consumer-orders-service-2-61b339ff-2481-44e5-998b-88dbaa99e079"
    ] == ["orders-2", "orders-3", "payments-1"]
    assert document["import"]["group"]["state"] == "Stable"
    assert {u["line"] for u in document["import"]["unused"]} >= {1, 16, 26}


def test_stdin_and_output_file(tmp_path) -> None:
    out = tmp_path / "s.json"
    done = cli(
        "--from-text",
        "-",
        "--weights",
        "none",
        "--output",
        str(out),
        stdin=(FIXTURES / "topics_4x.txt").read_text(),
    )
    assert done.returncode == 0 and done.stdout == ""
    assert loads_scenario(out.read_text()).first.topics == {"orders": 6, "payments": 3}


@pytest.mark.parametrize(
    "args, message",
    [
        (["--from-text", str(FIXTURES / "missing.txt")], "error: --from-text '.*missing.txt': cannot read"),
        (
            ["--from-text", str(FIXTURES / "cg_offsets_3x.txt"), "--group", "nope"],
            "error: group 'nope' is not in the input; groups found: 'orders-service'",
        ),
        (
            ["--from-text", str(FIXTURES / "cg_offsets_3x.txt"), "--weights", "size"],
            r"error: weights: the input has no partition sizes",
        ),
        ([], "error: import: one of the arguments --from-text --bootstrap is required"),
        (["--from-text", "-", "--bootstrap", "k:1"], "error: import: argument --bootstrap: not allowed with"),
        (["--from-text", "-", "--list-groups"], "error: import: --list-groups needs --bootstrap"),
    ],
)
def test_bad_use_is_exit_2_and_one_line(args, message, capsys) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert __import__("re").match(message, err), err


def test_a_bad_paste_names_its_line() -> None:
    text = (FIXTURES / "cg_members_verbose_3x.txt").read_text().replace("orders(2,3)", "orders(2,three)")
    done = cli("--from-text", "-", stdin=text)
    assert done.returncode == 2 and done.stdout == ""
    assert (
        done.stderr == "error: line 4: cannot read the assignment 'orders(2,three), payments(1)' near "
        "'orders(2,three)'\n"
    )


def test_the_command_is_listed() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "--help"], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert "import" in done.stdout
