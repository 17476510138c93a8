"""The lessons' words (English in the code, Chinese in locales/zh via ``_()``), keyed by ``LessonStep.id``.

Numbers and partition lists in a text are the engine's facts (``{moved}``, ``{owned}``), filled in with
``str.format`` after translation, so both languages quote the same computed values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.lessons import course
from engine.release import model
from ui.text.i18n import _, tr


def lesson_titles() -> dict[str, str]:
    return {
        "why": _("Why partitions: ordering and parallelism"),
        "keys": _("Where a key lands: murmur2 and toPositive"),
        "assignors": _("The four client assignors on the reference examples"),
        "leaves": _("A consumer leaves: eager vs cooperative"),
        "static": _("Static membership and rolling restarts"),
        "kip848": _("The new consumer protocol (KIP-848)"),
        "sizing": _("Sizing a topic"),
        "wheel": _("The timing wheel"),
        "producer": _("The producer: acks, idempotence, ordering and retries"),
        "log": _("The partition log: segments, the sparse index and retention"),
        "replication": _("Replication: ISR, min.insync.replicas and leader failover"),
        "lag": _("Consumer lag and offsets: commits and what a rebalance costs"),
        "eos": _("Exactly-once as far as the log goes: read_committed and the LSO"),
        "hot": _("Hot keys and skew"),
        **_streams_group_titles(),
        **_share_group_titles(),
    }


def _questions() -> dict[str, str]:
    return {
        "why.three": _("Topic orders has {partitions} partitions and the group has {consumers} consumers "
                       "(range). How many consumers carry {most} partitions?"),
        "why.idle": _("A topic of {partitions} partitions is read by a group of {consumers} consumers. "
                      "How many consumers get no partition at all?"),
        "keys.partition": _("The Java producer sends a record with key \"{key}\" to a topic of {partitions} "
                            "partitions. Which partition does it land on?"),
        "keys.remap": _("{keys} keys (key-0 .. key-9999) are spread over {before} partitions. The topic grows to "
                        "{after} partitions. What percentage of the keys now land on a different partition?"),
        "assignors.range": _("Reference example: C0 and C1 both subscribe to t0 and t1 (4 partitions each), "
                             "partition.assignment.strategy=range. Which partitions does {member} get?"),
        "assignors.roundrobin": _("C0 and C1 both subscribe to t0 and t1 (3 partitions each), strategy roundrobin. "
                                  "Which partitions does {member} get?"),
        "assignors.count": _("One topic of {partitions} partitions, {consumers} consumers, range. "
                             "How many partitions does C0 get?"),
        "leaves.sticky": _("C0, C1, C2 read t0..t3 (2 partitions each) with the StickyAssignor; the table shows "
                           "who owns what. C1 leaves. Which partitions does {member} own after the rebalance?"),
        "leaves.revoked": _("Same group, C1 leaves, StickyAssignor (an eager protocol). How many partitions do "
                            "C0 and C2 revoke in total before rejoining?"),
        "static.dynamic": _("{members} consumers read one topic of {partitions} partitions (range). Each restarts "
                            "once, one after another, down for {restart_s} s; session.timeout.ms is {session_s} s. "
                            "Without group.instance.id, how many rebalances does the rolling restart cause?"),
        "static.static": _("The same rolling restart, but every consumer sets group.instance.id (static "
                           "membership) and is back within session.timeout.ms. How many rebalances?"),
        "kip848.revoked": _("Reference example: C1 leaves, but the group uses group.protocol=consumer and the broker's "
                            "uniform assignor. How many partitions do C0 and C2 revoke?"),
        "sizing.partitions": _("Target throughput Tt = {target} MB/s; one partition takes Tp = {producer} MB/s from "
                               "a producer and gives Tc = {consumer} MB/s to a consumer. By the usual rule of "
                               "thumb, how many partitions does the topic need (a whole number, as the Sizing "
                               "page gives it)?"),
        "wheel.level": _("A timing wheel with tickMs = {tick} ms and wheelSize = {size} (interval {interval} ms) "
                         "at time 0. A task with a delay of {delay} ms is added. Which wheel level holds it "
                         "(0 = the innermost wheel)?"),
        "wheel.bucket": _("The same task ({delay} ms, tickMs = {tick}, wheelSize = {size}). Which bucket of "
                          "that level holds it?"),
        "producer.order": _("enable.idempotence=false, max.in.flight.requests.per.connection={in_flight}, retries "
                            "on. {records} records, 0..{last}, go to one partition {interval} ms apart, one request "
                            "each; the network takes {latency} ms each way. Request 2 (record {failed}) gets "
                            "NOT_LEADER_OR_FOLLOWER and is retried. In which order do the records end up in the "
                            "partition's log?"),
        "producer.duplicates": _("enable.idempotence=false, request.timeout.ms={request}. {records} records go to one "
                                 "partition {interval} ms apart, one request each; the network takes {latency} ms "
                                 "each way. From request 1 on, the broker writes every request but no response "
                                 "reaches the producer: request.timeout.ms expires on request 1, the producer "
                                 "closes the connection, reconnects and retries, and the retries are answered. How "
                                 "many records does the partition's log hold at the end?"),
        "producer.acks0": _("A producer sets acks=0 and leaves enable.idempotence unset. What does "
                            "enable.idempotence end up as?"),
        "producer.expire": _("Idempotence on (the default), request.timeout.ms={request}, "
                             "delivery.timeout.ms={delivery}. {records} records go to one partition {interval} ms "
                             "apart, one request each; the network takes {latency} ms each way. Requests 1 to "
                             "{records} never reach the broker and time out. The producer reconnects and retries, "
                             "and request 4, the first retry, and the requests after it never reach the broker "
                             "either. How many of the records reach the log?"),
        "log.segment": _("Each batch is {batch_bytes} bytes (one record) and internal.segment.bytes = "
                         "{segment_bytes} (Kafka's test-only segment size: segment.bytes itself is at least 1 MiB). "
                         "The first segment is 00000000000000000000.log. What is the base offset in the second "
                         "segment's file name?"),
        "log.index": _("A segment's offset index holds the entries (offset, position) {entries}: one entry every "
                       "{spacing} bytes of log, so this example (seed article 002's) uses an index.interval.bytes "
                       "far below the 4 KiB default. A consumer fetches offset {target}. From which byte position "
                       "does the broker start scanning the log file?"),
        "log.retention": _("The segments above (records written one batch a second). retention.ms = {retention}; a "
                           "retention check runs at {at:,} ms. What is the log start offset afterwards?"),
        "replication.hw": _("Replicas {replicas}, leader 0, min.insync.replicas = {min_insync}. Broker 1 fell "
                            "behind and left the ISR. The table shows each replica's log end offset (LEO). "
                            "What is the high watermark?"),
        "replication.acks": _("Broker 2 dies too: the ISR is only the leader. Three producers send one record "
                              "each, with acks=0, acks=1 and acks=all. How many of the three writes does the "
                              "leader accept?"),
        "replication.failover": _("Back to ISR [0, 2] (broker 1 out of sync). The leader, broker 0, dies. Which "
                                  "broker becomes the leader?"),
        "replication.unclean": _("ISR = [0] as in step 2, high watermark {hw}. Broker 0 dies too; "
                                 "unclean.leader.election.enable=true, and only broker 1 is alive. How many "
                                 "records that consumers could already read are lost?"),
        "lag.coordinator": _("Group \"{group}\" commits its offsets. offsets.topic.num.partitions = "
                             "{partitions}. Which partition of __consumer_offsets holds its commits (and which "
                             "broker, its leader, coordinates the group)?"),
        "lag.eager": _("Reference example: C0, C1, C2 read {partitions} partitions (t0..t3, 2 each); C1 leaves "
                       "(StickyAssignor, eager). Every partition receives {rate} records/s. In the model each "
                       "consumer finishes its batch in flight ({processing_ms} ms) and stops; then JoinGroup takes "
                       "{rejoin_ms} ms and SyncGroup {sync_ms} ms, and every partition resumes when SyncGroup ends. "
                       "How many records of lag build up, over all partitions, while partitions are paused?"),
        "lag.cooperative": _("The same departure with cooperative-sticky. C1 owned {c1_owned} of the {partitions} "
                             "partitions and consumes them until its batch in flight ends ({processing_ms} ms). "
                             "Round 1 (JoinGroup {rejoin_ms} ms + SyncGroup {sync_ms} ms) starts when C1 leaves, "
                             "while C0 and C2 keep consuming theirs, and hands out C1's partitions when it ends. How "
                             "many records of lag build up?"),
        "eos.committed": _("T1 and T2 have a transactional.id; `plain` has none. An operation is `producer, send "
                           "<partition> <records>` (that producer sends that many records to that partition), "
                           "`producer, commit` or `producer, abort`. The operations, in order: `{operations}`. How "
                           "many records does a read_committed consumer get from partition 0?"),
        "eos.lso": _("The same operations. T1's last send to partition 1 is not committed yet. What is partition "
                     "1's last stable offset (LSO)?"),
        "hot.share12": _("{records} records whose keys follow a Zipf law (s = {zipf_s}, {distinct} distinct "
                         "user ids; the Keys page's sample with seed {seed}), 12 partitions. What percentage of the "
                         "records does the busiest partition get (within 3 points)?"),
        "hot.share96": _("The topic grows to 96 partitions (same keys). What percentage does the busiest "
                         "partition get now (within 3 points)?"),
        **_streams_group_questions(),
        **_share_group_questions(),
    }


def _explanations() -> dict[str, str]:
    return {
        "why.three": _("Range gives each consumer {partitions} / {consumers} partitions and the first "
                       "{partitions} % {consumers} consumers one more. A partition is the unit of parallelism: "
                       "within it records stay in order, and one consumer of the group reads it."),
        "why.idle": _("A partition is read by at most one consumer of a group, so consumers beyond the partition "
                      "count stay idle. The partition count caps a group's parallelism."),
        "keys.partition": _("murmur2(\"{key}\") = {murmur2}; toPositive clears the sign bit: {positive}; "
                            "{positive} % {partitions} is the partition. A key always lands on the same "
                            "partition while the partition count stays the same."),
        "keys.remap": _("{moved} of {keys} keys change partition; only {stay} stay. Adding partitions breaks "
                        "per-key ordering across the change: old records of a key are on one partition, new "
                        "ones on another. Kafka never moves existing records."),
        "assignors.range": _("Range works topic by topic and hands each consumer a contiguous range: C0 gets the "
                             "first half of each topic."),
        "assignors.roundrobin": _("Round-robin sorts every partition of every topic and deals them one by one over "
                                  "the consumers sorted by id."),
        "assignors.count": _("10 / 3 = 3 each, and the first 10 % 3 = 1 consumer gets one more: C0 owns {owned}."),
        "leaves.sticky": _("Sticky keeps what C0 and C2 owned and deals C1's freed partitions round-robin to the "
                           "members under quota, sorted by id (since KAFKA-9987 / KAFKA-12464)."),
        "leaves.revoked": _("Eager: every remaining member revokes everything it owns before JoinGroup, even the "
                            "partitions it gets back; only {moved} change owner. cooperative-sticky revokes "
                            "{cooperative}: members keep consuming and only moving partitions pause."),
        "static.dynamic": _("close() sends LeaveGroup (one rebalance) and the restarted consumer's JoinGroup "
                            "causes another: two per consumer."),
        "static.static": _("A static member sends no LeaveGroup; back within session.timeout.ms it gets its "
                           "cached assignment: no rebalance. Only its own partitions wait while it is down: "
                           "{static_paused} partition-seconds in all ({partitions} partitions × {restart_s} s). "
                           "Down longer than the session timeout: {slow} rebalances."),
        "kip848.revoked": _("The group coordinator computes the target assignment; a member revokes only "
                            "partitions that leave its target. {moved} partitions move, none of C0's or C2's "
                            "are revoked (the eager StickyAssignor revokes {eager})."),
        "sizing.partitions": _("The topic needs enough partitions for both sides: max(Tt/Tp, Tt/Tc) = "
                               "max({by_producer:g}, {by_consumer:g}), and a partition count is whole, so the "
                               "Sizing page rounds up: {needed}. (Ticking \"Round up to a multiple of the "
                               "brokers\" there rounds up further.) This is a planning rule of thumb from Jun "
                               "Rao's 2015 Confluent blog post, not something Kafka computes: measure Tp and Tc "
                               "on your own hardware."),
        "wheel.level": _("An expiration at or beyond currentTime + interval ({interval} ms) goes to the overflow "
                         "wheel, whose tick is the inner wheel's interval."),
        "wheel.bucket": _("Each level has its own tick: level 1's tick is level 0's interval, {level_tick} ms "
                          "(not the {tick} ms of level 0). The bucket is (expiration / tick) % wheelSize = "
                          "({delay} / {level_tick}) % {size} = {slot} % {size} = {bucket}. The bucket expires at "
                          "{expires} ms; then the task is re-inserted into the finer wheel."),
        "producer.order": _("Without idempotence the producer does not hold back later batches while one is "
                            "retried: with {in_flight} requests in flight, the later records are written first "
                            "and the retried record {failed} lands after them. With "
                            "max.in.flight.requests.per.connection=1 the log is {one_in_flight}; with the "
                            "defaults (idempotence on since 3.0) it is {idempotent}: the broker refuses "
                            "out-of-sequence batches (OUT_OF_ORDER_SEQUENCE_NUMBER) until the retry is in."),
        "producer.duplicates": _("A request timeout closes the connection, so every request in flight on it "
                                 "fails too and is retried, although the broker had written them all: the log "
                                 "reads {log}. With idempotence the broker recognises each retry by producer id "
                                 "and sequence number and answers with the original offsets: {idempotent} "
                                 "records, no duplicate."),
        "producer.acks0": _("Kafka turns idempotence off, with a warning, when acks, retries or "
                            "max.in.flight.requests.per.connection conflict with it and enable.idempotence was "
                            "not set. Set it to true explicitly with acks=0 and the producer refuses to start: "
                            "{explicit}."),
        "producer.expire": _("A batch that is not acknowledged within delivery.timeout.ms (from send() to the "
                             "acknowledgement, retries included) fails with a TimeoutException. The first retry, "
                             "sent at {retry_at} ms, could time out only at {retry_timeout} ms, past "
                             "delivery.timeout.ms ({delivery} ms): all {failed} batches expire and nothing is "
                             "written. Had only the first requests stalled, the retries would be answered and all "
                             "{one_stall} records written. retries=2147483647 does not mean \"forever\": "
                             "delivery.timeout.ms bounds it."),
        "log.segment": _("LogSegment.shouldRoll rolls when the next batch would not fit: offsets 0..{last} fill "
                         "the first segment, so the second file is {file}. A segment's file is named after its "
                         "first offset."),
        "log.index": _("The index is sparse: one entry every index.interval.bytes (4 KiB by default, smaller in "
                       "this example). The broker binary-searches it for the largest offset at or below {target}: "
                       "slot {slot}, found in {probes} comparisons, then scans the log from that position to the "
                       "batch holding offset {target}."),
        "log.retention": _("Retention deletes whole segments, never single records: a segment goes when its "
                           "largest timestamp is older than retention.ms (the active one too: Kafka first rolls a "
                           "new, empty segment). {deleted} of {segments} segments go; the log now starts at the "
                           "next segment's base offset."),
        "replication.hw": _("The high watermark is the smallest LEO among the leader and the followers in the "
                            "ISR: broker 1 (LEO {slowest}) is out of the ISR and does not hold it back. "
                            "Consumers read only below the high watermark."),
        "replication.acks": _("acks=all is refused with {error}: the ISR has {isr} member, fewer than "
                              "min.insync.replicas = {min_insync}. acks=0 and acks=1 are written by the leader "
                              "alone, and the high watermark stays at {frozen} until the ISR grows back."),
        "replication.failover": _("The new leader is the first replica in the assignment order {replicas} that "
                                  "is alive and in the ISR: broker 1 comes first but is out of sync, so broker 2 "
                                  "leads. No committed record is lost: every ISR member has everything below the "
                                  "high watermark."),
        "replication.unclean": _("No ISR member is alive. With unclean.leader.election.enable=true the first "
                                 "live replica, broker {leader} (LEO {leader_leo}), leads and its log is the "
                                 "truth: the records at offsets {lost_from} to {lost_to}, already readable, "
                                 "are gone. "
                                 "Without it the partition stays offline until broker 0 returns."),
        "lag.coordinator": _("The coordinator is the leader of __consumer_offsets partition "
                             "abs(\"{group}\".hashCode()) % {partitions}, the group id's Java hash code. "
                             "Lag is the log end offset minus the group's committed offset, per partition; a "
                             "commit is the offset of the next record to read."),
        "lag.eager": _("Eager: every remaining member revokes everything and waits for the rebalance; "
                       "{eager_partitions} partitions are paused for {eager_seconds:g} partition-seconds in all, "
                       "each receiving {rate} records/s. (A model with the timings above, not a measurement.)"),
        "lag.cooperative": _("Cooperative: only the {cooperative_partitions} partitions that move pause, "
                             "{cooperative_seconds:g} partition-seconds in all; the others are consumed "
                             "throughout the rebalance."),
        "eos.committed": _("Partition 0 holds {p0_uncommitted} data records and {p0_markers} control markers "
                           "(markers take offsets too). read_committed skips T2's aborted record and the "
                           "markers: offsets {p0_committed}. read_uncommitted gets {p0_uncommitted} records."),
        "eos.lso": _("The LSO is the first offset of the oldest open transaction (else the high watermark, "
                     "{p1_hw}): read_committed consumers stop there, so an open transaction holds back "
                     "everything after it, even committed records."),
        "hot.share12": _("The hottest key, {top_key}, alone carries {top_share}% of the records, and a key "
                         "always goes to one partition: the busiest partition gets {share_12}% where an even "
                         "spread would give {mean_12}%."),
        "hot.share96": _("{share_96}% (an even share would be {mean_96}%): more partitions dilute the other keys "
                         "but never split one key, so the busiest partition never drops below {top_share}%. Fix a "
                         "hot key in the key (add a suffix, then aggregate), not with partitions."),
        **_streams_group_explanations(),
        **_share_group_explanations(),
    }


def production() -> dict[str, str]:
    """Each lesson's closing line: what to set in production."""
    return {
        "why": _("Size the partition count for the consumers you need at peak: consumers beyond it sit idle."),
        "keys": _("Choose the partition count of a keyed topic up front; adding partitions later moves most keys "
                  "and breaks per-key order across the change."),
        "assignors": _("Set partition.assignment.strategy=cooperative-sticky explicitly (the Java default since "
                       "3.0 is [RangeAssignor, CooperativeStickyAssignor], which assigns with range)."),
        "leaves": _("Use cooperative-sticky (or group.protocol=consumer) so that a departure pauses only the "
                    "partitions that move."),
        "static": _("Set a stable group.instance.id per instance and session.timeout.ms above your restart "
                    "time (45 s by default since 3.0) for rolling deploys."),
        "kip848": _("With Kafka 4.0+ brokers and clients, set group.protocol=consumer; the broker's assignor is "
                    "uniform unless group.remote.assignor names another."),
        "sizing": _("Measure Tp and Tc on your own hardware, add growth headroom and round up; a rule of thumb "
                    "is a starting point, not a limit."),
        "wheel": _("Nothing to tune: request.timeout.ms, fetch.max.wait.ms and session timeouts are cheap delays "
                   "on this wheel; set them for your clients' needs."),
        "producer": _("acks=all and enable.idempotence=true (set explicitly), "
                      "max.in.flight.requests.per.connection at most 5; bound retrying with delivery.timeout.ms."),
        "log": _("Set retention.ms / retention.bytes per topic and a segment.bytes that rolls well within "
                 "retention: retention deletes whole segments only."),
        "replication": _("replication.factor=3, min.insync.replicas=2, acks=all, "
                         "unclean.leader.election.enable=false."),
        "lag": _("Alert on lag per partition, commit after processing, and use incremental rebalancing so that "
                 "a rebalance adds little lag."),
        "eos": _("Consumers of transactional topics set isolation.level=read_committed; keep transactions short "
                 "(transaction.timeout.ms): an open one holds back the LSO."),
        "hot": _("Watch per-partition bytes in; spread a hot key by salting it (key plus a suffix) and "
                 "aggregating downstream: more partitions do not help."),
        "streams": _("On {release} or later (group.protocol=streams), set the standby replicas on the group "
                     "(streams.num.standby.replicas, at most the broker's group.streams.max.standby.replicas): one "
                     "standby per stateful task lets a restart resume without a restore, given at least "
                     "num.standby.replicas + 1 instances. Size the source topics' partitions for the stream threads "
                     "you need.").format(release=model("streams-assign").release.label),
        "share": _("On {release} or later, use a share group for work queues where per-key order does not "
                   "matter. A whole fetched batch must be processed within the acquisition lock: keep "
                   "max.poll.records × the processing time per record below the lock duration (the broker config "
                   "group.share.record.lock.duration.ms; a share group may set its own with the group config "
                   "share.record.lock.duration.ms).").format(
            release=model("share-assign").release.label),
    }


