"""Partition log: segments rolling, sparse indexes, a lookup step by step, retention, compaction, and what a day
of data costs a broker (UnifiedLog, LogSegment, OffsetIndex, TimeIndex, LogCleaner)."""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from engine import articles
from engine.charts.log import compaction_scatter, segment_map
from engine.errors import EngineError
from engine.storage import partition_log as plog
from engine.storage.capacity import capacity_rows, partition_capacity
from engine.storage.log_config import DAY_MS, LogConfig
from ui.cached import log_animation_figure, log_result
from ui.i18n import _, tr
from ui.layout import page_setup
from ui.offload import door
from ui.partition_log import K, document
from ui.release_note import release_caption

page_setup(_("Partition Log"), "🗂️", _("One partition on disk: segments named by base offset, sparse indexes, "
                                        "lookups, retention and compaction, as Kafka's storage code does them."))


def segments_section(doc: dict) -> dict:
    out = door(log_result, json.dumps(doc, sort_keys=True))[0]
    gone = len(out["deleted_by_retention_checks"])
    heading = _("{n} segment(s), offsets {first:,}..{last:,}").format(
        n=len(out["segments"]), first=out["log_start_offset"], last=out["log_end_offset"] - 1)
    st.subheader(heading + (_(" ({gone} deleted while appending)").format(gone=gone) if gone else ""))
    st.plotly_chart(log_animation_figure(json.dumps(doc, sort_keys=True)), key=K + "animation")
    table = pd.DataFrame(out["segments"]).drop(columns=["offset_index", "time_index", "files"])
    st.dataframe(table, hide_index=True, key=K + "segments")
    release_caption("log")
    return out


def lookup_section(doc: dict, out: dict) -> None:
    st.subheader(_("Find an offset, find a timestamp"))
    c1, c2 = st.columns(2)
    offset = c1.number_input(_("offset"), 0, None, min(23, max(out["log_end_offset"] - 1, 0)), key=K + "offset")
    stamp = c2.number_input(_("timestamp (ms)"), 0, None, 5 * 60_000, key=K + "timestamp")
    lookups = {"offsets": [int(offset)], "timestamps": [int(stamp)]}
    found = door(log_result, json.dumps({**doc, "lookups": lookups}, sort_keys=True))[0]
    by_offset, by_time = found["lookups"]
    st.markdown(tr(plog.lookup_story(by_offset)))
    if by_offset.get("segment"):
        lanes = ["scan", "offset index", "segments"]  # the y categories, as tick texts the chart hook translates
        st.plotly_chart(segment_map(found["segments"], by_offset).update_yaxes(tickvals=lanes, ticktext=lanes),
                        key=K + "map")
        left, right = st.columns(2)
        left.dataframe(pd.DataFrame(by_offset["probes"]), hide_index=True, key=K + "probes")
        right.dataframe(pd.DataFrame(by_offset["scan"]), hide_index=True, key=K + "scan")
    st.markdown(tr(plog.timestamp_story(by_time)))


def maintenance_section(doc: dict, out: dict) -> None:
    st.subheader(_("Retention and compaction"))
    last = max((s["largest_timestamp"] for s in out["segments"]), default=0)
    c1, c2, c3 = st.columns(3)
    default_at = last + max(doc["config"]["retention.ms"], 0)
    at = int(c1.number_input(_("run at (ms)"), 0, None, default_at, key=K + "at",
                             help=_("Default: the newest timestamp + retention.ms")))
    start = int(c2.number_input(_("DeleteRecords before offset (0 = none)"), 0, None, 0,
                                key=K + "delete_before"))
    actions = ([{"delete_records_before": start}] if start else []) + [{"retention_at_ms": at}]
    done = door(log_result, json.dumps({**doc, "actions": actions}, sort_keys=True))[0]
    deleted = done["actions"][-1]["deleted"]
    st.markdown(_("**Retention at {at:,} ms** deletes {deleted} segment(s); log start offset -> {start:,}; "
                  "{left} segment(s) left.").format(at=at, deleted=len(deleted), start=done["log_start_offset"],
                                                     left=len(done["segments"])))
    st.dataframe(pd.DataFrame(deleted), hide_index=True, key=K + "deleted")
    cleaned, compactions = door(log_result, json.dumps({**doc, "actions": [{"clean_at_ms": at}]}, sort_keys=True))
    result = cleaned["actions"][0]
    c3.metric(_("dirty ratio"), f"{result.get('dirty_ratio', 0):.2f}",
              help=_("cleanable / (clean + cleanable) bytes"))
    st.markdown(_("**Compaction at {at:,} ms**: {reason}.").format(at=at, reason=tr(result["reason"])))
    if result["ran"] and compactions:
        st.plotly_chart(compaction_scatter(compactions[0]["before"], compactions[0]["kept"]),
                        key=K + "compaction")
        st.caption(_("{removed:,} records removed ({tombstones} tombstones); {before:,} -> {after:,} bytes.").format(
            removed=result["records_removed"], tombstones=result["tombstones_removed"],
            before=result["bytes_before"], after=result["bytes_after"]))


def capacity_section() -> None:
    st.subheader(_("Sizing: a day of data on a broker (Kafka's default log settings, not the ones above)"))
    c = st.columns(6)
    mib_s = c[0].number_input(_("topic MiB/s (as on Sizing)"), 0.001, 1e6, 200.0, key=K + "mib_s")
    parts = c[1].number_input(_("partitions of the topic"), 1, 100_000, 24, key=K + "topic_partitions")
    per_broker = c[2].number_input(_("partition replicas per broker"), 1, 1_000_000, 24, key=K + "per_broker")
    batch = c[3].number_input(_("batch bytes"), 100, 10_000_000, 16_384, key=K + "batch")
    days = c[4].number_input(_("retention (days, -1 = none)"), -1.0, 3650.0, 7.0, key=K + "days")
    gib = c[5].number_input("segment.bytes (GiB)", 0.001, 1.999, 1.0, key=K + "gib")
    config = LogConfig.from_dict({"retention.ms": int(days * DAY_MS) if days >= 0 else -1,
                                  "segment.bytes": int(gib * 2**30)})
    cap = partition_capacity(int(mib_s * 2**20 * 86_400 / parts), int(per_broker), config, int(batch))
    st.dataframe(pd.DataFrame(capacity_rows(cap)), hide_index=True, key=K + "capacity")
    st.caption(_("Descriptors: one per segment (its .log FileChannel). Memory maps: .index and .timeindex of "
                 "each segment. Index bytes: mapped size; the active segment's indexes are pre-allocated "
                 "sparse files."))


try:
    doc = document()
    out = segments_section(doc)
    lookup_section(doc, out)
    maintenance_section(doc, out)
    capacity_section()
except EngineError as exc:
    st.error(tr(str(exc)))
st.subheader(_("Where the reference articles are right, and where Kafka differs"))
st.dataframe(pd.DataFrame(articles.rows(articles.LOG_CORRECTIONS)), hide_index=True, key=K + "articles")
