"""The course: sixteen lessons for new engineers, every answer computed by the live engine.

Why partitions -> where a key lands -> the four client assignors on the reference examples -> a consumer leaves
(eager vs cooperative) -> static membership and rolling restarts -> the new consumer protocol -> sizing a
topic -> the timing wheel; then a record's path beyond the group (``engine.lessons.data_path``): the producer,
the partition log, replication, lag and offsets, transactions, hot keys; then streams groups (KIP-1071: tasks,
stream threads, standby replicas) and share groups (KIP-932: several consumers on one partition).  Each step is
built on demand (``course()`` is cached) from the same functions the pages call, so a lesson can never disagree
with its page::

    >>> [lesson.id for lesson in course()][:3]
    ['why', 'keys', 'assignors']
    >>> step_of(2, 1).answer   # lesson 2, step 1: key "21" on 50 partitions (murmur2 -> toPositive -> % 50)
    40
    >>> step_of(4, 2).answer   # seed-d, C1 leaves: StickyAssignor is eager, C0 and C2 revoke all 5 they kept
    5
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from engine.comparison import CLIENT, SERVER, Assignor, outcomes, revoked_count
from engine.consumer.assignment import AssignmentView
from engine.consumer.explain import callouts_for
from engine.consumer.membership import RollingRestartConfig, rolling_restart
from engine.consumer.strategies import strategy_of
from engine.coordinator.streams.group import StreamsGroup, assign_streams_group
from engine.errors import ScenarioError
from engine.lessons.data_path import DATA_PATH_BUILDERS
from engine.lessons.model import ArticleNote, Lesson, LessonStep, NoteKind, PageLink
from engine.presets import build_preset
from engine.producer.murmur2 import murmur2, partition_for_key
from engine.scenario import GroupState, Scenario
from engine.server.timer.driver import simulate
from engine.server.timer.model import TaskSpec, WheelConfig
from engine.sizing import partitions_needed, seed_article_partitions
from engine.streams_sizing import SourceSubtopology, StreamsSizingInputs, failover, holders

if TYPE_CHECKING:
    from engine.coordinator.share_assignment import ShareStepResult

REMAP_KEYS = 10_000  # keys "key-0" .. "key-9999"
REMAP_FROM, REMAP_TO = 12, 16


def scene_of(state: GroupState, owned: AssignmentView | None = None) -> tuple[Mapping[str, str], ...]:
    """The group on screen: one row per member with its subscription (``member``, ``topics``) and, for a
    rebalance, what it owned before (``owns``: the previous step's assignment)."""
    rows = []
    for m in state.members:
        row = {"member": m.id, "topics": ", ".join(f"{t} ({state.topics[t]})" for t in m.topics)}
        if owned is not None:
            row["owns"] = ", ".join(str(tp) for tp in sorted(owned.get(m.id, [])))
        rows.append(row)
    return tuple(rows)


def _before(scenario: Scenario, assignor: Assignor, step: int) -> tuple[Mapping[str, str], ...]:
    """The scene of a rebalance: the group of the step before, with what each member owned there."""
    return scene_of(scenario.steps[step - 1], outcomes(scenario, assignor)[step - 1].assignment)


def _owned(scenario: Scenario, strategy: str, step: int, member: str) -> tuple[str, ...]:
    """What ``member`` owns, by topic, then partition (an answer listed sorted)."""
    assignment = outcomes(scenario, CLIENT[strategy])[step].assignment
    return tuple(str(tp) for tp in sorted(assignment.get(member, [])))


def group_states(scenario: Scenario, step: int, **more: Any) -> dict[str, Any]:
    """What a question about rebalance ``step`` of a preset states: the members (in the coordinator's order)
    and topics of step 0, who has left since (first) and who has joined (then, in order), and ``more`` (the
    strategy, the member asked about, ...)."""
    first, now = scenario.first, scenario.steps[step]
    states: dict[str, Any] = {"members": tuple(first.member_ids), "topics": dict(first.topics)}
    if step:
        states.update({"leaves": tuple(m for m in first.member_ids if m not in now.member_ids),
                       "joins": tuple(m for m in now.member_ids if m not in first.member_ids)})
    return {**states, **more}


# What kind of error each article callout a lesson shows is (engine.consumer.explain's ``why`` says how):
# a typo, out of date since a Kafka release (right for the Kafka the article was written for), or wrong.
NOTE_KINDS: Mapping[tuple[str, str, int], tuple[NoteKind, str]] = {
    ("seed-b-4p", "range", 0): ("wrong", ""),  # 004 lists round-robin's answer under range
    ("seed-b-3p", "roundrobin", 0): ("typo", ""),  # 001: "p1p2" for t1-2
    # the freed partitions dealt round-robin to the under-quota members: KAFKA-12464, resolved 2021-05-06, after
    # the 2.8.0 release (2021-04-19), so first shipped in 3.0.0
    ("seed-d", "sticky", 1): ("outdated", "3.0"),
}
NOTE_WHY: Mapping[tuple[str, str, int], str] = {
    ("seed-d", "sticky", 1): "The articles show the sticky algorithm from before Kafka 3.0 (and 004 has typos). Since "
                             "KAFKA-12464 (3.0) the freed partitions go round-robin to the under-quota members "
                             "sorted by id.",
}


def _note(preset: str, strategy: str, step: int) -> ArticleNote | None:
    found = [c for c in callouts_for(preset, strategy) if c.step == step]
    if not found:
        return None
    kind, since = NOTE_KINDS.get((preset, strategy, step), ("wrong", ""))
    why = NOTE_WHY.get((preset, strategy, step), found[0].why)
    return ArticleNote(found[0].article, found[0].says, found[0].kafka, kind, since, why)


def _assign_step(sid: str, preset: str, strategy: str, step: int, member: str, page_step: int = 0) -> LessonStep:
    """"Which partitions does ``member`` own under ``strategy``?" on a seed preset."""
    scenario = build_preset(preset)
    every = tuple(f"{t}-{p}" for t, n in scenario.steps[step].topics.items() for p in range(n))
    params = (("preset", preset), ("rebalance.step", str(page_step))) if page_step else (("preset", preset),)
    page = "pages/2_Rebalance.py" if step else "pages/1_Assignments.py"
    return LessonStep(sid, "partitions", _owned(scenario, strategy, step, member),
                      {"member": member, "strategy": strategy, "preset": preset}, strategy_of(strategy).kafka_class,
                      choices=every,
                      scene=_before(scenario, CLIENT[strategy], step) if step else scene_of(scenario.first),
                      link=PageLink(page, params), article=_note(preset, strategy, step),
                      states=group_states(scenario, step, strategy=strategy, member=member))


def _why() -> Lesson:
    orders = build_preset("order-service")
    counts = [len(tps) for tps in outcomes(orders, CLIENT["range"])[0].assignment.values()]
    idle = build_preset("more-consumers")
    idle_count = sum(1 for tps in outcomes(idle, CLIENT["range"])[0].assignment.values() if not tps)
    return Lesson("why", (
        LessonStep("why.three", "number", counts.count(max(counts)), {"partitions": 12, "consumers": len(counts),
                   "most": max(counts)}, "org.apache.kafka.clients.consumer.RangeAssignor#assignPartitions",
                   scene=scene_of(orders.first), states={"partitions": orders.first.total_partitions,
                                                         "consumers": len(counts), "strategy": "range",
                                                         "most": max(counts)},
                   link=PageLink("pages/1_Assignments.py", (("preset", "order-service"),))),
        LessonStep("why.idle", "number", idle_count, {"partitions": 6, "consumers": len(idle.first.members)},
                   "org.apache.kafka.clients.consumer.internals.AbstractPartitionAssignor#assign",
                   scene=scene_of(idle.first), states={"partitions": idle.first.total_partitions,
                                                       "consumers": len(idle.first.members)},
                   link=PageLink("pages/1_Assignments.py", (("preset", "more-consumers"),))),
    ))


@functools.cache
def remap_counts(keys: int = REMAP_KEYS, before: int = REMAP_FROM, after: int = REMAP_TO) -> tuple[int, int]:
    """(keys whose partition changes, keys) when ``key-0..key-{keys-1}`` go from ``before`` to ``after`` partitions."""
    moved = sum(1 for i in range(keys)
                if partition_for_key(f"key-{i}", before) != partition_for_key(f"key-{i}", after))
    return moved, keys


def _keys() -> Lesson:
    raw = murmur2(b"21")
    moved, total = remap_counts()
    one_key = PageLink("pages/3_Keys.py", (("keys.source", "paste"), ("keys.paste", "21"), ("keys.partitions", "50")))
    # the page's uniform sample of as many keys (key-0 .. key-9999 would not fit in a URL), 12 -> 16 partitions
    remap = PageLink("pages/3_Keys.py", (("keys.source", "generate"), ("keys.kind", "uniform"),
                                         ("keys.count", str(REMAP_KEYS)), ("keys.distinct", str(REMAP_KEYS)),
                                         ("keys.partitions", str(REMAP_FROM)), ("keys.remap_to", str(REMAP_TO))))
    return Lesson("keys", (
        LessonStep("keys.partition", "number", partition_for_key("21", 50),
                   {"key": "21", "partitions": 50, "murmur2": raw, "positive": raw & 0x7FFFFFFF},
                   "org.apache.kafka.clients.producer.internals.BuiltInPartitioner#partitionForKey "
                   "(Utils.toPositive(Utils.murmur2(keyBytes)) % numPartitions)", link=one_key,
                   states={"key": "21", "partitions": 50}),
        LessonStep("keys.remap", "number", round(100 * moved / total), {"moved": moved, "keys": total,
                   "before": REMAP_FROM, "after": REMAP_TO, "stay": total - moved},
                   "org.apache.kafka.common.utils.Utils#murmur2, Utils#toPositive", tolerance=5, link=remap,
                   states={"keys": total, "before": REMAP_FROM, "after": REMAP_TO}),
    ))


def _assignors() -> Lesson:
    seed_a = build_preset("seed-a")
    first = _owned(seed_a, "range", 0, "C0")
    return Lesson("assignors", (
        _assign_step("assignors.range", "seed-b-4p", "range", 0, "C0"),
        _assign_step("assignors.roundrobin", "seed-b-3p", "roundrobin", 0, "C1"),
        LessonStep("assignors.count", "number", len(first),
                   {"partitions": 10, "consumers": 3, "owned": ", ".join(first)},
                   strategy_of("range").kafka_class, scene=scene_of(seed_a.first),
                   states={"partitions": seed_a.first.total_partitions, "consumers": len(seed_a.first.members),
                           "strategy": "range", "member": "C0"},
                   link=PageLink("pages/1_Assignments.py", (("preset", "seed-a"),))),
    ))


def _leaves() -> Lesson:
    seed_d = build_preset("seed-d")
    eager = outcomes(seed_d, CLIENT["sticky"])[1]
    cooperative = outcomes(seed_d, CLIENT["cooperative-sticky"])[1]
    return Lesson("leaves", (
        _assign_step("leaves.sticky", "seed-d", "sticky", 1, "C0", page_step=1),
        LessonStep("leaves.revoked", "number", revoked_count(eager), {"moved": eager.moved,
                   "cooperative": revoked_count(cooperative), "rounds": cooperative.rounds},
                   "org.apache.kafka.clients.consumer.internals.ConsumerCoordinator#onJoinPrepare (EAGER) vs "
                   "#onJoinComplete (COOPERATIVE)", scene=_before(seed_d, CLIENT["sticky"], 1),
                   states=group_states(seed_d, 1, strategy="sticky"),
                   link=PageLink("pages/2_Rebalance.py", (("preset", "seed-d"), ("rebalance.step", "1")))),
    ))


def _static() -> Lesson:
    state = build_preset("seed-a").first
    state = GroupState({"t0": 6}, tuple(m for m in state.members), state.partition_racks)
    config = RollingRestartConfig(restart_ms=30_000, session_timeout_ms=45_000)
    dynamic = rolling_restart(state, "range", config, static=False)
    static = rolling_restart(state, "range", config, static=True)
    slow = rolling_restart(state, "range", RollingRestartConfig(restart_ms=60_000, session_timeout_ms=45_000), True)
    if static.rebalance_consumer_seconds:  # a static member back in time causes no rebalance: only its own wait
        raise ScenarioError("lesson: the static rolling restart paused other members")
    # each partition waits while its owner is down: partition-seconds, the unit lesson 12's lag counts in
    facts = {"members": len(state.members), "partitions": 6, "restart_s": 30, "session_s": 45,
             "static_paused": round(state.total_partitions * static.downtime_consumer_seconds / len(state.members)),
             "slow": slow.rebalances}
    states = {"members": len(state.members), "partitions": state.total_partitions, "strategy": "range",
              "restart_s": config.restart_ms // 1000, "session_s": config.session_timeout_ms // 1000}
    link = PageLink("pages/7_Group_Protocol.py", (("protocol.restart_s", "30"), ("protocol.restart_session", "45000")),
                    Scenario((state,), "seed-a on one topic of 6 partitions"))
    kafka = "group.instance.id (KIP-345); org.apache.kafka.coordinator.group.classic.ClassicGroup#replaceStaticMember"
    return Lesson("static", (
        LessonStep("static.dynamic", "number", dynamic.rebalances, facts,
                   "org.apache.kafka.clients.consumer.internals.AbstractCoordinator#maybeLeaveGroup",
                   scene=scene_of(state), link=link, states={**states, "group.instance.id": False}),
        LessonStep("static.static", "number", static.rebalances, facts, kafka, scene=scene_of(state), link=link,
                   states={**states, "group.instance.id": True}),
    ))


def _kip848() -> Lesson:
    seed_d = build_preset("seed-d")
    uniform = outcomes(seed_d, SERVER["uniform"])[1]
    eager = outcomes(seed_d, CLIENT["sticky"])[1]
    return Lesson("kip848", (
        LessonStep("kip848.revoked", "number", revoked_count(uniform), {"moved": uniform.moved,
                   "eager": revoked_count(eager)},
                   "org.apache.kafka.coordinator.group.assignor.UniformAssignor, "
                   "org.apache.kafka.coordinator.group.modern.TargetAssignmentBuilder#build",
                   scene=_before(seed_d, SERVER["uniform"], 1),
                   states=group_states(seed_d, 1, **{"group.protocol": "consumer", "assignor": "uniform"}),
                   link=PageLink("pages/2_Rebalance.py", (("preset", "seed-d"), ("rebalance.step", "1")))),
    ))


SIZING_WHY = ("Dividing by the faster side sizes the topic for that side only: whenever Tp != Tc the slower side "
              "cannot keep up.")
# after "Kafka gives" in the article note: Kafka computes no partition count, the rule of thumb does
SIZING_RULE = "no partition count (it computes none); the rule of thumb gives max(Tt/Tp, Tt/Tc) = {needed}"
RULE_OF_THUMB = ("Jun Rao, \"How to choose the number of topics/partitions in a Kafka cluster?\" (Confluent blog, "
                 "2015): max(t/p, t/c), rounded up (engine.sizing.partitions_needed)")


def _sizing() -> Lesson:
    target, producer, consumer = 205, 25, 10  # 205 / 10 = 20.5: the page rounds up to 21
    needed = partitions_needed(target, producer, consumer)
    article = seed_article_partitions(target, producer, consumer)
    return Lesson("sizing", (
        LessonStep("sizing.partitions", "number", needed,
                   {"target": target, "producer": producer, "consumer": consumer, "by_producer": target / producer,
                    "by_consumer": target / consumer, "needed": needed, "article": article},
                   RULE_OF_THUMB, source="rule",
                   link=PageLink("pages/4_Sizing.py", (("sizing.target_mb_s", str(target)),
                                                       ("sizing.producer_mb_s", str(producer)),
                                                       ("sizing.consumer_mb_s", str(consumer)))),
                   states={"target": target, "producer": producer, "consumer": consumer},
                   article=ArticleNote("000", f"Tt / max(Tp, Tc) = {article}", SIZING_RULE.format(needed=needed),
                                       "wrong", "", SIZING_WHY)),
    ))


def _wheel() -> Lesson:
    tick, size, delay = 1, 20, 25
    placed = simulate(WheelConfig(tick, size, 0), [TaskSpec("t", delay)]).tasks[0].inserted
    if placed.level is None or placed.bucket is None:  # the engine fires a 25 ms task at once only if tick > 25
        raise ScenarioError("lesson: the timing-wheel example fired at once")
    level_tick = tick * size ** placed.level  # an overflow wheel's tick is the inner wheel's interval
    facts = {"tick": tick, "size": size, "delay": delay, "interval": tick * size, "level": placed.level,
             "level_tick": level_tick, "slot": delay // level_tick, "bucket": placed.bucket,
             "expires": placed.bucket_expiration_ms}
    link = PageLink("pages/5_Timing_Wheel.py", (("wheel.tick_ms", str(tick)), ("wheel.wheel_size", str(size)),
                                                 ("wheel.start_ms", "0"), ("wheel.source", "By hand"),
                                                 ("wheel.hand", f"t, {delay}")))
    kafka = "org.apache.kafka.server.util.timer.TimingWheel#add, TimingWheel#addOverflowWheel"
    states = {"tickMs": tick, "wheelSize": size, "delay": delay, "start_ms": 0}
    return Lesson("wheel", (
        LessonStep("wheel.level", "number", placed.level, facts, kafka, link=link, states=states),
        LessonStep("wheel.bucket", "number", placed.bucket, facts, kafka, link=link, states=states),
    ))


# ---------------------------------------------------------------------------------- share groups (KIP-932)

ONE_CONSUMER_PER_PARTITION = ArticleNote(
    "004", "each partition of a topic belongs to only one consumer of the group; two consumers of a group "
    "never read the same partition",
    "true for a consumer group; in a share group (KIP-932) several members read one partition, each record "
    "locked to one of them", kind="exception")
SIMPLE_ASSIGNOR = ("org.apache.kafka.coordinator.group.assignor.SimpleAssignor (group.share.assignors=simple), "
                   "SimpleHomogeneousAssignmentBuilder")


def _names(items: Iterable[str]) -> str:
    return ", ".join(items) or "-"


def _sharing_facts(scenario: Scenario, first: ShareStepResult) -> dict[str, Any]:
    """Step 0: how many members each partition gets and who reads two (against a consumer group's idle count)."""
    from engine.coordinator.simple import desired_sharing

    state, readers = scenario.first, first.members_of()
    consumer_idle = sum(1 for tps in outcomes(scenario, SERVER["uniform"])[0].assignment.values() if not tps)
    return {"partitions": state.total_partitions, "consumers": len(state.members), "consumer_idle": consumer_idle,
            "sharing": desired_sharing(len(state.members), state.total_partitions),
            "each": min(len(ms) for ms in readers.values()), "most": max(len(ms) for ms in readers.values()),
            "readers": ", ".join(f"{tp}: {len(ms)}" for tp, ms in sorted(readers.items())),
            "memberships": sum(len(tps) for tps in first.assignment.values()),
            "two": sum(1 for tps in first.assignment.values() if len(tps) == 2),
            "two_names": _names(m for m, tps in first.assignment.items() if len(tps) == 2)}


def _leave_facts(scenario: Scenario, before: ShareStepResult, after: ShareStepResult) -> dict[str, Any]:
    """Step 1: the member that leaves, the even split of the rest, and who gains its partitions."""
    from engine.coordinator.share_assignment import share_changes
    from engine.coordinator.simple import desired_counts, desired_sharing

    left = next(m for m in scenario.steps[0].member_ids if m not in scenario.steps[1].member_ids)
    stayed, partitions = len(scenario.steps[1].members), scenario.steps[1].total_partitions
    changes = [c for c in share_changes(before.assignment, after.assignment) if not c.left]
    readers = before.members_of()
    return {"left": left, "left_held": _names(str(tp) for tp in before.assignment[left]),
            "short": min(len(readers[tp]) - 1 for tp in before.assignment[left]), "stayed": stayed,
            "stayed_sharing": desired_sharing(stayed, partitions),
            "stayed_want_two": desired_counts(stayed, partitions).count(2),
            "gained": sum(1 for c in changes if c.gained),
            "gainers": _names(f"{c.member} ({_names(map(str, c.gained))})" for c in changes if c.gained),
            "lost_on_leave": sum(1 for c in changes if c.lost), "kept_on_leave": stayed - len(changes)}


def _join_facts(scenario: Scenario, before: ShareStepResult, after: ShareStepResult) -> dict[str, Any]:
    """Step 2: the member that joins and the members that give partitions back to make room for it."""
    from engine.coordinator.share_assignment import share_changes
    from engine.coordinator.simple import desired_counts

    joined = next(m for m in scenario.steps[2].member_ids if m not in scenario.steps[1].member_ids)
    size, partitions = len(scenario.steps[2].members), scenario.steps[2].total_partitions
    changes = share_changes(before.assignment, after.assignment)
    return {"joined": joined, "join_size": size, "join_want_two": desired_counts(size, partitions).count(2),
            "lost": sum(1 for c in changes if c.lost),
            "losers": _names(c.member for c in changes if c.lost),
            "given_back": _names(str(tp) for c in changes for tp in c.lost),
            "joiner_got": _names(str(tp) for c in changes if c.joined for tp in c.gained)}


def _share_groups() -> Lesson:
    """Share groups on the share-group preset: 8 consumers, 3 partitions, then C3 leaves and C8 joins (answers
    computed by ``engine.coordinator.share_assignment``, the port of Kafka's SimpleAssignor)."""
    from engine.coordinator.share_assignment import share_assign

    scenario = build_preset("share-group")
    steps = share_assign(scenario).steps
    facts = {**_sharing_facts(scenario, steps[0]), **_leave_facts(scenario, steps[0], steps[1]),
             **_join_facts(scenario, steps[1], steps[2])}
    link = PageLink("pages/1_Assignments.py", (("preset", "share-group"),))
    scene = scene_of(scenario.first)

    def rebalance(step: int) -> PageLink:
        return PageLink("pages/2_Rebalance.py", (("preset", "share-group"), ("rebalance.step", str(step))))

    return Lesson("share", (
        LessonStep("share.readers", "number", facts["each"], facts, SIMPLE_ASSIGNOR, scene=scene, link=link,
                   article=ONE_CONSUMER_PER_PARTITION, states=group_states(scenario, 0)),
        LessonStep("share.two", "number", facts["two"], facts, SIMPLE_ASSIGNOR, scene=scene, link=link,
                   states=group_states(scenario, 0)),
        LessonStep("share.leave", "number", facts["gained"], facts,
                   SIMPLE_ASSIGNOR + "#assignRemainingPartitions",
                   scene=scene_of(scenario.first, steps[0].assignment), link=rebalance(1),
                   states=group_states(scenario, 1)),
        LessonStep("share.join", "number", facts["lost"], facts, SIMPLE_ASSIGNOR + "#revokeOverfilledMembers",
                   scene=scene_of(scenario.steps[1], steps[1].assignment), link=rebalance(2),
                   states=group_states(scenario, 2)),
    ))


SHARE_GROUP_LESSONS: tuple[Callable[[], Lesson], ...] = (_share_groups,)

# --------------------------------------------------------------------------------- streams groups (KIP-1071)

STICKY_TASK_ASSIGNOR = "org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor"
MERGED = (6, 4)  # a subtopology reading two topics (KStream#merge): its tasks
ALONE_THREADS = 6  # one instance with a thread per task: no standby can be placed


def _streams_app(instances: int, threads: int, standbys: int, sources: tuple[int, ...] = (6,),
                 stateful: bool = True) -> StreamsSizingInputs:
    """One subtopology on ``instances`` instances (``app-1`` ..) of ``threads`` threads (``app-1-t1`` ..)."""
    return StreamsSizingInputs((SourceSubtopology(sources, stateful),), instances, threads, standbys)


def streams_link(app: StreamsSizingInputs) -> PageLink:
    """The Sizing page's Kafka Streams tab with ``app``'s one subtopology, instances, threads and standbys."""
    (sub,) = app.subtopologies
    return PageLink("pages/4_Sizing.py", (
        ("sizing.streams.subtopologies", "1"), ("sizing.streams.sources.0", ", ".join(map(str, sub.source_partitions))),
        ("sizing.streams.stateful.0", "1" if sub.stateful else "0"), ("sizing.streams.instances", str(app.instances)),
        ("sizing.streams.threads", str(app.threads)), ("sizing.streams.standbys", str(app.standby_replicas))))


SPREAD_APP = _streams_app(5, 2, 0, MERGED, stateful=False)  # steps 1-2
STANDBY_APP = _streams_app(3, 2, 1)  # steps 3, 5, 6
ALONE_APP = _streams_app(1, ALONE_THREADS, 1)  # step 4


def _order(tasks: Iterable[str]) -> list[str]:
    """Task labels (``"0_10"``) by subtopology, then partition."""
    return sorted(tasks, key=lambda t: tuple(int(part) for part in t.split("_")))


def _tasks(tasks: Iterable[str]) -> str:
    return _names(_order(tasks))


def _streams_spread_facts() -> dict[str, Any]:
    """Steps 1-2: the merged subtopology's tasks, and the threads of 5 instances x 2 that get one."""
    app = SPREAD_APP
    first = assign_streams_group(app.group())
    busy = [m for m, tasks in first.members.items() if tasks.active]
    return {"topic_a": MERGED[0], "topic_b": MERGED[1], "tasks": app.subtopologies[0].tasks,
            "spread_instances": app.instances, "spread_threads": app.threads,
            "spread_total": app.instances * app.threads, "busy": len(busy),
            "idle": app.instances * app.threads - len(busy)}


def _streams_standby_facts() -> dict[str, Any]:
    """Steps 3-4: the standbys of 6 stateful tasks on 3 instances x 2 threads, then on one instance of 6."""
    app = STANDBY_APP
    active, standby = holders(assign_streams_group(app.group()))
    counts = {p: sum(1 for held in standby.values() if p in held) for p in sorted(set(active.values()))}
    alone = assign_streams_group(ALONE_APP.group())
    return {"instances": app.instances, "threads": app.threads, "standbys": app.standby_replicas,
            "partitions": app.subtopologies[0].tasks, "copies": sum(counts.values()),
            "per_instance": _names(f"{p}: {n}" for p, n in counts.items()),
            "placement": _names(f"{t} ({active[t]}; {', '.join(sorted(standby[t]))})" for t in _order(active)),
            "same_instance": sum(1 for t in active if active[t] in standby[t]),
            "alone_threads": ALONE_THREADS, "alone_placed": sum(len(r.standbys) for r in alone.rows),
            "alone_missing": sum(u.missing for u in alone.assignment.unplaced_standbys)}


def _streams_restart_facts(restarted: str = "app-2") -> dict[str, Any]:
    """Steps 5-6: ``restarted`` stops (its members leave), then comes back with new members and no previous
    tasks; with one standby replica, and the same stop without standbys."""
    app = STANDBY_APP
    group = app.group()
    first = assign_streams_group(group)
    before, standby_before = holders(first)
    gone = failover(group, first, restarted)
    after, standby_after = holders(gone)
    moved = [t for t in before if before[t] == restarted]
    bare = app.group(standby_replicas=0)
    bare_first = assign_streams_group(bare)
    bare_before, _ = holders(bare_first)
    bare_after, _ = holders(failover(bare, bare_first, restarted))
    back = assign_streams_group(StreamsGroup(group.subtopologies, group.processes, 1, previous=gone.members))
    returned = [t for t, p in holders(back)[0].items() if p == restarted]
    return {"restarted": restarted, "restarted_active": _tasks(moved),
            "warm": sum(1 for t in moved if after[t] in standby_before[t]),
            "cold": sum(1 for t in moved if after[t] not in standby_before[t]),
            "takers": _names(f"{t} > {after[t]}" for t in _order(moved)),
            "rebuilt": _tasks(t for t in before if restarted in standby_before[t]),
            "rebuilt_on": _names(f"{t} > {', '.join(sorted(standby_after[t]))}" for t in _order(before)
                                 if restarted in standby_before[t]),
            "bare_cold": sum(1 for t in bare_before if bare_before[t] == restarted and bare_after[t] != restarted),
            "returned": len(returned), "returned_tasks": _tasks(returned),
            "returned_again": sum(1 for t in returned if t in moved)}


def _streams_groups() -> Lesson:
    """Streams groups: tasks, threads, standby replicas and a restart, every answer from Kafka 4.2.0's
    ``StickyTaskAssignor`` (``engine.coordinator.streams``) through the Sizing tab's engine
    (``engine.streams_sizing``)."""
    facts = {**_streams_spread_facts(), **_streams_standby_facts(), **_streams_restart_facts()}
    assign_active, assign_standby = STICKY_TASK_ASSIGNOR + "#assignActive", STICKY_TASK_ASSIGNOR + "#assignStandby"
    spread, standby = streams_link(SPREAD_APP), streams_link(STANDBY_APP)

    def stated(*names: str, **more: Any) -> dict[str, Any]:  # the facts a question quotes, and what it says
        return {**{name: facts[name] for name in names}, **more}

    restart = stated("instances", "threads", "partitions", "standbys", "restarted", "restarted_active", stateful=True)
    return Lesson("streams", (
        LessonStep("streams.tasks", "number", facts["tasks"], facts,
                   "org.apache.kafka.coordinator.group.streams.TopologyMetadata#maxNumInputPartitions",
                   link=spread, states=stated("topic_a", "topic_b")),
        LessonStep("streams.threads", "number", facts["busy"], facts, assign_active, link=spread,
                   states=stated("topic_a", "topic_b", "spread_instances", "spread_threads", "spread_total",
                                 stateless=True, **{"num.standby.replicas": 0})),
        LessonStep("streams.standbys", "number", facts["copies"], facts, assign_standby, link=standby,
                   states=stated("partitions", "instances", "threads", "standbys", stateful=True)),
        LessonStep("streams.alone", "number", facts["alone_placed"], facts,
                   STICKY_TASK_ASSIGNOR + "#assignStandbyToMemberWithLeastLoad", link=streams_link(ALONE_APP),
                   states=stated("partitions", "standbys", "alone_threads", stateful=True)),
        LessonStep("streams.restart", "number", facts["warm"], facts, assign_active, link=standby,
                   states=restart),
        LessonStep("streams.rejoin", "number", facts["returned"], facts, assign_active, link=standby,
                   states=restart),
    ))


STREAMS_GROUP_LESSONS: tuple[Callable[[], Lesson], ...] = (_streams_groups,)

# ------------------------------------------------------------------------------------------------ the course

BUILDERS: tuple[Callable[[], Lesson], ...] = (
    _why, _keys, _assignors, _leaves, _static, _kip848, _sizing, _wheel,
    *DATA_PATH_BUILDERS,  # the producer, the log, replication, lag, transactions, hot keys (engine.lessons.data_path)
    *STREAMS_GROUP_LESSONS,
    *SHARE_GROUP_LESSONS,
)


@functools.cache
def course() -> tuple[Lesson, ...]:
    """Every lesson, built once per process from the live engine."""
    return tuple(build() for build in BUILDERS)


def clamp_position(lesson: object, step: object) -> tuple[int, int]:
    """A valid 1-based (lesson, step) from URL text: non-numbers and out-of-range values are clamped."""
    def whole(value: object) -> int:
        text = str(value if value is not None else "1").strip()
        return int(text) if text.isascii() and text.isdigit() and len(text) < 6 else 1

    lessons = course()
    number = min(max(whole(lesson), 1), len(lessons))
    return number, min(max(whole(step), 1), len(lessons[number - 1].steps))


def step_of(lesson: int, step: int) -> LessonStep:
    """The step at a 1-based position (``step_of(4, 2)``: lesson 4, step 2), clamped to the course."""
    number, index = clamp_position(lesson, step)
    return course()[number - 1].steps[index - 1]
