"""The Share Delivery page's widget groups: the workload's inputs, the summary, the releases note, downloads.

Everything shown is computed by ``engine.share`` (``SharePartition`` driven by share consumers in virtual time);
this module reads widgets and draws."""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from engine.errors import EngineError
from engine.release import model
from engine.share.consumers import MAX_CONSUMERS, FailureKind, SimulationRun, Workload, parse_offsets
from engine.share.report import case_json, consumer_rows, event_rows
from engine.share.settings import DELIVERY_COUNT_LIMIT, LOCK_DURATION, MAX_RECORD_LOCKS, SETTINGS, ShareSettings
from engine.share.summary import DeliverySummary
from engine.share.timeline import MAX_TIMELINE_RECORDS
from ui.frame.door import refusal
from ui.inputs.numbers import whole_number_input
from ui.text.i18n import _, tr

FAILURES: dict[str, FailureKind | None] = {"crash": "crash", "leave": "leave", "none": None}  # the radio's choices

PAGE_CONSUMERS = min(MAX_CONSUMERS, 8)


def setting_help(name: str) -> str:
    """A broker config's help: its level, Kafka's range and its default in the release the model follows."""
    default, low, high = SETTINGS[name]
    text = _("A broker config; Kafka's range {low}..{high}, default {default} in {release}.").format(
        low=f"{low:,}", high=f"{high:,}", default=f"{default:,}", release=model("share-deliver").release.label)
    if name == LOCK_DURATION:
        text += " " + _("A share group may set its own with the group config share.record.lock.duration.ms.")
    return text


def _setting(name: str, key: str, container) -> int:
    default, low, high = SETTINGS[name]
    return whole_number_input(name, low, high, default, f"share.{key}", container=container,
                              help=setting_help(name))


def workload_inputs() -> Workload:
    """The share consumers, the records and the broker settings, from the page's widgets."""
    c1, c2, c3, c4 = st.columns(4)
    records = whole_number_input(_("Records"), 1, MAX_TIMELINE_RECORDS, 60, "share.records", container=c1,
                                 help=_("At most {n}: the timeline draws every record.").format(
                                     n=MAX_TIMELINE_RECORDS))
    consumers = whole_number_input(_("Consumers"), 1, PAGE_CONSUMERS, 3, "share.consumers", container=c2)
    max_records = whole_number_input(_("Records per fetch (max_records)"), 1, 500, 10, "share.max_records",
                                     container=c3, help=_("Share consumers' max.poll.records (Kafka default 500)."))
    processing = whole_number_input(_("Processing per record (ms)"), 1, 60_000, 500, "share.processing_ms",
                                    container=c4)
    k1, k2, k3, k4 = st.columns(4)
    keys = whole_number_input(_("Keys"), 1, 1_000, 6, "share.keys", container=k1,
                              help=_("Record at offset o has key o mod keys."))
    log_batch = whole_number_input(_("Records per log batch"), 1, 1_000, 5, "share.log_batch", container=k2)
    poison_text = k3.text_input(_("Poison offsets (always RELEASEd)"), "7", key="share.poison")
    reject_text = k4.text_input(_("Offsets REJECTed"), "12", key="share.reject")
    f1, f2, f3 = st.columns(3)
    kinds = {"crash": _("crashes (locks run out)"), "leave": _("leaves (records released at once)"),
             "none": _("nobody fails")}
    failure = f1.radio(_("A consumer…"), list(kinds), format_func=kinds.__getitem__, key="share.failure",
                       horizontal=True)
    member = f2.selectbox(_("Which consumer"), [f"C{i + 1}" for i in range(consumers)], key="share.member")
    failure_ms = whole_number_input(_("When (ms)"), 0, 600_000, 2_000, "share.failure_ms", container=f3)
    s1, s2, s3 = st.columns(3)
    settings = ShareSettings(_setting(LOCK_DURATION, "lock_ms", s1), _setting(DELIVERY_COUNT_LIMIT, "limit", s2),
                             _setting(MAX_RECORD_LOCKS, "locks", s3))
    try:
        poison = parse_offsets(poison_text, "poison offsets", records)
        rejected = parse_offsets(reject_text, "rejected offsets", records) - poison
    except EngineError as exc:
        refusal(str(exc))
        st.stop()
    return Workload(records=records, log_batch=log_batch, keys=keys, consumers=consumers, max_records=max_records,
                    processing_ms=processing, failure=FAILURES[failure],
                    failing_member=member or "C1", failure_ms=failure_ms, poison=poison, rejected=rejected,
                    settings=settings)


