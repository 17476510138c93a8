"""The producer simulation (engine/producer/{producer_config,accumulator,transaction_manager,sender,
idempotence}.py) against ProducerConfig, KafkaProducer, RecordAccumulator, Sender, NetworkClient and
TransactionManager of the Kafka release engine.release names for ``produce``, with the broker's
ProducerStateManager."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.errors import LimitError, ScenarioError
from engine.producer.accumulator import AppRecord, RecordAccumulator, backoff
from engine.producer.idempotence import PRESETS, parse_fault_lines, parse_spec, report, simulate
from engine.producer.producer_config import ConfigError, resolve
from engine.producer.transaction_manager import TransactionManager
from engine.release import BEFORE_4_0, RELEASED
from helpers import REPO


def run(config: dict, faults: list[tuple[int, str]], records: int = 4, **more) -> dict:
    """The seed articles' picture: records 1 ms apart, each its own batch and request (``linger.ms`` 0 unless
    ``config`` sets it; released Kafka's 5 ms would put them in one batch)."""
    doc = {"config": {"linger.ms": 0, **config}, "records": records, "interval_ms": 1, "latency_ms": 20,
           "faults": [{"request": n, "kind": k} for n, k in faults], **more}
    return report(simulate(parse_spec(doc)))


def orders(result: dict) -> list[list[int]]:
    return [p["order"] for p in result["partitions"]]


# ------------------------------------------------------------------ ProducerConfig / KafkaProducer


def test_idempotence_is_on_by_default_since_3_0() -> None:
    # ProducerConfig: enable.idempotence default true, acks "all", retries Integer.MAX_VALUE, in-flight 5
    s = resolve({})
    assert s.idempotence and s.acks == -1 and s.retries == 2**31 - 1 and s.max_in_flight == 5
    assert "seed article 004 says false" in s.notes[0]
    assert (s.delivery_timeout_ms, s.request_timeout_ms, s.linger_ms, s.batch_size) == (120_000, 30_000, 5,
    16_384)


def test_released_defaults_linger_5_ms_and_3x_defaults_0() -> None:
    # ProducerConfig: linger.ms defaults to 5 since Kafka 4.0 (KIP-1030), 0 in 3.x; only linger.ms differs
    assert (resolve({}).linger_ms, resolve({}, RELEASED).linger_ms, resolve({}, BEFORE_4_0).linger_ms) == (5, 5, 0)
    assert resolve({"linger.ms": 7}, BEFORE_4_0).linger_ms == 7  # a set value wins over either table
    assert {**resolve({}).to_dict(), "linger.ms": 0} == resolve({}, BEFORE_4_0).to_dict()


def test_produce_defaults_released_lingers_and_3x_sends_at_once() -> None:
    # two records 1 ms apart: released defaults wait linger.ms 5 and send both in one batch at 5 ms; a 3.x
    # producer (linger.ms 0) sends the first at once and the second, 1 ms later, in a batch of its own
    doc = {"records": 2, "interval_ms": 1, "latency_ms": 20}
    released = report(simulate(parse_spec(doc)))
    assert released["effective_config"]["linger.ms"] == 5 and released["defaults"] == RELEASED.label
    assert sends(doc) == [(5, [1])] and released["batches"][0]["records"] == [0, 1]
    old = report(simulate(parse_spec({**doc, "defaults": "3.x"})))
    assert old["effective_config"]["linger.ms"] == 0 and old["defaults"] == BEFORE_4_0.label
    assert sends({**doc, "defaults": "3.x"}) == [(0, [1]), (1, [2])]
    assert sends({**doc, "config": {"linger.ms": 0}}) == [(0, [1]), (1, [2])]  # the same, set explicitly


@pytest.mark.parametrize("config,note", [
    ({"acks": "1"}, "Idempotence will be disabled because acks is set to 1, not set to 'all'."),
    ({"retries": 0}, "Idempotence will be disabled because retries is set to 0."),
    ({"max.in.flight.requests.per.connection": 6},
     "Idempotence will be disabled because max.in.flight.requests.per.connection is set to 6, "
     "which is greater than 5."),
])
def test_conflicts_silently_disable_default_idempotence(config: dict, note: str) -> None:
    # postProcessAndValidateIdempotenceConfigs: user did not set enable.idempotence -> log and disable
    s = resolve(config)
    assert not s.idempotence and note in s.notes


