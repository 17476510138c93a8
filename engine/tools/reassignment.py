"""``kafka-reassign-partitions.sh`` plans: Kafka's reassignment JSON, read and written.

The format of ReassignPartitionsCommand's ``formatAsReassignmentJson`` and
``parsePartitionReassignmentData`` (version 1; a missing ``version`` means 1)::

    {"version":1,"partitions":[{"topic":"orders","partition":0,"replicas":[1,2],"log_dirs":["any","any"]}]}

``log_dirs`` is optional and, when given, has one entry per replica; errors carry Kafka's own
messages (``Partition reassignment contains duplicate topic partitions``, ...).  ``--generate``
prints two plans, after ``Current partition replica assignment`` and ``Proposed partition
reassignment configuration``; the scenario takes the current one and lists the proposal as unused.
``format_reassignment_json`` writes exactly what Kafka writes (partitions sorted by topic with
Java's ``String.compareTo``, then partition; Jackson's compact separators), so a plan made here can
be handed to ``kafka-reassign-partitions.sh --execute``.  The version constant is shared with
``engine.server.reassignment``, which writes per-topic plans for the Replicas page.

Worked example (asserted in tests/engine/tools/test_tools_reassignment.py)::

    >>> format_reassignment_json({("b", 1): [2, 3], ("a", 0): [1]})
    '{"version":1,"partitions":[{"topic":"a","partition":0,"replicas":[1],"log_dirs":["any"]},\
{"topic":"b","partition":1,"replicas":[2,3],"log_dirs":["any","any"]}]}'
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from engine.java.strings import string_compare_key
from engine.server.reassignment import REASSIGNMENT_VERSION
from engine.tools.records import Imported, Unused, line_error

ANY_LOG_DIR = "any"
VERSION = REASSIGNMENT_VERSION
CURRENT_HEADING = "Current partition replica assignment"
PROPOSED_HEADING = "Proposed partition reassignment configuration"
OTHER_LINES = (
    "Save this to use as the --reassignment-json-file option during rollback",
    "Successfully started partition reassignment",
    "Successfully started moving log directory",
)


def format_reassignment_json(
    assignment: Mapping[tuple[str, int], Sequence[int]],
    log_dirs: Mapping[tuple[str, int, int], str] | None = None,
) -> str:
    """Kafka's ``formatAsReassignmentJson``: ``(topic, partition) -> replicas`` as a version-1 plan."""
    dirs = log_dirs or {}
    partitions = []
    for topic, partition in sorted(assignment, key=lambda tp: (string_compare_key(tp[0]), tp[1])):
        replicas = [int(r) for r in assignment[(topic, partition)]]
        partitions.append(
            {
                "topic": topic,
                "partition": partition,
                "replicas": replicas,
                "log_dirs": [dirs.get((topic, partition, r), ANY_LOG_DIR) for r in replicas],
            }
        )
    return json.dumps(
        {"version": VERSION, "partitions": partitions}, ensure_ascii=False, separators=(",", ":")
    )


def is_plan(document: Any) -> bool:
    return (
        isinstance(document, dict)
        and isinstance(document.get("partitions"), list)
        and all(isinstance(p, dict) and "replicas" in p for p in document["partitions"])
    )


def parse_plan(document: Any, number: int) -> dict[tuple[str, int], tuple[int, ...]]:
    """``(topic, partition) -> replicas`` of a plan; errors as Kafka's parser would raise them, one line."""
    version = document.get("version", VERSION)
    if version != VERSION:
        raise line_error(number, f"reassignment plan: Not supported version field value {version!r}")
    out: dict[tuple[str, int], tuple[int, ...]] = {}
    for i, entry in enumerate(document["partitions"]):
        where = f"reassignment plan partitions[{i}]"
        topic, partition, replicas = entry.get("topic"), entry.get("partition"), entry.get("replicas")
        if not isinstance(topic, str) or not topic:
            raise line_error(number, f"{where}.topic: expected a topic name, got {topic!r}")
        if not isinstance(partition, int) or isinstance(partition, bool) or partition < 0:
            raise line_error(number, f"{where}.partition: expected a partition number, got {partition!r}")
        if not isinstance(replicas, list) or not all(
            isinstance(r, int) and not isinstance(r, bool) for r in replicas
        ):
            raise line_error(number, f"{where}.replicas: expected a list of broker ids, got {replicas!r}")
        dirs = entry.get("log_dirs")
        if dirs is not None and (not isinstance(dirs, list) or len(dirs) != len(replicas)):
            raise line_error(
                number,
                f"{where}: Size of replicas list {replicas} is different from size of log dirs "
                f"list {dirs} for partition {topic}-{partition}",
            )
        if (topic, partition) in out:
            raise line_error(
                number,
                f"{where}: Partition reassignment contains duplicate topic partitions: {topic}-{partition}",
            )
        if len(set(replicas)) != len(replicas):
            raise line_error(
                number,
                f"{where}: Partition replica lists may not contain duplicate entries: "
                f"{topic}-{partition} has {replicas}",
            )
        out[(topic, partition)] = tuple(replicas)
    if not out:
        raise line_error(number, "reassignment plan: Partition reassignment list cannot be empty")
    return out


def read_plan(data: Imported, number: int, document: Any, heading: str | None) -> None:
    """Record a plan's replica lists; the proposal of ``--generate`` is listed as unused, not applied."""
    plan = parse_plan(document, number)
    if heading == PROPOSED_HEADING:
        data.unused.append(
            Unused(
                number,
                f"proposed reassignment of {len(plan):,} partition(s)",
                "the scenario uses the current replica assignment, not the proposal",
            )
        )
        return
    for (topic, partition), replicas in plan.items():
        data.topic(topic).partition(partition).replicas = replicas
