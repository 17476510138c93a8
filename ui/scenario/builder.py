"""The scenario builder on the home page: editable tables, quick actions, save / load / share.

The tables edit step 0 of the current scenario.  Edits that validate become the current scenario at
once; edits that do not stay in the tables (nothing typed is lost, also across page switches) with a
message under the table.  Every load (preset, file, pasted JSON, quick action) goes through a callback.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd
import streamlit as st

from engine.consumer.events import rebuild_steps
from engine.errors import InputError, LimitError, ScenarioError
from engine.presets import SKEWS, detect_skew, make_members, names_a_preset, skew_weights, spread_replica_racks
from engine.scenario import (
    GROUP_TYPES,
    MAX_MEMBERS,
    MAX_PARTITIONS_PER_TOPIC,
    MAX_PARTITIONS_TOTAL,
    MAX_STANDBY_REPLICAS,
    TOPIC_NAME_RULE,
    Member,
    Scenario,
    check_topic_name,
    dumps_scenario,
    loads_scenario,
    parse_scenario,
    scenario_to_json,
)
from ui.frame.state import KEY_VERSION, current_scenario, encode_scenario, set_scenario
from ui.inputs.numbers import whole_number, whole_number_input
from ui.inputs.paste import checked_paste, paste_area
from ui.scenario.importer import render_import
from ui.text.i18n import DEFAULT_LANGUAGE, _, current_language, tr
from ui.text.messages import for_people

SKEW_OPTIONS = (*SKEWS, "custom")
ALL_TOPICS = "*"
MAX_ADD_MEMBERS = 1_000
MAX_PASTE_CHARS = 2_000_000  # of pasted scenario JSON (files up to engine.inputs.MAX_DOCUMENT_BYTES)
STEPS_NOTICE = "builder.steps_notice"  # (builder version, what an edit did to the later steps)


def limits_help() -> str:
    """The builder's limits, in the session's language."""
    return _("Limits: 1..{per_topic} partitions per topic, {total} in all, {members} consumers. Topic names "
             "follow Kafka's rule: {rule}.").format(per_topic=f"{MAX_PARTITIONS_PER_TOPIC:,}",
                                                   total=f"{MAX_PARTITIONS_TOTAL:,}", members=f"{MAX_MEMBERS:,}",
                                                   rule=tr(TOPIC_NAME_RULE))


@dataclass
class BuildErrors:
    """Messages per field of the builder ("topics", "members", "weights", "racks", "subtopologies", "scenario"): errors,
    warnings and notes (what an edit did besides the edit, e.g. the later steps rebuilt)."""

    errors: dict[str, list[str]] = field(default_factory=dict)
    warnings: dict[str, list[str]] = field(default_factory=dict)
    notes: dict[str, list[str]] = field(default_factory=dict)

    def note(self, where: str, message: str) -> None:
        self.notes.setdefault(where, []).append(message)

    def error(self, where: str, message: str) -> None:
        self.errors.setdefault(where, []).append(message)

    def warn(self, where: str, message: str) -> None:
        self.warnings.setdefault(where, []).append(message)

    @property
    def ok(self) -> bool:
        return not self.errors


# ---------------------------------------------------------------- tables <-> scenario (pure)


def topics_frame(scenario: Scenario) -> pd.DataFrame:
    first = scenario.first
    return pd.DataFrame(
        {
            "topic": list(first.topics),
            "partitions": [str(int(n)) for n in first.topics.values()],
            "load skew": [detect_skew(scenario.weights.get(t)) for t in first.topics],
        }
    ).astype({"topic": "string", "partitions": "string", "load skew": "string"})


def members_frame(scenario: Scenario) -> pd.DataFrame:
    first = scenario.first
    if scenario.group_type == "streams":  # a stream thread reads the topology's topics: its process is what is edited
        return pd.DataFrame({"member id": [m.id for m in first.members],
                             "process": [m.process or "" for m in first.members]}).astype("string")
    every = set(first.topics)
    return pd.DataFrame(
        {
            "member id": [m.id for m in first.members],
            "topics": [
                ALL_TOPICS
                if every and set(m.topics) == every and len(m.topics) == len(every)
                else ", ".join(m.topics)
                for m in first.members
            ],
            "client.rack": [m.rack or "" for m in first.members],
            "group.instance.id": [m.instance_id or "" for m in first.members],
        }
    ).astype("string")


def subtopologies_frame(scenario: Scenario) -> pd.DataFrame:
    """A streams group's subtopologies: id, source topics (comma-separated), stateful."""
    subs = scenario.topology.subtopologies
    return pd.DataFrame({"subtopology": [s.id for s in subs],
                         "source topics": [", ".join(s.source_topics) for s in subs],
                         "stateful": [s.stateful for s in subs]}).astype(
        {"subtopology": "string", "source topics": "string", "stateful": "bool"})


