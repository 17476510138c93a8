"""Replica placement (a KRaft controller's StripedReplicaPlacer, one draw of its Random, or
AdminUtils.assignReplicasToBrokers), leader failover, preferred-leader election, and the reassignment plan when a
broker is decommissioned."""

from __future__ import annotations

import json
import random

import streamlit as st

import engine
from engine.charts import leader_counts_figure, replica_matrix
from engine.errors import KafkaError
from engine.server.replicas import STRIPED, generate_striped
from ui.frame.door import refusal
from ui.frame.layout import page_setup
from ui.frame.lazy import lazy_section, linked
from ui.frame.tables import table
from ui.inputs.numbers import decimal_input, whole_number_input
from ui.partition.cached import replica_placement, striped_placement
from ui.partition.replica_choice import generate_caption, placement_caption, placer_choice, start_and_seed
from ui.partition.replication import FIELDS, replication_section
from ui.text.i18n import _, tr

MAX_BROKERS = 100
MAX_PARTITIONS = 2_000
MAX_RACKS_TEXT = 500

REPLICATION_LINKED = linked(FIELDS)  # a link naming a replication field (a lesson step's) opens it
page_setup(_("Replicas"), "🗄️", _("Where Kafka puts a new topic's replicas, who leads, what happens when a "
                                  "broker dies and what decommissioning one costs."))


def placement_section(placer: str) -> tuple[list[engine.Broker], str, int, dict[int, list[int]], int, int]:
    c1, c2, c3 = st.columns(3)
    n_brokers = whole_number_input(_("brokers"), 1, MAX_BROKERS, 6, "replicas.brokers", container=c1,
                                   help=_("1..{max}; ids 0..n-1, in this order.").format(max=MAX_BROKERS))
    racks_text = c2.text_input(_("racks (comma-separated, given to brokers in turn; empty = no racks)"),
                               "r1, r2, r3", max_chars=MAX_RACKS_TEXT, key="replicas.racks")
    topic = c3.text_input(_("topic"), "orders", max_chars=249, key="replicas.topic")
    c4, c5, c6, c7 = st.columns(4)
    partitions = whole_number_input(_("partitions"), 0, MAX_PARTITIONS, 12, "replicas.partitions", container=c4,
                                    help=_("1..{max} (0 shows Kafka's error).").format(max=MAX_PARTITIONS))
    rf = whole_number_input(_("replication factor"), 0, MAX_BROKERS + 1, 3, "replicas.rf", container=c5)
    start, seed = start_and_seed(placer, c6, c7)
    brokers = engine.brokers_on_racks(n_brokers, [r.strip() for r in racks_text.split(",") if r.strip()])
    try:  # the cost model first: inline, in a worker, or one line
        placement = (striped_placement(tuple(brokers), partitions, rf, seed) if placer == STRIPED
                     else replica_placement(tuple(brokers), partitions, rf, start, seed))
    except KafkaError as exc:
        st.error(_("Kafka refuses: {error}").format(error=tr(str(exc))))
        st.stop()
    except engine.EngineError as exc:  # the door's one line
        refusal(str(exc))
        st.stop()
    placement_caption(placer, placement)
    return brokers, topic, rf, placement.assignment, start, seed