def guide() -> dict[str, tuple[str, tuple[str, str]]]:
    """The trainer's guide: per lesson, the misconception it targets and two discussion prompts (the minutes are
    each path's, engine.lessons.paths)."""
    return {
        "why": (_("\"More consumers always means more throughput.\""),
                (_("Where in your systems does a group have more consumers than partitions?"),
                 _("What besides the partition count limits a consumer group's throughput?"))),
        "keys": (_("\"Adding partitions only moves a few keys.\""),
                 (_("Which of your topics rely on per-key order, and what happens during a resize?"),
                  _("Why does the share of keys that stay depend on both counts (12 to 16 vs 12 to 24)?"))),
        "assignors": (_("\"The reference articles' assignments are what Kafka does today.\""),
                      (_("When does range give an uneven load across topics?"),
                       _("Why does round-robin sort the members by id, and what breaks if ids change?"))),
        "leaves": (_("\"Sticky means the group keeps consuming during a rebalance.\""),
                   (_("How long did your last deploy's rebalances stop consumption?"),
                    _("Sticky and cooperative-sticky land on the same assignment here: what differs?"))),
        "static": (_("\"A restart is invisible to the group.\""),
                   (_("What session.timeout.ms would your slowest restart need?"),
                    _("What does a static member's outage cost its own partitions?"))),
        "kip848": (_("\"KIP-848 is only a faster rebalance.\""),
                   (_("What moves from the client to the broker with group.protocol=consumer?"),
                    _("How would you migrate a running classic group?"))),
        "sizing": (_("\"The formula tells Kafka how many partitions it needs.\""),
                   (_("Where would you measure Tp and Tc, and under what load?"),
                    _("What does each extra partition cost (files, leaders, recovery time)?"))),
        "wheel": (_("\"The tick is the same on every level.\""),
                  (_("Which requests wait in purgatory on your brokers?"),
                   _("Why is adding a task O(1) even with millions of delayed requests?"))),
        "producer": (_("\"retries keep the order\" and \"idempotence is off by default\"."),
                     (_("Which of your producers set acks, retries or in-flight by hand, and do they still "
                        "get idempotence?"),
                      _("What does your application do when a send fails after delivery.timeout.ms?"))),
        "log": (_("\"Retention deletes records as soon as they are older than retention.ms.\""),
                (_("How much older than retention.ms can your oldest record be?"),
                 _("Why is the offset index sparse, and what does a lookup cost?"))),
        "replication": (_("\"acks=all means all replicas have the record.\""),
                        (_("What happens to your producers when a partition drops to min.insync.replicas - 1?"),
                         _("Which of your topics could accept an unclean election, and why?"))),
        "lag": (_("\"Lag only grows when consumers are slow.\""),
                (_("Where do you see lag today, and what alerts on it?"),
                 _("What does a commit mean: the last record processed or the next one to read?"))),
        "eos": (_("\"read_committed only hides aborted records.\""),
                (_("What holds back the LSO in your system, and for how long?"),
                 _("Where does exactly-once end: what about your database writes?"))),
        "hot": (_("\"A hot partition is fixed by adding partitions.\""),
                (_("Which of your keys carry the most traffic, and how would you know?"),
                 _("How would you split a hot key without losing what per-key order gives you?"))),
        "streams": (_("\"More stream threads always add throughput, and a standby is a spare thread.\""),
                    (_("Which of your Kafka Streams applications run more threads than they have tasks?"),
                     _("How long would your largest state store take to restore from its changelog?"))),
        "share": (_("\"A partition is read by one consumer of a group, and a member keeps its partitions until "
                        "it leaves.\""),
                  (_("Which of your workloads need per-key order, and which only need every record processed once?"),
                   _("What does a crashed share consumer cost: how long are its records locked?"))),
    }