def _cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return ""
    return str(value)


def _count(value: Any) -> tuple[int | None, str]:
    """A partition count cell as typed (a text column: a number column would turn 2.5 into 25 and clamp
    200000 in the browser without a word), and why it is refused."""
    try:
        return whole_number(_cell(value), "partitions", 1, MAX_PARTITIONS_PER_TOPIC), ""
    except InputError as exc:
        return None, " (a decimal is not rounded)" if "decimal" in str(exc) else ""


def _topic_rows(df: pd.DataFrame, base: Scenario,
                out: BuildErrors) -> tuple[dict[str, int], dict[str, tuple[float, ...]]]:
    topics: dict[str, int] = {}
    weights: dict[str, tuple[float, ...]] = {}
    for i, row in enumerate(df.to_dict("records")):
        name, (count, why) = _cell(row.get("topic")).strip(), _count(row.get("partitions"))
        skew = _cell(row.get("load skew")) or "uniform"
        where = f"row {i + 1}"
        if not name:
            out.error("topics", f"{where}: the topic name is empty")
            continue
        try:
            check_topic_name(where, name)  # the engine's rule: the CLI refuses the same names
        except ScenarioError as exc:
            out.error("topics", str(exc))
            continue
        if name in topics:
            out.error("topics", f"{where}: duplicate topic {name!r}")
            continue
        if count is None or not 1 <= count <= MAX_PARTITIONS_PER_TOPIC:
            out.error("topics", f"{where} ({name}): partitions must be a whole number "
                                f"1..{MAX_PARTITIONS_PER_TOPIC:,}, got "
                                f"{_cell(row.get('partitions')).strip()[:40] or 'nothing'}{why}")
            continue
        topics[name] = count
        if skew in SKEWS and skew != "uniform":
            weights[name] = skew_weights(count, skew)
        elif skew == "custom":
            custom = base.weights.get(name)
            if custom is None or len(custom) != count:
                out.error("weights", f"{name}: the custom weights do not fit {count} partitions; pick "
                                     "uniform, one-hot or zipf")
            else:
                weights[name] = custom
        elif skew not in SKEWS:
            out.error("weights", f"{where} ({name}): load skew must be one of {', '.join(SKEW_OPTIONS)}, got "
                                 f"{skew!r}")
    if sum(topics.values()) > MAX_PARTITIONS_TOTAL:
        out.error("topics", f"at most {MAX_PARTITIONS_TOTAL:,} partitions in all, got "
                            f"{sum(topics.values()):,}")
    return topics, weights


def _member_rows(df: pd.DataFrame, topics: dict[str, int], out: BuildErrors) -> list[dict[str, Any]]:
    members: list[dict[str, Any]] = []
    seen: set[str] = set()
    for i, row in enumerate(df.to_dict("records")):
        member_id = _cell(row.get("member id")).strip()
        where = f"row {i + 1}"
        if not member_id:
            out.error("members", f"{where}: the member id is empty")
            continue
        if member_id in seen:
            out.error("members", f"{where}: duplicate member id {member_id!r}")
            continue
        seen.add(member_id)
        if "<" in member_id or ">" in member_id:
            out.warn("members", f"{where}: member id {member_id!r} contains '<' or '>'; it is shown as plain "
                                "text")
        raw_topics = _cell(row.get("topics")).strip()
        subscribed = (list(topics) if raw_topics == ALL_TOPICS
                      else [t.strip() for t in raw_topics.split(",") if t.strip()])
        for t in subscribed:
            if t not in topics:
                out.warn("members", f"{member_id}: subscribes to unknown topic {t!r}; Kafka ignores it until "
                                    "it exists")
        rack, instance = _cell(row.get("client.rack")).strip(), _cell(row.get("group.instance.id")).strip()
        member = {"id": member_id, "topics": subscribed, "rack": rack or None, "instance_id": instance or None}
        if "process" in row:  # a streams group's table: each stream thread names its application instance
            member["process"] = _cell(row.get("process")).strip()
            if not member["process"]:
                out.error("members", f"{where}: the process is empty; name the application instance of "
                                     f"{member_id}")
        members.append(member)
    if len(members) > MAX_MEMBERS:
        out.error("members", f"at most {MAX_MEMBERS:,} consumers, got {len(members):,}")
    return members


