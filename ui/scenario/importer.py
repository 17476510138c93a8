"""The builder's "Import" section: paste or upload Kafka's tool output, or read a live cluster.

Whatever comes in is recognised first (``engine.tools.detect``), shown as a preview -- the sources,
the group and its current assignment (a streams group: its stream threads and their current tasks), the notes
(what was inferred), and every line that could not be used -- and replaces the current scenario only when the user
says so.  The "Connect" form's fields are keyed by
a generation that changes with every read: the submit callback takes their values out of the session
state, and Streamlit drops the old generation's widget state at the end of that run, so the
bootstrap servers and credentials live only in the run that reads the cluster -- never in
``st.session_state`` afterwards, in a URL or in a download (tests/pages/test_page_import.py scans the whole
session state for the password).  Only the recognised metadata and group are kept for the preview.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pandas as pd
import streamlit as st

from engine.admin.connection import MAX_TIMEOUT_S, MECHANISMS, MIN_TIMEOUT_S, PROTOCOLS
from engine.cost import estimate_import
from engine.errors import EngineError
from engine.tools.detect import parse_text
from engine.tools.records import MAX_TEXT_BYTES, Imported
from engine.tools.to_scenario import WEIGHT_SOURCES, ImportResult, to_scenario
from ui.frame.door import admit, refusal
from ui.frame.state import set_scenario
from ui.inputs.numbers import decimal, decimal_input
from ui.inputs.paste import checked_paste, paste_area
from ui.text.i18n import _, tr

KEY = "import."
MAX_SHOWN = 500  # rows of the preview tables (the counts are always complete)
MAX_PASTE_CHARS = 2_000_000  # pasted tool output (files up to engine.tools.records.MAX_TEXT_BYTES)


def paste_help() -> str:
    """What the Paste and Upload tabs read, in the session's language."""
    return _("kafka-consumer-groups.sh --describe [--members --verbose | --state], kafka-share-groups.sh "
             "--describe --members [--verbose], kafka-streams-groups.sh "
             "--describe --members [--verbose] (with --describe --offsets), kafka-topics.sh --describe, "
             "kafka-log-dirs.sh --describe, a kafka-reassign-partitions.sh plan, broker,rack lines -- one or "
             "several, in any order, as your terminal printed them (Kafka 2.x to 4.x).")


def _recognise(read: Callable[[], Imported]) -> None:
    ss = st.session_state
    try:
        data = read()
    except EngineError as exc:
        ss[KEY + "error"] = str(exc)
        ss.pop(KEY + "data", None)
        return
    ss[KEY + "data"] = data
    ss[KEY + "token"] = ss.get(KEY + "token", 0) + 1
    for key in ("error", "applied", "group", "weights"):
        ss.pop(KEY + key, None)


def _on_paste() -> None:
    text = st.session_state.get(KEY + "paste", "")
    def read() -> Imported:
        pasted = checked_paste(text, MAX_PASTE_CHARS, "pasted tool output")
        admit(estimate_import(len(pasted.encode("utf-8", "surrogatepass"))))  # the door, before parsing
        return parse_text(pasted)

    _recognise(read)


def _read_files(files: list[Any]) -> Imported:
    data = Imported()
    admit(estimate_import(sum(len(u.getvalue()) for u in files)))  # the door, before parsing
    for upload in files:
        raw = upload.getvalue()
        if len(raw) > MAX_TEXT_BYTES:
            raise EngineError(f"{upload.name}: larger than the {MAX_TEXT_BYTES // 2**20} MiB limit")
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise EngineError(f"{upload.name}: not UTF-8 text") from None
        parse_text(text, data, origin=upload.name)
    return data


def _on_files() -> None:
    files = st.session_state.get(KEY + "files") or []
    if files:
        _recognise(lambda: _read_files(list(files)))


DEFAULT_TIMEOUT_S = 10
FIELDS = ("bootstrap", "group", "timeout", "protocol", "mechanism", "username", "password", "ca")
CLEARED = {
    "bootstrap": "",
    "group": "",
    "timeout": DEFAULT_TIMEOUT_S,
    "protocol": PROTOCOLS[0],
    "mechanism": "",
    "username": "",
    "password": "",
    "ca": "",
}


