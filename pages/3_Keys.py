"""Keys: which partition a key lands on, for each client; what a partition-count change breaks;
where null keys go over time; which __consumer_offsets partition coordinates a group."""

from __future__ import annotations

import hashlib

import numpy as np
import pandas as pd
import pyarrow as pa
import streamlit as st

from engine.charts import keys as charts
from engine.coordinator.offsets_partition import MAX_CLI_GROUP_IDS, cli_coordinator
from engine.errors import EngineError
from engine.producer import keysample
from engine.producer import null_keys as producer
from engine.producer.partitioners import PARTITIONERS, UNHASHED, client_partitions
from engine.producer.remap import client_disagreement, remap_curve, remap_share
from ui.layout import page_setup

MAX_PAGE_PARTITIONS = 10_000
MAX_REMAP_POINTS = 200

page_setup("Keys", "🔑", "Key -> partition exactly as the Java producer (murmur2) and librdkafka compute it; "
           "remapping when the partition count changes; null-key partitioners; group coordinators.")

st.info(
    "Seed article 000 says a key goes to `Utils.abs(key.hashCode) % numPartitions`. That was the old Scala "
    "producer (Kafka 0.8). The Java producer (0.8.2+) uses `Utils.toPositive(Utils.murmur2(keyBytes)) % n` "
    "on the serialized key bytes — `toPositive` is `& 0x7fffffff`, not `abs`. `Utils.abs(String.hashCode())` "
    "survives in one place: choosing a group's `__consumer_offsets` partition (last tab).",
    icon="ℹ️",
)


@st.cache_data(show_spinner="Generating keys…", max_entries=8)
def generated_keys(kind: str, count: int, distinct: int, zipf_s: float, null_share: float, seed: int) -> pa.Array:
    return keysample.generate(keysample.SampleSpec(kind, count, distinct, zipf_s, null_share, seed))


@st.cache_data(show_spinner="Reading keys…", max_entries=8)
def pasted_keys(text: str) -> pa.Array:
    return keysample.parse_pasted(text)


@st.cache_data(show_spinner="Reading the upload…", max_entries=4)
def uploaded_keys(data: bytes, name: str, column: str | None) -> pa.Array:
    return keysample.parse_upload(data, name, column or None)


@st.cache_data(show_spinner="Hashing keys…", max_entries=32)
def placements(_keys: pa.Array, sample_id: str, partitions: int, partitioner: str) -> np.ndarray:
    return client_partitions(_keys, partitions, partitioner)


@st.cache_data(show_spinner="Computing remaps…", max_entries=16)
def remap_curve_cached(_keys: pa.Array, sample_id: str, from_partitions: int, counts: tuple[int, ...]) -> list[tuple[int, float]]:
    return remap_curve(_keys, from_partitions, counts)


@st.cache_data(show_spinner="Simulating the producer…", max_entries=16)
def simulate(config: producer.ProducerConfig) -> dict[str, producer.ProducerRun]:
    return producer.simulate_all(config)


def key_source() -> tuple[pa.Array | None, str]:
    """The key sample from the chosen source and an id for caching (None after an inline error)."""
    source = st.radio("Keys", ["generate", "paste", "upload"], horizontal=True, key="keys.source",
                      format_func={"generate": "Generate a sample", "paste": "Paste keys",
                                   "upload": "Upload a file"}.get)
    try:
        if source == "paste":
            text = st.text_area("Keys, one per line (`<null>` = null key; blank lines skipped)",
                                "user-1\nuser-2\nuser-3\norder-42\n<null>", height=150, key="keys.paste",
                                help=f"At most {keysample.MAX_KEYS:,} keys, {keysample.MAX_KEY_BYTES:,} bytes each.")
            return pasted_keys(text), "paste:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        if source == "upload":
            upload = st.file_uploader("Text (one key per line) or CSV (column `key`, else the first)",
                                      type=["txt", "csv"], key="keys.upload",
                                      help=f"UTF-8 text, at most {keysample.MAX_UPLOAD_BYTES // 2**20} MiB and "
                                           f"{keysample.MAX_KEYS:,} keys. In a CSV an empty field is a null key.")
            column = st.text_input("CSV column (optional)", "", key="keys.csv_column")
            if upload is None:
                st.caption("Upload a file to see its keys.")
                return None, ""
            data = upload.getvalue()
            sample_id = f"upload:{hashlib.sha256(data).hexdigest()}:{upload.name}:{column.strip()}"
            return uploaded_keys(data, upload.name, column.strip() or None), sample_id
        c1, c2, c3, c4, c5 = st.columns(5)
        kind = c1.selectbox("Sample", list(keysample.SAMPLE_KINDS), format_func=keysample.SAMPLE_KINDS.get,
                            key="keys.kind")
        count = c2.number_input("Records", 1, keysample.MAX_KEYS, 100_000, step=10_000, key="keys.count",
                                help=f"1 to {keysample.MAX_KEYS:,}")
        distinct = c3.number_input("Distinct ids", 1, 10_000_000, 10_000, step=1000, key="keys.distinct",
                                   disabled=kind == "uuid")
        zipf_s = c4.slider("Zipf exponent s", 0.5, 3.0, 1.1, 0.1, key="keys.zipf_s", disabled=kind != "zipf",
                           help="P(rank k) ~ 1/k^s: larger s, hotter hot keys")
        null_pct = c5.slider("Null keys (%)", 0, 100, 0, key="keys.null_pct")
        params = (kind, int(count), int(distinct), float(zipf_s), null_pct / 100, 42)
        return generated_keys(*params), f"generate:{params!r}"
    except EngineError as exc:
        st.error(str(exc))
        return None, ""


