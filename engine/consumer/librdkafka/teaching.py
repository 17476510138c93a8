"""Where Java's and librdkafka's assignors give one group different partitions: the teaching point.

A Python, Go or .NET service (librdkafka) and a Java service with the same ``partition.assignment.strategy``
can split the same group differently: librdkafka orders members by member id bytes and compares
``group.instance.id`` only between two static members, its cooperative-sticky breaks ties in its own map
order, and so on (``engine.consumer.librdkafka``).  ``client_note`` says it in one paragraph for a step.

>>> from engine.scenario import TopicPartition as TP
>>> java = {"m1": [TP("t0", 1)], "m2": [TP("t0", 2)], "m3": [TP("t0", 0)]}
>>> rdk = {"m1": [TP("t0", 0)], "m2": [TP("t0", 1)], "m3": [TP("t0", 2)]}
>>> print(client_note("range", "librdkafka", rdk, java))
range: a Java consumer would get different partitions than a librdkafka consumer for 3 of 3 members: \
m1 t0-1 (librdkafka: t0-0); m2 t0-2 (librdkafka: t0-1); m3 t0-0 (librdkafka: t0-2).
>>> client_note("range", "java", java, java) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.scenario import TopicPartition

NAMES = {"java": "Java", "librdkafka": "librdkafka"}
MAX_LISTED_MEMBERS = 5
MAX_LISTED_PARTITIONS = 8


def differing_members(shown: Mapping[str, Sequence[TopicPartition]],
                      other: Mapping[str, Sequence[TopicPartition]]) -> list[str]:
    """Members (in ``shown``'s order, then ``other``'s) whose partition SETS differ."""
    members = list(dict.fromkeys([*shown, *other]))
    return [m for m in members if set(shown.get(m, ())) != set(other.get(m, ()))]


def _tps(tps: Sequence[TopicPartition]) -> str:
    ordered = sorted(tps, key=lambda tp: (tp.topic, tp.partition))
    text = ", ".join(str(tp) for tp in ordered[:MAX_LISTED_PARTITIONS])
    more = len(ordered) - MAX_LISTED_PARTITIONS
    return (text + (f" and {more} more" if more > 0 else "")) or "nothing"


def client_note(strategy: str, shown_client: str, shown: Mapping[str, Sequence[TopicPartition]],
                other: Mapping[str, Sequence[TopicPartition]]) -> str | None:
    """"a Java consumer would get ..." (or "a librdkafka consumer ...") for a step, None when both agree.

    ``shown``: the assignment of ``shown_client`` (the one on screen); ``other``: the other client's.
    """
    differ = differing_members(shown, other)
    if not differ:
        return None
    other_client = "librdkafka" if shown_client == "java" else "java"
    listed = "; ".join(f"{m} {_tps(other.get(m, ()))} ({NAMES[shown_client]}: {_tps(shown.get(m, ()))})"
                       for m in differ[:MAX_LISTED_MEMBERS])
    more = f"; and {len(differ) - MAX_LISTED_MEMBERS} more" if len(differ) > MAX_LISTED_MEMBERS else ""
    members = len(set(shown) | set(other))
    return (f"{strategy}: a {NAMES[other_client]} consumer would get different partitions than "
            f"a {NAMES[shown_client]} consumer for "
            f"{len(differ)} of {members} members: {listed}{more}.")
