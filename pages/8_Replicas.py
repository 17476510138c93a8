"""Replica placement (AdminUtils.assignReplicasToBrokers), leader failover, preferred-leader election, and
the reassignment plan when a broker is decommissioned."""

from __future__ import annotations

import json
import random

import pandas as pd
import streamlit as st

from engine.charts.replicas import leader_counts_figure, replica_matrix
from engine.errors import EngineError
from engine.server.replicas import (
    Broker,
    KafkaAdminError,
    assign_replicas_to_brokers,
    decommission_generate,
    decommission_minimal,
    elect_after_failure,
    leader_counts,
    leader_imbalance_ratio,
    leader_skew,
    preferred_leader_election,
    preferred_leaders,
    reassignment_plan,
)
from ui.layout import page_setup

MAX_BROKERS = 100
MAX_PARTITIONS = 2_000
MAX_RACKS_TEXT = 500

page_setup("Replicas", "🗄️", "Where Kafka puts a new topic's replicas, who leads, what happens when a broker dies "
           "and what decommissioning one costs.")

# ------------------------------------------------------------------ inputs
c1, c2, c3 = st.columns(3)
n_brokers = int(c1.number_input("brokers", 1, MAX_BROKERS, 6, key="replicas.brokers",
                                help=f"1..{MAX_BROKERS}; ids 0..n-1, in this order."))
racks_text = c2.text_input("racks (comma-separated, given to brokers in turn; empty = no racks)", "r1, r2, r3",
                           max_chars=MAX_RACKS_TEXT, key="replicas.racks")
topic = c3.text_input("topic", "orders", max_chars=249, key="replicas.topic")
c4, c5, c6, c7 = st.columns(4)
partitions = int(c4.number_input("partitions", 0, MAX_PARTITIONS, 12, key="replicas.partitions",
                                 help=f"1..{MAX_PARTITIONS} (0 shows Kafka's error)."))
rf = int(c5.number_input("replication factor", 0, MAX_BROKERS + 1, 3, key="replicas.rf"))
start_index = int(c6.number_input("fixed start index (-1 = random, as Kafka)", -1, 10_000, 0, key="replicas.start",
                                  help="Kafka uses it for both the first broker and the replica shift."))
seed = int(c7.number_input("random seed (for -1)", 0, 2**31 - 1, 42, key="replicas.seed"))

racks = [r.strip() for r in racks_text.split(",") if r.strip()]
brokers = [Broker(i, racks[i % len(racks)] if racks else None) for i in range(n_brokers)]
broker_ids = [b.id for b in brokers]
try:
    placement = assign_replicas_to_brokers(brokers, partitions, rf, start_index, -1, random.Random(seed))
except KafkaAdminError as exc:
    st.error(f"Kafka refuses: {exc}")
    st.stop()

assignment = placement.assignment
st.caption(f"start index {placement.start_index}, replica shift {placement.replica_shift}"
           + (f"; rack-alternated broker list {placement.rack_alternated_broker_list}"
              if placement.rack_alternated_broker_list else "; rack-unaware (no broker has a rack)"))
preferred = preferred_leaders(assignment)

# ------------------------------------------------------------------ failover
st.subheader("Kill a broker")
k1, k2 = st.columns(2)
kill = k1.selectbox("broker to kill", ["none", *broker_ids], key="replicas.kill")
elect = k2.checkbox("broker back + preferred-leader election", key="replicas.elect",
                    help="kafka-leader-election --election-type PREFERRED (or auto.leader.rebalance.enable after "
                         "leader.imbalance.check.interval.seconds when a broker's imbalance exceeds 10%).")
dead = set() if kill == "none" else {int(kill)}
after = elect_after_failure(assignment, preferred, dead)
live = [b for b in broker_ids if b not in dead]
series = {"preferred leaders": leader_counts(preferred, broker_ids)}
if dead:
    series[f"broker {kill} dead"] = leader_counts(after, broker_ids)
offline = sorted(p for p, leader in after.items() if leader is None)
if offline:
    st.error(f"Offline partitions (no live replica): {offline}")
if elect and dead:
    back = preferred_leader_election(assignment, after, set())
    series["back + preferred election"] = leader_counts(back, broker_ids)
st.plotly_chart(replica_matrix(assignment, broker_ids, after, dead), key="replicas.matrix")
st.plotly_chart(leader_counts_figure(series, broker_ids), key="replicas.leaders")
m1, m2, m3 = st.columns(3)
m1.metric("leader skew after failover (max / fair share)", f"{leader_skew(leader_counts(after, broker_ids), live):.2f}")
m2.metric("partitions whose leader moved", sum(1 for p in after if after[p] != preferred[p]))
if dead:
    m3.metric(f"imbalance of broker {kill} once back (before election)",
              f"{leader_imbalance_ratio(assignment, after, int(kill)):.0%}")
leaders_df = pd.DataFrame([{"partition": p, "replicas": str(assignment[p]), "preferred leader": preferred[p],
                            "leader": after[p] if after[p] is not None else "offline"} for p in sorted(assignment)])
st.dataframe(leaders_df, hide_index=True, width="stretch")

# ------------------------------------------------------------------ decommission
st.subheader("Decommission a broker")
d1, d2, d3 = st.columns(3)
removed = d1.selectbox("broker to remove", broker_ids, index=len(broker_ids) - 1, key="replicas.decommission")
size_gb = d2.number_input("partition size (GB)", 0.0, 10_000.0, 10.0, key="replicas.size_gb")
throttle = d3.number_input("replication throttle (MB/s per broker)", 1.0, 100_000.0, 50.0, key="replicas.throttle_mb")
if len(brokers) - 1 < rf:
    st.error(f"Cannot remove a broker: {len(brokers) - 1} brokers would remain for replication factor {rf}.")
    st.stop()
size_bytes = int(size_gb * 1024**3)
try:
    minimal = decommission_minimal(brokers, assignment, int(removed))
    generated = decommission_generate(brokers, assignment, int(removed), start_index, random.Random(seed))
except (EngineError, KafkaAdminError) as exc:
    st.error(str(exc))
    st.stop()
plans = {"minimal moves": minimal, "kafka-reassign-partitions --generate": generated}
rows = []
for name, target in plans.items():
    plan = reassignment_plan(assignment, target, after, size_bytes)
    rows.append({"plan": name, "replica moves": len(plan.moves), "GB to copy": round(plan.bytes_to_copy / 1024**3, 2),
                 "hours under throttle": round(plan.seconds_under_throttle(throttle * 1024**2) / 3600, 2)})
st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
st.caption("--generate re-runs assignReplicasToBrokers over the remaining brokers, so it moves far more than the "
           "removed broker's replicas; the minimal plan only replaces them. Time = the busiest broker's inbound or "
           "outbound copy volume / the throttle (leader/follower.replication.throttled.rate).")
choice = st.radio("plan to download", list(plans), horizontal=True, key="replicas.plan")
reassign_json = {"version": 1, "partitions": [{"topic": topic, "partition": p, "replicas": plans[choice][p]}
                                              for p in sorted(plans[choice])]}
st.download_button("Download reassignment JSON (kafka-reassign-partitions --execute format)",
                   json.dumps(reassign_json, indent=2), "reassignment.json", "application/json",
                   key="replicas.download")
