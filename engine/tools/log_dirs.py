"""``kafka-log-dirs.sh --describe``: the JSON of LogDirsCommand, partition sizes per broker and log dir.

LogDirsCommand prints two lines, then one JSON document (keys in any order)::

    Querying brokers for log directories information
    Received log directory information from brokers 1,2,3
    {"version":1,"brokers":[{"broker":1,"logDirs":[{"logDir":"/var/lib/kafka","error":null,
     "partitions":[{"partition":"orders-0","size":1024,"offsetLag":0,"isFuture":false}]}]}]}

A partition's size is the largest of its replicas' (future replicas, being moved between log dirs,
are left out and listed); the brokers holding a partition are its replicas when no replica list is
known from elsewhere.  A log dir that reports an error is listed with its error.

Worked example (asserted in tests/engine/tools/test_tools_log_dirs.py)::

    >>> data = Imported()
    >>> read_log_dirs(data, 3, {"version": 1, "brokers": [{"broker": 1, "logDirs": [{"logDir": "/d",
    ...     "error": None, "partitions": [{"partition": "a-b-0", "size": 5, "offsetLag": 0,
    ...     "isFuture": False}]}]}]})
    >>> data.topics["a-b"].sizes
    {0: 5}
"""

from __future__ import annotations

from typing import Any

from engine.inputs import is_whole_number
from engine.tools.records import Imported, Unused, line_error

PREAMBLE = (
    "Querying brokers for log directories information",
    "Received log directory information from brokers",
)


def is_log_dirs(document: Any) -> bool:
    return (
        isinstance(document, dict)
        and isinstance(document.get("brokers"), list)
        and all(isinstance(b, dict) and "logDirs" in b for b in document["brokers"])
    )


def _field(obj: Any, key: str, kind: type | tuple[type, ...], number: int, where: str) -> Any:
    value = obj.get(key) if isinstance(obj, dict) else None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise line_error(
            number, f"{where}.{key}: expected {getattr(kind, '__name__', 'a value')}, got {value!r}"
        )
    return value


def _partition_name(text: str, number: int, where: str) -> tuple[str, int]:
    topic, sep, partition = text.rpartition("-")
    if not sep or not topic or not is_whole_number(partition):
        raise line_error(number, f"{where}.partition: expected '<topic>-<partition>', got {text!r}")
    return topic, int(partition)


def read_log_dirs(data: Imported, number: int, document: Any) -> None:
    """Record sizes and replica holders from a parsed log-dirs document that starts on line ``number``."""
    holders: dict[tuple[str, int], list[int]] = {}
    sizes: dict[tuple[str, int], int] = {}
    future = 0
    for b, broker in enumerate(_field(document, "brokers", list, number, "log dirs")):
        broker_id = _field(broker, "broker", int, number, f"brokers[{b}]")
        for d, log_dir in enumerate(_field(broker, "logDirs", list, number, f"brokers[{b}]")):
            where = f"brokers[{b}].logDirs[{d}]"
            if log_dir.get("error") if isinstance(log_dir, dict) else None:
                data.unused.append(
                    Unused(
                        number,
                        f"broker {broker_id} {log_dir.get('logDir')}",
                        f"the log dir reported {log_dir['error']}; its partitions are missing",
                    )
                )
            for p, entry in enumerate(_field(log_dir, "partitions", list, number, where)):
                at = f"{where}.partitions[{p}]"
                tp = _partition_name(_field(entry, "partition", str, number, at), number, at)
                size = _field(entry, "size", int, number, at)
                if entry.get("isFuture") is True:
                    future += 1
                    continue
                sizes[tp] = max(size, sizes.get(tp, 0))
                holders.setdefault(tp, []).append(broker_id)
    for (topic, partition), size in sizes.items():
        info = data.topic(topic)
        info.sizes[partition] = size
        replica = info.partition(partition)
        if not replica.replicas:
            replica.replicas = tuple(sorted(set(holders[(topic, partition)])))
    if future:
        data.unused.append(
            Unused(number, f"{future:,} future replica(s)", "replicas being moved between log dirs")
        )
    data.unused.append(Unused(number, "offsetLag", "replica lag behind the leader is not part of a scenario"))
