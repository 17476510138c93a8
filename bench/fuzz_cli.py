"""``python -m bench fuzz_cli``: the slow, exhaustive hostile-input run of ``python -m engine``.

Every input runs in its own process (a batch of up to 100 items in one), watched for time and memory, and
must keep the CLI's promise: exit 2 with exactly one stderr line, or exit 0 with strict JSON on stdout (a
batch: an array of the same length, bad items as one-line ``{"error": ...}``); every refusal line bounded
(``LINE_CHARS``) and without a raw control character; never a traceback, never more than 20 s (a batch
30 s), never more than 2 GiB RSS.  A failing batch is split down to the single item.

Every command of ``engine.cli.COMMANDS`` is fuzzed (a batchable one in batches): each needs valid seeds in
``BASE``, which ``tests/cli/test_hostile_inputs.py`` checks, so a new command cannot go unfuzzed.

Families (``families``; ``tests/cli/test_hostile_inputs.py`` runs a seeded few hundred fast ones in-process):

- ``mutated``: valid cases (``../shared/vectors`` when present, else built-in ones) with wrong types,
  missing and unknown fields, limit +-1 and 2^31/2^63 numbers, numbers written as strings the JDK reads
  differently from Python (thousands of digits, blanks ``String.trim`` keeps, ``+``, other scripts' digits,
  ``_``, hex floats), lone surrogates, NUL, control characters and terminal escapes, duplicates;
- ``documents``: raw hostile bytes (invalid UTF-8, BOMs, NaN, 5,000-digit numbers, 10^5-deep nesting,
  truncated and concatenated JSON) and, unless ``--quick``, 60-65 MB documents of millions of items;
- ``surrogates``: a lone surrogate in every string field of every command (accepted, as Java would);
- ``budgets``: Kafka-scale inputs within the cost model's CLI ceiling (must answer), others far over it (must refuse);
- ``argv``: unknown command or flag, two files, missing files, directories, endless devices.

Usage: ``python -m bench fuzz_cli [--seed N] [--scale F] [--quick] [--only CMD,...]``; ``--quick`` (about a
minute, what ``make bench`` runs) skips the big documents and mutates a tenth as many cases.  The last line
is ``fuzz_cli: <N> inputs, <C> crashes, <H> hangs, <M> multi-line errors, <U> unbounded or unescaped errors,
<R> over 2 GiB, <J> bad JSON, <E> unexpected answers``.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.cli import COMMANDS as CLI_COMMANDS
from engine.errors import MAX_MESSAGE, escaped

REPO = Path(__file__).resolve().parent.parent
VECTORS = Path(os.environ.get("KPL_VECTORS", REPO.parent / "shared" / "vectors"))
HANG_S, BATCH_S = 20.0, 30.0
RSS_LIMIT_MB, RSS_KILL_MB = 2048, 2560
BATCH = 100
RUN_ALL_ARGS = ["--quick"]
COMMANDS = tuple(CLI_COMMANDS)  # every command of ``python -m engine``: each needs seeds in ``BASE``
BATCHABLE = tuple(name for name, command in CLI_COMMANDS.items() if command.batchable)
QUOTA = {  # mutated cases per command in a full run (a tenth with --quick); 500 for a command not listed
    "assign": 3400,
    "server-assign": 2400,
    "share-assign": 1400,
    "wheel": 1400,
    "replicas": 1400,
    "hash": 500,
    "coordinator": 500,
    "produce": 1400,
    "log": 1000,
    "share-deliver": 1400,
    "log-config": 1400,
    "streams-assign": 1400,
}
LINE_CHARS = MAX_MESSAGE + 100  # the longest refusal line the CLI may print ("error: " and a bounded message)


@dataclass(frozen=True)
class Case:
    """One hostile input: ``python -m engine COMMAND -`` with ``data`` on stdin (``argv`` overrides)."""

    command: str
    description: str
    data: bytes | None
    argv: tuple[str, ...] | None = None
    batch: int | None = None  # items when data is a batch (an array answered item by item)
    expect: str = "any"  # "any", "ok" (must answer, exit 0) or "refuse" (must exit 2)


# -------------------------------------------------------------------------------------------- inputs


BASE: dict[str, list[dict[str, Any]]] = {
    "assign": [
        {
            "strategy": s,
            "topics": {"t0": 3, "t1": 2},
            "members": [
                {"id": "C0", "topics": ["t0", "t1"], "rack": "az1"},
                {"id": "C1", "topics": ["t0"], "instance_id": "i1"},
            ],
            "partition_racks": {"t0": [["az1"], ["az2"], ["az1"]]},
        }
        for s in ("range", "roundrobin", "sticky")
    ]
    + [
        {  # a streams group's scenario: the scenario model's streams fields, current tasks included
            "strategy": "range",
            "group_type": "streams",
            "topics": {"orders": 4, "shipments": 2},
            "members": [{"id": "t1", "topics": ["orders"], "process": "p1"},
                        {"id": "t2", "topics": ["orders"], "process": "p2"}],
            "subtopologies": [{"id": "0", "source_topics": ["orders"], "stateful": True},
                              {"id": "1", "source_topics": ["shipments"], "stateful": False}],
            "num_standby_replicas": 1,
            "current_tasks": {"t1": {"active": {"0": [0, 1]}, "standby": {"0": [2]}}},
        }
    ]
    + [
        {
            "strategy": "cooperative-sticky",
            "steps": [
                {
                    "topics": {"t0": 4},
                    "members": [{"id": "C0", "topics": ["t0"]}, {"id": "C1", "topics": ["t0"]}],
                },
                {"topics": {"t0": 4}, "members": [{"id": "C0", "topics": ["t0"]}]},
            ],
        }
    ],
    "server-assign": [
        {
            "assignor": a,
            "steps": [
                {
                    "topics": {"t0": 4},
                    "members": [{"id": "a", "topics": ["t0"]}, {"id": "b", "topics": ["t0"]}],
                },
                {
                    "topics": {"t0": 4},
                    "members": [{"id": "a", "topics": ["t0"], "current_assignment": ["t0-0"]}],
                },
            ],
        }
        for a in ("uniform", "range")
    ],
    "share-assign": [
        {
            "steps": [
                {
                    "topics": {"t0": 2, "t1": 1},
                    "members": [{"id": m, "topics": ["t0", "t1"]} for m in ("a", "b", "c", "d")],
                },
                {
                    "topics": {"t0": 2, "t1": 1},
                    "members": [{"id": "a", "topics": ["t0"]}, {"id": "e", "topics": ["t1", "gone"]}],
                },
            ],
        }
    ],
    "wheel": [
        {
            "tick_ms": 1,
            "wheel_size": 20,
            "start_ms": 0,
            "tasks": [
                {"id": "a", "delay_ms": 25},
                {"id": "b", "delay_ms": 7, "add_at_ms": 3, "cancel_at_ms": 5},
            ],
        }
    ],
    "replicas": [
        {  # a KRaft controller's StripedReplicaPlacer: racks, a fenced broker, a seed
            "placer": "striped",
            "seed": 7,
            "brokers": [{"id": 0, "rack": "r1"}, {"id": 1, "rack": "r2", "fenced": True}, {"id": 2, "rack": "r1"}],
            "partitions": 6,
            "replication_factor": 2,
        },
        {
            "brokers": [{"id": 0, "rack": "r1"}, {"id": 1, "rack": "r2"}, {"id": 2, "rack": "r1"}],
            "partitions": 6,
            "replication_factor": 2,
            "fixed_start_index": 0,
            "start_partition_id": -1,
        },
        {
            "brokers": [{"id": 0, "rack": None}, {"id": 1, "rack": None}],
            "partitions": 4,
            "replication_factor": 2,
            "fixed_start_index": 1,
            "start_partition_id": 3,
        },
    ],
    "hash": [{"keys_hex": ["3231", "", "ff00"], "partitions": [1, 12, 50]}],
    "coordinator": [{"group_ids": ["my-group", "", "polygenelubricants"], "offsets_partitions": 50}],
    "produce": [
        {
            "config": {"linger.ms": 5, "batch.size": 120, "max.in.flight.requests.per.connection": 2},
            "partitions": 2,
            "records": 6,
            "interval_ms": 1,
            "key_bytes": 4,
            "value_bytes": 50,
            "latency_ms": 3,
            "faults": [{"request": 2, "kind": "not_leader"}],
            "max_time_ms": 60_000,
        },
        {
            "config": {"acks": " all ", "linger.ms": "3", "enable.idempotence": "TRUE", "retries": "+5"},
            "partitions": 2,
            "timeline": [
                {"t_ms": 0, "partition": 0, "key_bytes": 3, "value_bytes": 10},
                {"t_ms": 0, "partition": 1, "key_bytes": None, "value_bytes": 0},
                {"t_ms": 4, "partition": 0, "key_bytes": 0, "value_bytes": 1500},
            ],
            "latency_ms": 2,
            "max_time_ms": 60_000,
        },
    ],
    "log": [
        {
            "config": {"internal.segment.bytes": 2048, "index.interval.bytes": 256, "cleanup.policy": "compact,delete",
                       "retention.ms": "60000", "min.cleanable.dirty.ratio": "0x1p-2"},
            "workload": {"batches": 20, "records_per_batch": 3, "key_bytes": 8, "value_bytes": 50, "keys": 5,
                         "tombstone_every": 4, "start_ms": 0, "interval_ms": 1000, "retention_checks": True},
            "actions": [{"retention_at_ms": 900_000}, {"clean_at_ms": 900_000}, {"delete_records_before": 10}],
            "lookups": {"offsets": [5, 23], "timestamps": [5000]},
        },
        {
            "config": {"segment.bytes": "1048576", "cleanup.policy": "compact"},
            "batches": [
                {"timestamp_ms": 0, "records": [{"key": "a", "value_bytes": 10}, {"key": "a", "value_bytes": None}]},
                {"timestamp_ms": 5, "records": [{"key": None, "value_bytes": 0}]},
            ],
            "lookups": {"offsets": [0, 2], "timestamps": [0]},
        },
    ],
    "share-deliver": [
        {
            "settings": {"group.share.record.lock.duration.ms": 30_000, "group.share.delivery.count.limit": 2,
                         "group.share.partition.max.record.locks": 200},
            "group_config": {"share.auto.offset.reset": "earliest"},
            "log": [[0, 4], [5, 9]],
            "events": [
                {"t": 0, "op": "fetch", "member": "A", "max_records": 500},
                {"t": 1, "op": "fetch", "member": "B", "max_records": 3},
                {"t": 101, "op": "ack", "member": "A", "batches": [
                    {"first": 0, "last": 4, "types": ["ACCEPT", "RELEASE", "REJECT", "ACCEPT", "RELEASE"]},
                    {"first": 5, "last": 9, "type": "ACCEPT"},
                ]},
                {"t": 2000, "op": "produce", "batch": [10, 14]},
                {"t": 2001, "op": "crash", "member": "A"},
                {"t": 2002, "op": "leave", "member": "B"},
                {"t": 40_000, "op": "tick"},
                {"t": 40_001, "op": "fetch", "member": "C", "max_records": 2},
            ],
        }
    ],
    "streams-assign": [
        {
            "configs": {"num.standby.replicas": "1"},
            "subtopologies": [{"id": "0", "partitions": 4, "stateful": True},
                              {"id": "1", "partitions": 2, "stateful": False}],
            "members": [
                {"member_id": "m1", "process_id": "p1", "active": {"0": [0, 1]}, "standby": {"0": [2]}, "warmup": {}},
                {"member_id": "m2", "process_id": "p1", "active": {"1": [0]}, "standby": {}, "warmup": {}},
                {"member_id": "m3", "process_id": "p2", "active": {}, "standby": {}, "warmup": {}},
            ],
        }
    ],
    "log-config": [
        {"config": {"segment.bytes": 1_048_576, "segment.ms": "60000", "cleanup.policy": " compact , delete ",
                    "min.cleanable.dirty.ratio": "0.25", "retention.bytes": -1, "log.roll.hours": 1,
                    "max.message.bytes": "\uff11\uff10\uff10"}},
        {"config": {"cleanup.policy": ["compact"], "log.retention.minutes": 5, "delete.retention.ms": " +1\x00"}},
    ],
}
VECTOR_FILES = {  # ../shared/vectors/<name>.json whose cases (without their expectations) seed a command
    "assign": "assign",
    "server-assign": "server_assign",
    "share-assign": "share_assign",
    "wheel": "timing_wheel",
    "replicas": "replicas",
    "hash": "murmur2",
    "coordinator": "coordinator",
    "produce": "produce",
    "share-deliver": "share_deliver",
    "log-config": "log_config",
    "streams-assign": "streams_assign",
}
DROP = ("expected", "origin", "note", "step_ops", "id_style", "subscription_mode", "static_members", "name")
LONG_DIGITS = ("1" * 5000, "9" * 4301, "0" * 5000 + "1", "-" + "0" * 4400 + "7", "0x" + "f" * 5000 + "p0")
JAVA_BLANKS = ("\u3000", "\u00a0", "\u0085", "\u2028", "\u0000", "\x1f", "\t", " ")  # trim() takes only <= U+0020

HOSTILE: list[Any] = [
    None,
    True,
    False,
    -1,
    0,
    1,
    2**31 - 1,
    2**31,
    -(2**31) - 1,
    2**32 + 1,
    2**40 + 1,
    2**53 + 1,
    2**63,
    2**64,
    10**30,
    -(10**30),
    10**99,
    1.0,
    1.5,
    -0.0,
    1e308,
    "",
    " ",
    "x" * 250,
    "y" * 1001,
    "\u0000",
    "C0\u0000",
    "\x1f",
    "\ud800",
    "\udfff",
    "a\ud83d",
    "\udc80",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "\U0001f600",
    "t0-",
    "-",
    "a-b-c-1",
    "t0-\u00b2",
    "3",
    "1e3",
    [],
    {},
    [[]],
    {"a": {}},
    [None],
    "range",
    "sticky",
    "uniform",
    "Range",
    "cooperative-sticky ",
    "\u202e",
    "\ufeff",
    "C0",
    "t0",
    *LONG_DIGITS,
    "\u30001",
    "1\u00a0",
    "+1",
    "\u0663",
    "\uff11\uff12",
    "1_000",
    "0x1p3",
    "Infinity",
    "NaN",
    "1e999",
    "fal\u017fe",
    "\x1b[31mred\x1b[0m",
    "\x1b]0;title\x07",
    "a\nb",
]


def base_cases(command: str, use_vectors: bool = True) -> list[dict[str, Any]]:
    """Valid inputs: the built-in ones, plus the real-Kafka vector cases when ../shared/vectors is there."""
    cases = [copy.deepcopy(c) for c in BASE[command]]
    path = VECTORS / f"{VECTOR_FILES.get(command, '-')}.json"
    if use_vectors and command in VECTOR_FILES and path.is_file():
        data = json.loads(path.read_text())
        cases += [_vector_input(command, c) for c in (data["cases"] if isinstance(data, dict) else data)]
    return cases


def _vector_input(command: str, case: dict[str, Any]) -> dict[str, Any]:
    if command == "hash":
        return {"keys_hex": [case["key_hex"]], "partitions": [int(n) for n in case["partition"]]}
    if command == "coordinator":
        return {"group_ids": [case["group_id"]], "offsets_partitions": 50}
    if isinstance(case.get("input"), dict):  # produce, log-config: {"name", "input", "expected"}
        return dict(case["input"])
    return {k: v for k, v in case.items() if k not in DROP}


def java_number_text(value: int, rng: random.Random) -> str:
    """An integer written as a string the JDK's parsers read differently from Python's ``int()``: thousands of
    digits, a blank ``String.trim`` keeps or removes, a ``+``, other scripts' digits, ``_``, a hex float."""
    text = str(value)
    return rng.choice(
        [
            *LONG_DIGITS,
            "0" * 5000 + text,
            rng.choice(JAVA_BLANKS) + text,
            text + rng.choice(JAVA_BLANKS),
            "+" + text,
            text.translate({ord(d): 0x0660 + int(d) for d in "0123456789"}),
            text.translate({ord(d): 0xFF10 + int(d) for d in "0123456789"}),
            text[:1] + "_" + text[1:],
            f"0x{abs(value):x}p0",
        ]
    )


