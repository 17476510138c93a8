"""``python -m bench import_large``: import a large cluster's tool output (2,000 topics /
100,000 partitions / 2,000 members "in a few seconds").

The outputs are written the way Kafka's tools print them (``kafka-topics.sh --describe`` with tabs,
``broker,rack`` lines, ``kafka-consumer-groups.sh --describe`` and ``--members --verbose`` with
column widths from content), then timed: parsing (auto-detection of the combined paste), the
conversion to a scenario (validated with the scenario model's rules), and writing the scenario file
as ``python -m engine import`` writes it.  The live
path's conversion of ``describe_consumer_groups`` results is timed on objects built with
confluent-kafka's own constructors (``ConsumerGroupDescription``, ``MemberDescription``).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from typing import Any

from engine.scenario import scenario_to_json
from engine.tools.detect import parse_text
from engine.tools.to_scenario import to_scenario

GROUP = "orders-service"


def _pad(values: list[Any], widths: list[int | None]) -> str:
    """Java's ``%-Ns`` joined by single spaces, ``None`` for a plain ``%s``."""
    return " ".join(str(v) if w is None else str(v).ljust(w) for v, w in zip(values, widths))


def _layout(topics: int, partitions: int, members: int) -> tuple[dict[str, int], list[list[tuple[str, int]]]]:
    per_topic = partitions // topics
    names = {f"topic-{t:04d}": per_topic + (1 if t < partitions % topics else 0) for t in range(topics)}
    owned: list[list[tuple[str, int]]] = [[] for _ in range(members)]
    i = 0
    for name, count in names.items():
        for p in range(count):
            owned[i % members].append((name, p))
            i += 1
    return names, owned


def topics_text(names: dict[str, int], brokers: int) -> str:
    lines = []
    for t, (name, count) in enumerate(names.items()):
        lines.append(
            f"Topic: {name}\tTopicId: AAAAAAAAAAAAAAAAAAA{t:03d}\tPartitionCount: {count}\t"
            f"ReplicationFactor: 3\tConfigs: min.insync.replicas=2"
        )
        for p in range(count):
            replicas = ",".join(str((t + p + k) % brokers) for k in range(3))
            lines.append(
                f"\tTopic: {name}\tPartition: {p}\tLeader: {(t + p) % brokers}\tReplicas: {replicas}"
                f"\tIsr: {replicas}\tElr: \tLastKnownElr: "
            )
    return "\n".join(lines) + "\n"


def member_ids(members: int) -> list[str]:
    return [f"consumer-{GROUP}-{m}-{m:08x}-1111-4222-8333-{m * 7919:012x}" for m in range(members)]


def offsets_text(owned: list[list[tuple[str, int]]], ids: list[str]) -> str:
    host = [f"/10.0.{m // 250}.{m % 250}" for m in range(len(ids))]
    widths: list[int | None] = [15, 15, 10, 15, 15, 15, max(len(i) for i in ids), 15, None]
    out = [
        "",
        _pad(
            [
                "GROUP",
                "TOPIC",
                "PARTITION",
                "CURRENT-OFFSET",
                "LOG-END-OFFSET",
                "LAG",
                "CONSUMER-ID",
                "HOST",
                "CLIENT-ID",
            ],
            widths,
        ),
    ]
    for m, tps in enumerate(owned):
        for topic, p in tps:
            lag = (p * 37 + m) % 500
            out.append(
                _pad(
                    [
                        GROUP,
                        topic,
                        p,
                        1_000_000,
                        1_000_000 + lag,
                        lag,
                        ids[m],
                        host[m],
                        f"consumer-{GROUP}-{m}",
                    ],
                    widths,
                )
            )
    return "\n".join(out) + "\n"


