"""Producer: retries, ordering and idempotence, simulated with Kafka's client and broker rules; transactions
as far as the seed articles go."""

from __future__ import annotations

import json

import streamlit as st

from engine import articles
from engine.errors import EngineError
from engine.producer import idempotence as producer
from engine.producer.producer_config import DEFAULTS  # released Kafka's defaults, as the page sends
from engine.producer.sender import FAULTS
from engine.release import RELEASED
from ui.frame.layout import page_setup
from ui.frame.lazy import lazy_section, lazy_tabs, linked
from ui.frame.release_note import release_caption
from ui.frame.tables import table
from ui.inputs.numbers import whole_number_input
from ui.partition import transactions
from ui.partition.cached import produce_figures, produce_result
from ui.text.i18n import _, tr

K = "producer."
NUMBERS = {"max.in.flight.requests.per.connection": (1, 100), "retries": (0, 2**31 - 1),
           "linger.ms": (0, 600_000), "request.timeout.ms": (0, 600_000),
           "delivery.timeout.ms": (0, 3_600_000), "batch.size": (0, 2**20), "retry.backoff.ms": (0, 60_000)}
WORKLOAD = {"partitions": ("partitions", 1, producer.MAX_PARTITIONS),
            "records": ("records", 1, producer.MAX_RECORDS),
            "interval_ms": ("ms between sends", 0, 60_000),
            "latency_ms": ("one-way latency (ms)", 0, producer.MAX_LATENCY_MS),
            "value_bytes": ("value bytes", 0, producer.MAX_VALUE_BYTES)}

TXN_LINKED = linked(transactions.FIELDS)  # a link into the transactions (a lesson step's) opens them
page_setup(_("Producer"), "📨", _("Batches, retries and in-flight requests against a broker that checks producer "
                                  "ids, epochs and sequence numbers (RecordAccumulator, Sender, TransactionManager, "
                                  "ProducerStateManager)."))


def workload_number(doc: dict, name: str) -> int:
    """A preset's workload number (100 where it leaves the number out)."""
    return int(doc.get(name, 100))


def load_preset() -> None:
    """Write the chosen preset into the widgets' session state (also on the first run)."""
    doc = producer.PRESETS[st.session_state.setdefault(K + "preset", next(iter(producer.PRESETS)))]
    cfg = {**DEFAULTS, **doc["config"]}
    st.session_state[K + "idempotence"] = str(doc["config"].get("enable.idempotence", "default")).lower()
    st.session_state[K + "acks"] = cfg["acks"]
    for name in NUMBERS:
        st.session_state[K + name] = cfg[name]
    for name in WORKLOAD:
        st.session_state[K + name] = workload_number(doc, name)
    st.session_state[K + "faults"] = "\n".join(f"{f['request']}, {f['kind']}" for f in doc["faults"])


def settings() -> dict:
    cols = st.columns(4)
    idem = cols[0].selectbox("enable.idempotence", ["default", "true", "false"], key=K + "idempotence",
                             format_func=lambda v: _("default") if v == "default" else v,
                             help=_("default = true since Kafka 3.0, unless acks/retries/in-flight conflict"))
    acks = cols[1].selectbox(_("acks"), ["all", "1", "0"], key=K + "acks")
    config: dict = {} if idem == "default" else {"enable.idempotence": idem == "true"}
    config.update({} if acks == "all" else {"acks": acks})
    for i, (name, (low, high)) in enumerate(NUMBERS.items()):
        value = whole_number_input(tr(name), low, high, DEFAULTS[name], K + name, container=cols[(i + 2) % 4])
        config.update({name: value} if value != DEFAULTS[name] else {})
    workload_cols = st.columns(len(WORKLOAD))
    preset = producer.PRESETS[st.session_state[K + "preset"]]
    doc = {name: whole_number_input(tr(label), low, high, workload_number(preset, name), K + name,
                                    container=workload_cols[i])
           for i, (name, (label, low, high)) in enumerate(WORKLOAD.items())}
    text = st.text_area(_("Faults, one per line: request number, kind ({kinds})").format(kinds=", ".join(FAULTS)),
                        key=K + "faults", height=80, max_chars=5_000,
                        help=_("Request 1 is the first produce request sent."))
    return {"config": config, "defaults": RELEASED.key, **doc, "faults": producer.parse_fault_lines(text)}


def results(document: str) -> None:
    result = produce_result(document)[0]
    figures = produce_figures(document)
    for note in result["notes"]:
        st.info(tr(note))
    s, m = result["summary"], st.columns(5)
    m[0].metric(_("requests"), s["requests"])
    m[1].metric(_("retries"), s["retries"])
    m[2].metric(_("duplicated records"), s["duplicated_records"])
    m[3].metric(_("reordered partitions"), len(s["reordered_partitions"]))
    m[4].metric(_("failed batches"), s["failed"])
    st.plotly_chart(figures["log"], key=K + "log_chart")
    release_caption("produce")
    st.caption(_("Red = a second copy of a record (a retry the broker appended again); orange = written after "
                 "a later record. With idempotence the broker answers a retried batch with its first offset."))
    requests = [{**r, "batches": json.dumps(r["batches"])} for r in result["requests"]]
    lazy_tabs({_("Batches in flight"): lambda: st.plotly_chart(figures["animation"], key=K + "animation"),
               _("Timeline"): lambda: st.plotly_chart(figures["timeline"], key=K + "timeline"),
               _("Events"): lambda: table(result["events"], key=K + "events"),
               _("Requests"): lambda: table(requests, key=K + "requests"),
               _("Batches"): lambda: table(result["batches"], key=K + "batches"),
               _("Broker: last 5 batches"): lambda: broker_state(result["broker_state"])}, K + "view")
    st.download_button(_("Download the input (python -m engine produce)"), document, "produce.json",
                       "application/json", key=K + "download")


def broker_state(entries: list[dict]) -> None:
    """The batches the broker keeps per producer and partition (ProducerStateEntry), one row per batch."""
    table([{"partition": b["partition"], "epoch": b["epoch"], **m} for b in entries for m in b["batches"]],
          key=K + "state")
    st.caption(_("ProducerStateEntry keeps NUM_BATCHES_TO_RETAIN = 5 batches per producer and partition "
                 "(empty without idempotence)."))


if K + "acks" not in st.session_state:
    load_preset()
st.selectbox(_("Preset"), list(producer.PRESETS), key=K + "preset", on_change=load_preset, format_func=tr,
             help=_("Fills the settings below; edit them freely."))
st.caption(_("Every preset sets linger.ms to 0, so that each record, sent 1 ms after the last, is its own batch and "
             "request, as in the reference articles; released Kafka's default is {linger} ms (KIP-1030), under which "
             "they would share one.").format(linger=DEFAULTS["linger.ms"]))
try:
    results(json.dumps(settings(), sort_keys=True))
except EngineError as exc:
    st.error(tr(str(exc)))
lazy_section(_("Where the reference articles are out of date"), K + "articles_view",
             lambda: table(articles.rows(articles.PRODUCER_CORRECTIONS), key=K + "articles"))
lazy_section(_("Transactions (as far as the seed articles go)"), K + "transactions", transactions.transactions_section,
             opened=TXN_LINKED)