class Mutator:
    """Seeded structural mutations of a JSON value (the shared fuzzer's families, new seeds)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def hostile(self) -> Any:
        return copy.deepcopy(self.rng.choice(HOSTILE))

    def mutate(self, value: Any, depth: int = 0) -> Any:
        if isinstance(value, dict) and value and self.rng.random() < 0.85:
            return self._mutate_dict(value, depth)
        if isinstance(value, list) and value and self.rng.random() < 0.85:
            return self._mutate_list(value, depth)
        if isinstance(value, int) and not isinstance(value, bool) and self.rng.random() < 0.5:
            if self.rng.random() < 0.3:
                return java_number_text(value, self.rng)
            return self.rng.choice(
                [-value, value + 1, value - 1, value * 2**20, value + 2**31, 2**31 - value]
            )
        if isinstance(value, str) and self.rng.random() < 0.4:
            return self.rng.choice(
                [
                    value + "\ud800",
                    value * 300,
                    value.upper(),
                    value + "\u0000",
                    "\u0085" + value,
                    value + "-" + value,
                    value[:1],
                    "\udc00" + value,
                    self.rng.choice(JAVA_BLANKS) + value + self.rng.choice(JAVA_BLANKS),
                    value + self.rng.choice(LONG_DIGITS),
                    "\x1b[2J" + value,
                ]
            )
        return self.hostile()

    def _mutate_dict(self, value: dict[str, Any], depth: int) -> dict[str, Any]:
        key, roll = self.rng.choice(list(value)), self.rng.random()
        if roll < 0.15:
            del value[key]
        elif roll < 0.22:
            value[self.rng.choice(["", "x", "strategy", "assignor", key.upper(), key + " "])] = self.hostile()
        elif roll < 0.27:
            value[str(self.hostile()) if self.rng.random() < 0.5 else key + "\ud800"] = value.pop(key)
        elif roll < 0.65 and depth < 8:
            value[key] = self.mutate(value[key], depth + 1)
        else:
            value[key] = self.hostile()
        return value

    def _mutate_list(self, value: list[Any], depth: int) -> list[Any]:
        i, roll = self.rng.randrange(len(value)), self.rng.random()
        if roll < 0.12:
            value.append(copy.deepcopy(value[i]))
        elif roll < 0.17:
            value.extend(copy.deepcopy(value[i]) for _ in range(self.rng.choice([10, 300, 2000])))
        elif roll < 0.22:
            del value[i]
        elif roll < 0.25:
            value.clear()
        elif roll < 0.65 and depth < 8:
            value[i] = self.mutate(value[i], depth + 1)
        else:
            value[i] = self.hostile()
        return value

    def many(self, doc: Any, times: int) -> Any:
        for _ in range(times):
            doc = self.mutate(doc)
        return doc


def dumps(doc: Any) -> bytes:
    """JSON as a hostile client sends it: NaN allowed, lone surrogates as ``\\udXXX`` escapes."""
    return json.dumps(doc, allow_nan=True).encode("utf-8")


def number_paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path (keys and indexes) to every integer in a JSON value.

    >>> list(number_paths({"a": 1, "b": [True, {"c": 2}], "d": "3"}))
    [('a',), ('b', 1, 'c')]
    """
    if isinstance(value, int) and not isinstance(value, bool):
        yield path
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from number_paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from number_paths(item, (*path, i))


