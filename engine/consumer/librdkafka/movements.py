"""``PartitionMovements_t`` of ``rdkafka_sticky_assignor.c``, with librdkafka's own bookkeeping.

The sticky assignor records, per partition, the consumer pair (source, destination) of its
latest move in this assignment run, and per topic the partitions moved between each pair, so
that moving "a partition of topic T from A to B" can undo an earlier B -> A move of the same
topic instead.  librdkafka's version differs from Java's ``PartitionMovements`` in ways that
change results, and this model keeps them:

* ``removeMovementRecordOfPartition`` never deletes the partition's entry from
  ``partitionMovements``: after a move back, a stale (src, dst) record stays.  A later move of
  that partition then fails ``rd_assert(oldConsumer == cpair->dst)``: the leader aborts.
* ``getTheActualPartitionToBeMoved`` builds the reverse pair from the ORIGINAL old consumer
  (Java uses the partition's first source).
* It returns ``&plist->elems[0]``, a pointer INTO the movement list.  Removing that element
  shifts the list, so the caller goes on to move the NEXT partition of the list (when there is
  one); when it was the only one the list is freed and the pointer dangles.
* Replacing a partition's record frees the old ``ConsumerPair_t`` even where it is still the
  key of a per-topic map; a later lookup of that pair compares against freed memory.

The last two are undefined behaviour in C.  ``PartitionRef`` follows the pointer exactly while
it is valid and raises ``LibrdkafkaFailure`` as soon as freed memory would be read, so every
answer the engine gives is one librdkafka computes deterministically.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.consumer.librdkafka.model import LibrdkafkaFailure
from engine.scenario import TopicPartition


@dataclass(eq=False)
class ConsumerPair:
    """``ConsumerPair_t`` (an object: librdkafka keys maps by pointer and frees it)."""

    src: str
    dst: str
    freed: bool = False

    @property
    def value(self) -> tuple[str, str]:
        return (self.src, self.dst)


@dataclass(eq=False)
class MoveList:
    """A per-topic, per-pair ``rd_kafka_topic_partition_list_t`` of moved partitions."""

    elems: list[TopicPartition] = field(default_factory=list)
    freed: bool = False


@dataclass(frozen=True)
class PartitionRef:
    """A ``const rd_kafka_topic_partition_t *``: a stable partition, or ``&plist->elems[0]``."""

    tp: TopicPartition | None = None
    plist: MoveList | None = None

    def get(self) -> TopicPartition:
        """The partition the pointer designates now.

        >>> moved = MoveList([TopicPartition("t0", 3), TopicPartition("t0", 5)])
        >>> ref = PartitionRef(plist=moved)
        >>> str(ref.get()); del moved.elems[0]; str(ref.get())
        't0-3'
        't0-5'
        """
        if self.plist is None:
            assert self.tp is not None
            return self.tp
        if self.plist.freed or not self.plist.elems:
            raise LibrdkafkaFailure("cooperative-sticky: librdkafka reads a freed partition list here "
                                    "(PartitionMovements use-after-free); its result is undefined", undefined=True)
        return self.plist.elems[0]


Entry = tuple[ConsumerPair, MoveList]


class PartitionMovements:
    """``partitionMovements`` (partition -> pair) and ``partitionMovementsByTopic``."""

    def __init__(self) -> None:
        self.moves: dict[TopicPartition, ConsumerPair] = {}
        self.by_topic: dict[str, dict[tuple[str, str], Entry]] = {}

    @staticmethod
    def _lookup(per_topic: dict[tuple[str, str], Entry], pair: tuple[str, str]) -> MoveList | None:
        entry = per_topic.get(pair)
        if entry is None:
            return None
        if entry[0].freed:
            raise LibrdkafkaFailure("cooperative-sticky: librdkafka compares a freed ConsumerPair key "
                                    "(PartitionMovements use-after-free); its result is undefined", undefined=True)
        return entry[1]

    def remove_record(self, ref: PartitionRef) -> ConsumerPair:
        """``PartitionMovements_removeMovementRecordOfPartition`` (the entry in ``moves`` stays)."""
        tp = ref.get()
        pair = self.moves.get(tp)
        if pair is None:
            raise LibrdkafkaFailure("cooperative-sticky: rd_assert(cpair) fails in librdkafka (abort)")
        per_topic = self.by_topic.get(tp.topic)
        if per_topic is None:
            raise LibrdkafkaFailure("cooperative-sticky: librdkafka dereferences a NULL movements map "
                                    "(crash)")
        plist = self._lookup(per_topic, pair.value)
        if plist is None:
            raise LibrdkafkaFailure("cooperative-sticky: rd_assert(plist) fails in librdkafka (abort)")
        if tp in plist.elems:
            plist.elems.remove(tp)
        if not plist.elems:
            del per_topic[pair.value]
            plist.freed = True
        if not per_topic:
            del self.by_topic[ref.get().topic]
        return pair

    def add_record(self, ref: PartitionRef, pair: ConsumerPair) -> None:
        """``PartitionMovements_addPartitionMovementRecord``."""
        tp = ref.get()
        old = self.moves.get(tp)
        if old is not None:
            old.freed = True
        elif ref.plist is not None:
            raise LibrdkafkaFailure("cooperative-sticky: librdkafka keys a movement by a pointer into a "
                                    "movement list (undefined result)", undefined=True)
        self.moves[tp] = pair
        per_topic = self.by_topic.get(tp.topic)
        if per_topic is None:
            if ref.plist is not None:
                raise LibrdkafkaFailure("cooperative-sticky: librdkafka keys a topic by a string inside a "
                                        "movement list (undefined result)", undefined=True)
            per_topic = self.by_topic[tp.topic] = {}
        plist = self._lookup(per_topic, pair.value)
        if plist is None:
            plist = MoveList()
            per_topic[pair.value] = (pair, plist)
        plist.elems.append(tp)

    def move_partition(self, ref: PartitionRef, old_consumer: str, new_consumer: str) -> None:
        """``PartitionMovements_movePartition``."""
        if ref.get() in self.moves:
            existing = self.remove_record(ref)
            if existing.dst != old_consumer:
                raise LibrdkafkaFailure("cooperative-sticky: rd_assert(existing_cpair->dst == old_consumer) "
                                        "fails in librdkafka (abort)")
            if existing.src != new_consumer:
                self.add_record(ref, ConsumerPair(existing.src, new_consumer))
        else:
            self.add_record(ref, ConsumerPair(old_consumer, new_consumer))

    def partition_to_move(self, tp: TopicPartition, old_consumer: str, new_consumer: str) -> PartitionRef:
        """``PartitionMovements_getTheActualPartitionToBeMoved``.

        >>> pm = PartitionMovements()
        >>> pm.move_partition(PartitionRef(TopicPartition("t0", 1)), "B", "A")
        >>> str(pm.partition_to_move(TopicPartition("t0", 4), "A", "B").get())
        't0-1'
        """
        per_topic = self.by_topic.get(tp.topic)
        if per_topic is None:
            return PartitionRef(tp)
        pair = self.moves.get(tp)
        if pair is not None and pair.dst != old_consumer:
            raise LibrdkafkaFailure("cooperative-sticky: rd_assert(oldConsumer == cpair->dst) fails in "
                                    "librdkafka (abort)")
        plist = self._lookup(per_topic, (new_consumer, old_consumer))
        if plist is None:
            return PartitionRef(tp)
        return PartitionRef(plist=plist)