def _read_cluster(form: dict[str, Any]) -> Imported:
    """One live read with what the form held (nothing here is stored)."""
    from engine.admin.connection import Connection
    from engine.admin.live import import_live, live_groups

    protocol = form["protocol"]
    security = {"security.protocol": protocol}
    if protocol.startswith("SASL"):
        security.update(
            {
                "sasl.mechanism": form["mechanism"],
                "sasl.username": form["username"],
                "sasl.password": form["password"],
            }
        )
    if protocol.endswith("SSL"):
        security["ssl.ca.location"] = form["ca"]
    timeout = decimal(str(form["timeout"]), _("Timeout (s)"), MIN_TIMEOUT_S, MAX_TIMEOUT_S)
    connection = Connection.parse(form["bootstrap"], timeout, security)
    data = import_live(connection, form["group"].strip() or None)
    if not form["group"].strip():
        try:
            found = live_groups(connection)
            listed = ", ".join(f"{g} ({state}, {protocol})" for g, state, protocol in found[:50]) or "none"
            data.notes.append(f"consumer groups on this cluster: {listed}; enter one to import it")
        except EngineError as exc:
            data.notes.append(f"the consumer groups were not listed: {exc}")
    return data


def _field(name: str) -> str:
    """The widget key of a Connect field; a new generation after every read, so Streamlit drops the old
    widgets' state (the submitted values) at the end of that run instead of keeping it."""
    return f"{KEY}f{st.session_state.get(KEY + 'generation', 0)}.{name}"


def _on_connect() -> None:
    """Submit of the Connect form: read the cluster with the fields' values, then forget them."""
    ss = st.session_state
    form = {name: ss.pop(_field(name), CLEARED[name]) for name in FIELDS}
    ss[KEY + "generation"] = ss.get(KEY + "generation", 0) + 1
    try:
        _recognise(lambda: _read_cluster(form))
    finally:
        form.clear()


def _connect_form() -> None:
    with st.form(KEY + "connect"):
        st.caption(_(
            "Read-only: metadata, one group's description, committed offsets. What you type here is "
            "forgotten as soon as the cluster has been read: never kept, put in a link or in a download."
        ))
        c1, c2, c3 = st.columns([3, 2, 1])
        c1.text_input(_("Bootstrap servers"), placeholder="kafka-1:9092,kafka-2:9092", key=_field("bootstrap"))
        c2.text_input(
            _("Consumer group"), help=_("empty: topics only, and the groups are listed"), key=_field("group")
        )
        decimal_input(_("Timeout (s)"), MIN_TIMEOUT_S, MAX_TIMEOUT_S, DEFAULT_TIMEOUT_S, _field("timeout"),
                      container=c3)
        c1, c2 = st.columns(2)
        c1.selectbox("security.protocol", PROTOCOLS, key=_field("protocol"))
        c2.selectbox("sasl.mechanism", ("", *MECHANISMS), key=_field("mechanism"))
        c1.text_input(_("SASL username"), key=_field("username"))
        c2.text_input(_("SASL password"), type="password", key=_field("password"))
        st.text_input(
            "ssl.ca.location", help=_("a PEM file on the machine running this dashboard"), key=_field("ca")
        )
        st.form_submit_button(_("Read the cluster"), on_click=_on_connect)


def _result(data: Imported) -> ImportResult | None:
    """The scenario for the chosen group and weights (computed once per choice)."""
    ss = st.session_state
    key = (ss.get(KEY + "token"), ss.get(KEY + "group"), ss.get(KEY + "weights", "auto"))
    if ss.get(KEY + "result_key") != key:
        ss[KEY + "result_key"] = key
        try:
            ss[KEY + "result"] = to_scenario(data, ss.get(KEY + "group"), ss.get(KEY + "weights", "auto"))
            ss.pop(KEY + "result_error", None)
        except EngineError as exc:
            ss[KEY + "result"], ss[KEY + "result_error"] = None, str(exc)
    if ss.get(KEY + "result_error"):
        st.error(tr(ss[KEY + "result_error"]))
    return ss.get(KEY + "result")


def _on_apply() -> None:
    ss = st.session_state
    result = ss.get(KEY + "result")
    if result is not None:
        set_scenario(result.scenario)
        ss[KEY + "applied"] = f"{result.scenario.name!r} is now the current scenario on every page."
        for key in ("data", "result", "result_key", "paste"):
            ss.pop(KEY + key, None)


def _on_discard() -> None:
    for key in ("data", "result", "result_key", "error", "paste"):
        st.session_state.pop(KEY + key, None)


def _assignment_table(result: ImportResult) -> pd.DataFrame:
    group = result.group
    rows = []
    for member in list(group.members.values())[:MAX_SHOWN] if group else []:
        partitions = result.current_assignment.get(member.member_id, [])
        shown = ", ".join(str(tp) for tp in partitions[:20]) + (", ..." if len(partitions) > 20 else "")
        rows.append(
            {
                "member id": member.member_id,
                "client id": member.client_id,
                "host": member.host,
                "group.instance.id": member.instance_id or "",
                "partitions": len(partitions),
                "now owns": shown,
            }
        )
    return pd.DataFrame(rows)


def _task_labels(tasks: Mapping[str, tuple[int, ...]]) -> str:
    labels = [f"{sub}_{p}" for sub, partitions in tasks.items() for p in partitions]
    return ", ".join(labels[:20]) + (", ..." if len(labels) > 20 else "")


