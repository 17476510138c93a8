"""Ready-made scenarios: the seed articles' four examples and a few realistic groups.

Pure data plus small builders.  ``PRESETS["seed-d"].build()`` is the articles' sticky example: three
consumers C0..C2 on t0..t3 with 2 partitions each, then the same group after C1 leaves (two steps)::

    >>> s = PRESETS["seed-d"].build()
    >>> [m.id for m in s.steps[1].members]
    ['C0', 'C2']

Load weights (``Scenario.weights``) come from ``skew_weights``: ``"one-hot"`` makes partition 0 ten
times as busy as the others, ``"zipf"`` gives partition p a load proportional to 1/(p+1); both are
scaled so the mean weight is 1.0.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from engine.errors import ScenarioError
from engine.scenario import GroupState, Member, Scenario, StreamsSubtopology, StreamsTopology

SKEWS = ("uniform", "one-hot", "zipf")
HOT_FACTOR = 10.0
ZIPF_EXPONENT = 1.0


def skew_weights(partitions: int, skew: str) -> tuple[float, ...]:
    """Per-partition load weights with mean 1.0.

    ``skew_weights(4, "one-hot") == (3.076923, 0.307692, 0.307692, 0.307692)``.
    """
    if partitions < 1:
        raise ScenarioError(f"skew: partitions must be >= 1, got {partitions}")
    if skew == "uniform":
        raw = [1.0] * partitions
    elif skew == "one-hot":
        raw = [HOT_FACTOR] + [1.0] * (partitions - 1)
    elif skew == "zipf":
        raw = [1.0 / (p + 1) ** ZIPF_EXPONENT for p in range(partitions)]
    else:
        raise ScenarioError(f"skew: must be one of {', '.join(SKEWS)}, got {skew!r}")
    scale = partitions / sum(raw)
    return tuple(round(w * scale, 6) for w in raw)


def detect_skew(weights: Sequence[float] | None) -> str:
    """The skew preset that produced ``weights`` ("uniform" for none), or "custom"."""
    if not weights:
        return "uniform"
    for skew in SKEWS:
        if tuple(weights) == skew_weights(len(weights), skew):
            return skew
    return "custom"


def spread_replica_racks(partitions: int, racks: Sequence[str], replication_factor: int) -> tuple[tuple[str, ...], ...]:
    """Replica racks per partition, rotating over ``racks``: partition p on racks p, p+1, ... (mod n)."""
    if not racks:
        raise ScenarioError("racks: give at least one rack name")
    if not 1 <= replication_factor <= len(racks):
        raise ScenarioError(
            f"replication factor: must be 1..{len(racks)} (one replica per rack), got {replication_factor}"
        )
    n = len(racks)
    return tuple(tuple(racks[(p + i) % n] for i in range(replication_factor)) for p in range(partitions))


def make_members(
    count: int,
    topics: Sequence[str],
    prefix: str = "C",
    racks: Sequence[str] = (),
    start: int = 0,
) -> tuple[Member, ...]:
    """``count`` members ``C0, C1, ...`` subscribed to ``topics``; racks assigned round-robin if given."""
    return tuple(
        Member(f"{prefix}{start + i}", tuple(topics), racks[i % len(racks)] if racks else None)
        for i in range(count)
    )


def _group(topics: dict[str, int], members: Sequence[Member]) -> GroupState:
    return GroupState(topics=dict(topics), members=tuple(members))


def _without(state: GroupState, member_id: str) -> GroupState:
    return GroupState(state.topics, tuple(m for m in state.members if m.id != member_id), state.partition_racks)


@dataclass(frozen=True)
class Preset:
    """A named scenario builder; ``origin`` says where it comes from (a seed article or "realistic")."""

    key: str
    title: str
    origin: str
    build: Callable[[], Scenario]


def _seed_a() -> Scenario:
    step = _group({"t0": 10}, make_members(3, ["t0"]))
    return Scenario((step,), "seed-a: range, 10 partitions / 3 consumers",
                    "《如何确定Kafka的分区数、key和consumer线程数》: RangeAssignor splits one topic of 10 partitions "
                    "over C0..C2.")


def _seed_b(partitions: int) -> Callable[[], Scenario]:
    def build() -> Scenario:
        step = _group({"t0": partitions, "t1": partitions}, make_members(2, ["t0", "t1"]))
        return Scenario((step,), f"seed-b: 2 consumers x 2 topics x {partitions} partitions",
                        f"《Kafka 分区》, 《深入理解 Kafka》, 《深入客户端（Explore Client）》: C0 and C1 both "
                        f"subscribe to t0 and t1 ({partitions} partitions each).")
    return build


def _seed_c() -> Scenario:
    members = (Member("C0", ("t0",)), Member("C1", ("t0", "t1")), Member("C2", ("t0", "t1", "t2")))
    step0 = _group({"t0": 1, "t1": 2, "t2": 3}, members)
    return Scenario((step0, _without(step0, "C0")), "seed-c: heterogeneous subscriptions, then C0 leaves",
                    "《深入理解 Kafka》, 《深入客户端（Explore Client）》: C0 reads t0; C1 reads t0,t1; C2 reads "
                    "t0,t1,t2. Step 1: C0 leaves.")


def _seed_d() -> Scenario:
    topics = ["t0", "t1", "t2", "t3"]
    step0 = _group({t: 2 for t in topics}, make_members(3, topics))
    return Scenario((step0, _without(step0, "C1")), "seed-d: sticky, 3 consumers x 4 topics x 2, then C1 leaves",
                    "《深入理解 Kafka》, 《深入客户端（Explore Client）》: the StickyAssignor example. Step 1: C1 "
                    "leaves the group.")


def _order_service() -> Scenario:
    step = _group({"orders": 12}, make_members(5, ["orders"], prefix="order-svc-"))
    return Scenario((step,), "order service: 12 partitions, 5 consumers",
                    "One topic, 12 partitions, 5 instances: 12 % 5 = 2 instances carry 3 partitions. "
                    "Partition 0 is a hot partition (a big customer).",
                    {"orders": skew_weights(12, "one-hot")})


def _more_consumers() -> Scenario:
    step = _group({"events": 6}, make_members(8, ["events"]))
    return Scenario((step,), "more consumers than partitions: 6 partitions, 8 consumers",
                    "In a consumer group a partition is read by at most one consumer: 2 consumers stay idle. "
                    "(A share group, Kafka 4.2, lets them read too: see the share-group preset.)")


def _heterogeneous() -> Scenario:
    members = (
        Member("billing-1", ("orders", "payments")),
        Member("billing-2", ("orders", "payments")),
        Member("audit-1", ("orders", "payments", "audit")),
        Member("search-1", ("orders",)),
    )
    step = _group({"orders": 8, "payments": 4, "audit": 3}, members)
    return Scenario((step,), "heterogeneous subscriptions",
                    "Members subscribe to different topics; only the sticky family balances across them.",
                    {"orders": skew_weights(8, "zipf")})


def _share_group() -> Scenario:
    step0 = _group({"jobs": 3}, make_members(8, ["jobs"]))
    step2 = _group({"jobs": 3}, (*_without(step0, "C3").members, Member("C8", ("jobs",))))
    return Scenario((step0, _without(step0, "C3"), step2), "share group: 3 partitions, 8 consumers (KIP-932)",
                    "A share group (KIP-932): 8 consumers read 3 partitions, 3 members on each (ceil(8 / 3)). "
                    "Step 1: C3 leaves. Step 2: C8 joins.", group_type="share")


def _three_az() -> Scenario:
    racks = ("az1", "az2", "az3")
    topics = {"orders": 12, "payments": 6}
    members = make_members(6, list(topics), prefix="C", racks=racks)
    partition_racks = {t: spread_replica_racks(n, racks, 2) for t, n in topics.items()}
    step = GroupState(topics, members, partition_racks)
    return Scenario((step,), "3-AZ group, rack-aware assignment (KIP-881)",
                    "Consumers set client.rack to their AZ; each partition has 2 replicas in 2 of 3 AZs. "
                    "Range and the sticky family prefer same-AZ replicas.")


def _mixed_static() -> Scenario:
    members = (Member("svc-1", ("orders", "payments"), instance_id="orders-c"),
               Member("svc-2", ("orders", "payments")),
               Member("svc-3", ("orders", "payments"), instance_id="orders-a"))
    step = _group({"orders": 6, "payments": 3}, members)
    return Scenario((step,), "static and dynamic members mixed (Java and librdkafka differ)",
                    "A move to static membership half done: svc-1 and svc-3 set group.instance.id, svc-2 does not. "
                    "Java's range and roundrobin sort static members first, by group.instance.id; librdkafka "
                    "compares instance ids only between two static members, member ids otherwise.")


STREAMS_TOPICS = {"orders": 6, "payments": 6, "shipments": 3}
STREAMS_TOPOLOGY = StreamsTopology((StreamsSubtopology("0", ("orders", "payments"), stateful=True),
                                    StreamsSubtopology("1", ("shipments",))), num_standby_replicas=1)


def stream_threads(process: str, threads: int, suffix: str = "") -> tuple[Member, ...]:
    """``threads`` members of application instance ``process``: ``<process>-t1<suffix>``, ... (a stream thread
    each), reading the preset topology's source topics."""
    return tuple(Member(f"{process}-t{t}{suffix}", STREAMS_TOPOLOGY.source_topics, process=process)
                 for t in range(1, threads + 1))


