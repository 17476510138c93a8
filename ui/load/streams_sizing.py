"""The Sizing page's "Kafka Streams" tab: an application's subtopologies, where it runs, its standby replicas; the
tasks, how Kafka's streams-group assignor spreads them over the threads, and what standbys cost and save.

The numbers come from ``engine.streams_sizing.size_streams`` (Kafka's rules and the assignor, then the lab's
estimates of disk, changelog traffic and restore time), run through ``ui.runtime.offload.run`` by its estimate."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from engine import streams_sizing as ss
from engine.errors import EngineError, InputError
from ui.frame.door import refusal
from ui.frame.release_note import release_caption
from ui.frame.tables import table
from ui.inputs.numbers import decimal_input, whole_number_input
from ui.runtime.offload import run
from ui.text.i18n import _, tr

DEFAULT_SOURCES = ("6", "6, 6")  # a stateless subtopology feeding a stateful join; later ones read 6 partitions
ACTIVE_COLOUR, STANDBY_COLOUR, COLD_COLOUR = "#1f77b4", "#9ecae1", "#d62728"


def streams_sizing_of(inputs: ss.StreamsSizingInputs) -> ss.StreamsSizing:
    """The application's sizing: inline, in a worker or refused by its estimate (``ui.runtime.offload.run``)."""
    return run(("streams_sizing", inputs), ss.size_streams, (inputs,), ss.estimate(inputs))


def sources_input(label: str, default: str, key: str) -> tuple[int, ...]:
    """A subtopology's source topics' partition counts (``6, 4``); a refused text is named under the field and the
    last accepted counts are kept."""
    state, accepted = st.session_state, f"{key}.accepted"
    rule = _("The partition counts of the topics this subtopology reads, separated by commas (at most {topics} "
             "topics of 1..{partitions} partitions).")
    text = st.text_input(label, default, key=key, persist_state="page",
                         help=rule.format(topics=ss.MAX_SOURCE_TOPICS, partitions=f"{ss.MAX_TOPIC_PARTITIONS:,}"))
    try:
        counts = ss.parse_source_partitions(text, label)
    except InputError as exc:
        kept = state.get(accepted, ss.parse_source_partitions(default, label))
        st.error(_("{error}. Still using {kept}.").format(error=tr(str(exc)), kept=", ".join(map(str, kept))),
                 icon=":material/block:")
        return tuple(kept)
    state[accepted] = counts
    return counts


def _subtopologies() -> tuple[ss.SourceSubtopology, ...]:
    count = whole_number_input(_("Subtopologies"), 1, ss.MAX_SUBTOPOLOGIES, 2, "sizing.streams.subtopologies",
                               help=_("The parts of the topology joined by repartition topics: "
                                      "Topology#describe() lists them."))
    subs = []
    for i in range(count):
        left, right = st.columns([3, 1], vertical_alignment="bottom")
        with left:
            sources = sources_input(_("Subtopology {n}: its source topics' partitions").format(n=i),
                                    DEFAULT_SOURCES[i] if i < len(DEFAULT_SOURCES) else "6",
                                    f"sizing.streams.sources.{i}")
        stateful = right.checkbox(_("stateful"), i == 1, key=f"sizing.streams.stateful.{i}", persist_state="page",
                                  help=_("It keeps state stores, backed by changelog topics: only a stateful task "
                                         "gets standby replicas."))
        subs.append(ss.SourceSubtopology(sources, bool(stateful)))
    return tuple(subs)


def _inputs() -> ss.StreamsSizingInputs:
    subs = _subtopologies()
    c1, c2, c3 = st.columns(3)
    instances = whole_number_input(_("Application instances"), 1, ss.MAX_INSTANCES, 3, "sizing.streams.instances",
                                   container=c1, help=_("Kafka Streams clients with the same application.id "
                                                        "(one process.id each)."))
    threads = whole_number_input(_("Stream threads per instance (num.stream.threads)"), 1, ss.MAX_THREADS, 2,
                                 "sizing.streams.threads", container=c2)
    standbys = whole_number_input(
        "num.standby.replicas", 0, ss.MAX_STANDBY_REPLICAS, 1, "sizing.streams.standbys", container=c3,
        help=_("In a streams group the broker decides: the group config streams.num.standby.replicas, else the "
               "broker's group.streams.num.standby.replicas (default 0), at most "
               "group.streams.max.standby.replicas (default 2)."))
    d1, d2, d3 = st.columns(3)
    state = decimal_input(_("State per stateful task (MB)"), 0.0, ss.MAX_STATE_MB, 2_048.0, "sizing.streams.state_mb",
                          container=d1)
    changelog = decimal_input(_("Changelog writes per stateful task (MB/s)"), 0.0, ss.MAX_RATE_MB_S, 0.5,
                              "sizing.streams.changelog_mb_s", container=d2)
    restore = decimal_input(_("Restore rate per instance (MB/s)"), 0.001, ss.MAX_RATE_MB_S, 50.0,
                            "sizing.streams.restore_mb_s", container=d3,
                            help=_("How fast one instance reads changelogs back into its state stores: measure "
                                   "yours."))
    return ss.StreamsSizingInputs(subs, instances, threads, standbys, state, changelog, restore)


def thread_chart(result: ss.StreamsSizing) -> go.Figure:
    """Active and standby tasks of every stream thread, threads grouped by instance."""
    x = [[load.instance for load in result.loads], [load.member for load in result.loads]]
    fig = go.Figure()
    for name, colour, tasks in ((_("active tasks"), ACTIVE_COLOUR, [load.active for load in result.loads]),
                                (_("standby tasks"), STANDBY_COLOUR, [load.standby for load in result.loads])):
        fig.add_bar(x=x, y=[len(t) for t in tasks], name=name, marker_color=colour,
                    hovertext=[", ".join(t) or "-" for t in tasks], hoverinfo="text+y")
    fig.update_layout(barmode="stack", height=360, margin=dict(t=50, b=10),
                      title=_("Tasks per stream thread, by instance"), yaxis_title=_("tasks"),
                      legend=dict(orientation="h", y=1.12))
    return fig


