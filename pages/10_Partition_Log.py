"""Partition log: segments rolling, sparse indexes, a lookup step by step, retention, compaction, and what a day
of data costs a broker (UnifiedLog, LogSegment, OffsetIndex, TimeIndex, LogCleaner)."""

from __future__ import annotations

import json

import streamlit as st

from engine import articles
from engine.charts.log import segment_map
from engine.errors import EngineError
from engine.storage import partition_log as plog
from engine.storage.capacity import capacity_rows, partition_capacity
from engine.storage.log_config import DAY_MS, LogConfig
from ui.frame.door import door
from ui.frame.layout import page_setup
from ui.frame.lazy import lazy_section, linked
from ui.frame.release_note import release_caption
from ui.frame.tables import table
from ui.inputs.numbers import decimal_input, whole_number_input
from ui.partition.cached import compaction_figure, log_animation_figure, log_result
from ui.partition.log_inputs import K, document
from ui.text.i18n import _, tr

MAX_LOOKUP = 2**62  # engine.storage.partition_log reads the lookups' and actions' offsets and times in 0..2**62

RUN_AT_LINKED = linked((K + "at",))  # a link naming the run time (a lesson step's) opens retention
page_setup(_("Partition Log"), "🗂️", _("One partition on disk: segments named by base offset, sparse indexes, "
                                        "lookups, retention and compaction, as Kafka's storage code does them."))


def segments_section(doc: dict) -> dict:
    out = door(log_result, json.dumps(doc, sort_keys=True))[0]
    gone = len(out["deleted_by_retention_checks"])
    heading = _("{n} segment(s), offsets {first:,}..{last:,}").format(
        n=len(out["segments"]), first=out["log_start_offset"], last=out["log_end_offset"] - 1)
    st.subheader(heading + (_(" ({gone} deleted while appending)").format(gone=gone) if gone else ""))
    st.plotly_chart(log_animation_figure(json.dumps(doc, sort_keys=True)), key=K + "animation")
    dropped = ("offset_index", "time_index", "files")
    table([{k: v for k, v in s.items() if k not in dropped} for s in out["segments"]], key=K + "segments")
    release_caption("log")
    return out


def lookup_section(doc: dict, out: dict) -> None:
    st.subheader(_("Find an offset, find a timestamp"))
    c1, c2 = st.columns(2)
    offset = whole_number_input(_("offset"), 0, MAX_LOOKUP, min(23, max(out["log_end_offset"] - 1, 0)), K + "offset",
                                container=c1)
    stamp = whole_number_input(_("timestamp (ms)"), 0, MAX_LOOKUP, 5 * 60_000, K + "timestamp", container=c2)
    lookups = {"offsets": [offset], "timestamps": [stamp]}
    found = door(log_result, json.dumps({**doc, "lookups": lookups}, sort_keys=True))[0]
    by_offset, by_time = found["lookups"]
    st.markdown(tr(plog.lookup_story(by_offset)))
    if by_offset.get("segment"):
        lanes = ["scan", "offset index", "segments"]  # the y categories, as tick texts the chart hook translates
        st.plotly_chart(segment_map(found["segments"], by_offset).update_yaxes(tickvals=lanes, ticktext=lanes),
                        key=K + "map")
        left, right = st.columns(2)
        with left:
            table(by_offset["probes"], key=K + "probes")
        with right:
            table(by_offset["scan"], key=K + "scan")
    st.markdown(tr(plog.timestamp_story(by_time)))