# --------------------------------------------------------------------------------- streams groups (KIP-1071)


def _streams_group_titles() -> dict[str, str]:
    return {"streams": _("Streams groups (KIP-1071): tasks, stream threads and standby replicas")}


def _streams_group_questions() -> dict[str, str]:
    return {
        "streams.tasks": _("A Kafka Streams subtopology reads two topics merged with KStream#merge: one of "
                           "{topic_a} partitions and one of {topic_b}. How many tasks does the subtopology have?"),
        "streams.threads": _("That subtopology (stateless, its topics of {topic_a} and {topic_b} partitions) is the "
                             "whole application. It runs in a streams group on {spread_instances} instances, "
                             "app-1 .. app-{spread_instances}, of {spread_threads} stream threads each "
                             "(app-1-t1 .. app-{spread_instances}-t{spread_threads}, joining in that order), "
                             "{spread_total} threads in all, num.standby.replicas = 0. How many threads get an "
                             "active task?"),
        "streams.standbys": _("A stateful application: one subtopology reading a topic of {partitions} partitions, "
                              "on {instances} instances, app-1 .. app-{instances}, of {threads} stream threads each "
                              "(app-1-t1 .. app-{instances}-t{threads}, joining in that order), "
                              "num.standby.replicas = {standbys}. How many standby tasks does the group "
                              "coordinator place in all?"),
        "streams.alone": _("The same stateful application ({partitions} tasks, num.standby.replicas = {standbys}) on "
                           "a single instance, app-1, of {alone_threads} stream threads (app-1-t1 .. "
                           "app-1-t{alone_threads}). How many standby tasks are placed?"),
        "streams.restart": _("Back on {instances} instances of {threads} threads (app-1-t1 .. "
                             "app-{instances}-t{threads}, joining in that order; {partitions} stateful tasks, "
                             "num.standby.replicas = {standbys}). {restarted} restarts: its threads leave the group "
                             "and the coordinator assigns again. Its active tasks were {restarted_active}. How many "
                             "of them continue on an instance that held their standby, with no restore?"),
        "streams.rejoin": _("{restarted} comes back: the same instance, its {threads} threads rejoin with the "
                            "same names, in their old places in the order, and no previous tasks; the other "
                            "threads keep what the last assignment gave them. How many active tasks does "
                            "{restarted} get?"),
    }


