"""The course's second half: a record's path beyond the consumer group — the producer, the partition log,
replication, consumer lag and offsets, transactions (read_committed, LSO), hot keys.  Every answer is computed
by the engine functions the pages call (``engine.producer.idempotence`` for the Producer page,
``engine.storage`` for the Partition Log page, ``engine.server.replication``, ``engine.consumer.pause`` for the
Rebalance page, ``engine.storage.txn_log``, ``engine.producer.keysample`` for Keys and Load)::

    >>> [lesson.id for lesson in data_path_lessons()]
    ['producer', 'log', 'replication', 'lag', 'eos', 'hot']
    >>> producer_order({"enable.idempotence": False})   # reference article 002's retry reorders: B lands last
    '0, 2, 3, 1'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from engine.comparison import CLIENT, outcomes, step_pause
from engine.consumer.pause import ProtocolTimings
from engine.coordinator.offsets_partition import DEFAULT_OFFSETS_PARTITIONS, coordinator_partition
from engine.errors import ScenarioError
from engine.lessons.model import Lesson, LessonStep, PageLink
from engine.presets import build_preset
from engine.producer.arrow import partitions_for_arrow
from engine.producer.idempotence import parse_spec, report, simulate
from engine.producer.keysample import SampleSpec, generate, hottest_keys, partition_histogram
from engine.producer.producer_config import ConfigError, resolve
from engine.server.replication import ACKS, ReplicaState, fail_broker, high_watermark, lost_records, produce_error
from engine.storage import partition_log
from engine.storage.index import largest_lower_bound
from engine.storage.log_config import OFFSET_ENTRY_SIZE
from engine.storage.txn_log import parse_operations, replay

REBALANCE_PAGE: Final = PageLink("pages/2_Rebalance.py", (("preset", "seed-d"), ("rebalance.step", "1")))


INTERVAL_MS: Final = 10  # records 10 ms apart: one batch per request whether linger.ms is 0 or 5
LATENCY_MS: Final = 20


def _produce(config: Mapping[str, Any], faults: list[tuple[int, str]], records: int,
             one_per_request: bool = True) -> dict[str, Any]:
    """``python -m engine produce`` (the Producer page's engine) on one partition, 20 ms latency; the questions
    say "one request each", so a run that batches records together is refused (``one_per_request``)."""
    result = report(simulate(parse_spec({"config": dict(config), "partitions": 1, "records": records,
                                         "interval_ms": INTERVAL_MS, "latency_ms": LATENCY_MS,
                                         "faults": [{"request": n, "kind": k} for n, k in faults]})))
    if one_per_request and any(len(b["records"]) != 1 for b in result["batches"]):
        raise ScenarioError("lesson: the producer example batched records together")
    return result


def producer_link(config: Mapping[str, Any], faults: list[tuple[int, str]], records: int) -> PageLink:
    """The Producer page running ``_produce``'s document: its fields from the URL (``producer.acks`` among them,
    so the page does not load its first preset over them)."""
    idempotence = config.get("enable.idempotence")
    params = [("producer.acks", str(config.get("acks", "all"))),
              ("producer.idempotence", "default" if idempotence is None else str(idempotence).lower())]
    params += [(f"producer.{name}", str(value)) for name, value in config.items()
               if name not in ("acks", "enable.idempotence")]
    params += [("producer.partitions", "1"), ("producer.records", str(records)),
               ("producer.interval_ms", str(INTERVAL_MS)), ("producer.latency_ms", str(LATENCY_MS))]
    if faults:  # else the page's empty field
        params.append(("producer.faults", "\n".join(f"{n}, {kind}" for n, kind in faults)))
    return PageLink("pages/9_Producer.py", tuple(params))


def produce_states(config: Mapping[str, Any], faults: list[tuple[int, str]], records: int,
                   **defaults: Any) -> dict[str, Any]:
    """What a producer question states: ``_produce``'s whole document (one partition, the records, their
    interval, the latency each way, the config with the ``defaults`` it names, every fault by request number)."""
    return {"partitions": 1, "records": records, "interval_ms": INTERVAL_MS, "latency_ms": LATENCY_MS,
            "config": {**config, **{name.replace("_", "."): value for name, value in defaults.items()}},
            "faults": tuple(faults)}


def producer_order(config: Mapping[str, Any], records: int = 4) -> str:
    """The partition's log, record numbers in offset order, when request 2 gets NOT_LEADER_OR_FOLLOWER."""
    return ", ".join(map(str, _produce(config, [(2, "not_leader")], records, False)["partitions"][0]["order"]))