def _subtopology_rows(df: pd.DataFrame, topics: dict[str, int], out: BuildErrors) -> list[dict[str, Any]]:
    """The subtopologies table as the scenario's ``subtopologies`` (a missing source topic refused, as Kafka does)."""
    subs: list[dict[str, Any]] = []
    for i, row in enumerate(df.to_dict("records")):
        sub_id, where = _cell(row.get("subtopology")).strip(), f"row {i + 1}"
        sources = [t.strip() for t in _cell(row.get("source topics")).split(",") if t.strip()]
        if not sub_id:
            out.error("subtopologies", f"{where}: the subtopology id is empty")
        elif sub_id in {s["id"] for s in subs}:
            out.error("subtopologies", f"{where}: duplicate subtopology id {sub_id!r}")
        elif not sources:
            out.error("subtopologies", f"{where} ({sub_id}): no source topics; list the topics it reads, "
                                       "comma-separated")
        elif any(t not in topics for t in sources):
            missing = next(t for t in sources if t not in topics)
            out.error("subtopologies", f"{where} ({sub_id}): source topic {missing!r} is not in the topics table "
                                       "(Kafka refuses a topology with a missing source topic)")
        else:
            subs.append({"id": sub_id, "source_topics": sources, "stateful": row.get("stateful") in (True, "True")})
    return subs


def tables_to_scenario(topics_df: pd.DataFrame, members_df: pd.DataFrame, base: Scenario,
                       subtopologies_df: pd.DataFrame | None = None,
                       standby_replicas: int | None = None) -> tuple[Scenario | None, BuildErrors]:
    """The scenario the tables describe (step 0), keeping ``base``'s later steps, racks and name; a streams
    group's subtopologies and standby replicas from their table and field, else ``base``'s."""
    out = BuildErrors()
    topics, weights = _topic_rows(topics_df, base, out)
    members = _member_rows(members_df, topics, out)
    subs = None if subtopologies_df is None else _subtopology_rows(subtopologies_df, topics, out)
    racks = {}
    for topic, per_partition in base.first.partition_racks.items():
        if topic in topics and len(per_partition) == topics[topic]:
            racks[topic] = [list(r) for r in per_partition]
        elif topic in topics:
            out.error("racks", f"{topic}: replica racks were given for {len(per_partition)} partitions, the "
                               f"topic now has {topics[topic]}; use 'Place replicas on racks' again")
    if not out.ok:
        return None, out
    data = scenario_to_json(replace(base, steps=base.steps[:1]))
    step0 = {"topics": topics, "members": members}
    if racks:
        step0["partition_racks"] = racks
    data.update(step0)
    data.pop("partition_racks", None) if not racks else None
    data["weights"] = {t: list(w) for t, w in weights.items()}
    if subs is not None:
        data["subtopologies"] = subs
    if standby_replicas is not None:
        data["num_standby_replicas"] = standby_replicas
    try:
        edited = parse_scenario(data)
        return (_with_later_steps(base, edited, out) if edited.first != base.first
                else replace(edited, steps=base.steps)), out
    except ScenarioError as exc:
        out.error("scenario", for_people(str(exc)))
        return None, out


def _with_later_steps(base: Scenario, edited: Scenario, out: BuildErrors) -> Scenario:
    """An edited step 0 with ``base``'s later steps replayed on it (or dropped, with a notice); an edited
    preset is a custom scenario, so it no longer carries the preset's name."""
    rebuilt, notice = rebuild_steps(replace(base, weights=edited.weights, streams=edited.streams), edited.first)
    if notice:
        out.note("scenario", notice)
    if names_a_preset(base.name):
        rebuilt = replace(rebuilt, name="", description="")
    return parse_scenario(scenario_to_json(rebuilt))  # the rebuilt steps pass the same limits


# ---------------------------------------------------------------- quick actions (pure)


def add_members(scenario: Scenario, count: int) -> Scenario:
    """Add ``count`` consumers subscribed to every topic, named after the first free ``C<n>``."""
    if not 1 <= count <= MAX_ADD_MEMBERS:
        raise ScenarioError(f"add consumers: count must be 1..{MAX_ADD_MEMBERS}, got {count}")
    first = scenario.first
    taken = set(first.member_ids)
    start = 0
    new: list[Member] = []
    while len(new) < count:
        if f"C{start}" not in taken:
            new.extend(make_members(1, list(first.topics), start=start))
        start += 1
    if scenario.group_type == "streams":  # each a stream thread of its own new application instance
        new = [replace(m, process=m.id) for m in new]
    return _with_first(scenario, replace(first, members=(*first.members, *new)))