def maintenance_section(doc: dict, out: dict) -> None:
    """Retention and DeleteRecords at a chosen time, then the cleaner at that time (a lazy expander)."""
    last = max((s["largest_timestamp"] for s in out["segments"]), default=0)
    c1, c2, c3 = st.columns(3)
    default_at = last + max(doc["config"]["retention.ms"], 0)
    at = whole_number_input(_("run at (ms)"), 0, MAX_LOOKUP, default_at, K + "at", container=c1,
                            help=_("Default: the newest timestamp + retention.ms"))
    start = whole_number_input(_("DeleteRecords before offset (0 = none)"), 0, MAX_LOOKUP, 0, K + "delete_before",
                               container=c2)
    actions = ([{"delete_records_before": start}] if start else []) + [{"retention_at_ms": at}]
    done = door(log_result, json.dumps({**doc, "actions": actions}, sort_keys=True))[0]
    deleted = done["actions"][-1]["deleted"]
    st.markdown(_("**Retention at {at:,} ms** deletes {deleted} segment(s); log start offset -> {start:,}; "
                  "{left} segment(s) left.").format(at=at, deleted=len(deleted), start=done["log_start_offset"],
                                                     left=len(done["segments"])))
    table(deleted, key=K + "deleted")
    cleaning = json.dumps({**doc, "actions": [{"clean_at_ms": at}]}, sort_keys=True)
    cleaned, compactions = door(log_result, cleaning)
    result = cleaned["actions"][0]
    c3.metric(_("dirty ratio"), f"{result.get('dirty_ratio', 0):.2f}",
              help=_("cleanable / (clean + cleanable) bytes"))
    st.markdown(_("**Compaction at {at:,} ms**: {reason}.").format(at=at, reason=tr(result["reason"])))
    if result["ran"] and compactions:
        st.plotly_chart(compaction_figure(cleaning), key=K + "compaction")
        st.caption(_("{removed:,} records removed ({tombstones} tombstones); {before:,} -> {after:,} bytes.").format(
            removed=result["records_removed"], tombstones=result["tombstones_removed"],
            before=result["bytes_before"], after=result["bytes_after"]))


def capacity_section() -> None:
    """What a day of data costs a broker, from Kafka's default log settings (a lazy expander)."""
    c = st.columns(6)
    mib_s = decimal_input(_("topic MiB/s (as on Sizing)"), 0.001, 1e6, 200.0, K + "mib_s", container=c[0])
    parts = whole_number_input(_("partitions of the topic"), 1, 100_000, 24, K + "topic_partitions", container=c[1])
    per_broker = whole_number_input(_("partition replicas per broker"), 1, 1_000_000, 24, K + "per_broker",
                                    container=c[2])
    batch = whole_number_input(_("batch bytes"), 100, 10_000_000, 16_384, K + "batch", container=c[3])
    days = decimal_input(_("retention (days, -1 = none)"), -1.0, 3650.0, 7.0, K + "days", container=c[4])
    gib = decimal_input("segment.bytes (GiB)", 0.001, 1.999, 1.0, K + "gib", container=c[5])
    config = LogConfig.from_dict({"retention.ms": int(days * DAY_MS) if days >= 0 else -1,
                                  "segment.bytes": int(gib * 2**30)})
    cap = partition_capacity(int(mib_s * 2**20 * 86_400 / parts), int(per_broker), config, int(batch))
    table(capacity_rows(cap), key=K + "capacity")
    st.caption(_("Descriptors: one per segment (its .log FileChannel). Memory maps: .index and .timeindex of "
                 "each segment. Index bytes: mapped size; the active segment's indexes are pre-allocated "
                 "sparse files."))


try:
    doc = document()
    out = segments_section(doc)
    lookup_section(doc, out)
    lazy_section(_("Retention and compaction"), K + "maintenance", maintenance_section, doc, out, opened=RUN_AT_LINKED)
    lazy_section(_("Sizing: a day of data on a broker (Kafka's default log settings, not the ones above)"),
                 K + "sizing", capacity_section)
except EngineError as exc:
    st.error(tr(str(exc)))
lazy_section(_("Where the reference articles are right, and where Kafka differs"), K + "articles_view",
             lambda: table(articles.rows(articles.LOG_CORRECTIONS), key=K + "articles"))
