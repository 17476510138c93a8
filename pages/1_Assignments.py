"""The four client assignors and the two KIP-848 server assignors side by side for the current scenario."""

from __future__ import annotations

import streamlit as st

from engine import (
    Assignor,
    balance_row,
    step_labels,
    strategies,
    strategy_of,
)
from ui.assignments.cached import metrics_of
from ui.assignments.client_notes import client_notes
from ui.assignments.share_group import is_share, share_section
from ui.assignments.strategy_tabs import article_corrections, downloads_section, step_label, strategy_tabs
from ui.assignments.streams_group import is_streams, streams_section
from ui.frame.door import door
from ui.frame.layout import page_setup
from ui.frame.lazy import lazy_section, linked
from ui.frame.release_note import client_model, release_caption
from ui.frame.sidebar import render_sidebar
from ui.frame.state import ScenarioRef, current_ref, current_scenario
from ui.frame.tables import table
from ui.inputs.client_choice import assignors_of, client_choice, offer_note
from ui.scenario.cached import outcomes_or_error, prepare_comparison
from ui.text.i18n import _, tr

CONFIG_LINKED = linked(("assign.config_strategy",))  # a link naming the config's strategy opens it
page_setup(_("Assignments"), "🧮", _("Range, round-robin, sticky and cooperative-sticky on the same group, side "
                                     "by side, and the new consumer protocol's server-side uniform and range "
                                     "assignors."))
render_sidebar()


def choose_step() -> int:
    scenario = current_scenario()
    if len(scenario.steps) == 1:
        return 0
    labels = [_("step {n}: {label}").format(n=i, label=step_label(label))  # translated now, looked up later
              for i, label in enumerate(step_labels(scenario))]
    return st.selectbox(_("Rebalance step"), range(len(scenario.steps)), key="assign.step",
                        format_func=labels.__getitem__,
                        help=_("Step 0 is the first rebalance; later steps follow the scenario's changes."))


def metrics_section(ref: ScenarioRef, step: int, results: dict[Assignor, list | str]) -> None:
    rows = [balance_row(a, metrics_of(ref, a, step), r[step])
            for a, r in results.items() if not isinstance(r, str)]
    st.subheader(_("Balance metrics"))
    table(rows)
    if any(metrics_of(ref, a, step).cross_rack_share is not None for a in results if a.group_protocol == "classic"
           if not isinstance(results[a], str)):
        st.caption(_("Cross-rack share: partitions read by a consumer whose client.rack holds none of the "
                     "partition's replicas."))


def columns_section(ref: ScenarioRef, step: int, results: dict[Assignor, list | str]) -> None:
    st.subheader(_("Each strategy's assignment (the last two tabs: group.protocol=consumer, KIP-848)"))
    mapping = ", ".join(f"{s.name} → {s.server_assignor}" for s in strategies())
    st.caption(_("The last two tabs are the new consumer protocol (KIP-848, group.protocol=consumer): the group "
                 "coordinator computes the assignment with group.remote.assignor (broker default: uniform). These "
                 "assignors ignore client.rack and the client's partition.assignment.strategy. "
                 "Kafka maps nothing itself: when migrating, the closest group.remote.assignor to choose for each "
                 "client strategy is {mapping}.").format(mapping=mapping))
    strategy_tabs(ref, step, results)


def config_section() -> None:
    names = [s.name for s in strategies()]
    labels = {name: tr(strategy_of(name).label) for name in names}  # translated now, looked up later
    chosen = strategy_of(st.selectbox(_("Consumer config for"), names, key="assign.config_strategy",
                                      format_func=labels.__getitem__, persist_state="page"))
    st.code(chosen.config_line(), language="properties")
    st.download_button(_("consumer.properties line"), chosen.config_line() + "\n", "consumer.properties",
                       "text/plain", key="assign.download_config")
    st.caption(_("Assignor class: {name}").format(name=chosen.kafka_class))


ref, step = current_ref(), choose_step()
if is_streams(current_scenario()):  # a streams group: its tasks instead of the consumer-group assignors
    streams_section(ref, step)
    st.stop()
client = client_choice("assign")
door(prepare_comparison, ref, client)  # the cost model first: refused in one line, or computed off this thread
with st.spinner(_("Computing the client and server-side (KIP-848) assignments...")):
    results = {a: outcomes_or_error(ref, a) for a in assignors_of(client)}
offer_note(client)
if is_share(current_scenario()):  # a share group: its own assignment first, the consumer-group assignors beside
    share_section(ref, step)
client_notes(ref, step, client, results)
metrics_section(ref, step, results)
columns_section(ref, step, results)
release_caption(client_model(client), "server-assign")
if not is_share(current_scenario()) and st.toggle(_("The same members as a share group (KIP-932)"),
                                                 key="assign.as_share"):  # drawn only on demand
    share_section(ref, step)
downloads_section(ref, step, assignors_of(client))
lazy_section(_("Consumer config for"), "assign.config_view", config_section, opened=CONFIG_LINKED)  # code, on demand
article_corrections("assign.articles")