def members_text(owned: list[list[tuple[str, int]]], ids: list[str]) -> str:
    widths: list[int | None] = [15, max(len(i) for i in ids), 15, 25, 15]
    out = ["", _pad(["GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS"], widths) + " ASSIGNMENT"]
    for m, tps in enumerate(owned):
        grouped: dict[str, list[int]] = {}
        for topic, p in tps:
            grouped.setdefault(topic, []).append(p)
        cell = ", ".join(sorted(f"{t}({','.join(map(str, sorted(ps)))})" for t, ps in grouped.items()))
        row = [GROUP, ids[m], f"/10.0.{m // 250}.{m % 250}", f"consumer-{GROUP}-{m}", len(tps)]
        out.append(_pad(row, widths) + " " + cell)
    return "\n".join(out) + "\n"


def _timed(label: str, fn: Callable[[], Any], rows: list[tuple[str, float, str]], note: str = "") -> Any:
    start = time.perf_counter()
    result = fn()
    rows.append((label, time.perf_counter() - start, note))
    return result


def _descriptions(owned: list[list[tuple[str, int]]], ids: list[str]) -> Any:
    from confluent_kafka import ConsumerGroupState, ConsumerGroupType, Node, TopicPartition
    from confluent_kafka.admin import ConsumerGroupDescription, MemberAssignment, MemberDescription

    members = [
        MemberDescription(
            ids[m],
            f"consumer-{GROUP}-{m}",
            f"/10.0.{m // 250}.{m % 250}",
            MemberAssignment([TopicPartition(t, p) for t, p in tps]),
        )
        for m, tps in enumerate(owned)
    ]
    return ConsumerGroupDescription(
        GROUP,
        False,
        members,
        "range",
        ConsumerGroupState.STABLE,
        Node(1, "kafka-1", 9092),
        type=ConsumerGroupType.CLASSIC,
    )


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench import_large")
    parser.add_argument("--topics", type=int, default=2_000)
    parser.add_argument("--partitions", type=int, default=100_000)
    parser.add_argument("--members", type=int, default=2_000)
    parser.add_argument("--brokers", type=int, default=6)
    args = parser.parse_args(argv)
    names, owned = _layout(args.topics, args.partitions, args.members)
    ids = member_ids(args.members)
    racks = "broker,rack\n" + "".join(f"{b},az{b % 3 + 1}\n" for b in range(args.brokers))
    paste = (
        topics_text(names, args.brokers) + "\n" + racks + offsets_text(owned, ids) + members_text(owned, ids)
    )
    print(
        f"input: {args.topics:,} topics, {args.partitions:,} partitions, {args.members:,} members; "
        f"paste of {len(paste) / 2**20:.1f} MiB in {paste.count(chr(10)):,} lines"
    )
    rows: list[tuple[str, float, str]] = []
    data = _timed("parse (auto-detect, 4 formats)", lambda: parse_text(paste), rows)
    result = _timed("to_scenario (validated)", lambda: to_scenario(data), rows)
    text = _timed(
        "write the scenario file (compact JSON, as the CLI)",
        lambda: json.dumps(
            result.to_json(scenario_to_json(result.scenario)), ensure_ascii=False, separators=(",", ":")
        ),
        rows,
    )
    rows[-1] = (rows[-1][0], rows[-1][1], f"{len(text) / 2**20:.1f} MiB")
    _live(owned, ids, rows)
    print(f"{'step':<52}{'seconds':>9}  note")
    for label, seconds, note in rows:
        print(f"{label:<52}{seconds:>9.2f}  {note}")
    print(f"{'total (paste -> scenario file)':<52}{sum(r[1] for r in rows[:3]):>9.2f}")
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPU(s)")


def _live(owned: list[list[tuple[str, int]]], ids: list[str], rows: list[tuple[str, float, str]]) -> None:
    try:
        from engine.admin.groups import group_from_description
    except ImportError:
        return
    description = _descriptions(owned, ids)
    _timed(
        f"live: describe result -> group ({len(ids):,} members)",
        lambda: group_from_description(description),
        rows,
        "confluent-kafka objects, recorded",
    )