def failover_section(broker_ids: list[int], assignment: dict[int, list[int]]) -> dict[int, int | None]:
    """Kill a broker, optionally bring it back with a preferred-leader election; returns the leaders."""
    st.subheader(_("Kill a broker"))
    k1, k2 = st.columns(2)
    victims: list[int | str] = ["none", *broker_ids]
    kill = k1.selectbox(_("broker to kill"), victims, key="replicas.kill",
                        format_func=lambda b: _("none") if b == "none" else str(b))
    elect = k2.checkbox(_("broker back + preferred-leader election"), key="replicas.elect",
                        help=_("kafka-leader-election --election-type PREFERRED (or "
                               "auto.leader.rebalance.enable after leader.imbalance.check.interval.seconds "
                               "when a broker's imbalance exceeds 10%)."))
    preferred = engine.preferred_leaders(assignment)
    dead = set() if kill == "none" else {int(kill)}
    after = engine.elect_after_failure(assignment, preferred, dead)
    series = {_("preferred leaders"): engine.leader_counts(preferred, broker_ids)}
    if dead:
        series[_("broker {broker} dead").format(broker=kill)] = engine.leader_counts(after, broker_ids)
    offline = sorted(p for p, leader in after.items() if leader is None)
    if offline:
        st.error(_("Offline partitions (no live replica): {partitions}").format(partitions=offline))
    if elect and dead:
        back = engine.preferred_leader_election(assignment, after, set())
        series[_("back + preferred election")] = engine.leader_counts(back, broker_ids)
    st.plotly_chart(replica_matrix(assignment, broker_ids, after, dead), key="replicas.matrix")
    st.plotly_chart(leader_counts_figure(series, broker_ids), key="replicas.leaders")
    m1, m2, m3 = st.columns(3)
    live = [b for b in broker_ids if b not in dead]
    m1.metric(_("leader skew after failover (max / fair share)"),
              f"{engine.leader_skew(engine.leader_counts(after, broker_ids), live):.2f}")
    m2.metric(_("partitions whose leader moved"), sum(1 for p in after if after[p] != preferred[p]))
    if dead:
        m3.metric(_("imbalance of broker {broker} once back (before election)").format(broker=kill),
                  f"{engine.leader_imbalance_ratio(assignment, after, int(kill)):.0%}")
    table(engine.leadership_rows(assignment, preferred, after), key="replicas.leadership")
    return after


def decommission_section(brokers: list[engine.Broker], topic: str, rf: int, assignment: dict[int, list[int]],
                         leaders: dict[int, int | None], start: int, seed: int, placer: str) -> None:
    """Two reassignment plans that empty a broker, what they copy and how long, and the plan's JSON (a lazy
    expander: its fields keep their values while it is closed)."""
    d1, d2, d3 = st.columns(3)
    ids = [b.id for b in brokers]
    removed = int(d1.selectbox(_("broker to remove"), ids, index=len(ids) - 1, key="replicas.decommission",
                               persist_state="page"))
    size_gb = decimal_input(_("partition size (GB)"), 0.0, 10_000.0, 10.0, "replicas.size_gb", container=d2)
    throttle = decimal_input(_("replication throttle (MB/s per broker)"), 1.0, 100_000.0, 50.0, "replicas.throttle_mb",
                             container=d3)
    try:
        engine.check_decommission(brokers, rf)
        plans = {"minimal moves": engine.decommission_minimal(brokers, assignment, removed),
                 "kafka-reassign-partitions --generate": (
                     generate_striped(brokers, assignment, removed, seed) if placer == STRIPED
                     else engine.decommission_generate(brokers, assignment, removed, start, random.Random(seed)))}
    except engine.EngineError as exc:
        st.error(tr(str(exc)))
        return
    size, rate = int(size_gb * 1024**3), throttle * 1024**2
    rows = [engine.plan_summary(tr(name), engine.reassignment_plan(assignment, target, leaders, size), rate)
            for name, target in plans.items()]
    table(rows, key="replicas.plans")
    st.caption(_("{generate}, so it moves far more than the removed broker's replicas; the minimal plan only "
                 "replaces them. Time = the busiest broker's inbound or outbound copy volume / the throttle "
                 "(leader/follower.replication.throttled.rate).").format(generate=generate_caption(placer)))
    choice = st.radio(_("plan to download"), list(plans), horizontal=True, key="replicas.plan", format_func=tr,
                      persist_state="page")
    st.download_button(_("Download reassignment JSON (kafka-reassign-partitions --execute format)"),
                       json.dumps(engine.reassignment_json(topic, plans[choice]), indent=2),
                       "reassignment.json", "application/json", key="replicas.download")


placer = placer_choice()
brokers, topic, rf, assignment, start, seed = placement_section(placer)
leaders = failover_section([b.id for b in brokers], assignment)
lazy_section(_("Decommission a broker"), "replicas.decommission_view", decommission_section, brokers, topic, rf,
             assignment, leaders, start, seed, placer)
lazy_section(_("Replication: the ISR, the high watermark, acks and leader election"), "replicas.replication_view",
             replication_section, opened=REPLICATION_LINKED)