def histogram_section(keys: pa.Array, sample_id: str, partitions: int) -> None:
    chosen = st.multiselect("Partitioners", list(PARTITIONERS), default=["java", "consistent_random"],
                            format_func=PARTITIONERS.get, key="keys.partitioners")
    if not chosen:
        st.error("Partitioners: choose at least one.")
        return
    counts, rows = {}, []
    for name in chosen:
        placed = placements(keys, sample_id, partitions, name)
        hist = keysample.partition_histogram(placed, partitions)
        counts[name] = hist
        s = keysample.skew(hist)
        rows.append({"partitioner": name, "max / mean": round(s.max_over_mean, 3), "CV": round(s.cv, 3),
                     "empty partitions": s.empty_partitions,
                     "hottest partitions": ", ".join(f"{p} ({c:,})" for p, c in s.hottest[:3]),
                     "records left to sticky/random": int((placed == UNHASHED).sum())})
    st.plotly_chart(charts.partition_histogram(counts), key="keys.histogram_chart")
    st.dataframe(pd.DataFrame(rows), hide_index=True, key="keys.skew_table")
    st.caption("Records the hash does not place (null keys; empty keys under consistent_random) go to the "
               "sticky partitioner (see *Null keys over time*) and are left out of the histogram.")
    hot = keysample.hottest_keys(keys, 10)
    java = client_partitions(pa.array([k for k, _ in hot], pa.string()), partitions, "java")
    st.markdown("**Hottest keys**")
    st.dataframe(pd.DataFrame({"key": [("<null>" if k is None else k) for k, _ in hot],
                               "records": [c for _, c in hot],
                               "Java partition": [str(int(p)) if p >= 0 else "sticky" for p in java]}),
                 hide_index=True, key="keys.hot_table")
    table = pd.DataFrame({"partition": range(partitions), **{name: counts[name] for name in chosen}})
    st.download_button("Download per-partition counts (CSV)", table.to_csv(index=False), "partition_counts.csv",
                       "text/csv", key="keys.download_counts")