def idempotence_after(config: Mapping[str, Any]) -> str:
    """What ``enable.idempotence`` becomes: ``true``/``false``, or Kafka's ``ConfigException`` at start-up."""
    try:
        return str(resolve(config).idempotence).lower()
    except ConfigError:
        return "ConfigException"


def _producer() -> Lesson:
    reorder: tuple[dict[str, Any], list[tuple[int, str]], int] = ({"enable.idempotence": False}, [(2, "not_leader")], 4)
    run = _produce(*reorder)
    order = ", ".join(map(str, run["partitions"][0]["order"]))
    batch = run["requests"][1]["batches"][0]["batch"]  # what request 2 carried (one batch of one record)
    failed = next(b["records"] for b in run["batches"] if b["batch"] == batch)
    others = [n for n in range(4) if n not in failed]
    moves = tuple(dict.fromkeys(", ".join(map(str, others[:i] + failed + others[i:])) for i in range(len(others) + 1)))
    duplicate: tuple[dict[str, Any], list[tuple[int, str]], int] = (
        {"enable.idempotence": False, "request.timeout.ms": 1000}, [(1, "timeout_after_write")], 3)
    lost = _produce(*duplicate)
    kept = _produce({"request.timeout.ms": 1000}, [(1, "timeout_after_write")], 3)
    expire: tuple[dict[str, Any], list[tuple[int, str]], int] = (
        {"request.timeout.ms": 1000, "delivery.timeout.ms": 1500},
        [(1, "timeout_before_write"), (4, "timeout_before_write")], 3)
    expired = _produce(*expire)
    one_stall = _produce(expire[0], expire[1][:1], expire[2])  # the first stall alone: the retries get through
    kafka_order = "org.apache.kafka.clients.producer.internals.Sender#completeBatch, RecordAccumulator#reenqueue"
    return Lesson("producer", (
        LessonStep("producer.order", "choice", order,
                   {"records": 4, "last": 3, "in_flight": 5, "interval": INTERVAL_MS, "latency": LATENCY_MS,
                    "one_in_flight": producer_order(
                       {"enable.idempotence": False, "max.in.flight.requests.per.connection": 1}),
                    "idempotent": producer_order({}), "failed": ", ".join(map(str, failed))},
                   kafka_order, choices=moves if order in moves else (*moves, order), link=producer_link(*reorder),
                   states=produce_states(*reorder, max_in_flight_requests_per_connection=5)),
        LessonStep("producer.duplicates", "number", len(lost["partitions"][0]["order"]),
                   {"records": 3, "interval": INTERVAL_MS, "latency": LATENCY_MS, "request": 1000,
                    "log": ", ".join(map(str, lost["partitions"][0]["order"])),
                    "idempotent": len(kept["partitions"][0]["order"])},
                   "org.apache.kafka.storage.internals.log.ProducerAppendInfo#checkSequence, "
                   "ProducerStateEntry#findDuplicateBatch", link=producer_link(*duplicate),
                   states=produce_states(*duplicate), unchecked="produce"),
        LessonStep("producer.acks0", "choice", idempotence_after({"acks": "0"}),
                   {"explicit": idempotence_after({"acks": "0", "enable.idempotence": True})},
                   "org.apache.kafka.clients.producer.ProducerConfig#postProcessAndValidateIdempotenceConfigs",
                   choices=("true", "false", "ConfigException"), link=producer_link({"acks": "0"}, [], 4),
                   states={"config": {"acks": "0"}}),
        LessonStep("producer.expire", "number", len(set(expired["partitions"][0]["order"])),
                   {"records": 3, "interval": INTERVAL_MS, "latency": LATENCY_MS, "delivery": 1500, "request": 1000,
                    "failed": expired["summary"]["failed"], "retry_at": expired["requests"][3]["sent_ms"],
                    "retry_timeout": expired["requests"][3]["sent_ms"] + 1000,
                    "one_stall": len(one_stall["partitions"][0]["order"])},
                   "org.apache.kafka.clients.producer.internals.RecordAccumulator#expiredBatches "
                   "(delivery.timeout.ms)", link=producer_link(*expire),
                   states=produce_states(*expire), unchecked="produce"),
    ))


