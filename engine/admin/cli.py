"""``python -m engine import``: a scenario file (spec section 5) from Kafka's tool output or a live cluster.

    python -m engine import --from-text FILE|- [--group G] [--weights auto|size|lag|none] [--output FILE]
    python -m engine import --bootstrap HOST:PORT[,...] [--group G] [--timeout S] [--output FILE]
                            [--security-protocol P] [--sasl-mechanism M] [--sasl-username U]
                            [--ssl-ca-location F] [--ssl-certificate-location F] [--ssl-key-location F]
                            [--command-config client.properties]
    python -m engine import --bootstrap HOST:PORT --list-groups

Secrets are never command-line arguments (they would show in ``ps`` and shell history): the SASL
password comes from ``$KAFKA_SASL_PASSWORD`` (the TLS key's from ``$KAFKA_SSL_KEY_PASSWORD``) or
from ``--command-config``.  They are used for the one connection and written nowhere.  The output is
the scenario JSON plus ``current_assignment`` and ``import`` (sources, group, notes, unused input);
loading the file ignores those extra fields.  Exit 0, or 2 with one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.admin.connection import Connection, security_from_properties
from engine.cost import CLI_CEILING, admit, estimate_import
from engine.errors import EngineError
from engine.scenario import scenario_to_json
from engine.tools.detect import parse_text
from engine.tools.records import MAX_TEXT_BYTES, Imported
from engine.tools.to_scenario import WEIGHT_SOURCES, to_scenario

DEFAULT_TIMEOUT_S = 10.0
ENV_SECRETS = {"sasl.password": "KAFKA_SASL_PASSWORD", "ssl.key.password": "KAFKA_SSL_KEY_PASSWORD"}
FLAG_SETTINGS = (
    "security_protocol",
    "sasl_mechanism",
    "sasl_username",
    "ssl_ca_location",
    "ssl_certificate_location",
    "ssl_key_location",
)


class UsageError(EngineError):
    """Bad command-line use of ``import``."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"import: {message}")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m engine import", description="Import a cluster's topics and a consumer group")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--from-text", metavar="FILE", help="tool output to parse (- for stdin)")
    source.add_argument(
        "--bootstrap", metavar="HOST:PORT", help="a live cluster's bootstrap servers (read-only)"
    )
    p.add_argument("--group", help="the consumer group to import")
    p.add_argument("--list-groups", action="store_true", help="with --bootstrap: list the consumer groups")
    p.add_argument(
        "--weights",
        choices=WEIGHT_SOURCES,
        default="auto",
        help="partition weights (default: size, else lag)",
    )
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, help="seconds per request (0.5..120)")
    p.add_argument("--output", help="write the scenario here (default: stdout)")
    for name in FLAG_SETTINGS:
        p.add_argument("--" + name.replace("_", "-"))
    p.add_argument("--command-config", metavar="FILE", help="client.properties with security settings")
    return p


def _read_text(source: str) -> str:
    try:
        raw = sys.stdin.buffer.read(MAX_TEXT_BYTES + 1) if source == "-" else Path(source).read_bytes()
    except OSError as exc:
        raise UsageError(f"--from-text {source!r}: cannot read ({exc.strerror or exc})") from None
    if len(raw) > MAX_TEXT_BYTES:
        raise UsageError(f"--from-text: larger than the {MAX_TEXT_BYTES // 2**20} MiB limit")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UsageError(f"--from-text {source!r}: not UTF-8 text") from None


def connection_of(args: argparse.Namespace) -> Connection:
    security: dict[str, str] = {}
    if args.command_config:
        try:
            text = Path(args.command_config).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"--command-config {args.command_config!r}: cannot read ({exc})") from None
        security.update(security_from_properties(text, "--command-config"))
    for name in FLAG_SETTINGS:
        if getattr(args, name):
            security[name.replace("_", ".")] = getattr(args, name)
    for key, variable in ENV_SECRETS.items():
        if os.environ.get(variable):
            security[key] = os.environ[variable]
    return Connection.parse(args.bootstrap, args.timeout, security)


def _imported(args: argparse.Namespace) -> Imported:
    if args.from_text is not None:
        text = _read_text(args.from_text)
        admit(estimate_import(len(text.encode("utf-8", "surrogatepass"))), CLI_CEILING, "import")
        return parse_text(text)
    from engine.admin.live import import_live

    return import_live(connection_of(args), args.group)


def run(args: argparse.Namespace) -> dict[str, Any]:
    """The JSON document ``import`` prints (raises ``EngineError`` on bad input)."""
    if args.list_groups:
        if args.bootstrap is None:
            raise UsageError("import: --list-groups needs --bootstrap")
        from engine.admin.live import live_groups

        groups = live_groups(connection_of(args))
        return {"groups": [{"id": g, "state": s, "protocol": p} for g, s, p in groups]}
    result = to_scenario(_imported(args), args.group, args.weights)
    return result.to_json(scenario_to_json(result.scenario))


def _write(document: dict[str, Any], output: str | None) -> None:
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"
    if output is None:
        sys.stdout.write(text)
        return
    path = Path(output)
    temporary = path.with_name(path.name + ".partial")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    except OSError as exc:
        raise UsageError(f"--output {output!r}: cannot write ({exc.strerror or exc})") from None


def main(argv: Sequence[str]) -> int:
    try:
        args = build_parser().parse_args(list(argv))
        _write(run(args), args.output)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