def _streams_group_explanations() -> dict[str, str]:
    return {
        "streams.tasks": _("{tasks}: a subtopology has as many tasks as its source topics' largest partition count, "
                           "max({topic_a}, {topic_b}); task 0_p reads partition p of each topic that has one. Topics "
                           "it joins, rather than merges, must have equal counts (co-partitioned). The partition "
                           "counts, not the threads, cap the application's parallelism."),
        "streams.threads": _("{busy}: a task is processed by one stream thread at a time, so {tasks} tasks keep at "
                             "most {tasks} threads busy and {idle} threads get no active task. The assignor gives "
                             "each task to the least loaded instance, then to its least loaded thread. An idle "
                             "thread still costs memory and connections; more partitions in the source topics "
                             "would put it to work."),
        "streams.standbys": _("{copies}: num.standby.replicas = {standbys} asks for {standbys} standby copy of every "
                              "stateful task, and there are enough instances to place them all. A standby never "
                              "goes to the instance that runs its task ({same_instance} of {copies} do); task "
                              "(active instance; standby instance): {placement}. Per instance: {per_instance}: the "
                              "assignor takes the least loaded instance without a copy, in its own order, so the "
                              "counts need not be equal. Each standby keeps a full copy of its task's state and "
                              "reads its changelog."),
        "streams.alone": _("{alone_placed}: no two copies of a task share an instance, and the threads of one "
                           "instance share its process and its state directory, so one instance can hold no "
                           "standby at all: the assignor leaves {alone_missing} standby copies unplaced and logs a "
                           "warning. Threads add parallelism; instances add standbys."),
        "streams.restart": _("{warm}: {restarted}'s active tasks go to threads that held their standby ({takers}): "
                             "with the previous active owner gone, the assignor tries a previous standby owner next. "
                             "So {cold} must restore from the changelog; with num.standby.replicas = 0 the same "
                             "restart leaves {bare_cold} to restore. The standbys {restarted} held ({rebuilt}) get "
                             "new places ({rebuilt_on}) and are built from the changelog in the background while "
                             "processing goes on."),
        "streams.rejoin": _("{returned} ({returned_tasks}): the assignor balances the active tasks over all the "
                            "threads, taking them from threads that hold more than their share. {restarted}'s new "
                            "members bring no previous tasks, so the assignor does not know what state it still has "
                            "on disk: {returned_again} of the tasks it gets it ran before the restart. Kafka Streams "
                            "restores each from its changelog, starting at whatever the state directory still "
                            "holds."),
    }