def subscribe_all(scenario: Scenario) -> Scenario:
    first = scenario.first
    topics = tuple(first.topics)
    members = tuple(replace(m, topics=topics) for m in first.members)
    return _with_first(scenario, replace(first, members=members))


def place_racks(scenario: Scenario, racks_text: str, replication_factor: int) -> Scenario:
    """Replica racks for every topic, rotating over the racks; consumers without a rack get one too."""
    racks = [r.strip() for r in racks_text.split(",") if r.strip()]
    first = scenario.first
    if not racks:
        return _with_first(scenario, replace(first, partition_racks={}))
    placed = {t: spread_replica_racks(n, racks, replication_factor) for t, n in first.topics.items()}
    members = tuple(m if m.rack else replace(m, rack=racks[i % len(racks)])
                    for i, m in enumerate(first.members))
    return _with_first(scenario, replace(first, members=members, partition_racks=placed))


def with_group_type(scenario: Scenario, group_type: str) -> Scenario:
    """The scenario as a consumer group, a share group (KIP-932) or a streams group (KIP-1071); the other fields
    stay.  A consumer that becomes a stream thread is an application instance of its own (``process`` = its id),
    reading the default topology: one stateless subtopology per topic."""
    data = {**scenario_to_json(scenario), "group_type": group_type}
    if group_type == "streams":  # a streams group's threads hold tasks: the partitions they own are left out
        data.pop("current_assignment", None)
        for state in [data, *data.get("steps", [])]:
            state["members"] = [{**m, "process": m.get("process") or m["id"]} for m in state["members"]]
    return parse_scenario(data)


def _with_first(scenario: Scenario, first) -> Scenario:
    data = scenario_to_json(replace(scenario, steps=(first, *scenario.steps[1:])))
    return parse_scenario(data)  # validates again (limits, duplicates)


# ---------------------------------------------------------------- Streamlit


def _action(fn, *args: Any) -> None:
    try:
        set_scenario(fn(current_scenario(), *args))
        st.session_state.pop("builder.action_error", None)
    except ScenarioError as exc:
        st.session_state["builder.action_error"] = for_people(str(exc))


def _load_text(text: str, where: str) -> None:
    try:
        set_scenario(loads_scenario(text))
        st.session_state.pop(f"builder.{where}_error", None)
    except ScenarioError as exc:  # the engine's field path (members[2]), counted from 1 for people
        st.session_state[f"builder.{where}_error"] = for_people(str(exc))


def _on_upload() -> None:
    upload = st.session_state.get("builder.upload")
    if upload is None:
        return
    raw = upload.getvalue()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        st.session_state["builder.upload_error"] = f"{upload.name}: not UTF-8 text"
        return
    _load_text(text, "upload")


def _on_paste() -> None:
    try:  # the size first: a 10 MB paste is refused at once, not after parsing
        text = checked_paste(st.session_state.get("builder.json", ""), MAX_PASTE_CHARS, "pasted scenario JSON")
    except LimitError as exc:
        st.session_state["builder.paste_error"] = str(exc)
        return
    _load_text(text, "paste")


def _on_share() -> None:
    st.query_params["s"] = encode_scenario(current_scenario())


def _editor(name: str, base: pd.DataFrame, column_config: dict) -> pd.DataFrame:
    """A data editor whose edits survive page switches (its last value becomes the base of a fresh mount)."""
    ss = st.session_state
    version = ss.get(KEY_VERSION, 0)
    language = current_language()  # the headers are shown translated: another language is another editor
    key = f"builder.{name}.v{version}" + ("" if language == DEFAULT_LANGUAGE else f".{language}")
    last = ss.get(f"builder.{name}.last")
    if key not in ss and last is not None and last[0] == version:
        base = last[1]
    shown = {column: tr(str(column)) for column in base.columns}
    if len(set(shown.values())) != len(shown):  # two headers with one translation: keep the English ones
        shown = {column: column for column in base.columns}
    edited = st.data_editor(base.rename(columns=shown), key=key, num_rows="dynamic", width="stretch",
                            column_config={shown.get(c, c): config for c, config in column_config.items()},
                            hide_index=True)
    edited = edited.rename(columns={v: k for k, v in shown.items()})  # the tables' own (English) columns
    ss[f"builder.{name}.last"] = (version, edited)
    return edited