INDEX_ENTRIES: Final = ((6, 0), (14, 328), (22, 656), (30, 984))  # seed article 002's offset index
# segments of 5,000 bytes (internal.segment.bytes: segment.bytes is at least 1 MiB) hold four 1,231-byte batches
RETENTION_DOC: Final = {"config": {**partition_log.segment_size_config(5000), "retention.ms": 10_000},
                        "workload": {"batches": 10, "records_per_batch": 10, "keys": 3, "interval_ms": 1000}}
RETENTION_AT_MS: Final = 14_500


def log_link(doc: Mapping[str, Any], **more: int) -> PageLink:
    """The Partition Log page with ``doc``'s config and workload in its fields (and ``more`` of them: ``at``)."""
    config = dict(doc["config"])
    size = partition_log.segment_size_property(config)[1]
    params = [("log.segment_size", str(size))]
    params += [(f"log.{name}", str(value)) for name, value in config.items()
               if name not in ("segment.bytes", "internal.segment.bytes")]
    params += [(f"log.{name}", str(value)) for name, value in {**doc["workload"], **more}.items()]
    return PageLink("pages/10_Partition_Log.py", tuple(params))


def _log() -> Lesson:
    _, seed = partition_log.simulate(partition_log.SEED_133)
    first = seed["segments"][0]
    trace = largest_lower_bound([k for k, _ in INDEX_ENTRIES], 23, OFFSET_ENTRY_SIZE)
    _, before = partition_log.simulate(RETENTION_DOC)
    _, after = partition_log.simulate({**RETENTION_DOC, "actions": [{"retention_at_ms": RETENTION_AT_MS}]})
    scene = tuple({"segment": s["segment"], "offsets": f"{s['base_offset']}..{s['last_offset']}",
                   "largest_timestamp_ms": f"{s['largest_timestamp']:,}"} for s in before["segments"])
    return Lesson("log", (
        LessonStep("log.segment", "number", seed["segments"][1]["base_offset"],
                   {"segment_bytes": partition_log.segment_size_property(seed["config"])[1],
                    "batch_bytes": first["bytes"] // (first["last_offset"] + 1), "last": first["last_offset"],
                    "file": seed["segments"][1]["segment"]},
                   "org.apache.kafka.storage.internals.log.LogSegment#shouldRoll",
                   link=log_link(partition_log.SEED_133),
                   states={"batch_bytes": first["bytes"] // (first["last_offset"] + 1),
                           "internal.segment.bytes": partition_log.segment_size_property(seed["config"])[1]}),
        LessonStep("log.index", "number", INDEX_ENTRIES[trace.slot][1],
                   {"target": 23, "entries": ", ".join(f"[{k}, {v}]" for k, v in INDEX_ENTRIES),
                    "slot": trace.slot, "probes": len(trace.probes), "spacing": INDEX_ENTRIES[1][1]},
                   "org.apache.kafka.storage.internals.log.AbstractIndex#largestLowerBoundSlotFor, "
                   "OffsetIndex#lookup",  # seed article 002's index: no page builds it
                   states={"entries": INDEX_ENTRIES, "target": 23}),
        LessonStep("log.retention", "number", after["log_start_offset"],
                   {"at": RETENTION_AT_MS, "retention": 10_000, "deleted": len(after["actions"][0]["deleted"]),
                    "segments": len(before["segments"])},
                   "org.apache.kafka.storage.internals.log.UnifiedLog#deleteRetentionMsBreachedSegments",
                   scene=scene, link=log_link(RETENTION_DOC, at=RETENTION_AT_MS), unchecked="log",
                   states={"segments": tuple((s["base_offset"], s["last_offset"], s["largest_timestamp"])
                                             for s in before["segments"]),
                           "retention.ms": RETENTION_DOC["config"]["retention.ms"], "at": RETENTION_AT_MS}),
    ))


