"""Which Kafka each model follows: one registry, read by every answer, page and README section.

A ``KafkaRelease`` is a released Kafka (or a code line) by version and commit.  A ``Model`` names the Kafka
class a part of the engine reproduces, the release whose code it follows, how that was checked (the vectors
in ``../shared/vectors``, made by running Kafka's own classes), what is not checked, and the differences a
user running an older Kafka meets (``Older``: one line each, shown beside the answer).

Worked example::

    >>> model("share-assign").release is KAFKA_4_2_0
    True
    >>> follows("share-assign")
    'Kafka 4.2.0 (a18251bae0b8): org.apache.kafka.coordinator.group.assignor.SimpleAssignor'
    >>> model("replicas").release.version
    '4.0 code line'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.errors import ScenarioError


@dataclass(frozen=True)
class KafkaRelease:
    """A release (or code line) of Kafka, or of a client library, by version, commit and date."""

    version: str
    commit: str
    date: str
    product: str = "Kafka"

    @property
    def label(self) -> str:
        """``"Kafka 4.2.0"``: how a page names it."""
        return f"{self.product} {self.version}"

    @property
    def cite(self) -> str:
        """``"Kafka 4.2.0 (a18251bae0b8)"``: the label with a commit prefix anyone can look up."""
        return f"{self.label} ({self.commit[:12]})"


KAFKA_4_2_0: Final = KafkaRelease("4.2.0", "a18251bae0b825c69794a50dffd4c3100cf5ca5b", "2026-02-10")
KAFKA_4_0_LINE: Final = KafkaRelease("4.0 code line", "1eb7644349cb07139d6a3c1ad1986979647cac99", "2024-10-25")
LIBRDKAFKA_2_16: Final = KafkaRelease("2.16", "4c3b017", "", "librdkafka")  # sources at master 4c3b017; oracle 2.16.0
CURRENT: Final = KAFKA_4_2_0  # the release the lab follows wherever Kafka's code for it exists


@dataclass(frozen=True)
class Older:
    """A difference that users of an older Kafka meet: which releases, and what they get instead."""

    releases: str
    differs: str

    def line(self) -> str:
        return f"{self.releases}: {self.differs}"


@dataclass(frozen=True)
class Model:
    """One model of the engine: the Kafka class it reproduces, the release followed, how it is checked."""

    key: str
    kafka_class: str
    release: KafkaRelease
    verified: str
    not_verified: str = ""
    older: tuple[Older, ...] = ()

    @property
    def follows(self) -> str:
        """The ``follows`` line of an answer: release, commit and class."""
        return f"{self.release.cite}: {self.kafka_class}"


_SAME_AT_4_2 = "computed at the 4.0 code line (1eb7644349cb) and rerun at 4.2.0 with identical answers"

MODELS: Final[dict[str, Model]] = {m.key: m for m in (
    Model("assign", "org.apache.kafka.clients.consumer (Range, RoundRobin, Sticky, CooperativeSticky assignors)",
          KAFKA_4_2_0, f"../shared/vectors/assign.json, 525 cases, {_SAME_AT_4_2}"),
    Model("assign-librdkafka", "rdkafka_range_assignor.c, rdkafka_roundrobin_assignor.c, "
          "rdkafka_sticky_assignor.c, rdkafka_cgrp.c", LIBRDKAFKA_2_16,
          "real librdkafka 2.16 consumers on librdkafka's mock cluster (tests/support)",
          "the broker side is librdkafka's mock cluster, not a Kafka broker"),
    Model("hash", "org.apache.kafka.clients.producer.internals.BuiltInPartitioner (Utils.murmur2)", KAFKA_4_2_0,
          f"../shared/vectors/murmur2.json, 2,300 keys, {_SAME_AT_4_2}"),
    Model("coordinator", "org.apache.kafka.coordinator.group.GroupCoordinatorService#partitionFor", KAFKA_4_2_0,
          f"../shared/vectors/coordinator.json, 499 group ids, {_SAME_AT_4_2}"),
    Model("wheel", "org.apache.kafka.server.util.timer.SystemTimer (TimingWheel, TimerTaskList)", KAFKA_4_2_0,
          f"../shared/vectors/timing_wheel.json, 10 scenarios, {_SAME_AT_4_2}"),
    Model("replicas", "org.apache.kafka.admin.AdminUtils#assignReplicasToBrokers", KAFKA_4_0_LINE,
          "../shared/vectors/replicas.json, 52 cases",
          "AdminUtils is gone from Kafka 4.1 on: a KRaft controller creating a topic and "
          "kafka-reassign-partitions.sh --generate (since 4.1) use StripedReplicaPlacer instead (the "
          "replicas-striped model)",
          (Older("Kafka 4.0 and earlier", "kafka-reassign-partitions.sh --generate places replicas this way, and "
                 "so does a ZooKeeper-mode cluster (up to 3.9) creating a topic"),)),
    Model("replicas-striped", "org.apache.kafka.metadata.placement.StripedReplicaPlacer", KAFKA_4_2_0,
          "StripedReplicaPlacerTest's expectations and placements the class computed with new Random(seed) "
          "on Java 17, in tests/engine/metadata/test_striped_placer.py",
          "a cluster draws from an unseeded java.util.Random, so a seed gives one possible placement, not the "
          "one a given cluster makes; the controller's checks around the placer (ReplicationControlManager) "
          "are ported from its code, not run",
          (Older("Kafka 4.0", "KRaft controllers place new topics the same way, but kafka-reassign-partitions.sh "
                 "--generate uses AdminUtils (the replicas model) until KAFKA-18798 in 4.1"),)),
    Model("server-assign", "org.apache.kafka.coordinator.group.assignor.UniformAssignor, RangeAssignor",
          KAFKA_4_2_0, "../shared/vectors/server_assign.json, 200 cases",
          older=(Older("Kafka 4.0.0 brokers", "the uniform assignor gives the extra partitions of an uneven split "
                       "to the first members in memberIds() order, whatever they held (changed by KAFKA-18688)"),)),
    Model("share-assign", "org.apache.kafka.coordinator.group.assignor.SimpleAssignor", KAFKA_4_2_0,
          "../shared/vectors/share_assign.json, 150 cases",
          older=(Older("Kafka 4.0 and 4.1 (share groups in early access and preview)",
                       "an older SimpleAssignor runs: Kafka 4.0's gives each member one partition by the hash of "
                       "its member id and lets it keep what it holds, so some partitions get several readers and "
                       "others none (KAFKA-18901, KAFKA-19362 and KAFKA-19363 replaced it)"),)),
    Model("share-deliver", "kafka.server.share.SharePartition", KAFKA_4_2_0,
          "../shared/vectors/share_deliver.json, 120 cases",
          "share-state persistence failures, log truncation, the fetch byte budget, read_committed, acquire "
          "modes, RENEW; the broker's group.share.min/max.record.lock.duration.ms (15,000..60,000 ms) around "
          "a group's lock duration (the lab takes ShareGroupConfig's own range, 1,000..3,600,000 ms)",
          (Older("Kafka 4.0 and 4.1 (share groups in early access and preview)",
                 "acquisition is not capped by the remaining in-flight capacity (KAFKA-19555) and no delivery-count "
                 "throttling (KAFKA-17541, in part in 4.1); in 4.0 group.share.partition.max.record.locks "
                 "defaults to 200"),)),
    Model("produce", "org.apache.kafka.clients.producer (ProducerConfig, RecordAccumulator, Sender)", KAFKA_4_2_0,
          "../shared/vectors/produce.json, 120 cases: batching and linger, drain order, retries, "
          "delivery.timeout.ms, idempotent sequences and epoch bumps",
          "request timeouts and disconnects (the timeout_after_write and timeout_before_write faults) are "
          "modelled from NetworkClient, not checked against Kafka",
          (Older("producers before Kafka 4.0", "linger.ms defaults to 0, not 5 (KIP-1030)"),)),
    Model("log-config", "org.apache.kafka.storage.internals.log.LogConfig", KAFKA_4_2_0,
          "../shared/vectors/log_config.json, 74 cases",
          older=(Older("Kafka 3.x", "segment.bytes accepts values down to 14 bytes (KAFKA-16368 raised the "
                       "minimum to 1 MiB in 4.0)"),)),
    Model("log", "org.apache.kafka.storage.internals.log.UnifiedLog (LogSegment, LogCleaner)", KAFKA_4_2_0,
          "../shared/vectors/log_config.json, 74 cases (the config); record sizes, segment rolls and index "
          "lookups against Kafka's own code",
          "retention by time and size and compaction (dirty ratio, delete horizon, tombstones) are modelled "
          "from UnifiedLog and LogCleaner, not checked against Kafka"),
    Model("streams-assign", "org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor", KAFKA_4_2_0,
          "../shared/vectors/streams_assign.json, 120 cases, and 4,500 unseen random cases (fresh groups and "
          "chained rebalances, hash-colliding ids) against Kafka 4.2.0's own classes compiled on Java 17",
          "the coordinator around the assignor (TargetAssignmentBuilder, the group and broker standby configs) is "
          "not run: a case is one assignor call with its members in map-insertion order",
          (Older("Kafka 4.2 branch after 4.2.1, and 4.3 (KAFKA-20899)",
                 "a standby replica goes to the least loaded previous standby owner whose process lacks the task; "
                 "4.2.0 and 4.2.1 give up when the first listed owner's process holds it (6 of the 120 cases "
                 "differ)"),
           Older("Kafka 4.1 (streams groups in early access)",
                 "an earlier StickyTaskAssignor (before KAFKA-19478 and KAFKA-19661's heaps and range-style "
                 "order) places tasks differently"))),
)}


def model(key: str) -> Model:
    """The registered model named ``key`` (an unknown one is a programming error)."""
    return MODELS[key]


def follows(key: str) -> str:
    """The ``follows`` line of the answers of model ``key``."""
    return MODELS[key].follows


# --- the producer's default tables -------------------------------------------------------------------------

@dataclass(frozen=True)
class Defaults:
    """A table of producer defaults: its input name and how an answer names it."""

    key: str
    label: str


RELEASED: Final = Defaults("released", f"released {CURRENT.version} (linger.ms 5, KIP-1030)")
BEFORE_4_0: Final = Defaults("3.x", "Kafka 3.x producers (linger.ms 0)")
DEFAULTS: Final = {d.key: d for d in (RELEASED, BEFORE_4_0)}


def defaults_named(name: object) -> Defaults:
    """The ``defaults`` input field: ``"released"`` (the default) or ``"3.x"``."""
    if not isinstance(name, str) or name not in DEFAULTS:
        raise ScenarioError(f"defaults: must be one of {', '.join(map(repr, DEFAULTS))}, got {name!r}")
    return DEFAULTS[name]


def markdown_table() -> str:
    """The registry as the table README.md shows between its ``releases`` markers (a test keeps them equal)."""
    rows = ["| answers of | follow | Kafka class | checked against | not checked | older releases |",
            "|---|---|---|---|---|---|"]
    for m in MODELS.values():
        older = "; ".join(o.line() for o in m.older) or "–"
        rows.append(f"| `{m.key}` | {m.release.cite} | `{m.kafka_class}` | {m.verified} | {m.not_verified or '–'} "
                    f"| {older} |")
    return "\n".join(rows)