def _streams_app(*processes: tuple[str, str]) -> GroupState:
    return _group(STREAMS_TOPICS, [m for process, suffix in processes for m in stream_threads(process, 2, suffix)])


def _streams_stateful() -> Scenario:
    step = _streams_app(("app-1", ""), ("app-2", ""), ("app-3", ""))
    return Scenario((step,), "streams group: stateful join, 3 instances x 2 threads (KIP-1071)",
                    "A Kafka Streams app as a streams group (Kafka 4.2): subtopology 0 joins orders and payments "
                    "(6 stateful tasks, one standby replica each), subtopology 1 filters shipments (3 stateless "
                    "tasks); 3 instances of 2 stream threads.", group_type="streams", streams=STREAMS_TOPOLOGY)


def _streams_rolling_restart() -> Scenario:
    up = _streams_app(("app-1", ""), ("app-2", ""), ("app-3", ""))
    down = _streams_app(("app-1", ""), ("app-3", ""))
    back = _streams_app(("app-1", ""), ("app-3", ""), ("app-2", "-restarted"))  # who joins comes last
    return Scenario((up, down, back), "streams group: one instance restarts (KIP-1071)",
                    "The stateful streams app, then app-2 restarts. Step 1: its threads leave; standbys are promoted. "
                    "Step 2: it is back with new member ids and the assignor owes it nothing.",
                    group_type="streams", streams=STREAMS_TOPOLOGY)


