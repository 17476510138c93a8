"""The Producer page's transactions section: a ``transactional.id`` producer's operations, replayed by
``engine.storage.txn_log``, each partition's high watermark, last stable offset and log.

It is drawn in a lazy expander (``ui.frame.lazy``): its fields keep their values while it is closed, and
a link naming them (``FIELDS``: a lesson step's) opens it."""

from __future__ import annotations

import json

import streamlit as st

from engine.errors import EngineError
from engine.storage.txn_log import parse_operations
from ui.frame.tables import table
from ui.partition.cached import txn_result
from ui.text.i18n import _, tr

K = "producer."
FIELDS = (K + "txn_ops", K + "txn_ids")
TXN_OPS = "T1, send 0 2\nT1, send 1 1\nT2, send 0 1\nT1, commit\nT2, abort\nplain, send 0 1\nT1, send 1 1"


def transactions_section() -> None:
    """What the model covers, the operations and producers, then each partition's offsets and log."""
    st.markdown(_("A `transactional.id` producer writes to several partitions, then commits or aborts them "
                  "all. "
                  "Each commit/abort writes a **control record** (one offset) to every partition it touched; "
                  "`read_committed` consumers stop at the last stable offset and never see aborted records. "
                  "Not modelled: the coordinator, `__transaction_state`, timeouts, zombie fencing, "
                  "`sendOffsetsToTransaction`."))
    text = st.text_area(_("Operations, one per line: producer, send <partition> <records> | commit | abort"),
                        TXN_OPS, key=FIELDS[0], height=170, max_chars=10_000, persist_state="page")
    names = st.text_input(_("Producers with a transactional.id (comma-separated)"), "T1, T2", key=FIELDS[1],
                          max_chars=500, persist_state="page")
    try:
        partitions = txn_result(json.dumps(parse_operations(text, names), sort_keys=True))["partitions"]
    except EngineError as exc:
        st.error(tr(str(exc)))
        return
    for p in partitions:
        st.markdown(_("**p{partition}**: high watermark {hw}, last stable offset {lso}; read_committed gets "
                      "offsets {committed}, read_uncommitted gets {uncommitted}").format(
            partition=p["partition"], hw=p["high_watermark"], lso=p["last_stable_offset"],
            committed=p["read_committed"], uncommitted=p["read_uncommitted"]))
        table(p["log"], key=f"{K}txn_{p['partition']}")
