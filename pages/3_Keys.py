"""Keys: which partition a key lands on, for each client; what a partition-count change breaks;
where null keys go over time; which __consumer_offsets partition coordinates a group."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import streamlit as st

from engine import (
    PARTITIONERS,
    EngineError,
    client_disagreement,
    find_coordinators,
    hottest_rows,
    keysample,
    null_key_rows,
    remap_share,
    skew_rows,
)
from engine.charts import partition_histogram, producer_timeline, remap_chart
from engine.common.config_def import INT_MAX
from ui.frame.door import door
from ui.frame.layout import page_setup
from ui.frame.release_note import release_caption
from ui.inputs.client_choice import DEFAULT_PARTITIONER, client_choice, partitioner_note
from ui.inputs.numbers import whole_number_input
from ui.keys.cached import null_key_runs, placements, remap_curve_of
from ui.keys.key_sample import key_source, null_key_config, remap_caption
from ui.text.i18n import _, tr

MAX_PAGE_PARTITIONS = 10_000
MAX_REMAP_POINTS = 200

page_setup(_("Keys"), "🔑", _("Key -> partition exactly as the Java producer (murmur2) and librdkafka "
                                      "compute it; remapping when the partition count changes; null-key "
                                      "partitioners; group coordinators."))
st.info(_(
    "《如何确定Kafka的分区数、key和consumer线程数》 (out of date since Kafka 0.8.2) says a key goes to "
    "`Utils.abs(key.hashCode) % numPartitions`. That was the old Scala producer (Kafka 0.8). The Java producer "
    "(0.8.2+) uses `Utils.toPositive(Utils.murmur2(keyBytes)) % n` on the serialized key bytes — `toPositive` "
    "is `& 0x7fffffff`, not `abs`. `Utils.abs(String.hashCode())` "
    "survives in one place: choosing a group's `__consumer_offsets` partition (last tab)."), icon=":material/info:")


def histogram_section(keys: pa.Array, sample_id: str, partitions: int, client: str) -> None:
    default = list(dict.fromkeys([DEFAULT_PARTITIONER[client], "java", "consistent_random"]))  # client's first
    labels = {name: tr(label) for name, label in PARTITIONERS.items()}  # translated now, looked up later
    chosen = st.multiselect(_("Partitioners"), list(PARTITIONERS), default=default, format_func=labels.__getitem__,
                            key="keys.partitioners" + ("" if client == "java" else f".{client}"))
    if not chosen:
        st.error(_("Partitioners: choose at least one."))
        return
    placed = {name: door(placements, keys, sample_id, partitions, name) for name in chosen}  # the cost model first
    counts = {name: keysample.partition_histogram(p, partitions) for name, p in placed.items()}
    st.plotly_chart(partition_histogram(counts), key="keys.histogram_chart")
    st.dataframe(pd.DataFrame(skew_rows(placed, counts)), hide_index=True, key="keys.skew_table")
    st.caption(_("Records the hash does not place (null keys; empty keys under consistent_random) go to the "
                 "sticky partitioner (see *Null keys over time*) and are left out of the histogram."))
    st.markdown(_("**Hottest keys**"))
    st.dataframe(pd.DataFrame(hottest_rows(keys, partitions)), hide_index=True, key="keys.hot_table")
    table = pd.DataFrame({"partition": range(partitions), **counts})
    st.download_button(_("Download per-partition counts (CSV)"), table.to_csv(index=False),
                       "partition_counts.csv", "text/csv", key="keys.download_counts")


def remap_section(keys: pa.Array, sample_id: str, partitions: int) -> None:
    c1, c2 = st.columns(2)
    target = whole_number_input(_("New partition count M"), 1, MAX_PAGE_PARTITIONS,
                                partitions * 2 if partitions < 5000 else partitions, "keys.remap_to", container=c1)
    top = min(MAX_PAGE_PARTITIONS, max(2 * partitions, target, 12))
    counts = tuple(sorted(set(range(1, top + 1, max(1, top // MAX_REMAP_POINTS))) | {target, partitions}))
    share = remap_share(keys, partitions, target)
    c1.metric(_("Keys that move {old} -> {new}").format(old=partitions, new=target), f"{100 * share:.1f}%",
              help=_("Those keys' new records go to a different partition than their old ones: per-key order "
                     "is broken across the change until the old records are consumed."))
    c2.metric(_("Java vs librdkafka default: different partition"),
              f"{100 * client_disagreement(keys, partitions, 'java', 'consistent_random'):.1f}%",
              help=_("Share of keyed records a Java producer and a librdkafka producer with the default "
                     "partitioner (consistent_random, CRC32) send to different partitions. Set "
                     "partitioner=murmur2_random in librdkafka to agree with Java."))
    st.plotly_chart(remap_chart(door(remap_curve_of, keys, sample_id, partitions, counts), partitions, target),
                    key="keys.remap_chart")
    remap_caption(partitions, target, share)


def null_key_section() -> None:
    st.markdown(_("Records **without a key**, for three generations of the Java producer. Broker 0 is made "
                  "slow; watch KIP-480's sticky partitioner pile records onto it and KIP-794 undo that."))
    config = null_key_config()
    try:
        runs = null_key_runs(config.validate())
    except EngineError as exc:
        st.error(tr(str(exc)))
        return
    st.plotly_chart(producer_timeline(runs, config.broker_latency_ms), key="keys.sim_chart")
    rows = [{**row, "strategy": tr(row["strategy"])} for row in null_key_rows(runs)]  # the label, not an id
    st.dataframe(pd.DataFrame(rows), hide_index=True, key="keys.sim_table")
    st.caption(_("Model: 1 ms steps; a batch is sent when full, older than linger.ms or followed by another "
                 "batch, if its leader has fewer than max.in.flight (5) requests outstanding. Sticky "
                 "partition choices are random (seeded)."))


def coordinator_section() -> None:
    st.markdown(_("A consumer group's coordinator is the leader of partition "
                  "`Utils.abs(groupId.hashCode()) % offsets.topic.num.partitions` of `__consumer_offsets` "
                  "(Java `String.hashCode` over UTF-16; `Utils.abs(Integer.MIN_VALUE)` is 0)."))
    c1, c2 = st.columns([3, 1])
    text = c1.text_area(_("Group ids, one per line"), "my-group\nconsole-consumer-12345\npolygenelubricants",
                        key="keys.group_ids", max_chars=2_000_000,
                        help=_("At most 100,000 ids, 2,000,000 characters"))
    n = whole_number_input("offsets.topic.num.partitions", 1, INT_MAX, 50, "keys.offsets_partitions", container=c2,
                           help=_("Kafka declares it an INT of at least 1."))
    try:
        found = find_coordinators([line.rstrip("\r") for line in text.split("\n") if line.strip()], n)
    except EngineError as exc:
        st.error(tr(str(exc)))
        return
    st.dataframe(pd.DataFrame([{"group_id": c.group_id, "String.hashCode()": c.java_hashcode,
                                "__consumer_offsets partition": c.partition} for c in found]),
                 hide_index=True, key="keys.coordinator_table")


keys, sample_id = key_source()
partitions = whole_number_input(_("Partitions"), 1, MAX_PAGE_PARTITIONS, 12, "keys.partitions",
                                help=_("At most {high} on this page.").format(high=f"{MAX_PAGE_PARTITIONS:,}"))
if keys is not None:
    st.caption(_("{records} records, {nulls} null keys.").format(records=f"{len(keys):,}",
                                                                 nulls=f"{keys.null_count:,}"))
client = client_choice("keys")
partitioner_note(client)
tabs = st.tabs([_("Key -> partition"), _("Changing the partition count"), _("Null keys over time"),
                _("Group coordinator")])
with tabs[0]:
    if keys is not None:
        histogram_section(keys, sample_id, partitions, client)
with tabs[1]:
    if keys is not None:
        remap_section(keys, sample_id, partitions)
with tabs[2]:
    null_key_section()
with tabs[3]:
    coordinator_section()
    release_caption("coordinator")
release_caption("hash")
