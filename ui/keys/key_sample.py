"""The Keys page's key sample: generated, pasted or uploaded, read once and cached (``ui.keys.cached``).

``key_source()`` draws the source widgets and returns the keys with an id naming the sample (the caches of
per-key work take the id, not the array); ``None`` after an inline error or before an upload.
"""

from __future__ import annotations

import hashlib

import pyarrow as pa
import streamlit as st

from engine import EngineError, expected_stay_share, keysample, null_keys
from ui.inputs.numbers import whole_number_input
from ui.inputs.paste import checked_paste, paste_area
from ui.keys.cached import generated_keys, pasted_keys, uploaded_keys
from ui.text.i18n import _, tr

SOURCES = {"generate": "Generate a sample", "paste": "Paste keys", "upload": "Upload a file"}


def _source_labels() -> dict[str, str]:
    """The sources' labels in the session's language (the option values stay the keys).  Made while the page
    runs and looked up by ``format_func``: AppTest calls ``format_func`` outside the run, where the language
    cannot be read."""
    return {"generate": _("Generate a sample"), "paste": _("Paste keys"), "upload": _("Upload a file")}


def _pasted() -> tuple[pa.Array | None, str]:
    text = paste_area(_("Keys, one per line (`<null>` = null key; blank lines skipped)"), "keys.paste",
                      keysample.MAX_PASTE_CHARS,
                      _("At most {keys} keys, {bytes} bytes each.").format(keys=f"{keysample.MAX_KEYS:,}",
                                                                          bytes=f"{keysample.MAX_KEY_BYTES:,}"),
                      value="user-1\nuser-2\nuser-3\norder-42\n<null>", height=150)
    checked_paste(text, keysample.MAX_PASTE_CHARS, "pasted keys")
    return pasted_keys(text), "paste:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _uploaded() -> tuple[pa.Array | None, str]:
    upload = st.file_uploader(_("Text (one key per line) or CSV (column `key`, else the first)"),
                              type=["txt", "csv"], key="keys.upload",
                              help=_("UTF-8 text, at most {mib} MiB and {keys} keys. In a CSV an empty field "
                                     "is a null key.").format(mib=keysample.MAX_UPLOAD_BYTES // 2**20,
                                                              keys=f"{keysample.MAX_KEYS:,}"))
    column = st.text_input(_("CSV column (optional)"), "", key="keys.csv_column").strip()
    if upload is None:
        st.caption(_("Upload a file to see its keys."))
        return None, ""
    content = upload.getvalue()
    sample_id = f"upload:{hashlib.sha256(content).hexdigest()}:{upload.name}:{column}"
    return uploaded_keys(content, upload.name, column or None), sample_id


def _generated() -> tuple[pa.Array | None, str]:
    c1, c2, c3, c4, c5 = st.columns(5)
    kinds = {kind: tr(label) for kind, label in keysample.SAMPLE_KINDS.items()}
    kind = c1.selectbox(_("Sample"), list(keysample.SAMPLE_KINDS), format_func=kinds.__getitem__, key="keys.kind")
    count = whole_number_input(_("Records"), 1, keysample.MAX_KEYS, 100_000, "keys.count", container=c2)
    distinct = whole_number_input(_("Distinct ids"), 1, 10_000_000, 10_000, "keys.distinct", container=c3,
                                  disabled=kind == "uuid")
    zipf_s = c4.slider(_("Zipf exponent s"), 0.5, 3.0, 1.1, 0.1, key="keys.zipf_s", disabled=kind != "zipf",
                       help=_("P(rank k) ~ 1/k^s: larger s, hotter hot keys"))
    null_pct = c5.slider(_("Null keys (%)"), 0, 100, 0, key="keys.null_pct")
    spec = keysample.SampleSpec(kind, int(count), int(distinct), float(zipf_s), null_pct / 100, 42)
    return generated_keys(spec), f"generate:{spec!r}"


def key_source() -> tuple[pa.Array | None, str]:
    """The key sample from the chosen source and an id for caching (None after an inline error)."""
    source = st.radio(_("Keys"), list(SOURCES), horizontal=True, key="keys.source",
                      format_func=_source_labels().__getitem__)
    try:
        return {"paste": _pasted, "upload": _uploaded, "generate": _generated}[source]()
    except EngineError as exc:
        st.error(tr(str(exc)))
        return None, ""


def remap_caption(partitions: int, target: int, measured: float) -> None:
    """What a uniform hash keeps in place going N -> M (``min(N, M) / lcm(N, M)``), beside what the sample
    measures (Keys)."""
    stay = expected_stay_share(partitions, target)
    st.caption(_("For a uniform hash, going from N to M partitions keeps min(N, M) / lcm(N, M) of the keys in "
                 "place: {old} -> {new} keeps {stay} ({stay_pct}) and moves {move_pct}; this sample measures "
                 "{measured} moving.").format(old=partitions, new=target, stay=stay, stay_pct=f"{float(stay):.1%}",
                                              move_pct=f"{float(1 - stay):.1%}", measured=f"{measured:.1%}"))


def null_key_config() -> null_keys.ProducerConfig:
    """The Keys page's null-key producer, read from its widgets (validated by the caller)."""
    c = st.columns(4) + st.columns(4)
    partitions = whole_number_input(_("Partitions"), 1, null_keys.MAX_PARTITIONS, 6, "keys.sim_partitions",
                                    container=c[0])
    brokers = whole_number_input(_("Brokers"), 1, null_keys.MAX_BROKERS, 3, "keys.sim_brokers", container=c[1])
    batch = whole_number_input(_("batch.size (bytes)"), 1, 16 * 2**20, 16_384, "keys.sim_batch", container=c[2])
    linger = whole_number_input("linger.ms", 0, 10_000, 0, "keys.sim_linger", container=c[3],
                                help=_("0 was the default before Kafka 4.0; 5 since (KIP-1030)"))
    size = whole_number_input(_("Record size (bytes)"), 1, 16 * 2**20, 1000, "keys.sim_record", container=c[4])
    rate = whole_number_input(_("Records / s"), 1, 1_000_000, 3000, "keys.sim_rate", container=c[5])
    slow = whole_number_input(_("Slow broker latency (ms)"), 0, 60_000, 100, "keys.sim_slow", container=c[6])
    fast = whole_number_input(_("Other brokers latency (ms)"), 0, 60_000, 2, "keys.sim_fast", container=c[7])
    duration = st.slider(_("Simulated time (ms)"), 500, null_keys.MAX_DURATION_MS, 4000, 500,
                         key="keys.sim_duration", persist_state="page",
                         help=_("At most {records} records and partitions x ms <= {work}").format(
                             records=f"{null_keys.MAX_RECORDS:,}", work=f"{null_keys.MAX_WORK:,}"))
    latencies = tuple([float(slow)] + [float(fast)] * (int(brokers) - 1))
    config = null_keys.ProducerConfig(int(partitions), int(brokers), int(batch), int(linger), int(size),
                                      int(rate), int(duration), latencies, bucket_ms=max(1, duration // 40))
    return config