def restore_chart(result: ss.StreamsSizing) -> go.Figure:
    """Seconds before the moved stateful tasks process again when each instance fails, with and without standbys."""
    instances = [f.instance for f in result.failovers]
    fig = go.Figure()
    fig.add_bar(x=instances, y=[f.restore_s for f in result.failovers_without], name=_("no standby replicas"),
                marker_color=COLD_COLOUR, hovertext=[", ".join(f.cold) or "-" for f in result.failovers_without],
                hoverinfo="text+y")
    if result.inputs.standby_replicas:
        fig.add_bar(x=instances, y=[f.restore_s for f in result.failovers], marker_color=ACTIVE_COLOUR,
                    name=f"num.standby.replicas = {result.inputs.standby_replicas}",
                    hovertext=[", ".join(f.cold) or "-" for f in result.failovers], hoverinfo="text+y")
    fig.update_layout(barmode="group", height=320, margin=dict(t=50, b=10),
                      title=_("Restore before processing resumes, when this instance fails (s)"),
                      xaxis_title=_("the instance that fails"), yaxis_title=_("seconds"),
                      legend=dict(orientation="h", y=1.15))
    return fig


def _metrics(r: ss.StreamsSizing) -> None:
    m1, m2, m3, m4 = st.columns(4)
    m1.metric(_("Tasks"), f"{r.tasks:,}",
              help=_("{stateful} of them stateful").format(stateful=f"{r.stateful_tasks:,}"))
    m2.metric(_("Threads with an active task"), f"{r.busy_threads:,} / {r.threads:,}",
              help=_("At most {useful} threads can work: a task is processed by one thread at a time.").format(
                  useful=f"{r.useful_threads:,}"))
    m3.metric(_("Standby copies"), f"{r.standby_copies:,}",
              help=_("Disk {disk} MB across the instances; the standbys read {read} MB/s of changelog.").format(
                  disk=f"{r.standby_disk_mb:,.0f}", read=f"{r.changelog_read_mb_s:,.2f}"))
    m4.metric(_("Worst restore after a failure (s)"), f"{r.worst_restore_s:,.1f}",
              delta=f"{r.worst_restore_s - r.worst_restore_without_s:,.1f}" if r.inputs.standby_replicas else None,
              delta_color="inverse", help=_("{without} s without standby replicas.").format(
                  without=f"{r.worst_restore_without_s:,.1f}"))


def _notes(r: ss.StreamsSizing) -> None:
    idle = r.threads - r.busy_threads
    if idle:
        st.warning(_("{idle} of {threads} threads get no active task ({standby_only} of them hold only standbys). A "
                     "task is processed by one thread at a time: {tasks} tasks keep at most {useful} threads "
                     "busy.").format(idle=idle, threads=r.threads, standby_only=r.standby_only_threads,
                                     tasks=r.tasks, useful=r.useful_threads))
    if r.unplaced_standbys:
        st.warning(_("{n} standby copies are not placed: a standby never shares an instance with another copy of "
                     "its task, and {instances} instance(s) hold at most {most} copies of a task (the active and "
                     "{standbys} standby).").format(n=r.unplaced_standbys, instances=r.inputs.instances,
                                                    most=r.inputs.instances, standbys=r.inputs.instances - 1))
    if not r.failovers:
        st.info(_("One instance: when it stops, no other instance takes its tasks over."))


def _failover_table(r: ss.StreamsSizing) -> pd.DataFrame:
    rows = [{_("the instance that fails"): f.instance, _("warm (promoted standbys)"): ", ".join(f.warm) or "-",
             _("cold (restored from the changelog)"): ", ".join(f.cold) or "-",
             _("restore (s)"): round(f.restore_s, 1), _("cold without standbys"): ", ".join(w.cold) or "-",
             _("restore without standbys (s)"): round(w.restore_s, 1)}
            for f, w in zip(r.failovers, r.failovers_without, strict=True)]
    return pd.DataFrame(rows)


def streams_sizing() -> None:
    st.markdown(_("A Kafka Streams application runs as a streams group (KIP-1071): the group coordinator assigns "
                  "its tasks to the stream threads of its instances. A subtopology has as many tasks as its source "
                  "topics' largest partition count; a stateful task can keep warm standby copies on other "
                  "instances. The assignment below is Kafka's own assignor; disk, changelog traffic and restore "
                  "time are the lab's estimates from your numbers."))
    inputs = _inputs()
    try:
        result = streams_sizing_of(inputs)
    except EngineError as exc:
        refusal(str(exc))
        return
    _metrics(result)
    _notes(result)
    st.plotly_chart(thread_chart(result), key="sizing.streams.threads_chart")
    if result.failovers:
        st.plotly_chart(restore_chart(result), key="sizing.streams.restore_chart")
        table(_failover_table(result), key="sizing.streams.failovers")
    st.caption(_("Kafka's rules: tasks = the largest source partition count per subtopology; one thread per task; "
                 "standbys never on their active's instance; the assignment and who takes a failed instance's tasks "
                 "are the assignor's. The lab's estimates: disk = standby copies × state per task; changelog read = "
                 "standby copies × changelog writes per task; restore = cold tasks on the busiest instance × state "
                 "per task ÷ restore rate."))
    release_caption("streams-assign")

