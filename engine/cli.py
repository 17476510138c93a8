"""``python -m engine <command> [FILE|-]`` — the contract in ../shared/spec/README.md.

Every command reads one JSON document (a file, or stdin for ``-``) and prints one JSON document.
Exit codes: 0 success, 2 bad input (one line on stderr naming the field and the value).
Commands marked batchable also take a JSON array and answer an array in the same order, an
``{"error": ...}`` object standing in for each bad input.

Each command's handler lives beside the engine code it drives and is imported lazily, so a
command never pays for another's imports (``load`` alone imports pyspark).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError

MAX_INPUT_BYTES = 64 * 1024 * 1024  # a larger document is refused before parsing


@dataclass(frozen=True)
class Command:
    module: str
    handler: str
    batchable: bool
    help: str

    def load(self) -> Callable[[Any], Any]:
        return getattr(importlib.import_module(self.module), self.handler)


COMMANDS: dict[str, Command] = {
    "assign": Command("engine.consumer.group", "cli_assign", True, "client-side group assignment over rebalance steps"),
    "hash": Command("engine.producer.cli", "cli_hash", False, "Kafka's murmur2 key partitioner"),
    "coordinator": Command("engine.coordinator.offsets_partition", "cli_coordinator", False, "__consumer_offsets partition of group ids"),
    "wheel": Command("engine.server.timer.cases", "cli_wheel", True, "Kafka's hierarchical timing wheel, virtual time"),
    "replicas": Command("engine.server.replicas", "cli_replicas", True, "AdminUtils replica placement"),
    "server-assign": Command("engine.coordinator.target_assignment", "cli_server_assign", True, "KIP-848 server-side assignors"),
}


class CliError(EngineError):
    """Bad command-line use or an unreadable input document."""


def read_document(source: str) -> Any:
    """Parse the JSON input from a path or ``-`` (stdin); errors become one-line ``CliError``."""
    try:
        raw = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1) if source == "-" else _read_file(source)
    except OSError as exc:
        raise CliError(f"input {source!r}: cannot read ({exc.strerror or exc})") from None
    if len(raw) > MAX_INPUT_BYTES:
        raise CliError(f"input: larger than the {MAX_INPUT_BYTES // 2**20} MiB limit")
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CliError(f"input: not valid JSON ({exc})") from None
    except RecursionError:
        raise CliError("input: JSON nested too deeply") from None


def _read_file(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read(MAX_INPUT_BYTES + 1)


def run_one(handler: Callable[[Any], Any], item: Any) -> Any:
    """Run a handler on one input of a batch; bad input becomes ``{"error": ...}``."""
    try:
        return handler(item)
    except EngineError as exc:
        return {"error": str(exc)}


def run_command(name: str, document: Any) -> Any:
    """Dispatch a parsed document to a command; a batch is answered element by element."""
    command = COMMANDS[name]
    handler = command.load()
    if command.batchable and isinstance(document, list):
        return [run_one(handler, item) for item in document]
    return handler(document)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Kafka Partition Lab engine")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, command in COMMANDS.items():
        p = sub.add_parser(name, help=command.help)
        p.add_argument("file", nargs="?", default="-", help="JSON input file, or - for stdin (default)")
    sub.add_parser("load", help="Spark load pipeline (see --help)", add_help=False)
    return parser



def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["load"]:
        return _run_load(args_list[1:])
    parser = _parser()
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # argparse already printed a one-line usage error
        return 0 if exc.code == 0 else 2
    try:
        result = run_command(args.command, read_document(args.file))
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except RecursionError:
        print("error: input nested too deeply", file=sys.stderr)
        return 2
    json.dump(result, sys.stdout, ensure_ascii=False, separators=(",", ":"))
    sys.stdout.write("\n")
    return 0


def _run_load(argv: list[str]) -> int:
    try:
        job = importlib.import_module("engine.spark.cli")
    except ImportError as exc:
        print(f"error: load: the Spark pipeline is unavailable ({exc})", file=sys.stderr)
        return 2
    return int(job.main(argv))
