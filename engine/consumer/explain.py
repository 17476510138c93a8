"""Texts the dashboard shows: why each strategy lands where it does, and where the seed articles are wrong.

Pure data; a strategy's name, class, label and protocols are in ``engine.consumer.strategies``.
``config_line("cooperative-sticky")`` is
``"partition.assignment.strategy=org.apache.kafka.clients.consumer.CooperativeStickyAssignor"``.
The "Kafka does" side of each callout is also computed live by the engine on the page; the text here
quotes ../shared/vectors/README.md ("The seed articles vs real Kafka").
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.consumer.strategies import strategy_of

WHY: dict[str, str] = {
    "range": (
        "Range works topic by topic. For each topic it sorts the subscribers (static members first by "
        "group.instance.id, then by member id in Java String order, so 'C10' < 'C2') and hands out "
        "contiguous ranges: partitions / consumers each, and the first partitions % consumers get one more. "
        "The extra partitions of every topic go to the SAME first consumers, so the skew adds up across "
        "topics. With client.rack and replica racks known (KIP-881) it first matches partitions to "
        "same-rack consumers."
    ),
    "roundrobin": (
        "Round-robin sorts all partitions of all subscribed topics (topic, then partition) and deals them "
        "one by one over the members sorted by id, skipping members not subscribed to the partition's "
        "topic. Across topics the counts differ by at most one when everyone subscribes to everything; with "
        "heterogeneous subscriptions it can still be unbalanced. It ignores history, so one member leaving "
        "reshuffles most partitions."
    ),
    "sticky": (
        "Sticky first balances (partition counts differ by at most one where subscriptions allow it) and "
        "then keeps as many partitions as possible where they were. It remembers the previous assignment in "
        "its subscription user data. It is still an EAGER protocol: every member revokes everything before "
        "rejoining, even the partitions it gets back."
    ),
    "cooperative-sticky": (
        "Cooperative sticky computes the same kind of balanced, sticky assignment, but with the incremental "
        "protocol: members keep their partitions while rejoining, the first round withholds the partitions "
        "that change owner, their owners revoke only those, and a second round hands them to the new "
        "owners. Only moving partitions pause."
    ),
}


CAPTIONS: dict[str, str] = {  # of the Rebalance and Group Protocol pages, so the pages read as sections
    "rebalance.revoked": (
        "Eager strategies revoke every partition of every remaining member before rejoining; "
        "cooperative-sticky revokes only the partitions that change owner (and those of topics a member "
        "unsubscribed from). KIP-848 rows (group.protocol=consumer): the broker's uniform / range assignor "
        "computes the target in one go (no rounds); a member revokes only what leaves its target."
    ),
    "rebalance.animation": (
        "Press Play all (or drag the slider): every strategy moves together. Revoked partitions travel to the "
        "pool on the left of each panel, then to their new owner. Red: owner changed; light blue: revoked and "
        "handed back to the same owner; green: new. Hover a dot for its partition (small groups: on the dot)."
    ),
    "rebalance.pause": (
        "Model: eager members finish their batch, revoke everything and wait for JoinGroup + SyncGroup; "
        "cooperative members keep consuming during round 1 and only partitions that move pause until round "
        "2 ends. A crash adds session.timeout.ms before anything starts. KIP-848 (uniform): no global "
        "barrier; each member reconciles on its own heartbeat, a moved partition pauses from its old "
        "owner's revoke (next heartbeat + batch; the ack goes at once) to its new owner's next heartbeat, "
        "each heartbeat expected half an interval away (the bound: a full one), and members whose "
        "partitions do not move never pause. Partition-seconds unavailable is the cost; a consumer is "
        "stopped (red) only while it consumes nothing, amber while some of its partitions are in transit. "
        "Timings are inputs, not measurements."
    ),
    "protocol.vote": (
        "ClassicGroup.selectProtocol: candidates are the protocols every member supports; each member "
        "votes for the first candidate in its own list; most votes wins. A member whose list shares "
        "nothing with the group gets INCONSISTENT_GROUP_PROTOCOL and is not admitted."
    ),
    "protocol.upgrade.rejected": (
        "Without the first bounce a restarted member lists only cooperative-sticky while the others "
        "list only range: nothing is common, JoinGroup fails with INCONSISTENT_GROUP_PROTOCOL."
    ),
    "protocol.upgrade": (
        "Bounce 1 keeps range in every list so old and new members agree (still EAGER rebalancing); "
        "once every member lists cooperative-sticky first the vote switches; bounce 2 drops range and "
        "the clients switch to COOPERATIVE rebalancing."
    ),
    "protocol.restart": (
        "Dynamic members send LeaveGroup on close and JoinGroup on start: two rebalances each. A "
        "static member back within session.timeout.ms gets its cached assignment: none. Longer, its "
        "session expires (one rebalance without it) and it rejoins as a new member (a second one). "
        "Consumer-seconds = other members' rebalance pauses (engine.consumer.pause model) + each "
        "restarting member's own downtime."
    ),
}


def config_line(strategy: str) -> str:
    """The consumer config that selects ``strategy``."""
    return strategy_of(strategy).config_line()


@dataclass(frozen=True)
class Callout:
    """Where a seed article disagrees with real Kafka, for one preset, strategy and step."""

    preset: str
    strategy: str
    step: int
    article: str
    says: str
    kafka: str
    why: str
    verdict: str = "wrong"  # typo / out of date since Kafka x.y / wrong (engine.articles.Verdict, in words)


CALLOUTS: tuple[Callout, ...] = (
    Callout(
        "seed-a", "range", 0, "000",
        "C0: partitions 0, 1, 2, 3; C1: 4, 5, 6; C2: 7, 8, 9 (consumer threads of a topic; the walk-through "
        "computes position 0 as 3 * 0 + min(1, 0) and position 2 as 3 * 2 + min(2, 1))",
        "C0: t0-0, t0-1, t0-2, t0-3; C1: t0-4, t0-5, t0-6; C2: t0-7, t0-8, t0-9",
        "The split agrees, but the article describes the pre-0.9 Scala consumer's threads: start = 3 x position "
        "+ min(position, 10 % 3). Today's RangeAssignor "
        "does this per topic over the members sorted by group.instance.id, else member id, as strings (C10 "
        "sorts before C2); the first 10 % 3 = 1 member gets the extra partition.",
        "out of date since Kafka 0.9",
    ),
    Callout(
        "seed-b-4p", "range", 0, "004",
        "C0: t0p0, t0p2, t1p0, t1p2; C1: t0p1, t0p3, t1p1, t1p3",
        "C0: t0-0, t0-1, t1-0, t1-1; C1: t0-2, t0-3, t1-2, t1-3",
        "The article lists round-robin's answer; range gives each consumer a contiguous range per topic.",
    ),
    Callout(
        "seed-b-3p", "range", 0, "004",
        "C0: t0p0, t0p2, t1p0, t1p2; C1: t0p1, t1p1",
        "C0: t0-0, t0-1, t1-0, t1-1; C1: t0-2, t1-2",
        "Range splits 3 partitions as 2 + 1 per topic: C0 gets the first two of each topic.",
    ),
    Callout(
        "seed-b-3p", "roundrobin", 0, "001",
        "C1: t0p1, t1p0, p1p2",
        "C1: t0-1, t1-0, t1-2",
        "A typo in the article: the last partition is t1-2.",
        "typo",
    ),
    Callout(
        "seed-d", "sticky", 1, "002, 004",
        "C0: t0p0, t1p1, t3p0, t2p0; C2: t1p0, t2p1, t0p1, t3p1",
        "C0: t0-0, t3-0, t1-1, t0-1; C2: t1-0, t2-1, t2-0, t3-1",
        "The articles show the pre-2.8 algorithm (and 004 has typos). Since KAFKA-9987/KAFKA-12464 the freed "
        "partitions go round-robin to the under-quota members sorted by id.",
        "out of date since Kafka 2.8",
    ),
    Callout(
        "seed-d", "cooperative-sticky", 1, "002, 004",
        "C0: t0p0, t1p1, t3p0, t2p0; C2: t1p0, t2p1, t0p1, t3p1 (for StickyAssignor)",
        "C0: t0-0, t3-0, t1-1, t0-1; C2: t1-0, t2-1, t2-0, t3-1",
        "Cooperative sticky shares the modern sticky algorithm, so it lands where StickyAssignor does.",
        "out of date since Kafka 2.8",
    ),
    Callout(
        "seed-d", "roundrobin", 1, "004",
        "C2 listed with t1p0 twice",
        "C0: t0-0, t1-0, t2-0, t3-0; C2: t0-1, t1-1, t2-1, t3-1",
        "Round-robin deals the 8 partitions alternately to C0 and C2.",
        "typo",
    ),
    Callout(
        "seed-c", "roundrobin", 1, "004",
        "C0 still listed with t0p0 after C0 left",
        "C1: t0-0, t1-1; C2: t1-0, t2-0, t2-1, t2-2",
        "C0 is gone; round-robin re-deals everything over C1 and C2.",
        "typo",
    ),
)


def callouts_for(preset: str | None, strategy: str) -> list[Callout]:
    return [c for c in CALLOUTS if c.preset == preset and c.strategy == strategy]