def _messages(errors: BuildErrors, *fields: str) -> None:
    for f in fields:
        for message in errors.errors.get(f, []):
            st.error(tr(message))
        for message in errors.warnings.get(f, []):
            st.warning(tr(message))


def _topic_columns() -> dict:
    return {
        "topic": st.column_config.TextColumn(_("topic"), help=_("Kafka topic name"), required=True),
        "partitions": st.column_config.TextColumn(  # text: a number column rewrites 2.5 as 25 in the browser
            _("partitions"),
            help=_("A whole number 1..{high}: a value outside is refused with a message under the table, never "
                   "rounded or clamped.").format(high=f"{MAX_PARTITIONS_PER_TOPIC:,}")),
        "load skew": st.column_config.SelectboxColumn(  # the options are values: they stay as they are
            _("load skew"), options=list(SKEW_OPTIONS),
            help=_("uniform; one-hot: partition 0 is 10x busier; zipf: 1/(p+1)")),
    }


def _process_column() -> dict:
    return {"process": st.column_config.TextColumn(
        _("process"), required=True,
        help=_("The application instance (process.id) this stream thread runs in; threads of one instance share its "
               "state stores, and a standby replica never lands on the instance of its active task."))}


def _thread_columns() -> dict:
    """A streams group's members table: member id and process (a thread reads the topology's topics)."""
    return {"member id": _member_columns()["member id"], **_process_column()}


def _member_columns() -> dict:
    return {
        "member id": st.column_config.TextColumn(_("member id"), required=True),
        "topics": st.column_config.TextColumn(_("topics"),
                                              help=_("comma-separated topic names, or * for every topic")),
        "client.rack": st.column_config.TextColumn("client.rack"),
        "group.instance.id": st.column_config.TextColumn("group.instance.id", help=_("static membership")),
    }


def _subtopology_columns() -> dict:
    return {
        "subtopology": st.column_config.TextColumn(
            _("subtopology"), required=True, help=_("The subtopology id, as Kafka Streams numbers them: 0, 1, ...")),
        "source topics": st.column_config.TextColumn(
            _("source topics"), help=_("comma-separated topic names; the subtopology has as many tasks as the largest "
                                       "of their partition counts")),
        "stateful": st.column_config.CheckboxColumn(
            _("stateful"), help=_("Keeps state stores (changelog topics): only its tasks get standby replicas")),
    }


def _streams_tables(scenario: Scenario, version: int) -> tuple[pd.DataFrame, int, Any]:
    """A streams group's subtopologies table, its num.standby.replicas field (keyed by the builder version) and
    the place for their messages."""
    st.subheader(_("Subtopologies"))
    subs = _editor("subtopologies", st.session_state["builder.base.subtopologies"], _subtopology_columns())
    holder = st.container()
    standby = whole_number_input(
        _("standby replicas (num.standby.replicas)"), 0, MAX_STANDBY_REPLICAS,
        scenario.topology.num_standby_replicas, f"builder.standby.v{version}",
        help=_("Copies of each stateful task kept warm on other application instances (Kafka's default 0, at most "
               "group.streams.max.standby.replicas, 2 by default)."))
    return subs, standby, holder


def _later_steps(scenario: Scenario, version: int) -> None:
    """What the last edit did to the later steps (rebuilt or dropped), and that they exist."""
    notice = st.session_state.get(STEPS_NOTICE)
    if notice and notice[0] == version:
        st.info(tr(notice[1]))
    if len(scenario.steps) > 1:
        st.caption(_("This scenario also has {n} later rebalance step(s) (shown on the Rebalance page); the "
                     "tables edit step 0, and an edit replays the later steps on it.").format(
                         n=len(scenario.steps) - 1))