REPLICAS: Final = (0, 1, 2)
LEO: Final = {0: 10, 1: 4, 2: 8}
MIN_INSYNC: Final = 2


def replica_scene(state: ReplicaState) -> tuple[Mapping[str, str], ...]:
    """One row per replica: broker, alive, LEO, in the ISR, leader (✓ / ✗, no words: the page translates
    headers)."""
    return tuple({"broker": str(b), "alive": "✗" if b in state.dead else "✓", "leo": str(state.leo.get(b, 0)),
                  "in_isr": "✓" if b in state.isr else "✗", "leader": "✓" if b == state.leader else ""}
                 for b in state.replicas)


def replication_link(fail: tuple[int, ...] = (), unclean: bool = False) -> PageLink:
    """The Replicas page's replication section on this lesson's partition: brokers ``fail`` die in that order."""
    died = (("replicas.isr.fail", ",".join(map(str, fail))),) if fail else ()
    return PageLink("pages/8_Replicas.py", (
        ("replicas.isr.leo", ", ".join(str(LEO[b]) for b in REPLICAS)), ("replicas.isr.isr", "0,2"),
        ("replicas.isr.min_insync", str(MIN_INSYNC)), *died, ("replicas.isr.unclean", str(unclean).lower())))


def _replication() -> Lesson:
    behind = ReplicaState(REPLICAS, (0, 2), 0, LEO)  # broker 1 fell behind: out of the ISR (replication_link's)
    hw = high_watermark(behind, MIN_INSYNC)
    alone = fail_broker(behind, 2, unclean=False)  # broker 2 dies too: ISR = [0], under min.insync.replicas
    accepted = [acks for acks in ACKS if produce_error(alone, acks, MIN_INSYNC) == "NONE"]
    failover = fail_broker(behind, 0, unclean=False)
    unclean = fail_broker(alone, 0, unclean=True)
    facts = {"replicas": "[0, 1, 2]", "min_insync": MIN_INSYNC, "hw": hw}
    stated = {"replicas": REPLICAS, "leader": 0, "leo": dict(LEO), "min.insync.replicas": MIN_INSYNC}
    kafka_append = "kafka.cluster.Partition#appendRecordsToLeader (NotEnoughReplicasException)"
    kafka_elect = ("org.apache.kafka.controller.PartitionChangeBuilder#electLeader "
                   "(PartitionLeaderElectionAlgorithms.offlinePartitionLeaderElection before KRaft)")
    return Lesson("replication", (
        LessonStep("replication.hw", "number", hw, {**facts, "slowest": min(LEO.values())},
                   "kafka.cluster.Partition#maybeIncrementLeaderHW", scene=replica_scene(behind),
                   link=replication_link(), states={**stated, "isr": behind.isr}),
        LessonStep("replication.acks", "number", len(accepted),
                   {**facts, "isr": len(alone.isr), "error": produce_error(alone, -1, MIN_INSYNC),
                    "frozen": high_watermark(alone, MIN_INSYNC, current=hw)},
                   kafka_append, scene=replica_scene(alone), link=replication_link((2,)),
                   states={**stated, "isr": alone.isr, "dead": (2,), "acks": ("0", "1", "all")}),
        LessonStep("replication.failover", "number", failover.leader, {**facts, "isr": "[0, 2]"},
                   kafka_elect, scene=replica_scene(behind), link=replication_link((0,)),
                   states={**stated, "isr": behind.isr, "dead": (0,)}),
        LessonStep("replication.unclean", "number", lost_records(unclean, hw),
                   {**facts, "leader": unclean.leader, "leader_leo": LEO[unclean.leader or 0],
                    "lost_from": LEO[unclean.leader or 0], "lost_to": hw - 1},
                   kafka_elect + "; unclean.leader.election.enable", scene=replica_scene(alone),
                   link=replication_link((2, 0), unclean=True),
                   states={**stated, "isr": alone.isr, "hw": hw, "dead": (2, 0),
                           "unclean.leader.election.enable": True}),
    ))