@pytest.mark.parametrize("config,message", [
    ({"acks": "1"}, "Must set acks to all in order to use the idempotent producer."),
    ({"retries": 0}, "Must set retries to non-zero when using the idempotent producer."),
    ({"max.in.flight.requests.per.connection": 6},
     "Must set max.in.flight.requests.per.connection to at most 5 to use the idempotent producer."),
])
def test_conflicts_with_explicit_idempotence_are_config_exceptions(config: dict, message: str) -> None:
    # ProducerConfig.postProcessAndValidateIdempotenceConfigs: userConfiguredIdempotence -> ConfigException
    with pytest.raises(ConfigError, match=message):
        resolve({"enable.idempotence": True, **config})


def test_transactional_id_needs_idempotence() -> None:
    # ProducerConfig.postProcessAndValidateIdempotenceConfigs, after idempotence was disabled by acks=1
    with pytest.raises(ConfigError, match="Cannot set a transactional.id without also enabling idempotence."):
        resolve({"transactional.id": "t", "acks": "1"})


def test_delivery_timeout_at_least_linger_plus_request_timeout() -> None:
    # KafkaProducer.configureDeliveryTimeout: default raised with a warning, explicit value refused
    s = resolve({"linger.ms": 1000, "request.timeout.ms": 200_000})
    assert s.delivery_timeout_ms == 201_000
    with pytest.raises(ConfigError, match="delivery.timeout.ms should be equal to or larger than"):
        resolve({"delivery.timeout.ms": 1000, "request.timeout.ms": 2000})


def test_acks_values() -> None:
    # ConfigDef: acks is a STRING (trimmed) with ValidString.in("all", "-1", "0", "1"), case-sensitive;
    # then ProducerConfig.parseAcks: "all" == "-1"
    assert resolve({"acks": "-1"}).acks == -1
    assert resolve({"acks": " all "}).acks == -1
    with pytest.raises(ConfigError, match="Invalid value 2 for configuration acks: String must be one of"):
        resolve({"acks": "2"})
    with pytest.raises(ConfigError, match="^ConfigException: Invalid value ALL for configuration acks: "
                                          "String must be one of: all, -1, 0, 1$"):
        resolve({"acks": "ALL"})
    with pytest.raises(ConfigError, match="Expected value to be a string, but it was a java.lang.Integer"):
        resolve({"acks": 1})


def test_config_values_are_parsed_as_configdef_does_in_producerconfig_order() -> None:
    # ConfigDef.parse walks ProducerConfig's definitions in order: retries comes before acks and linger.ms
    with pytest.raises(ConfigError, match="^ConfigException: Invalid value -1 for configuration retries: Value must "
                                          "be at least 0$"):
        resolve({"acks": "ALL", "linger.ms": -5, "retries": -1})
    with pytest.raises(ConfigError, match="Invalid value -5 for configuration linger.ms: Value must be at least 0"):
        resolve({"linger.ms": -5, "max.in.flight.requests.per.connection": 0})
    with pytest.raises(ConfigError, match="Invalid value maybe for configuration enable.idempotence: Expected "
                                          "value to be either true or false"):
        resolve({"enable.idempotence": "maybe"})
    assert resolve({"enable.idempotence": "FALSE", "linger.ms": "7"}).idempotence is False  # strings are parsed
    assert resolve({"linger.ms": "7"}).linger_ms == 7
    with pytest.raises(LimitError, match="max.in.flight.requests.per.connection: at most 100 in this lab"):
        resolve({"enable.idempotence": False, "max.in.flight.requests.per.connection": 101})


# ------------------------------------------------------------------ RecordAccumulator


def accumulator(**kw) -> RecordAccumulator:
    args = {"batch_size": 16_384, "linger_ms": 0, "retry_backoff_ms": 100, "retry_backoff_max_ms": 1000,
            "delivery_timeout_ms": 120_000, "partitions": 1, **kw}
    return RecordAccumulator(**args)


def test_batch_fills_to_batch_size() -> None:
    # MemoryRecordsBuilder.hasRoomFor: 61-byte header; 109-byte records while the offset delta is 0..63,
    # 110 bytes from 64 on: 64 x 109 + 84 x 110 = 16,216 <= 16,384 - 61, one more would not fit
    acc = accumulator()
    batches = {acc.append(AppRecord(i, 0, 0, None, 100), 0).id for i in range(300)}
    sizes = [b.record_count for b in acc.deques[0]]
    assert sizes == [148, 148, 4] and len(batches) == 3
    assert acc.deques[0][0].size == 61 + 64 * 109 + 84 * 110
    assert acc.deques[0][0].closed  # closeForRecordAppends when a record did not fit


