"""The Partition Log page's inputs: the topic config and the workload, read from its widgets as a ``log``
document (``python -m engine log``'s input), with the reference article's preset.

The segment size is one input: from 1 MiB on it is sent as ``segment.bytes``, below it as Kafka's test-only
``internal.segment.bytes`` (``segment.bytes`` refuses less than 1 MiB), and a caption says which."""

from __future__ import annotations

import streamlit as st

from engine.common.config_def import INT, INT_MAX, LONG_MAX
from engine.storage import partition_log as plog
from engine.storage.log_config import DAY_MS, RECORD_OVERHEAD_V0, SEGMENT_BYTES_MIN, TOPIC_CONFIG
from ui.inputs.numbers import decimal_input, whole_number_input
from ui.text.i18n import _, tr

K = "log."
PAGE_MAX_BATCHES = 3_000
SEGMENT_SIZE = K + "segment_size"
DEFAULT_SEGMENT_SIZE = 16_384  # small, so that the default workload rolls several segments
CONFIG = {"segment.ms": (7 * DAY_MS, 1),
          "segment.index.bytes": (10_485_760, 12), "index.interval.bytes": (4_096, 0),
          "retention.ms": (7 * DAY_MS, -1), "retention.bytes": (-1, -1), "delete.retention.ms": (DAY_MS, 0)}
WORKLOAD = {"batches": (200, 1, PAGE_MAX_BATCHES), "records_per_batch": (10, 1, 1_000),
            "value_bytes": (100, 0, 100_000), "keys": (0, 0, 10_000), "tombstone_every": (0, 0, 10_000),
            "interval_ms": (60_000, 0, DAY_MS)}


def _most(name: str) -> int:
    """The largest value of the Java type ``LogConfig`` declares ``name`` with (its validator has no upper bound)."""
    return INT_MAX if TOPIC_CONFIG.keys[name].type == INT else LONG_MAX


def seed_preset() -> None:
    st.session_state[SEGMENT_SIZE] = plog.segment_size_property(plog.SEED_133["config"])[1]
    for name, value in plog.SEED_133["workload"].items():
        st.session_state[K + name] = value


def segment_size_note(size: int) -> str:
    """The caption under the segment size: the property it is sent as, and why below 1 MiB."""
    name, _value = plog.segment_size_property(plog.segment_size_config(size))
    if name == "segment.bytes":
        return _("Segment size {size:,} bytes, sent as segment.bytes.").format(size=size)
    return _("Segment size {size:,} bytes, sent as internal.segment.bytes: segments this small need Kafka's "
             "test-only internal.segment.bytes; segment.bytes itself is at least 1 MiB ({least:,} bytes) since "
             "Kafka 4.0.").format(size=size, least=SEGMENT_BYTES_MIN)


def document() -> dict:
    st.session_state.setdefault(SEGMENT_SIZE, DEFAULT_SEGMENT_SIZE)
    for name, (default, *_rest) in {**CONFIG, **WORKLOAD}.items():
        st.session_state.setdefault(K + name, default)
    st.button(_("Load the example of 《深入理解 Kafka》, whose second segment is 00000000000000000133.log"),
              on_click=seed_preset, key=K + "seed")
    config_cols = st.columns(4)
    size = whole_number_input(_("segment size (bytes)"), RECORD_OVERHEAD_V0, _most("segment.bytes"),
                              DEFAULT_SEGMENT_SIZE, SEGMENT_SIZE, container=config_cols[0],
                              help=_("Sent as segment.bytes from 1 MiB on, as internal.segment.bytes below it."))
    config: dict[str, int | float | str] = {**plog.segment_size_config(size)}
    config |= {name: whole_number_input(name, low, _most(name), default, K + name, container=config_cols[(i + 1) % 4])
               for i, (name, (default, low)) in enumerate(CONFIG.items())}
    config["cleanup.policy"] = config_cols[3].selectbox("cleanup.policy", ["delete", "compact", "compact,delete"],
                                                        key=K + "policy")
    config["min.cleanable.dirty.ratio"] = decimal_input("min.cleanable.dirty.ratio", 0.0, 1.0, 0.5, K + "ratio",
                                                        container=config_cols[0])
    st.caption(segment_size_note(size))
    st.caption(_("Kafka's defaults: segment.bytes 1 GiB, segment.ms 7 days, the rest as shown; here segments "
                 "are small so they roll. At most {page:,} batches here ({cli:,} in the CLI).").format(
        page=PAGE_MAX_BATCHES, cli=plog.MAX_BATCHES))
    workload_cols = st.columns(6)
    workload = {name: whole_number_input(tr(name.replace("_", " ")), low, high, default, K + name,
                                         container=workload_cols[i])
                for i, (name, (default, low, high)) in enumerate(WORKLOAD.items())}
    workload["retention_checks"] = st.checkbox(_("Run retention every log.retention.check.interval.ms (5 min) "
                                                 "while appending"), key=K + "checks")
    return {"config": config, "workload": workload}