def _large() -> Scenario:
    topics = {f"topic-{i}": 500 for i in range(4)}
    step = _group(topics, make_members(50, list(topics)))
    return Scenario((step,), "large: 50 members / 2,000 partitions",
                    "Four topics of 500 partitions read by 50 members.")


PRESETS: dict[str, Preset] = {
    p.key: p
    for p in (
        Preset("seed-a", "seed-a: range, 10 partitions / 3 consumers", "seed article 000", _seed_a),
        Preset("seed-b-4p", "seed-b: 2 consumers x 2 topics x 4 partitions", "seed article 004 (range)", _seed_b(4)),
        Preset("seed-b-3p", "seed-b: 2 consumers x 2 topics x 3 partitions", "seed articles 001/002/004", _seed_b(3)),
        Preset("seed-c", "seed-c: heterogeneous, then C0 leaves", "seed articles 002/004", _seed_c),
        Preset("seed-d", "seed-d: sticky example, then C1 leaves", "seed articles 002/004", _seed_d),
        Preset("order-service", "order service: 12 partitions / 5 consumers", "realistic", _order_service),
        Preset("more-consumers", "more consumers than partitions (8 / 6)", "realistic", _more_consumers),
        Preset("heterogeneous", "heterogeneous subscriptions", "realistic", _heterogeneous),
        Preset("share-group", "share group: 3 partitions / 8 consumers", "realistic (KIP-932)", _share_group),
        Preset("streams-stateful", "streams group: stateful app, 3 instances x 2 threads", "realistic (KIP-1071)",
               _streams_stateful),
        Preset("streams-rolling-restart", "streams group: one instance restarts", "realistic (KIP-1071)",
               _streams_rolling_restart),
        Preset("three-az", "3-AZ group, rack-aware", "realistic", _three_az),
        Preset("mixed-static", "static and dynamic members mixed (Java and librdkafka differ)", "realistic",
               _mixed_static),
        Preset("large", "large: 50 members / 2,000 partitions", "realistic", _large),
    )
}
DEFAULT_PRESET = "seed-d"
BLANK_NAME = "new blank scenario"


def blank_scenario() -> Scenario:
    """The start of a scenario built from scratch: one topic ``t0`` of 3 partitions, one consumer ``C0``, no
    later steps and no preset's name (``blank_scenario().steps[0].member_ids == ['C0']``)."""
    return Scenario((_group({"t0": 3}, make_members(1, ["t0"])),), BLANK_NAME,
                    "Built from scratch in the scenario builder.")


def names_a_preset(name: str) -> bool:
    """Whether ``name`` is the name a preset gives its scenario (an edited scenario must not keep it).

    ``names_a_preset(PRESETS["seed-d"].build().name) and not names_a_preset("my group")``
    """
    return name in _preset_names()


@cache
def _preset_names() -> frozenset[str]:
    return frozenset({p.build().name for p in PRESETS.values()} | {p.title for p in PRESETS.values()})


def build_preset(key: str) -> Scenario:
    """The preset's scenario; an unknown key is a one-line ``ScenarioError``."""
    if key not in PRESETS:
        raise ScenarioError(f"preset: unknown {key!r}; one of {', '.join(PRESETS)}")
    return PRESETS[key].build()