# ---------------------------------------------------------------------------------- share groups (KIP-932)


def _share_group_titles() -> dict[str, str]:
    return {"share": _("Share groups (KIP-932): several consumers on one partition")}


def _share_group_questions() -> dict[str, str]:
    return {
        "share.readers": _("A share group of {consumers} consumers reads a topic of {partitions} partitions (the "
                           "group coordinator's simple assignor). How many members read each partition?"),
        "share.two": _("The same share group. How many of the {consumers} consumers read two partitions?"),
        "share.leave": _("{left}, which reads {left_held}, leaves the share group. How many of the remaining "
                         "members gain a partition?"),
        "share.join": _("Then {joined} joins, bringing the group back to {join_size} members. How many members "
                        "that were already there lose a partition?"),
    }


def _share_group_explanations() -> dict[str, str]:
    return {
        "share.readers": _("{each}: the simple assignor wants D = ceil(members / partitions) = ceil({consumers} / "
                           "{partitions}) = {sharing} members on every partition ({readers}); with at least as "
                           "many partitions as members D is 1 and no partition is shared. No consumer is idle, "
                           "where a consumer group of {consumers} on {partitions} partitions leaves "
                           "{consumer_idle} idle. Records are locked to one member at a time and acknowledged one "
                           "by one, so per-key order is not kept."),
        "share.two": _("{two}: D × partitions = {sharing} × {partitions} = {memberships} memberships are spread "
                       "as evenly as the members allow, so {two} member(s) read two partitions ({two_names}) and "
                       "the others one. Which member wants the extra one follows the coordinator's member order "
                       "(a Java HashMap of member ids), not the order of the names."),
        "share.leave": _("{gained}: without {left}, {left_held} drop to {short} readers, below D = "
                         "ceil({stayed} / {partitions}) = {stayed_sharing}, and {stayed} members sharing "
                         "{stayed_sharing} × {partitions} memberships means {stayed_want_two} of them want two "
                         "partitions. The assignor fills each short partition from the members below their desired "
                         "count: {gainers}. The other {kept_on_leave} keep exactly what they had."),
        "share.join": _("{lost}: with {join_size} members only {join_want_two} may read two partitions, so "
                        "{losers} now holds more than its desired count and gives {given_back} back; {joined} "
                        "takes {joiner_got}. Balance comes before stickiness: a member keeps what it holds only as "
                        "far as its even share allows, so a join moves a partition away from a member that was "
                        "reading it."),
    }


