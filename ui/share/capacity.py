"""The Sizing page's "consumer group or share group?" tab: inputs, the two choices side by side, their costs.

The numbers come from ``engine.share.capacity.compare`` (through ``ui.share.cached.share_capacity``), which measures
the share group on the engine's own ``SharePartition``."""

from __future__ import annotations

import json
from dataclasses import asdict

import pandas as pd
import streamlit as st

from engine.errors import EngineError
from engine.share.capacity import MAX_TARGET_RPS, CapacityComparison, CapacityInputs
from engine.share.settings import DELIVERY_COUNT_LIMIT, LOCK_DURATION, MAX_RECORD_LOCKS, SETTINGS, ShareSettings
from ui.frame.door import refusal
from ui.frame.release_note import release_caption
from ui.frame.tables import table
from ui.inputs.numbers import decimal_input, whole_number_input
from ui.share.cached import share_capacity
from ui.share.delivery import setting_help
from ui.text.i18n import _


def _inputs() -> CapacityInputs:
    c1, c2, c3, c4 = st.columns(4)
    target = decimal_input(_("Target throughput (records/s)"), 0.0, float(MAX_TARGET_RPS), 2_000.0,
                           "sizing.share.target_rps", container=c1)
    processing = decimal_input(_("Processing time per record (ms)"), 0.0, 600_000.0, 50.0,
                               "sizing.share.processing_ms", container=c2)
    partitions = whole_number_input(_("Share group partitions"), 1, 10_000, 3, "sizing.share.partitions",
                                    container=c3)
    batch = whole_number_input(_("Records per fetch (max.poll.records)"), 1, 10_000, 500, "sizing.share.batch",
                               container=c4)
    s1, s2, s3 = st.columns(3)
    values = [whole_number_input(name, SETTINGS[name][1], SETTINGS[name][2], SETTINGS[name][0],
                                 f"sizing.share.{key}", container=col, help=setting_help(name))
              for name, key, col in ((LOCK_DURATION, "lock_ms", s1), (DELIVERY_COUNT_LIMIT, "limit", s2),
                                     (MAX_RECORD_LOCKS, "locks", s3))]
    return CapacityInputs(float(target), float(processing), int(partitions), int(batch), ShareSettings(*values))


def _table(c: CapacityComparison) -> pd.DataFrame:
    s = c.share
    rows = [
        (_("Partitions"), f"{c.consumer_group_partitions:,}",
         _("{n} (at least {need} for every consumer to work)").format(n=f"{s.partitions:,}",
                                                                      need=f"{s.partitions_needed:,}")),
        (_("Consumers"), f"{c.consumers_needed:,}", _("{n} ({per} per partition)").format(
            n=f"{c.consumers_needed:,}", per=f"{s.consumers_per_partition:,}")),
        (_("Throughput (records/s)"), f"{c.inputs.target_rps:,.0f}", _("{rate} measured").format(
            rate=f"{s.measured_rps:,.0f}")),
        (_("Order per key"), _("kept (one consumer per partition)"),
         _("lost for {n} of {keys} keys in the measured run").format(n=s.keys_out_of_order, keys=s.measured.keys)),
        (_("After a crash"), _("its partitions move at the next rebalance; uncommitted records are read again"),
         _("{held} records locked {s} s, then delivered again; {dup} processed twice").format(
             held=f"{s.measured.held_at_failure:,}", s=f"{s.measured.locked_after_failure_ms / 1000:,.1f}",
             dup=f"{s.measured.duplicates:,}")),
        (_("In-flight limit per partition"), _("none"), _("about {n} consumers busy at once").format(
            n=f"{s.concurrency_limit:,}")),
    ]
    return pd.DataFrame(rows, columns=[_("What"), _("Consumer group"), _("Share group")])


def lock_advice(inputs: CapacityInputs, fits: bool) -> None:
    """A whole fetched batch must be processed within the acquisition lock: said always, an error when it is not."""
    values = dict(batch=f"{inputs.max_records:,}", each=f"{inputs.processing_ms:,g}",
                  ms=f"{inputs.max_records * inputs.processing_ms:,.0f}", lock=f"{inputs.settings.lock_duration_ms:,}")
    if fits:
        st.caption(_("A whole fetched batch must be processed within the acquisition lock: max.poll.records × the "
                     "processing time per record = {batch} × {each} ms = {ms} ms, below the lock duration of {lock} "
                     "ms (the broker config "
                     "group.share.record.lock.duration.ms; a share group may set its own with the group config "
                     "share.record.lock.duration.ms).").format(**values))
        return
    st.error(_("A whole fetched batch must be processed within the acquisition lock, but max.poll.records × the "
               "processing time per record = {batch} × {each} ms = {ms} ms is not below the lock duration of {lock} "
               "ms: records are delivered again before they are acknowledged. "
               "Fetch fewer records (max.poll.records) or raise the lock duration (the broker config "
               "group.share.record.lock.duration.ms; a share group may set its own with the group config "
               "share.record.lock.duration.ms).").format(
        **values))


def share_or_consumer_group() -> None:
    st.markdown(_("A consumer group gives each partition to one consumer, so it needs as many partitions as busy "
                  "consumers; a share group (KIP-932) lets many consumers read one partition. The share group is "
                  "measured on the lab's SharePartition model: one partition with its share of the consumers, one "
                  "of them crashing a third of the way through."))
    inputs = _inputs()
    try:
        result = share_capacity(inputs)
    except EngineError as exc:
        refusal(str(exc))
        return
    table(_table(result), key="sizing.share.table")
    s = result.share
    if s.capped:
        st.warning(_("{per} consumers per share partition, but its in-flight limit (the broker config "
                     "group.share.partition.max.record.locks: {locks} records ÷ {batch} per fetch) keeps only about "
                     "{n} busy: add share partitions (at least {need}).").format(
            per=s.consumers_per_partition, locks=f"{inputs.settings.max_record_locks:,}", batch=inputs.max_records,
            n=s.concurrency_limit, need=s.partitions_needed))
    lock_advice(inputs, s.lock_longer_than_batch)
    release_caption("share-deliver")
    st.download_button(_("Download the comparison (JSON)"), json.dumps(asdict(result), default=str, indent=1),
                       "share_or_consumer_group.json", "application/json", key="sizing.share.download")