def remap_section(keys: pa.Array, sample_id: str, partitions: int) -> None:
    c1, c2 = st.columns(2)
    target = int(c1.number_input("New partition count M", 1, MAX_PAGE_PARTITIONS, partitions * 2 if partitions < 5000
                                 else partitions, key="keys.remap_to",
                                 help=f"1 to {MAX_PAGE_PARTITIONS:,}"))
    share = remap_share(keys, partitions, target)
    top = min(MAX_PAGE_PARTITIONS, max(2 * partitions, target, 12))
    step = max(1, top // MAX_REMAP_POINTS)
    counts = tuple(sorted(set(range(1, top + 1, step)) | {target, partitions}))
    c1.metric(f"Keys that move {partitions} -> {target}", f"{100 * share:.1f}%",
              help="Those keys' new records go to a different partition than their old ones: per-key order "
                   "is broken across the change until the old records are consumed.")
    disagreement = client_disagreement(keys, partitions, "java", "consistent_random")
    c2.metric("Java vs librdkafka default: different partition", f"{100 * disagreement:.1f}%",
              help="Share of keyed records a Java producer and a librdkafka producer with the default "
                   "partitioner (consistent_random, CRC32) send to different partitions. Set "
                   "partitioner=murmur2_random in librdkafka to agree with Java.")
    st.plotly_chart(charts.remap_chart(remap_curve_cached(keys, sample_id, partitions, counts), partitions, target),
                    key="keys.remap_chart")
    st.caption("Going from N to a multiple k·N keeps 1/k of the keys in place (p mod N is preserved); "
               "any other change moves about 1 - 1/M of them.")


def null_key_section() -> None:
    st.markdown("Records **without a key**, for three generations of the Java producer. Broker 0 is made slow; "
                "watch KIP-480's sticky partitioner pile records onto it and KIP-794 undo that.")
    c1, c2, c3, c4 = st.columns(4)
    partitions = c1.number_input("Partitions", 1, producer.MAX_PARTITIONS, 6, key="keys.sim_partitions")
    brokers = c2.number_input("Brokers", 1, producer.MAX_BROKERS, 3, key="keys.sim_brokers")
    batch = c3.number_input("batch.size (bytes)", 1, 16 * 2**20, 16_384, step=1024, key="keys.sim_batch")
    linger = c4.number_input("linger.ms", 0, 10_000, 0, key="keys.sim_linger",
                             help="0 was the default before Kafka 4.0; 5 since (KIP-1030)")
    c5, c6, c7, c8 = st.columns(4)
    size = c5.number_input("Record size (bytes)", 1, 16 * 2**20, 1000, step=100, key="keys.sim_record")
    rate = c6.number_input("Records / s", 1, 1_000_000, 3000, step=500, key="keys.sim_rate")
    slow = c7.number_input("Slow broker latency (ms)", 0, 60_000, 100, key="keys.sim_slow")
    fast = c8.number_input("Other brokers latency (ms)", 0, 60_000, 2, key="keys.sim_fast")
    duration = st.slider("Simulated time (ms)", 500, producer.MAX_DURATION_MS, 4000, 500, key="keys.sim_duration",
                         help=f"At most {producer.MAX_RECORDS:,} records and partitions x ms <= {producer.MAX_WORK:,}")
    latencies = tuple([float(slow)] + [float(fast)] * (int(brokers) - 1))
    config = producer.ProducerConfig(int(partitions), int(brokers), int(batch), int(linger), int(size), int(rate),
                                     int(duration), latencies, bucket_ms=max(1, int(duration) // 40))
    try:
        runs = simulate(config.validate())
    except EngineError as exc:
        st.error(str(exc))
        return
    st.plotly_chart(charts.producer_timeline(runs, latencies), key="keys.sim_chart")
    table = pd.DataFrame([{
        "strategy": producer.STRATEGIES[name],
        "broker 0 (slow) share": f"{100 * run.broker_share()[0]:.1f}%",
        "max / mean per partition": round(run.skew(), 2),
        "batches sent": int(run.batches_sent.sum()),
        "mean batch (bytes)": round(run.mean_batch_bytes()),
    } for name, run in runs.items()])
    st.dataframe(table, hide_index=True, key="keys.sim_table")
    st.caption("Model: 1 ms steps; a batch is sent when full, older than linger.ms or followed by another batch, "
               "if its leader has fewer than max.in.flight (5) requests outstanding. Sticky partition choices "
               "are random (seeded).")


def coordinator_section() -> None:
    st.markdown("A consumer group's coordinator is the leader of partition "
                "`Utils.abs(groupId.hashCode()) % offsets.topic.num.partitions` of `__consumer_offsets` "
                "(Java `String.hashCode` over UTF-16; `Utils.abs(Integer.MIN_VALUE)` is 0).")
    c1, c2 = st.columns([3, 1])
    text = c1.text_area("Group ids, one per line", "my-group\nconsole-consumer-12345\npolygenelubricants",
                        key="keys.group_ids", help=f"At most {MAX_CLI_GROUP_IDS:,} ids")
    n = c2.number_input("offsets.topic.num.partitions", 1, 10_000, 50, key="keys.offsets_partitions")
    ids = [line.rstrip("\r") for line in text.split("\n") if line.strip()]
    try:
        result = cli_coordinator({"group_ids": ids, "offsets_partitions": int(n)})
    except EngineError as exc:
        st.error(str(exc))
        return
    frame = pd.DataFrame(result["results"]).rename(columns={"java_hashcode": "String.hashCode()",
                                                            "partition": "__consumer_offsets partition"})
    st.dataframe(frame, hide_index=True, key="keys.coordinator_table")


keys, sample_id = key_source()
partitions = int(st.number_input("Partitions", 1, MAX_PAGE_PARTITIONS, 12, key="keys.partitions",
                                 help=f"1 to {MAX_PAGE_PARTITIONS:,} on this page"))
if keys is not None:
    st.caption(f"{len(keys):,} records, {keys.null_count:,} null keys.")

tab_hist, tab_remap, tab_null, tab_coord = st.tabs(
    ["Key -> partition", "Changing the partition count", "Null keys over time", "Group coordinator"])
with tab_hist:
    if keys is not None:
        histogram_section(keys, sample_id, partitions)
with tab_remap:
    if keys is not None:
        remap_section(keys, sample_id, partitions)
with tab_null:
    null_key_section()
with tab_coord:
    coordinator_section()