def test_batch_size_zero_leaves_only_the_upper_bound_estimate() -> None:
    # RecordAccumulator.append allocates max(batch.size, estimateSizeInBytesUpperBound) = 61 + 21 + key +
    # value:
    # a 100-byte record (109 bytes) leaves 17 bytes, so one record per batch ...
    acc = accumulator(batch_size=0)
    for i in range(3):
        acc.append(AppRecord(i, 0, 0, None, 100), 0)
    assert [b.record_count for b in acc.deques[0]] == [1, 1, 1]
    # ... but a 10-byte record is 17 bytes and the 95-byte buffer takes two (61 + 17 + 17 = 95 <= writeLimit)
    tiny = accumulator(batch_size=0)
    for i in range(3):
        tiny.append(AppRecord(i, 0, 0, None, 10), 0)
    assert [b.record_count for b in tiny.deques[0]] == [2, 1]


def test_linger_makes_a_lone_batch_wait() -> None:
    # batchReady: sendable when full (dequeSize > 1 or closed) or waitedTimeMs >= lingerMs
    acc = accumulator(linger_ms=5)
    acc.append(AppRecord(0, 0, 0, None, 10), 0)
    assert acc.ready(3) == (False, 2)
    assert acc.ready(5)[0]


def test_exponential_backoff_without_jitter() -> None:
    # ExponentialBackoff(100, 2, 1000, jitter): 100, 200, 400, 800, 1000 (capped), at the mean of the jitter
    assert [backoff(100, 1000, a) for a in range(6)] == [100, 200, 400, 800, 1000, 1000]
    assert backoff(100, 50, 3) == 50  # initialInterval = min(maxInterval, initialInterval)


def test_reenqueue_puts_batches_at_the_front() -> None:
    # RecordAccumulator.reenqueue: addFirst without a TransactionManager, insertInSequenceOrder with one
    acc = accumulator(batch_size=0)
    a, b, c = (acc.append(AppRecord(i, 0, 0, None, 100), 0) for i in range(3))
    for batch in (a, b, c):
        acc.deques[0].remove(batch)
    for batch in (a, b):  # a and b failed (processed oldest first) while c was still queued
        acc.reenqueue(batch, 10, idempotent=False)
    acc.deques[0].append(c)
    assert [x.id for x in acc.deques[0]] == [b.id, a.id, c.id]
    acc2 = accumulator(batch_size=0)
    a, b, c = (acc2.append(AppRecord(i, 0, 0, None, 100), 0) for i in range(3))
    acc2.deques[0].clear()
    for seq, batch in enumerate((a, b, c)):
        batch.base_sequence = seq
    for batch in (a, b, c):
        acc2.reenqueue(batch, 10, idempotent=True)
    assert [x.id for x in acc2.deques[0]] == [a.id, b.id, c.id]


# ------------------------------------------------------------------ TransactionManager


def test_sequences_count_records_per_partition() -> None:
    # drainBatchesForOneNode: setProducerState(sequenceNumber(tp)); incrementSequenceNumber(tp, recordCount)
    acc, tm = accumulator(partitions=2), TransactionManager(1000, 0)
    first = acc.append(AppRecord(0, 0, 0, None, 10), 0)
    acc.append(AppRecord(1, 0, 0, None, 10), 0)
    other = acc.append(AppRecord(2, 1, 0, None, 10), 0)
    tm.assign_sequence(first)
    tm.assign_sequence(other)
    assert (first.base_sequence, first.last_sequence, other.base_sequence) == (0, 1, 0)
    assert tm.entry(0).next_sequence == 2


