"""``python -m engine <command> [FILE|-]`` — the contract in ../shared/spec/README.md.

Every command reads one JSON document (a file, or stdin for ``-``) and prints one JSON document.
Exit codes: 0 success, 2 bad input (one line on stderr naming the field and the value), including
every misuse of the command line itself (unknown command or flag, two files).  Every refusal goes through
``refusal``: one line, escaped and bounded, whoever built its message.
Commands marked batchable also take a JSON array of at most ``MAX_BATCH_ITEMS`` inputs (checked before
parsing) and answer an array in the same order, written item by item as each completes, an
``{"error": ...}`` object standing in for each bad input.

The document is read through ``engine.inputs`` (size, depth, number length and batch items bounded
before any work); each command's handler parses its input, estimates the work with the computation's
``engine.cost.estimate_*`` and admits it under ``engine.cost.CLI_CEILING`` (``engine.cost.admit``: over it, one
line naming the command) before the computation runs, which checks no ceiling itself (docs/command-line.md,
"Limits").  Output is always valid UTF-8 JSON: a lone surrogate in an id comes back as a ``\\udXXX`` escape.

Each command's handler lives beside the engine code it drives and is imported lazily, so a
command never pays for another's imports (``load`` alone imports pyspark).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from engine.errors import MAX_MESSAGE, EngineError, InputError, quote
from engine.inputs import MAX_BATCH_ITEMS, MAX_DOCUMENT_BYTES, DocumentLimits, decode_json, encode_json
from engine.release import follows

MAX_INPUT_BYTES = MAX_DOCUMENT_BYTES  # a larger document is refused before parsing
DOCUMENT_LIMITS = DocumentLimits(max_bytes=MAX_INPUT_BYTES, max_items=MAX_BATCH_ITEMS)


@dataclass(frozen=True)
class Command:
    """A command: its handler, whether it takes a batch, its help, and the model (``engine.release``) its
    answers follow."""

    module: str
    handler: str
    batchable: bool
    help: str
    model: str

    def load(self) -> Callable[[Any], Any]:
        return getattr(importlib.import_module(self.module), self.handler)


COMMANDS: dict[str, Command] = {
    "assign": Command("engine.consumer.librdkafka.cli", "cli_assign", True,
                      "client-side group assignment over rebalance steps (Java or librdkafka client)", "assign"),
    "hash": Command("engine.producer.cli", "cli_hash", False, "Kafka's murmur2 key partitioner", "hash"),
    "coordinator": Command("engine.coordinator.offsets_partition", "cli_coordinator", False,
                           "__consumer_offsets partition of group ids", "coordinator"),
    "wheel": Command("engine.server.timer.cases", "cli_wheel", True,
                     "Kafka's hierarchical timing wheel, virtual time", "wheel"),
    "replicas": Command("engine.server.replicas", "cli_replicas", True,
                        "replica placement: AdminUtils, or a KRaft controller's StripedReplicaPlacer", "replicas"),
    "server-assign": Command("engine.coordinator.target_assignment", "cli_server_assign", True,
                             "KIP-848 server-side assignors", "server-assign"),
    "share-assign": Command("engine.coordinator.share_assignment", "cli_share_assign", True,
                            "share groups (KIP-932): the coordinator's SimpleAssignor", "share-assign"),
    "produce": Command("engine.producer.idempotence", "cli_produce", True, "producer retries, idempotence",
                       "produce"),
    "log": Command("engine.storage.partition_log", "cli_log", True, "a partition's segments and indexes", "log"),
    "share-deliver": Command("engine.share.cli", "cli_share_deliver", True,
                             "record delivery inside one share partition (KIP-932 SharePartition)", "share-deliver"),
    "log-config": Command("engine.storage.log_config", "cli_log_config", True,
                          "a topic's effective log config, or Kafka's refusal", "log-config"),
    "streams-assign": Command("engine.coordinator.streams.cli", "cli_streams_assign", True,
                              "streams groups (KIP-1071): the coordinator's StickyTaskAssignor", "streams-assign"),
}


class CliError(InputError):
    """Bad command-line use or an unreadable input document."""


class OneLineParser(argparse.ArgumentParser):
    """argparse whose errors are one ``CliError`` line (no usage block), so ``main`` exits 2 with one line."""

    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see python -m engine --help)")


def read_document(source: str) -> Any:
    """Parse the JSON input from a path or ``-`` (stdin) within ``DOCUMENT_LIMITS``; errors are one line."""
    try:
        raw = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1) if source == "-" else _read_file(source)
    except OSError as exc:
        raise CliError(f"input {source!r}: cannot read ({exc.strerror or exc})") from None
    return decode_json(raw, "input", DOCUMENT_LIMITS)


def _read_file(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read(MAX_INPUT_BYTES + 1)


def refusal(exc: BaseException | str) -> str:
    """The one line a refusal prints, whoever built its message: line breaks, control characters and lone
    surrogates escaped, at most ``MAX_MESSAGE`` characters (``engine.errors.quote``).

    >>> refusal("segment.bytes: 1\\n\\x1b[2J"), refusal("x" * 2000)[-30:]
    ('segment.bytes: 1\\\\n\\\\x1b[2J', 'xxxxxxxxxx… (2,000 characters)')
    """
    return quote(str(exc), MAX_MESSAGE)


def run_one(handler: Callable[[Any], Any], item: Any) -> Any:
    """Run a handler on one input of a batch; bad input becomes ``{"error": ...}`` (``refusal``)."""
    try:
        return handler(item)
    except EngineError as exc:
        return {"error": refusal(exc)}


def with_follows(answer: Any, command: Command) -> Any:
    """An answer naming the Kafka release and class its model follows (``engine.release``), unless it is an
    error or names them itself."""
    if isinstance(answer, dict) and "error" not in answer and "follows" not in answer:
        return {"follows": follows(command.model), **answer}
    return answer


def write_result(name: str, document: Any, write: Callable[[str], object]) -> None:
    """Run a command and write its JSON answer; a batch is streamed, one item as soon as it is done."""
    command = COMMANDS[name]
    handler = command.load()
    if not (command.batchable and isinstance(document, list)):
        write(encode_json(with_follows(handler(document), command)) + "\n")
        return
    write("[")
    for i, item in enumerate(document):
        write(("," if i else "") + encode_json(with_follows(run_one(handler, item), command)))
    write("]\n")


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="python -m engine", description="Kafka Partition Lab engine")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, command in COMMANDS.items():
        p = sub.add_parser(name, help=command.help)
        p.add_argument("file", nargs="?", default="-", help="JSON input file, or - for stdin (default)")
    sub.add_parser("load", help="Spark load pipeline (see --help)", add_help=False)
    sub.add_parser("import", help="scenario from Kafka's tool output or a live cluster (see --help)",
                   add_help=False)
    return parser


def _fail(exc: BaseException | str) -> int:
    """Exit code 2 after one stderr line, ``error: `` and the ``refusal``."""
    print(f"error: {refusal(exc)}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["load"]:
        return _run_load(args_list[1:])
    if args_list[:1] == ["import"]:
        return int(importlib.import_module("engine.admin.cli").main(args_list[1:]))
    try:
        args = _parser().parse_args(args_list)
    except CliError as exc:
        return _fail(exc)
    except SystemExit as exc:  # --help
        return 0 if exc.code in (0, None) else 2
    try:
        document = read_document(args.file)
        write_result(args.command, document, _stdout_writer())
        sys.stdout.flush()
    except EngineError as exc:
        return _fail(exc)
    except RecursionError:  # a guard: the input boundary already refuses deep documents
        return _fail("input nested too deeply")
    except BrokenPipeError:  # the reader went away (``| head``): nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _stdout_writer() -> Callable[[str], object]:
    """Write text to stdout as UTF-8 whatever the locale (``encode_json`` output never holds a surrogate)."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        return sys.stdout.write
    sys.stdout.flush()
    return lambda text: buffer.write(text.encode("utf-8"))


def _run_load(argv: list[str]) -> int:
    try:
        job = importlib.import_module("engine.spark.cli")
    except ImportError as exc:
        return _fail(f"load: the Spark pipeline is unavailable ({exc})")
    return int(job.main(argv))