def as_java_texts(rng: random.Random, seed: dict[str, Any]) -> list[dict[str, Any]]:
    """The seed once per integer in it, that integer written as a string the JDK reads differently from
    Python (``java_number_text``; every other one the 5,000-digit ``LONG_DIGITS[0]``)."""
    docs = []
    for i, path in enumerate(number_paths(seed)):
        doc = copy.deepcopy(seed)
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        parent[path[-1]] = LONG_DIGITS[0] if i % 2 else java_number_text(parent[path[-1]], rng)
        docs.append(doc)
    return docs


def mutated(rng: random.Random, command: str, count: int, use_vectors: bool = True) -> Iterator[Case]:
    """``count`` mutated valid cases, then each built-in seed with each of its integers written as a Java
    number text (``as_java_texts``); batchable commands in arrays of ``BATCH`` items."""
    mutator, cases = Mutator(rng), base_cases(command, use_vectors)
    docs = [mutator.many(copy.deepcopy(rng.choice(cases)), rng.choice([1, 1, 2, 3, 5])) for _ in range(count)]
    docs += [doc for seed in BASE[command] for doc in as_java_texts(rng, seed)]
    if command in BATCHABLE:
        for i in range(0, len(docs), BATCH):
            yield Case(
                command,
                f"mutated {command} cases {i}..",
                dumps(docs[i : i + BATCH]),
                batch=len(docs[i : i + BATCH]),
            )
    else:
        yield from (Case(command, f"mutated {command}: {dumps(d)[:120]!r}", dumps(d)) for d in docs)