def test_out_of_order_retry_and_epoch_bump() -> None:
    # TransactionManager.canRetry(OUT_OF_ORDER_SEQUENCE_NUMBER): not the next batch -> retry; the next one ->
    # requestEpochBumpForPartition, and bumpIdempotentProducerEpoch renumbers the in-flight batches from 0
    acc, tm = accumulator(batch_size=0), TransactionManager(1000, 0)
    batches = [acc.append(AppRecord(i, 0, 0, None, 100), 0) for i in range(3)]
    for b in batches:
        tm.assign_sequence(b)
    assert tm.can_retry("OUT_OF_ORDER_SEQUENCE_NUMBER", batches[1], False) and not tm.epoch_bump_required
    assert tm.can_retry("OUT_OF_ORDER_SEQUENCE_NUMBER", batches[0], False) and tm.epoch_bump_required
    tm.remove_in_flight(batches[0])
    assert tm.bump_epoch_if_needed(5)
    assert tm.epoch == 1 and [(b.producer_epoch, b.base_sequence) for b in batches[1:]] == [(1, 0), (1, 1)]


# ------------------------------------------------------------------ the simulation: Sender + broker


def test_seed_article_002_reordering_without_idempotence() -> None:
    # Sender.completeBatch -> canRetry (NOT_LEADER_OR_FOLLOWER is retriable) -> reenqueue; the later requests
    # were already in flight (max.in.flight 5) and succeed first: the "BCA" of seed article 002
    result = run({"enable.idempotence": False}, [(2, "not_leader")])
    assert orders(result) == [[0, 2, 3, 1]]
    assert result["summary"]["reordered_partitions"] == [0]


def test_max_in_flight_one_keeps_order_without_idempotence() -> None:
    # KafkaProducer.newSender: guaranteeMessageOrder = (maxInflightRequests == 1) mutes the partition
    result = run({"enable.idempotence": False, "max.in.flight.requests.per.connection": 1}, [(2,
    "not_leader")])
    assert orders(result) == [[0, 1, 2, 3]]


def test_idempotence_keeps_order_with_five_in_flight() -> None:
    # broker: ProducerAppendInfo.checkSequence rejects seq 2 and 3 (OUT_OF_ORDER_SEQUENCE_NUMBER) until 1 is
    # in;
    # client: canRetry (not the next sequence), shouldStopDrainBatchesForPartition drains by sequence
    result = run({}, [(2, "not_leader")])
    assert orders(result) == [[0, 1, 2, 3]]
    broker = [b["broker"] for r in result["requests"][:4] for b in r["batches"]]
    assert broker == ["appended", "NOT_LEADER_OR_FOLLOWER", "OUT_OF_ORDER_SEQUENCE_NUMBER",
                      "OUT_OF_ORDER_SEQUENCE_NUMBER"]
    assert [b["base_sequence"] for b in result["batches"]] == [0, 1, 2, 3]


def test_lost_response_duplicates_without_idempotence() -> None:
    # NetworkClient.handleTimedOutRequests closes the connection: every in-flight request fails
    # (REQUEST_TIMED_OUT, oldest first); reenqueue addFirst reverses them: the log is 0 1 2 2 1 0
    result = run({"enable.idempotence": False, "request.timeout.ms": 1000}, [(1, "timeout_after_write")],
    records=3)
    assert orders(result) == [[0, 1, 2, 2, 1, 0]]
    assert result["partitions"][0]["duplicates"] == [0, 1, 2]


def test_lost_response_is_a_duplicate_for_the_broker_with_idempotence() -> None:
    # UnifiedLog.analyzeAndValidateProducerState: findDuplicateBatch -> the original offset, nothing appended
    result = run({"request.timeout.ms": 1000}, [(1, "timeout_after_write")], records=3)
    assert orders(result) == [[0, 1, 2]]
    retried = [b for r in result["requests"][3:] for b in r["batches"]]
    assert [(b["broker"], b["offset"]) for b in retried] == [("duplicate", 0), ("duplicate", 1),
    ("duplicate", 2)]
    assert [b["base_offset"] for b in result["batches"]] == [0, 1, 2]


def test_delivery_timeout_expires_batches_and_bumps_the_epoch() -> None:
    # Sender.sendProducerData: getExpiredInflightBatches + expiredBatches -> TimeoutException; batches that
    # were
    # retried mark the partition unresolved; maybeResolveSequences then requests an epoch bump
    result = run({"request.timeout.ms": 1000, "delivery.timeout.ms": 1500},
                 [(1, "timeout_before_write"), (4, "timeout_before_write")], records=3)
    assert orders(result) == [[]]
    assert [b["error"] for b in result["batches"]] == ["TimeoutException (delivery.timeout.ms)"] * 3
    assert result["summary"]["epoch_bumps"][0]["epoch"] == 1