GROUP_ID: Final = "orders-service"
RATE: Final = 100  # records per second into every partition


def _lag() -> Lesson:
    seed_d = build_preset("seed-d")
    timings = ProtocolTimings()
    costs, left = {}, {}
    for name in ("sticky", "cooperative-sticky"):
        steps = outcomes(seed_d, CLIENT[name])
        costs[name] = step_pause(CLIENT[name], steps[0].assignment, steps[1], timings, ())
        left[name] = len(steps[0].assignment["C1"])  # what the leaver owned
    facts = {"rate": RATE, "rejoin_ms": timings.rejoin_ms, "sync_ms": timings.sync_ms,
             "processing_ms": timings.processing_ms, "eager_seconds": costs["sticky"].partition_seconds,
             "cooperative_seconds": costs["cooperative-sticky"].partition_seconds,
             "eager_partitions": costs["sticky"].paused_partitions,
             "cooperative_partitions": costs["cooperative-sticky"].paused_partitions,
             "partitions": seed_d.first.total_partitions, "c1_owned": left["cooperative-sticky"]}
    if left["sticky"] != left["cooperative-sticky"]:  # "the same departure": C1 owned as many under both
        raise ScenarioError("lesson: C1 owned different partition counts under sticky and cooperative-sticky")
    timing = {"rate": RATE, "partitions": seed_d.first.total_partitions, "leaves": "C1",
              "processing_ms": timings.processing_ms, "rejoin_ms": timings.rejoin_ms, "sync_ms": timings.sync_ms}
    kafka_pause = ("engine.consumer.pause, timing ConsumerCoordinator#onJoinPrepare (eager) / #onJoinComplete "
                   "(cooperative) with the Rebalance page's timings; lag = records/s x partition-seconds paused")
    return Lesson("lag", (
        LessonStep("lag.coordinator", "number", coordinator_partition(GROUP_ID),
                   {"group": GROUP_ID, "partitions": DEFAULT_OFFSETS_PARTITIONS},
                   "org.apache.kafka.coordinator.group.GroupCoordinatorService#partitionFor "
                   "(Utils.abs(groupId.hashCode()) % offsets.topic.num.partitions)",
                   states={"group": GROUP_ID, "offsets.topic.num.partitions": DEFAULT_OFFSETS_PARTITIONS},
                   link=PageLink("pages/3_Keys.py", (("keys.group_ids", GROUP_ID),
                                                     ("keys.offsets_partitions", str(DEFAULT_OFFSETS_PARTITIONS))))),
        LessonStep("lag.eager", "number", round(RATE * costs["sticky"].partition_seconds), facts, kafka_pause,
                   source="model", link=REBALANCE_PAGE, states={**timing, "protocol": "eager"}),
        LessonStep("lag.cooperative", "number", round(RATE * costs["cooperative-sticky"].partition_seconds), facts,
                   kafka_pause, source="model", link=REBALANCE_PAGE,
                   states={**timing, "protocol": "cooperative", "c1_owned": left["cooperative-sticky"]}),
    ))


TXN_IDS: Final = "T1, T2"
TXN_OPERATIONS: Final = "T1, send 0 2\nT1, send 1 1\nT2, send 0 1\nT1, commit\nT2, abort\nplain, send 0 1\nT1, send 1 1"