def failure_caption(summary: DeliverySummary, failure: FailureKind | None) -> str | None:
    """What the failing consumer's records cost: a crash leaves them locked until their locks run out (the
    broker config the page sets), a leave releases them at once."""
    if not summary.held_at_failure:
        return None
    if failure == "leave":
        return _("The leaving consumer held {n} record(s); leaving released them at once, so other consumers "
                 "could have them again right away.").format(n=summary.held_at_failure)
    if not summary.locked_after_failure_ms:
        return _("The crashed consumer held {n} record(s); their locks had already run out when it crashed, so "
                 "nobody waited for them.").format(n=summary.held_at_failure)
    return _("The crashed consumer held {n} record(s); they stayed locked for {s} s after the crash (the broker "
             "config group.share.record.lock.duration.ms) before anyone could have them again.").format(
        n=summary.held_at_failure, s=f"{summary.locked_after_failure_ms / 1000:,.1f}")


def summary_metrics(summary: DeliverySummary, failure: FailureKind | None = "crash") -> None:
    cols = st.columns(6)
    cols[0].metric(_("Processed"), f"{summary.processed:,}", help=_("Records that ended ACKNOWLEDGED (ACCEPT)."))
    cols[1].metric(_("Redelivered"), f"{summary.redelivered:,}",
                   help=_("Records delivered more than once (a lock ran out, a RELEASE, a member left)."))
    cols[2].metric(_("Archived"), f"{summary.archived:,}",
                   help=_("{n} at the delivery limit, the others REJECTed.").format(n=summary.archived_at_limit))
    cols[3].metric(_("Duplicates"), f"{summary.duplicates:,}",
                   help=_("Extra times a record was processed in full: work done again after a crash."))
    cols[4].metric(_("Keys whose order was lost"), f"{summary.keys_out_of_order:,} / {summary.keys:,}")
    cols[5].metric(_("Finished at"), f"{summary.end_ms / 1000:,.1f} s")
    caption = failure_caption(summary, failure)
    if caption:
        st.caption(caption)
    if summary.unfinished:
        st.warning(_("{n} record(s) were not finished within the 10-minute horizon.").format(n=summary.unfinished))


def releases_note() -> None:
    """What the page models of the release the SharePartition model follows, and what it leaves out."""
    release = model("share-deliver").release
    lock, limit, locks = (f"{SETTINGS[name][0]:,}" for name in (LOCK_DURATION, DELIVERY_COUNT_LIMIT, MAX_RECORD_LOCKS))
    st.info(_("**{release}.** The broker side (acquire, locks, acknowledgements, the delivery limit, a member "
              "leaving) is Kafka's SharePartition as released in {release} (commit {commit}), checked against "
              "cases its own code produced. What the page shows of it: a fetch acquires at most what the in-flight "
              "limit leaves (group.share.partition.max.record.locks minus the records in flight); records "
              "delivered often are throttled: from half the delivery limit on (rounded up, at least 2) they are "
              "handed out in halving portions, and a record on its last delivery is delivered alone; records "
              "re-acquired together are reported as merged ranges; a member leaving releases its own records and "
              "skips other members'. Configs: the broker configs group.share.record.lock.duration.ms ({lock}; a "
              "share group may override it with its group config share.record.lock.duration.ms), "
              "group.share.delivery.count.limit ({limit}) and group.share.partition.max.record.locks ({locks}); "
              "the group config share.auto.offset.reset defaults to latest (a new share partition starts at the "
              "log end), and this page sets earliest because its records are produced before the consumers start. "
              "Not modelled here: RENEW acknowledgements (KIP-1222), the record_limit acquire mode (the consumer "
              "config share.acquire.mode, KIP-1206), read_committed (the group config share.isolation.level), "
              "dead-letter queues (KIP-1191), share-state persistence failures, log truncation and the fetch byte "
              "budget; a record archived at the limit is simply dropped here. The consumers' own behaviour (fetch, "
              "process, acknowledge) is the lab's.").format(release=release.label, commit=release.commit[:12],
                                                            lock=lock, limit=limit, locks=locks),
            icon=":material/info:")


def downloads(run: SimulationRun, summary: DeliverySummary) -> None:
    st.dataframe(pd.DataFrame(consumer_rows(run)), hide_index=True, width="stretch", key="share.consumers")
    rows = pd.DataFrame(event_rows(run)).rename(columns={"t_ms": "t (ms)", "locks_run_out": "locks run out"})
    rows["result"] = rows["result"].map(lambda v: ", ".join(tr(part) for part in v.split(", ")) if v else v)
    st.dataframe(rows, hide_index=True, width="stretch", key="share.events")
    d1, d2, d3 = st.columns(3)
    d1.download_button(_("Download the events (CSV)"), rows.to_csv(index=False), "share_delivery_events.csv",
                       "text/csv", key="share.download_events")
    d2.download_button(_("Download the summary (JSON)"), json.dumps(summary.as_json(), indent=1),
                       "share_delivery_summary.json", "application/json", key="share.download_summary")
    d3.download_button(_("Download the run as a share-deliver case (JSON)"), json.dumps(case_json(run)),
                       "share_delivery_case.json", "application/json", key="share.download_case",
                       help=_("python -m engine share-deliver replays it step by step."))
