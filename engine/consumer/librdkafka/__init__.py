"""librdkafka's client-side assignors and classic group protocol, ported from librdkafka 2.16's C code.

Most non-Java Kafka clients (confluent-kafka for Python, Go, .NET, JavaScript, rdkafka C/C++)
run these, not Java's: ``range`` (``rdkafka_range_assignor.c``), ``roundrobin``
(``rdkafka_roundrobin_assignor.c``) and ``cooperative-sticky`` (``rdkafka_sticky_assignor.c``;
librdkafka has no eager ``sticky``), driven by ``rdkafka_cgrp.c``.  Exactness is checked
against real librdkafka consumers on librdkafka's mock cluster (``tests/support``).

Public API::

    replay_librdkafka(scenario, strategy) -> list[LibrdkafkaStepResult]   # like engine.consumer.group.replay
    assign(strategy, metadata, members) -> dict[member_id, list[TopicPartition]]   # one assignor call
    assign_state(state, strategy) -> dict[member_id, list[TopicPartition]]          # a new group's result

Member ids are used as given and the scenario's member order is the JoinGroup order; librdkafka
sorts members by member id (bytes), so pass the ids the broker really generated.

Where librdkafka and Java differ (source: librdkafka master 4c3b017, whose assignor, cgrp and
mock files equal v2.15.0's; 2.16.0's sources were not available, the oracle runs 2.16.0):

* member order: ``rd_kafka_group_member_cmp`` (rdkafka_assignor.c:73) compares
  ``group.instance.id`` only when BOTH members are static, member ids otherwise; Java puts all
  static members first.  The comparator is not transitive, so glibc's merge sort order decides
  (``qsort``); range sorts per topic (rdkafka_range_assignor.c:524), roundrobin sorts the member
  array (rdkafka_roundrobin_assignor.c:72).  Strings compare as UTF-8 bytes, Java as UTF-16.
* range's co-partitioning pass runs for every bucket of topics with the same subscribers and
  partition count, rack-aware or not (rdkafka_range_assignor.c:588).
* cooperative-sticky is the old general sticky algorithm only (no constrained path), fed by owned
  partitions and generations; a new group is never "fresh" (rdkafka_sticky_assignor.c:1910:
  every member has an entry), and its maps iterate newest-first (``rd_map_t``).
* ``client.rack`` defaults to ``""`` (rdkafka_conf.c:1561): in rack-aware cooperative-sticky a
  consumer without a rack is treated as on a foreign rack (rdkafka_sticky_assignor.c:299), loses
  its partitions at every rebalance, and groups can rebalance forever.
* ``PartitionMovements`` (rdkafka_sticky_assignor.c:343-450) keeps stale records, builds the
  reverse pair from the original owner and returns a pointer into a list it then shrinks: later
  moves hit ``rd_assert`` (abort) or read freed memory; the engine raises ``LibrdkafkaFailure``.
* the cooperative withholding happens in the group code (rdkafka_cgrp.c:1757), after the assignor.
* a consumer without ``client.rack`` that led a group with racked members keeps dangling rack
  pointers in its metadata cache for topics it first saw as leader; changing its subscription to
  such a topic reads freed memory (``metadata_cache``; real consumers segfault there).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.consumer.librdkafka import range as range_assignor
from engine.consumer.librdkafka import roundrobin as roundrobin_assignor
from engine.consumer.librdkafka import sticky as sticky_assignor
from engine.consumer.librdkafka.eligible import EligibleTopic, eligible_topics
from engine.consumer.librdkafka.model import Assignment, GroupMember, LibrdkafkaFailure, TopicMetadata
from engine.consumer.librdkafka.replay import (
    STRATEGIES,
    LibrdkafkaGroupReplay,
    LibrdkafkaStepResult,
    assign_state,
    replay_librdkafka,
)
from engine.errors import EngineError

__all__ = [
    "STRATEGIES", "Assignment", "EligibleTopic", "GroupMember", "LibrdkafkaFailure", "LibrdkafkaGroupReplay",
    "LibrdkafkaStepResult", "TopicMetadata", "assign", "assign_state", "replay_librdkafka",
]

_ASSIGN = {"range": range_assignor.assign, "roundrobin": roundrobin_assignor.assign,
           "cooperative-sticky": sticky_assignor.assign}


def assign(strategy: str, metadata: Sequence[TopicMetadata], members: Sequence[GroupMember]) -> Assignment:
    """One ``rd_kafka_assignor_run``: the assignor's raw answer for this member array and metadata
    (before the cooperative adjustment ``cooperative.adjust_assignment``).

    >>> ms = [GroupMember("m2", ("t0",)), GroupMember("m1", ("t0",))]
    >>> out = assign("range", [TopicMetadata("t0", 3)], ms)
    >>> {m: [str(tp) for tp in tps] for m, tps in out.items()}
    {'m2': ['t0-2'], 'm1': ['t0-0', 't0-1']}
    """
    if strategy not in _ASSIGN:
        raise EngineError(f"strategy: librdkafka offers {', '.join(STRATEGIES)}, got {strategy!r}")
    if not members:
        return {}
    return _ASSIGN[strategy](members, eligible_topics(metadata, members))