def _eos() -> Lesson:
    p0, p1 = replay(parse_operations(TXN_OPERATIONS, TXN_IDS))["partitions"]
    facts = {"operations": "; ".join(TXN_OPERATIONS.splitlines()), "p0_uncommitted": len(p0["read_uncommitted"]),
             "p0_markers": sum(1 for e in p0["log"] if e["kind"] != "data"),
             "p0_committed": ", ".join(map(str, p0["read_committed"])), "p0_hw": p0["high_watermark"],
             "p1_hw": p1["high_watermark"], "p1_lso": p1["last_stable_offset"]}
    kafka = ("org.apache.kafka.storage.internals.log.ProducerStateManager#firstUnstableOffset, "
             "UnifiedLog#lastStableOffset; isolation.level=read_committed")
    link = PageLink("pages/9_Producer.py", (("producer.txn_ops", TXN_OPERATIONS), ("producer.txn_ids", TXN_IDS)))
    stated = {"operations": tuple(TXN_OPERATIONS.splitlines()),
              "transactional.id": tuple(n.strip() for n in TXN_IDS.split(","))}
    return Lesson("eos", (
        LessonStep("eos.committed", "number", len(p0["read_committed"]), facts, kafka, link=link,
                   states={**stated, "partition": 0}),
        LessonStep("eos.lso", "number", p1["last_stable_offset"], facts, kafka, link=link,
                   states={**stated, "partition": 1}),
    ))


HOT_SAMPLE: Final = SampleSpec("zipf", 100_000, 10_000, 1.1, 0.0, 42)  # the Keys page's Zipf sample (seed 42)


def keys_link(partitions: int, spec: SampleSpec = HOT_SAMPLE) -> PageLink:
    """The Keys page generating ``spec``'s sample onto ``partitions`` partitions."""
    return PageLink("pages/3_Keys.py", (
        ("keys.source", "generate"), ("keys.kind", spec.kind), ("keys.count", str(spec.count)),
        ("keys.distinct", str(spec.distinct)), ("keys.zipf_s", str(spec.zipf_s)),
        ("keys.null_pct", str(round(100 * spec.null_share))), ("keys.partitions", str(partitions))))


def hottest_share(partitions: int, spec: SampleSpec = HOT_SAMPLE) -> float:
    """Percentage of the sample's records on its busiest partition (murmur2 placement, the Keys page's)."""
    counts = partition_histogram(partitions_for_arrow(generate(spec), partitions), partitions)
    return 100 * float(counts.max()) / float(counts.sum())


def _hot() -> Lesson:
    keys = generate(HOT_SAMPLE)
    top_key, top_count = hottest_keys(keys, 1)[0]
    facts = {"records": HOT_SAMPLE.count, "distinct": HOT_SAMPLE.distinct, "zipf_s": HOT_SAMPLE.zipf_s,
             "seed": HOT_SAMPLE.seed,
             "top_key": top_key, "top_share": round(100 * top_count / HOT_SAMPLE.count, 1),
             "share_12": round(hottest_share(12), 1), "share_96": round(hottest_share(96), 1),
             "mean_12": round(100 / 12, 1), "mean_96": round(100 / 96, 1)}
    kafka = "org.apache.kafka.clients.producer.internals.BuiltInPartitioner#partitionForKey"
    # the seed decides which ids are hot and so which collide on a partition: another seed of the same law gives
    # the busiest of 12 partitions anywhere from about 19% to 33%, so the question names the sample's seed
    stated = {"records": HOT_SAMPLE.count, "distinct": HOT_SAMPLE.distinct, "zipf_s": HOT_SAMPLE.zipf_s,
              "seed": HOT_SAMPLE.seed}
    return Lesson("hot", (
        LessonStep("hot.share12", "number", round(hottest_share(12)), facts, kafka, tolerance=3, unit="%",
                   link=keys_link(12), states={**stated, "partitions": 12}),
        LessonStep("hot.share96", "number", round(hottest_share(96)), facts, kafka, tolerance=3, unit="%",
                   link=keys_link(96), states={**stated, "partitions": 96}),
    ))


DATA_PATH_BUILDERS: Final = (_producer, _log, _replication, _lag, _eos, _hot)


def data_path_lessons() -> tuple[Lesson, ...]:
    """The six lessons after the consumer-group ones, in course order."""
    return tuple(build() for build in DATA_PATH_BUILDERS)