def _threads_table(result: ImportResult) -> pd.DataFrame:
    """A streams group's threads and the tasks they run now (the scenario's ``current_tasks``)."""
    assert result.streams is not None
    rows = []
    for member in list(result.streams.members.values())[:MAX_SHOWN]:
        tasks = result.scenario.current_tasks.get(member.member_id)
        rows.append(
            {
                "member id": member.member_id,
                "process": member.process,
                "client id": member.client_id,
                "active": _task_labels(tasks.active if tasks else {}),
                "standby": _task_labels(tasks.standby if tasks else {}),
            }
        )
    return pd.DataFrame(rows)


def _unused_table(result: ImportResult) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "where": " ".join(p for p in (u.origin, f"line {u.line}" if u.line else "") if p),
                "what": u.text[:200],
                "why": u.reason,
            }
            for u in result.unused[:MAX_SHOWN]
        ]
    )


def _choices(data: Imported) -> None:
    c1, c2 = st.columns(2)
    groups = sorted(data.groups)
    if len(groups) > 1:
        c1.selectbox(_("Group to import"), groups, key=KEY + "group")
    if data.streams:
        return  # a streams scenario has no partition weights
    c2.radio(
        _("Partition weights"),
        WEIGHT_SOURCES,
        format_func={source: tr(source) for source in WEIGHT_SOURCES}.__getitem__,  # the values stay as they are
        key=KEY + "weights",
        horizontal=True,
        help=_("size: kafka-log-dirs.sh sizes; lag: the group's lag; auto: size when given, else lag"),
    )


def _preview(data: Imported) -> None:
    st.markdown(_("**Recognised**"))
    for source in data.sources:
        st.text(tr(source))
    _choices(data)
    result = _result(data)
    if result is None:
        return
    first = result.scenario.first
    c1, c2, c3, c4 = st.columns(4)
    c1.metric(_("Topics"), f"{len(first.topics):,}")
    c2.metric(_("Partitions"), f"{first.total_partitions:,}")
    if result.streams is not None:
        c3.metric(_("Stream threads"), f"{len(first.members):,}")
        c4.metric(_("Application instances"), f"{len({m.process for m in first.members}):,}")
        st.caption(_(
            "Streams group {group}: subtopologies {subtopologies}. The scenario starts from the tasks its stream "
            "threads run now (below): step 0 is the next rebalance of this running group (what Kafka's assignor "
            "keeps or moves)."
        ).format(group=repr(result.streams.group_id),
                 subtopologies=", ".join(s.id for s in result.scenario.topology.subtopologies)))
        st.dataframe(_threads_table(result), hide_index=True, width="stretch")
    else:
        c3.metric(_("Consumers"), f"{len(first.members):,}")
        c4.metric(_("Weights"), tr(result.weights_source))
    if result.group is not None:
        g = result.group
        not_shown = _("not shown")
        st.caption(_(
            "Group {group}: state {state}, assignor {assignor}, protocol {protocol}. The scenario starts from the "
            "current assignment below: step 0 is the next rebalance of this running group (what each strategy "
            "keeps or moves)."
        ).format(group=repr(g.group_id), state=g.state or not_shown, assignor=g.assignor or not_shown,
                 protocol=g.protocol or not_shown))
        st.dataframe(_assignment_table(result), hide_index=True, width="stretch")
    for note in result.notes:
        st.info(tr(note))
    with st.expander(_("Not used ({n})").format(n=f"{len(result.unused):,}"), expanded=False):
        st.dataframe(_unused_table(result), hide_index=True, width="stretch")
    c1, c2 = st.columns(2)
    c1.button(_("Replace the current scenario"), key=KEY + "apply", on_click=_on_apply, type="primary")
    c2.button(_("Discard"), key=KEY + "discard", on_click=_on_discard)


def render_import() -> None:
    """Draw the section (called by the scenario builder)."""
    ss = st.session_state
    st.subheader(_("Import from your cluster"))
    paste, upload, connect = st.tabs([_("Paste"), _("Upload"), _("Connect")])
    with paste:
        paste_area(_("Paste the tools' output"), KEY + "paste", MAX_PASTE_CHARS, paste_help(), height=180)
        st.button(_("Recognise"), key=KEY + "recognise", on_click=_on_paste)
    with upload:
        st.file_uploader(
            _("Tool output files"),
            accept_multiple_files=True,
            key=KEY + "files",
            on_change=_on_files,
            help=paste_help(),
        )
    with connect:
        _connect_form()
    if ss.get(KEY + "error"):
        refusal(ss[KEY + "error"])
    if ss.get(KEY + "applied"):
        st.success(tr(ss[KEY + "applied"]))
    data = ss.get(KEY + "data")
    if data is not None:
        _preview(data)
