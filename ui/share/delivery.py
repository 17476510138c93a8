"""The Share Delivery page's widget groups: the workload's inputs, the summary, the releases note, downloads.

Everything shown is computed by ``engine.share`` (``SharePartition`` driven by share consumers in virtual time);
this module reads widgets and draws.  The consumers, the records and the failure are in the first view; the keys,
log batches, poison and rejected offsets and the broker settings are in a lazy expander (``SETTINGS_KEY``),
closed at first: while it is closed its fields are not drawn and the workload takes their kept values
(``ui.inputs.numbers.kept_value``), so the page computes the same thing open or closed.  Small tables are static
(``ui.frame.tables.table``)."""

from __future__ import annotations

import contextlib
import json
from typing import Any

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
from ui.frame.tables import table
from ui.inputs.numbers import kept_value, whole_number_input
from ui.text.i18n import _, tr

FAILURES: dict[str, FailureKind | None] = {"crash": "crash", "leave": "leave", "none": None}  # the radio's choices

PAGE_CONSUMERS = min(MAX_CONSUMERS, 8)
SETTINGS_KEY = "deliver.settings"  # the lazy expander of the keys, offsets and broker settings
DEFAULT_POISON, DEFAULT_REJECTED = "7", "12"  # the offsets' texts on a first visit
BROKER_SETTINGS = ((LOCK_DURATION, "lock_ms"), (DELIVERY_COUNT_LIMIT, "limit"), (MAX_RECORD_LOCKS, "locks"))


def setting_help(name: str) -> str:
    """A broker config's help: its level, Kafka's range and its default in the release the model follows."""
    default, low, high = SETTINGS[name]
    text = _("A broker config; Kafka's range {low}..{high}, default {default} in {release}.").format(
        low=f"{low:,}", high=f"{high:,}", default=f"{default:,}", release=model("share-deliver").release.label)
    if name == LOCK_DURATION:
        text += " " + _("A share group may set its own with the group config share.record.lock.duration.ms.")
    return text


def _number(shown: bool, container: Any, label: str, low: int, high: int, default: int, key: str,
            help: str = "") -> int:
    """A whole-number field drawn in ``container`` when ``shown``, else its kept value (``kept_value``)."""
    if not shown:
        return int(kept_value(key, default))
    return whole_number_input(label, low, high, default, key, container=container, help=help)


def _text(shown: bool, container: Any, label: str, default: str, key: str) -> str:
    """A text field drawn in ``container`` when ``shown`` (kept while hidden), else its kept text."""
    if not shown:
        return str(st.session_state.get(key, default))
    return container.text_input(label, default, key=key, persist_state="page")


def _setting(shown: bool, name: str, key: str, container: Any) -> int:
    default, low, high = SETTINGS[name]
    return _number(shown, container, name, low, high, default, f"share.{key}", help=setting_help(name))


def _kept_offsets_refused(records: int) -> bool:
    """True when the poison or rejected offsets kept in the session do not fit ``records`` (fewer records than
    an offset typed earlier): the page refuses them, so their fields must be in view."""
    ss = st.session_state
    try:
        parse_offsets(str(ss.get("share.poison", DEFAULT_POISON)), "poison offsets", records)
        parse_offsets(str(ss.get("share.reject", DEFAULT_REJECTED)), "rejected offsets", records)
    except EngineError:
        return True
    return False


def record_details(records: int) -> tuple[int, int, str, str, ShareSettings]:
    """Keys, records per log batch, the poison and rejected offsets' texts and the broker settings: drawn in a
    lazy expander when it is open, else their kept values (nothing of them is drawn).  Offsets that no longer
    fit ``records`` open it, so the refusal is seen beside its field."""
    if not st.session_state.get(SETTINGS_KEY) and _kept_offsets_refused(records):
        st.session_state[SETTINGS_KEY] = True
    box = st.expander(_("Keys, log batches, poison offsets and broker settings"), key=SETTINGS_KEY,
                      on_change="rerun")
    shown = bool(box.open)
    with box if shown else contextlib.nullcontext():
        k1, k2, k3, k4 = st.columns(4) if shown else (None,) * 4
        keys = _number(shown, k1, _("Keys"), 1, 1_000, 6, "share.keys",
                       help=_("Record at offset o has key o mod keys."))
        log_batch = _number(shown, k2, _("Records per log batch"), 1, 1_000, 5, "share.log_batch")
        poison = _text(shown, k3, _("Poison offsets (always RELEASEd)"), DEFAULT_POISON, "share.poison")
        reject = _text(shown, k4, _("Offsets REJECTed"), DEFAULT_REJECTED, "share.reject")
        columns = st.columns(3) if shown else (None,) * 3
        settings = ShareSettings(*(_setting(shown, name, key, col)
                                   for (name, key), col in zip(BROKER_SETTINGS, columns, strict=True)))
    return keys, log_batch, poison, reject, settings


def workload_inputs() -> Workload:
    """The share consumers, the records and the broker settings, from the page's widgets (the secondary ones
    from ``record_details``)."""
    c1, c2, c3, c4 = st.columns(4)
    records = whole_number_input(_("Records"), 1, MAX_TIMELINE_RECORDS, 60, "share.records", container=c1,
                                 help=_("At most {n}: the timeline draws every record.").format(
                                     n=MAX_TIMELINE_RECORDS))
    consumers = whole_number_input(_("Consumers"), 1, PAGE_CONSUMERS, 3, "share.consumers", container=c2)
    max_records = whole_number_input(_("Records per fetch (max_records)"), 1, 500, 10, "share.max_records",
                                     container=c3, help=_("Share consumers' max.poll.records (Kafka default 500)."))
    processing = whole_number_input(_("Processing per record (ms)"), 1, 60_000, 500, "share.processing_ms",
                                    container=c4)
    f1, f2, f3 = st.columns(3)
    kinds = {"crash": _("crashes (locks run out)"), "leave": _("leaves (records released at once)"),
             "none": _("nobody fails")}
    failure = f1.radio(_("A consumer…"), list(kinds), format_func=kinds.__getitem__, key="share.failure",
                       horizontal=True)
    member = f2.selectbox(_("Which consumer"), [f"C{i + 1}" for i in range(consumers)], key="share.member")
    failure_ms = whole_number_input(_("When (ms)"), 0, 600_000, 2_000, "share.failure_ms", container=f3)
    keys, log_batch, poison_text, reject_text, settings = record_details(records)
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
    """Per consumer (static: at most 8 rows), every event (the searchable grid above 40 rows) and the downloads."""
    table(consumer_rows(run), key="share.consumers")
    rows = pd.DataFrame(event_rows(run)).rename(columns={"t_ms": "t (ms)", "locks_run_out": "locks run out"})
    rows["result"] = rows["result"].map(lambda v: ", ".join(tr(part) for part in v.split(", ")) if v else v)
    table(rows, key="share.events")
    d1, d2, d3 = st.columns(3)
    d1.download_button(_("Download the events (CSV)"), rows.to_csv(index=False), "share_delivery_events.csv",
                       "text/csv", key="share.download_events")
    d2.download_button(_("Download the summary (JSON)"), json.dumps(summary.as_json(), indent=1),
                       "share_delivery_summary.json", "application/json", key="share.download_summary")
    d3.download_button(_("Download the run as a share-deliver case (JSON)"), json.dumps(case_json(run)),
                       "share_delivery_case.json", "application/json", key="share.download_case",
                       help=_("python -m engine share-deliver replays it step by step."))
