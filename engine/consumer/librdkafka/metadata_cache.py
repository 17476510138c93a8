"""A librdkafka consumer's topic metadata cache, as far as it decides whether the client crashes.

A consumer WITHOUT ``client.rack`` that leads a group in which some member sends a rack asks
for "partition assignor" metadata with ``force_racks`` (``rdkafka_cgrp.c``: ``any_member_rack``),
so the response's partitions carry replica racks (``rd_kafka_populate_metadata_topic_racks``,
pointers into the response buffer).  The cache stores it with ``include_racks =
has_client_rack`` = false.  For a topic the client has NOT cached yet,
``rd_kafka_metadata_cache_entry_new`` copies the partition structs verbatim and only fills the
rack arrays when ``include_racks``: the new entry keeps ``racks``/``racks_cnt`` pointing into the
response, which is freed once the assignor ran.  (A topic already cached goes through
``rd_kafka_metadata_cache_topic_update_merge_partitions``, which sets ``racks = NULL``: that
entry, and any later Metadata response for the topic, is clean.)

The dangling entry is read when the application changes the subscription and every topic of the
new subscription is cached: the client joins at once and ``rd_kafka_cgrp_metadata_update_check``
-> ``rd_kafka_metadata_topic_filter`` -> ``rd_kafka_topic_info_new_with_rack`` runs ``strlen`` on
the freed rack strings.  The outcome is undefined; real librdkafka 2.16.0 consumers on the mock
cluster segfault there (``tests/vectors/librdkafka_assign.json``, case ``lk20250101-36``).  When
some topic of the new subscription is not cached, the client first fetches metadata for the whole
subscription, which cleans every entry it reads.

>>> cache = MetadataCache(topics={"t1"})
>>> cache.leader_fetch(["t1", "t0"], rack_less=True, any_member_rack=True, racked={"t0", "t1"})
>>> sorted(cache.topics), sorted(cache.dangling)
(['t0', 't1'], ['t0'])
>>> cache.subscribe("m1", ["t0", "t1"])
Traceback (most recent call last):
...
engine.consumer.librdkafka.model.LibrdkafkaFailure: consumer m1 ... reads freed memory ... t0 ...
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from engine.consumer.librdkafka.model import LibrdkafkaFailure


@dataclass
class MetadataCache:
    """``topics``: topics with a cache entry; ``dangling``: entries whose rack pointers point into a
    freed Metadata response (only with racks on some partition: otherwise nothing is read)."""

    topics: set[str] = field(default_factory=set)
    dangling: set[str] = field(default_factory=set)

    def learn(self, topics: Iterable[str]) -> None:
        """The client's own Metadata request (no forced racks): these entries are clean."""
        fetched = set(topics)
        self.topics |= fetched
        self.dangling -= fetched

    def leader_fetch(self, requested: Collection[str], rack_less: bool, any_member_rack: bool,
                     racked: Collection[str]) -> None:
        """The leader's "partition assignor" Metadata request for every member's topics.

        ``racked``: topics with replica racks on at least one partition.
        """
        new = set(requested) - self.topics
        self.learn(requested)
        if rack_less and any_member_rack:
            self.dangling |= {t for t in new if t in racked}

    def subscribe(self, member_id: str, subscription: Collection[str]) -> None:
        """The application subscribes to ``subscription``: raise where librdkafka reads freed
        memory; otherwise record the metadata the client fetches for uncached topics."""
        wanted = set(subscription)
        if not wanted <= self.topics:
            self.learn(wanted)
            return
        read = sorted(wanted & self.dangling)
        if read:
            raise LibrdkafkaFailure(
                f"consumer {member_id} (no client.rack) reads freed memory when it changes its subscription: "
                f"its metadata cache entry for {', '.join(read)} was created from the rack-aware metadata it "
                "fetched as group leader, and keeps rack pointers into that freed response "
                "(rdkafka_metadata_cache.c, rd_kafka_metadata_cache_entry_new); rd_kafka_topic_info_new_with_rack "
                "reads them. Real librdkafka 2.16 consumers crash here (SIGSEGV); setting client.rack on every "
                "consumer avoids it", undefined=True)
