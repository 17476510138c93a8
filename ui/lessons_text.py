"""The lessons' words (English in the code, Chinese in locales/zh via ``_()``), keyed by ``LessonStep.id``.

Numbers and partition lists in a text are the engine's facts (``{moved}``, ``{owned}``), filled in with
``str.format`` after translation, so both languages quote the same computed values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ui.i18n import _


def lesson_titles() -> dict[str, str]:
    return {
        "why": _("Why partitions: ordering and parallelism"),
        "keys": _("Where a key lands: murmur2 and toPositive"),
        "assignors": _("The four client assignors on the seed examples"),
        "leaves": _("A consumer leaves: eager vs cooperative"),
        "static": _("Static membership and rolling restarts"),
        "kip848": _("The new consumer protocol (KIP-848)"),
        "sizing": _("Sizing a topic"),
        "wheel": _("The timing wheel"),
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
        "assignors.range": _("Seed example: C0 and C1 both subscribe to t0 and t1 (4 partitions each), "
                             "partition.assignment.strategy=range. Which partitions does {member} get?"),
        "assignors.roundrobin": _("C0 and C1 both subscribe to t0 and t1 (3 partitions each), strategy roundrobin. "
                                  "Which partitions does {member} get?"),
        "assignors.count": _("One topic of {partitions} partitions, {consumers} consumers, range. "
                             "How many partitions does C0 get?"),
        "leaves.sticky": _("C0, C1, C2 read t0..t3 (2 partitions each) with the StickyAssignor. C1 leaves. "
                           "Which partitions does {member} own after the rebalance?"),
        "leaves.revoked": _("Same group, C1 leaves, StickyAssignor (an eager protocol). How many partitions do "
                            "C0 and C2 revoke in total before rejoining?"),
        "static.dynamic": _("{members} consumers read one topic of {partitions} partitions (range). Each restarts "
                            "once, one after another, down for {restart_s} s; session.timeout.ms is {session_s} s. "
                            "Without group.instance.id, how many rebalances does the rolling restart cause?"),
        "static.static": _("The same rolling restart, but every consumer sets group.instance.id (static "
                           "membership) and is back within session.timeout.ms. How many rebalances?"),
        "kip848.revoked": _("Seed example: C1 leaves, but the group uses group.protocol=consumer and the broker's "
                            "uniform assignor. How many partitions do C0 and C2 revoke?"),
        "sizing.partitions": _("Target throughput Tt = {target} MB/s; one partition takes Tp = {producer} MB/s from "
                               "a producer and gives Tc = {consumer} MB/s to a consumer. How many partitions "
                               "does the topic need?"),
        "wheel.level": _("A timing wheel with tickMs = {tick} ms and wheelSize = {size} (interval {interval} ms) "
                         "at time 0. A task with a delay of {delay} ms is added. Which wheel level holds it "
                         "(0 = the innermost wheel)?"),
        "wheel.bucket": _("The same task ({delay} ms, tickMs = {tick}, wheelSize = {size}). Which bucket of "
                          "that level holds it?"),
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
                           "cached assignment: no rebalance. Only its own partitions wait while it is down "
                           "({static_paused} consumer-seconds). Down longer than the session timeout: {slow} "
                           "rebalances."),
        "kip848.revoked": _("The group coordinator computes the target assignment; a member revokes only "
                            "partitions that leave its target. {moved} partitions move, none of C0's or C2's "
                            "are revoked (the eager StickyAssignor revokes {eager})."),
        "sizing.partitions": _("The topic needs enough partitions for both sides: max(Tt/Tp, Tt/Tc) = "
                               "max({target}/{producer}, {target}/{consumer})."),
        "wheel.level": _("An expiration at or beyond currentTime + interval ({interval} ms) goes to the overflow "
                         "wheel, whose tick is the inner wheel's interval."),
        "wheel.bucket": _("On level {level} the bucket is (expiration / tick) % wheelSize; the bucket expires at "
                          "{expires} ms, then the task is re-inserted into the finer wheel."),
        **_share_group_explanations(),
    }


# ----------------------------------------------------------------------- share groups (KIP-932, issue 24)


def _share_group_titles() -> dict[str, str]:
    return {"share": _("Share groups (KIP-932): several consumers on one partition")}


def _share_group_questions() -> dict[str, str]:
    return {
        "share.idle": _("A share group of {consumers} consumers reads a topic of {partitions} partitions (Kafka "
                        "4.2, the coordinator's simple assignor). How many consumers get no partition at all?"),
        "share.most": _("The same share group. How many members read the busiest partition?"),
        "share.leave": _("{left} leaves the share group. How many of the remaining members get a different set of "
                         "partitions?"),
    }


def _share_group_explanations() -> dict[str, str]:
    return {
        "share.idle": _("{idle}: in a share group every member takes a partition by the hash of its member id, and "
                        "partitions are shared ({readers}). A consumer group of {consumers} on {partitions} "
                        "partitions leaves {consumer_idle} idle. Records are locked to one member at a time and "
                        "acknowledged one by one, so per-key order is not kept."),
        "share.most": _("{most}: members outnumber partitions, so partitions have several readers ({readers})."),
        "share.leave": _("{changed}: the simple assignor lets every member keep the partitions it holds, and "
                         "{left}'s partition still has other readers, so nothing is given out again; no partition "
                         "is revoked."),
    }


def _filled(text: str, facts: Mapping[str, Any]) -> str:
    try:
        return text.format(**facts)
    except (KeyError, IndexError, ValueError):  # a translation with a broken placeholder: show it unfilled
        return text


def question(step_id: str, facts: Mapping[str, Any]) -> str:
    return _filled(_questions()[step_id], facts)


def explanation(step_id: str, facts: Mapping[str, Any]) -> str:
    return _filled(_explanations()[step_id], facts)


def step_ids() -> set[str]:
    """Every step id that has a text (the tests check the course and the texts agree)."""
    return set(_questions()) & set(_explanations())