def _filled(text: str, facts: Mapping[str, Any]) -> str:
    try:
        return text.format(**facts)
    except (KeyError, IndexError, ValueError):  # a translation with a broken placeholder: show it unfilled
        return text


def question(step_id: str, facts: Mapping[str, Any]) -> str:
    return _filled(_questions()[step_id], facts)


def explanation(step_id: str, facts: Mapping[str, Any]) -> str:
    """The reveal; for an answer resting on a part of a model not checked against Kafka (``LessonStep.unchecked``),
    the release registry's own words for that part, as the pages' captions give them."""
    text = _filled(_explanations()[step_id], facts)
    key = unchecked_models().get(step_id)
    if not key:
        return text
    return text + ("" if text.endswith(("。", "）")) else " ") + not_checked(key)  # no space after a Chinese stop


def unchecked_models() -> dict[str, str]:
    """Step id -> the ``engine.release`` key whose unchecked part its answer rests on."""
    return {s.id: s.unchecked for lesson in course() for s in lesson.steps if s.unchecked}


def not_checked(key: str) -> str:
    """What model ``key`` leaves unchecked against Kafka (``engine.release``'s ``not_verified``), translated."""
    return _("Not checked against Kafka's code: {what}.").format(what=tr(model(key).not_verified))


def step_ids() -> set[str]:
    """Every step id that has a text (the tests check the course and the texts agree)."""
    return set(_questions()) & set(_explanations())
