"""Keys: which partition a key lands on, for each client; what a partition-count change breaks;
where null keys go over time; which __consumer_offsets partition coordinates a group."""

from __future__ import annotations

from collections.abc import Callable

import pyarrow as pa
import streamlit as st

from engine import EngineError, client_disagreement, null_key_rows, remap_share
from engine.charts import producer_timeline, remap_chart
from ui.frame.door import door
from ui.frame.layout import page_setup
from ui.frame.lazy import lazy_tabs
from ui.frame.release_note import release_caption
from ui.frame.tables import table
from ui.inputs.client_choice import client_choice, partitioner_note
from ui.inputs.numbers import whole_number_input
from ui.keys.cached import null_key_runs, remap_curve_of
from ui.keys.coordinator import coordinator_section
from ui.keys.histogram import histogram_section
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
    table([{**row, "strategy": tr(row["strategy"])} for row in null_key_rows(runs)],  # the label, not an id
          key="keys.sim_table")
    st.caption(_("Model: 1 ms steps; a batch is sent when full, older than linger.ms or followed by another "
                 "batch, if its leader has fewer than max.in.flight (5) requests outstanding. Sticky "
                 "partition choices are random (seeded)."))


def linked_tab(labels: list[str]) -> str | None:
    """The tab a link naming its own field opens (a lesson's link: ``?keys.remap_to=``, ``?keys.group_ids=``)."""
    linked = [i for i, fields in ((1, ("keys.remap_to",)), (3, ("keys.group_ids", "keys.offsets_partitions")))
              if any(field in st.query_params for field in fields)]
    return labels[linked[0]] if linked else None


keys, sample_id = key_source()
partitions = whole_number_input(_("Partitions"), 1, MAX_PAGE_PARTITIONS, 12, "keys.partitions",
                                help=_("At most {high} on this page.").format(high=f"{MAX_PAGE_PARTITIONS:,}"))
if keys is not None:
    st.caption(_("{records} records, {nulls} null keys.").format(records=f"{len(keys):,}",
                                                                 nulls=f"{keys.null_count:,}"))
client = client_choice("keys")
partitioner_note(client)
labels = [_("Key -> partition"), _("Changing the partition count"), _("Null keys over time"), _("Group coordinator")]


def sample_tabs() -> None:
    """The sample's tabs (histogram, remap); the others need no sample. Only the open tab runs."""
    def on_sample(draw: Callable[[pa.Array], None]) -> Callable[[], None]:
        return lambda: None if keys is None else draw(keys)

    def coordinator_tab() -> None:
        coordinator_section()
        release_caption("coordinator")

    lazy_tabs(dict(zip(labels, (on_sample(lambda k: histogram_section(k, sample_id, partitions, client)),
                                on_sample(lambda k: remap_section(k, sample_id, partitions)),
                                null_key_section, coordinator_tab), strict=True)),
              "keys.view", opened=linked_tab(labels))


sample_tabs()
release_caption("hash")
