"""The reference articles the lab checks (``../shared/seeds/``), named by their titles, and the corrections
they need, each with its verdict: a **typo**, **out of date** since a named Kafka release (right when written),
**wrong** (never true) or **correct**.  One registry, read by every "the article says / Kafka does" table.

Worked example (asserted in ``tests/engine/test_articles.py``)::

    >>> article_name("002")
    '《深入理解 Kafka》'
    >>> verdict_text(Correction("002", "out of date", "session.timeout.ms defaults to 10 s", "45 s", "3.0"))
    'out of date since Kafka 3.0'
    >>> rows(CONSUMER_CORRECTIONS)[0]["article"]
    '《如何确定Kafka的分区数、key和consumer线程数》'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal

ARTICLES: Final[dict[str, str]] = {
    "000": "如何确定Kafka的分区数、key和consumer线程数",  # no title line; the headings of huxi2b's post
    "001": "Kafka 分区",
    "002": "深入理解 Kafka",
    "003": "分区分配策略",
    "004": "深入客户端（Explore Client）",
}
"""Article id (the file name's prefix under ``../shared/seeds/``) -> its title, as the article gives it."""

Verdict = Literal["typo", "out of date", "wrong", "correct"]


@dataclass(frozen=True)
class Correction:
    """One claim of one article and what Kafka's code does; ``since`` is the release that changed it (for
    "out of date")."""

    article: str
    verdict: Verdict
    says: str
    kafka: str
    since: str = ""


def article_name(ids: str) -> str:
    """``"002"`` -> ``《深入理解 Kafka》``; ``"002, 004"`` names both."""
    return "、".join(f"《{ARTICLES[i.strip()]}》" for i in ids.split(","))


def verdict_text(c: Correction) -> str:
    """The verdict in words: ``typo``, ``out of date since Kafka 3.0``, ``wrong``, ``correct``."""
    return f"out of date since Kafka {c.since}" if c.verdict == "out of date" else c.verdict


def rows(corrections: Iterable[Correction]) -> list[dict[str, str]]:
    """The table a page shows: article (by title), verdict, what the article says, what Kafka's code does."""
    return [{"article": article_name(c.article), "verdict": verdict_text(c), "the article says": c.says,
             "Kafka's code": c.kafka} for c in corrections]


CONSUMER_CORRECTIONS: Final = (
    Correction("000", "out of date", "partition.assignment.strategy defaults to range",
               "the Java consumer's default is [RangeAssignor, CooperativeStickyAssignor]: range is used until "
               "every member supports cooperative-sticky, then a second rolling bounce can drop range", "3.0"),
    Correction("001", "out of date", "partition.assignment.strategy defaults to range",
               "the Java consumer's default is [RangeAssignor, CooperativeStickyAssignor]", "3.0"),
    Correction("003", "out of date", "partition.assignment.strategy defaults to RangeAssignor",
               "the Java consumer's default is [RangeAssignor, CooperativeStickyAssignor]", "3.0"),
    Correction("004", "out of date",
               "a custom assignor implements org.apache.kafka.clients.consumer.internals.PartitionAssignor",
               "it implements ConsumerPartitionAssignor (KIP-429); the old PartitionAssignor was removed", "3.0"),
    Correction("002", "out of date", "session.timeout.ms defaults to 10000 (10 s)",
               "45000 (45 s, KIP-735)", "3.0"),
    Correction("002", "out of date", "no consumer of the group can read during a rebalance",
               "true for the eager protocol only: with cooperative-sticky (KIP-429) members keep reading the "
               "partitions they keep; with the consumer protocol (KIP-848) there is no group-wide pause", "2.4"),
    Correction("002", "out of date", "the broker times sessions out in a delayed-operation purgatory",
               "the new group coordinator (the only one in 4.x) runs session and rebalance timeouts on its own "
               "timer (a SystemTimer, the same timing wheel, with no purgatory), classic groups included", "4.0"),
)
"""Where the articles' consumer-group claims no longer hold."""

PRODUCER_CORRECTIONS: Final = (
    Correction("004", "out of date", "enable.idempotence defaults to false",
               "true (KIP-679), with acks=all; but 3.0.0 and 3.1.0 still left it off (KAFKA-13598, fixed in "
               "3.0.1 and 3.1.1); left unset, it is silently off when acks, retries or in-flight conflict with it; "
               "librdkafka (confluent-kafka) still defaults to false", "3.0"),
    Correction("002", "out of date", "acks defaults to 1", "acks=all (KIP-679)", "3.0"),
    Correction("002", "out of date", "retries defaults to 0", "retries=2147483647 (KIP-91)", "2.1"),
    Correction("002", "out of date", "compression.type: gzip, snappy or lz4",
               "zstd too (KIP-110)", "2.1"),
    Correction("002", "out of date", "in-flight must be 1 to keep order when retrying",
               "only without idempotence; with it up to 5 keep order (the broker remembers 5 batches, "
               "KAFKA-5494)", "1.0"),
    Correction("004", "out of date",
               "the broker keeps one sequence per producer and partition; a lower one is silently dropped",
               "it keeps the last 5 batches: a retry of one of them is answered with the original offset; an "
               "older one is OUT_OF_ORDER_SEQUENCE_NUMBER", "1.0"),
    Correction("002", "out of date", "linger.ms defaults to 0", "5 (KIP-1030)", "4.0"),
)
"""Where the articles' producer claims no longer hold."""

LOG_CORRECTIONS: Final = (
    Correction("002", "correct", "the second segment starts at 133, so the first holds offsets 0..132",
               "true (the button above the log replays it with internal.segment.bytes 22,610: segment.bytes is at "
               "least 1 MiB)"),
    Correction("002", "wrong", "roll when the segment size exceeds log.segment.bytes",
               "roll *before* an append that would not fit: size > segment.bytes - batch size "
               "(LogSegment.shouldRoll)"),
    Correction("002", "wrong", "roll when max timestamp minus the *current time* exceeds log.roll.ms",
               "the new batch's max timestamp minus the segment's *first* batch timestamp > segment.ms"),
    Correction("002", "correct", "roll when the index file reaches log.index.size.max.bytes",
               "true: offset index holds 10 MiB / 8 = 1,310,720 entries; the time index 10 MiB / 12 - 1 = 873,812 "
               "(one slot kept for the roll), so it fills first"),
    Correction("002", "correct", "find offset 23: binary search for [22, 656], then scan from 656",
               "true; the index key is a batch's *last* offset and the scan reads batch headers (FileRecords)"),
    Correction("002", "correct", "retention by time / size / log start offset",
               "true; whole segments only, oldest first, stopping at the first kept one; when all qualify a new "
               "active segment is rolled first"),
    Correction("000", "wrong", "each partition has a .log and a .index file, two handles per partition",
               "three files per *segment* (.timeindex since 0.10.1); only the .log holds a descriptor, the indexes "
               "are mmapped"),
)
"""The partition log's claims, right and wrong."""
