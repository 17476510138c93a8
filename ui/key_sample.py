"""The Keys page's key sample: generated, pasted or uploaded, read once and cached (``ui.cached``).

``key_source()`` draws the source widgets and returns the keys with an id naming the sample (the caches of
per-key work take the id, not the array); ``None`` after an inline error or before an upload.
"""

from __future__ import annotations

import hashlib

import pyarrow as pa
import streamlit as st

from engine import EngineError, keysample
from ui.cached import generated_keys, pasted_keys, uploaded_keys
from ui.paste import checked_paste, paste_area

SOURCES = {"generate": "Generate a sample", "paste": "Paste keys", "upload": "Upload a file"}


def _pasted() -> tuple[pa.Array | None, str]:
    text = paste_area("Keys, one per line (`<null>` = null key; blank lines skipped)", "keys.paste",
                      keysample.MAX_PASTE_CHARS,
                      f"At most {keysample.MAX_KEYS:,} keys, {keysample.MAX_KEY_BYTES:,} bytes each.",
                      value="user-1\nuser-2\nuser-3\norder-42\n<null>", height=150)
    checked_paste(text, keysample.MAX_PASTE_CHARS, "pasted keys")
    return pasted_keys(text), "paste:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _uploaded() -> tuple[pa.Array | None, str]:
    upload = st.file_uploader("Text (one key per line) or CSV (column `key`, else the first)",
                              type=["txt", "csv"], key="keys.upload",
                              help=f"UTF-8 text, at most {keysample.MAX_UPLOAD_BYTES // 2**20} MiB and "
                                   f"{keysample.MAX_KEYS:,} keys. In a CSV an empty field is a null key.")
    column = st.text_input("CSV column (optional)", "", key="keys.csv_column").strip()
    if upload is None:
        st.caption("Upload a file to see its keys.")
        return None, ""
    content = upload.getvalue()
    sample_id = f"upload:{hashlib.sha256(content).hexdigest()}:{upload.name}:{column}"
    return uploaded_keys(content, upload.name, column or None), sample_id


def _generated() -> tuple[pa.Array | None, str]:
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
    spec = keysample.SampleSpec(kind, int(count), int(distinct), float(zipf_s), null_pct / 100, 42)
    return generated_keys(spec), f"generate:{spec!r}"


def key_source() -> tuple[pa.Array | None, str]:
    """The key sample from the chosen source and an id for caching (None after an inline error)."""
    source = st.radio("Keys", list(SOURCES), horizontal=True, key="keys.source", format_func=SOURCES.get)
    try:
        return {"paste": _pasted, "upload": _uploaded, "generate": _generated}[source]()
    except EngineError as exc:
        st.error(str(exc))
        return None, ""