def test_new_producer_first_batch_lost_edge_case() -> None:
    # A broker with no state for the producer accepts any first sequence (checkSequence), so seq 1 and 2 go
    # in;
    # seq 0 then is OUT_OF_ORDER_SEQUENCE_NUMBER on every retry (not the next sequence) until
    # delivery.timeout.ms
    result = run({"delivery.timeout.ms": 5000, "request.timeout.ms": 1000}, [(1, "not_leader")], records=3)
    assert orders(result) == [[1, 2]]
    assert result["batches"][0]["state"] == "failed"


def test_acks_zero_completes_on_send() -> None:
    # Sender.handleProduceResponse: no response for acks=0, every batch completes with NONE, offset unknown
    result = run({"acks": "0"}, [(1, "not_leader")], records=2)
    assert [b["state"] for b in result["batches"]] == ["acked", "acked"]
    assert [b["base_offset"] for b in result["batches"]] == [None, None]
    assert orders(result) == [[1]]  # the broker dropped record 0; the producer never knew


def test_partitions_round_robin_and_one_batch_per_partition_per_request() -> None:
    # drainBatchesForOneNode: at most one batch per partition in a request
    result = run({}, [], records=6, partitions=3, interval_ms=0)
    assert orders(result) == [[0, 3], [1, 4], [2, 5]]
    assert all(len({b["batch"] for b in r["batches"]}) == len(r["batches"]) for r in result["requests"])
    first = result["requests"][0]["batches"]
    assert len(first) == 3


def test_every_preset_runs_or_is_refused_by_kafkas_rules() -> None:
    # the page presets: the refused one is ProducerConfig's ConfigException
    for name, doc in PRESETS.items():
        if name.startswith("Refused"):
            with pytest.raises(ConfigError):
                parse_spec(doc)
        else:
            assert report(simulate(parse_spec(doc)))["partitions"], name


# ------------------------------------------------------------------ input, limits, CLI


@pytest.mark.parametrize("doc,error,message", [
    ({"records": 0}, ScenarioError, "records: must be an integer 1..2,000, got 0"),
    ({"records": 5000}, LimitError, "records: at most 2,000, got 5,000"),
    ({"faults": [{"request": 1, "kind": "explode"}]}, ScenarioError, "faults[0]: expected"),
    ({"faults": [{"request": 1, "kind": "not_leader"}] * 2}, ScenarioError, "already has a fault"),
    ({"config": {"transactional.id": "t1"}}, ScenarioError,
     "transactional.id: transactional sends are not modelled"),
    ({"config": {"compression.type": "lz4"}}, ScenarioError, "unsupported property 'compression.type'"),
    ({"speed": 1}, ScenarioError, "unknown field 'speed'"),
])
def test_bad_input_is_refused_in_one_line(doc: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message.replace("[", r"\[").replace("]", r"\]")):
        parse_spec(doc)


def test_fault_lines() -> None:
    assert parse_fault_lines("2, not_leader\n\n 5,timeout_after_write") == [
        {"request": 2, "kind": "not_leader"}, {"request": 5, "kind": "timeout_after_write"}]
    with pytest.raises(ScenarioError, match="faults line 1"):
        parse_fault_lines("two, not_leader")


def test_cli_produce() -> None:
    def cli(doc: object) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "engine", "produce"], input=json.dumps(doc),
                              capture_output=True, text=True, cwd=REPO, timeout=120)

    ok = cli({"config": {"enable.idempotence": False, "linger.ms": 0}, "records": 4, "interval_ms": 1,
              "faults": [{"request": 2, "kind": "not_leader"}]})
    assert ok.returncode == 0 and [p["order"] for p in json.loads(ok.stdout)["partitions"]] == [[0, 2, 3, 1]]
    bad = cli({"config": {"acks": "1", "enable.idempotence": True}})
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.strip().splitlines()) == 1
    assert "ConfigException: Must set acks to all" in bad.stderr
    batch = cli([{"records": 1}, {"records": -1}])
    out = json.loads(batch.stdout)
    assert batch.returncode == 0 and out[0]["summary"]["acked"] == 1 and "records" in out[1]["error"]


# ------------------------------------------------------------------ one instant at a time (produce.README.md)


def sends(doc: dict) -> list[tuple[int, list[int]]]:
    result = report(simulate(parse_spec(doc)))
    return [(q["sent_ms"], [b["batch"] for b in q["batches"]]) for q in result["requests"]]