def render_builder() -> Scenario:
    """Draw the builder; returns the current (valid) scenario after this run's edits."""
    scenario = current_scenario()
    ss = st.session_state
    version = ss.get(KEY_VERSION, 0)
    if ss.get("builder.base.version") != version:
        ss["builder.base.version"] = version
        ss["builder.base.topics"] = topics_frame(scenario)
        ss["builder.base.members"] = members_frame(scenario)
        ss["builder.base.subtopologies"] = subtopologies_frame(scenario)

    _group_type(scenario)
    streams = scenario.group_type == "streams"
    st.subheader(_("Topics"))
    topics_df = _editor("topics", ss["builder.base.topics"], _topic_columns())
    st.caption(limits_help())
    holder_topics = st.container()
    subs_df, standby, holder_subs = _streams_tables(scenario, version) if streams else (None, None, holder_topics)
    st.subheader(_("Stream threads") if streams else _("Consumers"))
    members_df = _editor("members", ss["builder.base.members"],
                         _thread_columns() if streams else _member_columns())
    holder_members = st.container()

    edited, errors = tables_to_scenario(topics_df, members_df, scenario, subs_df, standby)
    with holder_topics:
        _messages(errors, "topics", "weights", "racks")
    with holder_subs:
        _messages(errors, "subtopologies")
    with holder_members:
        _messages(errors, "members", "scenario")
    if edited is not None and edited != scenario:
        set_scenario(edited, preset=None, new_version=False)
        scenario = edited
        if errors.notes.get("scenario"):
            ss[STEPS_NOTICE] = (version, " ".join(errors.notes["scenario"]))
    pending = not errors.ok
    if pending:
        st.info(_("The tables have errors: the pages keep using the last valid scenario until they are fixed."))

    _quick_actions(pending)
    _later_steps(scenario, version)
    _save_load(scenario)
    render_import()
    return scenario


def _on_group_type() -> None:
    _action(with_group_type, st.session_state["builder.group_type"])


def _group_type(scenario: Scenario) -> None:
    """Consumer group or share group: a radio seeded from the scenario (a preset or link may change it)."""
    names = {"consumer": _("consumer group"), "share": _("share group (KIP-932)"),
             "streams": _("streams group (KIP-1071)")}  # values stay English
    st.session_state["builder.group_type"] = scenario.group_type
    st.radio(_("Group type"), list(GROUP_TYPES), format_func=names.__getitem__, horizontal=True,
             key="builder.group_type", on_change=_on_group_type,
             help=_("A share group (Kafka 4.2, KIP-932) lets several consumers read one partition; the "
                    "Assignments, Rebalance and Compare pages then show the coordinator's simple assignor."))


def _quick_actions(disabled: bool) -> None:
    st.subheader(_("Quick actions"))
    c1, c2, c3 = st.columns(3)
    with c1:
        n = whole_number_input(_("consumers to add"), 1, MAX_ADD_MEMBERS, 1, "builder.add_n")
        st.button(_("Add consumers"), key="builder.add", on_click=_action, args=(add_members, int(n)),
                  disabled=disabled)
    with c2:
        st.button(_("Subscribe all to all"), key="builder.sub_all", on_click=_action, args=(subscribe_all,),
                  disabled=disabled)
    with c3:
        racks = st.text_input(_("replica racks (comma-separated)"), "az1, az2, az3", key="builder.racks")
        rf = whole_number_input(_("replication factor"), 1, 10, 2, "builder.rf")
        st.button(
            _("Place replicas on racks"),
            key="builder.place_racks",
            on_click=_action,
            args=(place_racks, racks, int(rf)),
            disabled=disabled,
            help=_("Partition p gets replicas on racks p, p+1, ...; consumers without client.rack get one "
                   "round-robin. Empty racks: remove rack placement."),
        )
    if st.session_state.get("builder.action_error"):
        st.error(tr(st.session_state["builder.action_error"]))


def _save_load(scenario: Scenario) -> None:
    st.subheader(_("Save, load, share"))
    text = dumps_scenario(scenario)
    st.download_button(_("Download scenario (JSON)"), text, file_name="scenario.json", mime="application/json",
                       key="builder.download")
    st.file_uploader(_("Load a scenario file (JSON)"), type=["json"], key="builder.upload", on_change=_on_upload,
                     help=_("The format of the spec, section 5 (the assign input without strategy)."))
    if st.session_state.get("builder.upload_error"):
        st.error(tr(st.session_state["builder.upload_error"]))
    paste_area(_("...or paste scenario JSON"), "builder.json", MAX_PASTE_CHARS, height=120,
               help=_("Larger scenarios: save them as a file and load the file above."))
    st.button(_("Load pasted JSON"), key="builder.load_json", on_click=_on_paste)
    if st.session_state.get("builder.paste_error"):
        st.error(tr(st.session_state["builder.paste_error"]))
    st.button(_("Put this scenario in the page URL (shareable link)"), key="builder.share", on_click=_on_share)
    code = encode_scenario(scenario)
    base = (st.context.url or "").split("?")[0]
    st.caption(_("Shareable link (opens this scenario in a fresh browser):"))
    st.code(f"{base}?s={code}", language=None)