def documents(command: str, big: bool) -> Iterator[Case]:
    """Raw hostile documents: encodings, syntax, numbers, nesting, size."""
    good = dumps(BASE[command][0])
    raw = [
        ("empty", b""),
        ("whitespace", b" \n\t "),
        ("truncated", good[: len(good) // 2]),
        ("invalid UTF-8", b"\xff\xfe\x00garbage"),
        ("UTF-8 BOM", b"\xef\xbb\xbf" + good),
        ("UTF-16", good.decode().encode("utf-16")),
        ("bad UTF-8 in a string", good.replace(b'"', b'"\xc3\x28', 1)),
        ("null", b"null"),
        ("number", b"42"),
        ("string", b'"text"'),
        ("NaN", b"NaN"),
        ("-Infinity", b"-Infinity"),
        ("NUL byte", b"\x00"),
        ("trailing garbage", good + b" x"),
        ("two documents", good + b"\n" + good),
        ("5000-digit integer", b"1" * 5000),
        ("5000-digit field", b'{"x": ' + b"9" * 5000 + b"}"),
        ("101-digit integer in a batch", b"[" + b"9" * 101 + b"]"),
        ("1e999", b"1e999"),
        ("float of 5000 digits", b"0." + b"1" * 5000),
        ("array 10^5 deep", b"[" * 100_000 + b"]" * 100_000),
        ("object 10^5 deep", b'{"a":' * 100_000 + b"1" + b"}" * 100_000),
        ("array 65 deep", b"[" * 65 + b"]" * 65),
        ("escaped quotes unterminated", b'"' + b'\\"' * 100_000),
        ("lone surrogate at top", b'"\\ud800"'),
        ("duplicate keys", b"{" + good[1:-1] + b"," + good[1:-1] + b"}"),
        ("batch of 10,001 empty objects", b"[" + b",".join([b"{}"] * 10_001) + b"]"),
        ("batch of 2,000 empty objects", b"[" + b",".join([b"{}"] * 2000) + b"]"),
    ]
    if big:
        raw += [
            ("65 MiB document", b"[" + b"0," * (65 * 2**19) + b"0]"),
            ("60 MB of 20M empty arrays", b"[" + b"[]," * 19_999_999 + b"[]]"),
            ("60 MB of 12M zeros", b"[" + b"0,0,0,0," * 2_999_999 + b"0,0,0,0]"),
            ("60 MB of 6M strings", b"[" + b'"abcdefgh",' * 5_454_544 + b'"x"]'),
            ("60 MB string", b'"' + b"a" * 60_000_000 + b'"'),
            ("60 MB object of 21M empty strings", b'{"k":[' + b'"",' * 20_000_000 + b'""]}'),
        ]
    for name, data in raw:
        yield Case(command, f"{command}: {name}", data)


def surrogates() -> Iterator[Case]:
    """A lone surrogate in each string field: ids, racks, group ids accepted (Java strings hold them)."""
    lone = "\ud800"
    ok = [
        (
            "assign",
            "member id",
            {
                "strategy": "sticky",
                "topics": {"t0": 3},
                "members": [{"id": lone, "topics": ["t0"]}, {"id": "a\ud83d", "topics": ["t0"]}],
            },
        ),
        (
            "assign",
            "rack and instance id",
            {
                "strategy": "range",
                "topics": {"t0": 2},
                "partition_racks": {"t0": [[lone], ["\udfff"]]},
                "members": [{"id": "C0", "topics": ["t0"], "rack": lone, "instance_id": "\udc80"}],
            },
        ),
        (
            "server-assign",
            "member id",
            {"steps": [{"topics": {"t0": 3}, "members": [{"id": lone, "topics": ["t0"]}]}]},
        ),
        ("wheel", "task id", {"tick_ms": 1, "wheel_size": 20, "tasks": [{"id": "\udc00x", "delay_ms": 3}]}),
        (
            "replicas",
            "rack",
            {
                "brokers": [{"id": 0, "rack": lone}, {"id": 1, "rack": "\udfff"}],
                "partitions": 2,
                "replication_factor": 2,
                "fixed_start_index": 0,
            },
        ),
        ("coordinator", "group id", {"group_ids": [lone, "\udfff", "a\ud83d"]}),
        (
            "share-assign",
            "member id",
            {"steps": [{"topics": {"t0": 3}, "members": [{"id": lone, "topics": ["t0"]},
                                                         {"id": "a\udfff", "topics": ["t0"]}]}]},
        ),
        (
            "streams-assign",
            "member and process id",
            {"configs": {"num.standby.replicas": "1"},
             "subtopologies": [{"id": "0", "partitions": 2, "stateful": True}],
             "members": [{"member_id": lone, "process_id": "\udfffp", "active": {}, "standby": {}, "warmup": {}},
                         {"member_id": "a\ud83d", "process_id": lone, "active": {}, "standby": {}, "warmup": {}}]},
        ),
        (
            "share-deliver",
            "member id",
            {"log": [[0, 3]], "events": [{"t": 0, "op": "fetch", "member": lone, "max_records": 2},
                                         {"t": 1, "op": "fetch", "member": "\udfffB", "max_records": 2},
                                         {"t": 2, "op": "crash", "member": lone}]},
        ),
        (
            "log",
            "record key",
            {"batches": [{"timestamp_ms": 0, "records": [{"key": lone, "value_bytes": 1},
                                                         {"key": "a\ud83d", "value_bytes": None}]}]},
        ),
    ]
    for command, field, doc in ok:
        yield Case(command, f"{command}: lone surrogate in a {field}", dumps(doc), expect="ok")
    refused = [
        ("produce", "acks value", {"config": {"acks": lone}, "partitions": 1, "records": 1}),
        ("produce", "property name", {"config": {lone: 1}, "partitions": 1, "records": 1}),
        ("log-config", "cleanup.policy item", {"config": {"cleanup.policy": "compact," + lone}}),
        ("log-config", "number", {"config": {"segment.bytes": "1048576" + lone}}),
        ("log", "property name", {"config": {"x" + lone: 1}, "batches": [{"records": [{"key": "a"}]}]}),
        ("share-deliver", "acknowledge type", {"log": [[0, 1]], "events": [
            {"t": 0, "op": "fetch", "member": "A", "max_records": 2},
            {"t": 1, "op": "ack", "member": "A", "batches": [{"first": 0, "last": 1, "type": lone}]}]}),
    ]
    for command, field, doc in refused:
        yield Case(command, f"{command}: lone surrogate as a {field}", dumps(doc), expect="refuse")
    yield Case(
        "hash",
        "hash: lone surrogate as a key",
        dumps({"keys_hex": [lone], "partitions": [3]}),
        expect="refuse",
    )
    yield Case(
        "assign",
        "assign: lone surrogate as a topic name",
        dumps({"strategy": "range", "topics": {lone: 2}, "members": [{"id": "C0", "topics": [lone]}]}),
        expect="refuse",
    )


def budget_edges() -> Iterator[Case]:
    """The cost model's door (each handler's ``engine.cost.admit`` under ``CLI_CEILING``): Kafka-scale requests
    well within the ceiling (must answer) and requests far over it (must refuse, before any work)."""
    yield from _assign_edges()
    yield from _other_edges()


def _uniform_case(strategy: str, topics: int, per_topic: int, members: int, differing: bool, steps: int,
                  **extra: Any) -> bytes:
    names = [f"t{i}" for i in range(topics)]
    rows = [{"id": f"C{i}", "topics": names[: 1 + i % topics] if differing else names} for i in range(members)]
    step = {"topics": dict.fromkeys(names, per_topic), "members": rows}
    return dumps({"strategy": strategy, "steps": [step] * steps, **extra})


def _assign_edges() -> Iterator[Case]:
    for strategy in ("range", "sticky", "cooperative-sticky"):
        yield Case("assign", f"assign {strategy} 100 x 500 partitions, 500 members, within the ceiling",
                   _uniform_case(strategy, 100, 500, 500, True, 2), expect="ok")
        yield Case("assign", f"assign {strategy} 20 x 100,000 partitions, 200 members, 100 steps: far over",
                   _uniform_case(strategy, 20, 100_000, 200, True, 100), expect="refuse")
    yield Case("assign", "assign librdkafka cooperative-sticky 200,000 partitions x 2,000 members: far over",
               _uniform_case("cooperative-sticky", 100, 2_000, 2_000, False, 2, client="librdkafka"),
               expect="refuse")


def _other_edges() -> Iterator[Case]:
    tasks = [{"id": f"t{i}", "delay_ms": 2**40 - i} for i in range(2_000)]  # 100,000 is within too (92 s)
    yield Case("wheel", "wheel 2,000 tasks x 41 levels: within",
               dumps({"tick_ms": 1, "wheel_size": 2, "tasks": tasks}), expect="ok")
    names = [f"t{i}" for i in range(10)]
    wide = [{"id": f"m{j}", "topics": names[: 1 + j % 10]} for j in range(2_000)]
    # the input limits (200,000 partitions a step, 1,000,000 over all steps) keep every server-assign in the ceiling
    yield Case("server-assign", "server-assign 200,000 partitions x 2,000 members, 5 steps: within",
               dumps({"steps": [{"topics": dict.fromkeys(names, 20_000), "members": wide}] * 5}), expect="ok")
    brokers = [{"id": 0, "rack": "A"}] + [{"id": i, "rack": "B"} for i in range(1, 10_000)]
    yield Case("replicas", "replicas on uneven racks: within",
               dumps({"brokers": brokers, "partitions": 500, "replication_factor": 2, "fixed_start_index": 0}),
               expect="ok")


def argv_cases() -> Iterator[Case]:
    for name, argv in [
        ("unknown command", ("bogus",)),
        ("no command", ()),
        ("unknown flag", ("assign", "--foo")),
        ("two files", ("assign", "a", "b")),
        ("missing file", ("assign", "does/not/exist.json")),
        ("a directory", ("assign", ".")),
        ("/dev/zero", ("wheel", "/dev/zero")),
        ("/dev/urandom", ("hash", "/dev/urandom")),
        ("control characters", ("assign", "a\x1b[31mb")),
        ("a 5,000-character path", ("log-config", "x" * 5000)),
        ("a path with a line break and a lone surrogate", ("produce", "a\nb\udc80")),
    ]:
        yield Case(argv[0] if argv else "-", f"argv: {name}", b"{}", argv=argv, expect="refuse")


def families(
    rng: random.Random, scale: float, quick: bool, only: tuple[str, ...] = COMMANDS
) -> Iterator[Case]:
    """Every hostile input of a run, family by family (see the module docstring)."""
    for command in only:
        yield from mutated(rng, command, max(1, int(QUOTA.get(command, 500) * scale * (0.1 if quick else 1))))
        yield from documents(command, big=not quick)
    yield from (c for c in surrogates() if c.command in only)
    yield from (c for c in budget_edges() if c.command in only)
    yield from argv_cases()


# ------------------------------------------------------------------------------------------- running


@dataclass(frozen=True)
class Outcome:
    rc: int | None
    out: bytes
    err: bytes
    seconds: float
    peak_mb: int
    killed: str | None


def _peak_mb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as status:
            return next((int(line.split()[1]) // 1024 for line in status if line.startswith("VmHWM:")), 0)
    except OSError:
        return 0


def run(case: Case, python: str = sys.executable) -> Outcome:
    """The case in a fresh ``python -m engine`` process, killed past its time or memory limit."""
    argv = list(case.argv) if case.argv is not None else [case.command, "-"]
    limit = BATCH_S if (case.batch or 0) > 1 else HANG_S
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as stdin:
        stdin.write(case.data or b"")
        stdin.seek(0)
        start = time.monotonic()
        proc = subprocess.Popen(
            [python, "-m", "engine", *argv], cwd=REPO, stdin=stdin, stdout=out, stderr=err
        )
        peak, killed = 0, None
        while proc.poll() is None:
            peak = max(peak, _peak_mb(proc.pid))
            if peak > RSS_KILL_MB or time.monotonic() - start > limit:
                killed = f"rss>{RSS_KILL_MB} MiB" if peak > RSS_KILL_MB else f"time>{limit:.0f} s"
                proc.kill()
                proc.wait()
            time.sleep(0.02)
        seconds = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        return Outcome(proc.returncode, out.read(1 << 27), err.read(1 << 20), seconds, peak, killed)


def judge(case: Case, got: Outcome) -> list[tuple[str, str]]:
    """Broken promises as (category, detail): crash, hang, rss, multiline, unsafe, badjson or expect."""
    if got.killed:
        return [("hang" if got.killed.startswith("time") else "rss", got.killed)]
    problems = [("rss", f"peak {got.peak_mb} MiB")] if got.peak_mb > RSS_LIMIT_MB else []
    lines = got.err.decode("utf-8", "replace").strip().splitlines()
    if b"Traceback" in got.err or got.rc not in (0, 2):
        return problems + [("crash", f"rc={got.rc}: {(lines or [''])[-1][:160]}")]
    if got.rc == 2:
        problems += [("multiline", f"{len(lines)} stderr lines")] if len(lines) != 1 else []
        problems += [("unsafe", why) for why in map(line_problem, lines[:1]) if why]
        return problems + ([("expect", "refused a valid input")] if case.expect == "ok" else [])
    problems += [("multiline", "stderr on success")] if lines else []
    return problems + answer_problems(case, got.out)


def answer_problems(case: Case, stdout: bytes) -> list[tuple[str, str]]:
    """An exit-0 answer: strict JSON, a batch of the right length with one-line errors, as expected."""
    try:
        doc = json.loads(stdout.decode("utf-8"), parse_constant=_no_constant)
    except ValueError as exc:
        return [("badjson", str(exc)[:120])]
    if case.expect == "refuse":
        return [("expect", "answered an input over a limit or budget")]
    items = doc if case.batch is not None else [doc]
    if case.batch is not None and (not isinstance(doc, list) or len(doc) != case.batch):
        return [
            (
                "badjson",
                f"a batch of {case.batch} answered with {len(doc) if isinstance(doc, list) else doc!r:.40}",
            )
        ]
    errors = [i["error"] for i in items if isinstance(i, dict) and "error" in i]
    if any(not isinstance(e, str) or len(e.splitlines()) > 1 for e in errors):
        return [("multiline", "a batch item's error is not one line")]
    unsafe = next((why for why in map(line_problem, errors) if why), None)
    if unsafe:
        return [("unsafe", f"a batch item's error: {unsafe}")]
    return (
        [("expect", f"an error for a valid input: {errors[0][:100]}")]
        if errors and case.expect == "ok"
        else []
    )


def line_problem(line: str) -> str | None:
    """Why a refusal line breaks the promise of a bounded, escaped line: longer than ``LINE_CHARS``, or holding
    a character a terminal acts on (``engine.errors.escaped``: controls, bidi, line separators)."""
    if len(line) > LINE_CHARS:
        return f"a line of {len(line):,} characters"
    raw = next((c for c in line if escaped(c) != c), None)
    return None if raw is None else f"a raw {escaped(raw)} in the line"


def _no_constant(name: str) -> Any:
    raise ValueError(f"non-JSON constant {name}")


def split(case: Case) -> list[Case]:
    """A failing batch as two halves (down to single items), to find the item at fault."""
    items = json.loads(case.data or b"[]")
    half = len(items) // 2
    return [
        Case(case.command, f"{case.description} [{part}]", dumps(chunk), batch=len(chunk))
        for part, chunk in (("first half", items[:half]), ("second half", items[half:]))
        if chunk
    ]


def check(case: Case, python: str, log: Any) -> Counter[str]:
    """Run one case (splitting a failing batch); count and log the broken promises."""
    got = run(case, python)
    problems = judge(case, got)
    if problems and (case.batch or 0) > 1:
        return sum((check(part, python, log) for part in split(case)), Counter())
    for category, detail in problems:
        log(
            f"  FAIL [{category}] {case.description[:100]}: {detail} ({got.seconds:.1f} s, {got.peak_mb} MiB)"
        )
    return Counter(category for category, _ in problems)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench fuzz_cli", description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies the mutated cases per command")
    parser.add_argument("--quick", action="store_true", help="a tenth of the mutations, no 60 MB documents")
    parser.add_argument("--only", default=",".join(COMMANDS), help="commands, e.g. assign,wheel")
    args = parser.parse_args(argv)
    python = (
        str(REPO / ".venv" / "bin" / "python")
        if (REPO / ".venv" / "bin" / "python").exists()
        else sys.executable
    )
    start, inputs, failures = time.monotonic(), 0, Counter[str]()
    print(
        f"fuzz_cli: seed {args.seed}, scale {args.scale}, {'quick' if args.quick else 'full'}, "
        f"vectors {'found' if VECTORS.is_dir() else 'absent'}",
        flush=True,
    )
    for case in families(random.Random(args.seed), args.scale, args.quick, tuple(args.only.split(","))):
        inputs += case.batch or 1
        failures += check(case, python, lambda line: print(line, flush=True))
    print(f"{time.monotonic() - start:.0f} s in all")
    print(
        f"fuzz_cli: {inputs} inputs, {failures['crash']} crashes, {failures['hang']} hangs, "
        f"{failures['multiline']} multi-line errors, {failures['unsafe']} unbounded or unescaped errors, "
        f"{failures['rss']} over 2 GiB, {failures['badjson']} bad JSON, {failures['expect']} unexpected answers"
    )