def test_latency_zero_answers_are_read_by_the_same_pass() -> None:
    # NetworkClient.poll inside the same Sender.runOnce reads an answer due now; the muted partition
    # (max.in.flight 1) is unmuted and the next pass sends at once: Kafka sends request 2 at 0 ms, not 30,001
    doc = {"config": {"linger.ms": 0, "batch.size": 1, "max.in.flight.requests.per.connection": 1}, "records": 2,
           "interval_ms": 0, "latency_ms": 0}
    assert sends(doc) == [(0, [1]), (0, [2])]


def test_acks_zero_with_one_record_settles_at_once() -> None:
    # acks=0: the request expects no answer; handleCompletedSends completes its batches at the next poll
    result = report(simulate(parse_spec({"config": {"acks": "0", "linger.ms": 0}, "records": 1, "latency_ms": 0})))
    assert [(b["state"], b["created_ms"]) for b in result["batches"]] == [("acked", 0)]
    assert result["end_ms"] == 0 and not result["truncated"]


def test_latency_zero_large_records_lose_nothing_to_the_delivery_timeout() -> None:
    # 100 records of 3,000 bytes, batch.size 2,000: one record per batch, each answered when sent
    doc = {"config": {"batch.size": 2000, "linger.ms": 0}, "records": 100, "interval_ms": 0, "value_bytes": 3000,
           "latency_ms": 0}
    result = report(simulate(parse_spec(doc)))
    assert result["summary"]["batches"] == 100 and result["summary"]["failed"] == 0
    # one batch per request (one partition): 50 Sender passes at 0 ms, then the model moves to the next ms
    assert [q["sent_ms"] for q in result["requests"]] == [0] * 50 + [1] * 50


def test_a_pass_that_only_expires_polls_with_zero_timeout_while_a_partition_is_ready() -> None:
    # Sender.sendProducerData: batch 1 expires in flight at 5,005 (delivery.timeout.ms after its creation);
    # batch 2, held back behind it by in-flight sequencing, is then ready, so the poll timeout is 0 and it
    # goes in the same millisecond (Kafka: 5,005; waiting for the next event sent it at 5,055)
    doc = {"config": {"linger.ms": 5, "request.timeout.ms": 2000, "max.in.flight.requests.per.connection": 2,
                      "delivery.timeout.ms": 5005, "retry.backoff.ms": 300, "retry.backoff.max.ms": 2000,
                      "batch.size": 2000},
           "records": 10, "interval_ms": 50, "value_bytes": 4, "latency_ms": 100,
           "faults": [{"request": n, "kind": "not_leader"} for n in range(1, 7)]}
    assert sends(doc)[:7] == [(5, [1]), (55, [2]), (505, [1]), (1305, [1]), (2705, [1]), (4904, [1]), (5005, [2])]


def test_timeline_records_arrive_at_their_instants_in_input_order() -> None:
    # several records in one millisecond are appended in input order; record i is timeline[i]
    doc = {"partitions": 2, "latency_ms": 0, "config": {"linger.ms": 3},
           "timeline": [{"t_ms": 0, "partition": 1, "key_bytes": None, "value_bytes": 100},
                        {"t_ms": 0, "partition": 0, "key_bytes": 3, "value_bytes": 700},
                        {"t_ms": 4, "partition": 1, "key_bytes": None, "value_bytes": 10}]}
    result = report(simulate(parse_spec(doc)))
    assert [(b["partition"], b["records"], b["created_ms"]) for b in result["batches"]] == [
        (1, [0], 0), (0, [1], 0), (1, [2], 4)]
    assert sends(doc) == [(3, [2, 1]), (7, [3])]


def test_a_run_that_never_settles_is_stopped_by_its_pass_bound() -> None:
    # idempotence, 1 ms latency and 1 ms backoff, a lost first batch: sequence 0 is OUT_OF_ORDER on every
    # retry until delivery.timeout.ms (1 hour), one request per ms; the run stops at MAX_PASSES Sender passes
    doc = {"config": {"linger.ms": 0, "retry.backoff.ms": 1, "retry.backoff.max.ms": 0,
                      "delivery.timeout.ms": 3_600_000},
           "records": 3, "latency_ms": 1, "max_time_ms": 3_600_000, "faults": [{"request": 1, "kind": "not_leader"}]}
    with pytest.raises(LimitError, match="simulation: did not settle within 10,000 Sender passes"):
        simulate(parse_spec(doc))
