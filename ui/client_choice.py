"""The client choice shared by Assignments, Rebalance and Keys: "Java client" or "librdkafka client".

Most non-Java services (confluent-kafka for Python, Go, .NET, JavaScript) run librdkafka: its own
range, roundrobin and cooperative-sticky in the group leader, and its own default partitioner
(``consistent_random``).  The choice lives in ``st.session_state["client.selected"]`` (so it survives page
switches) and in the share link as ``?client=librdkafka`` (absent for the default, Java), the way the
language is kept (``ui.i18n.current_language``).  Each page has its own radio (``client.<page>``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st

from engine.comparison import CLIENTS, Assignor, client_assignors, not_offered
from engine.consumer.librdkafka.teaching import (
    MAX_LISTED_MEMBERS,
    MAX_LISTED_PARTITIONS,
    NAMES,
    differing_members,
)
from engine.producer.partitioners import PARTITIONERS
from engine.scenario import TopicPartition
from ui.cached import client_crash_of, client_difference, estimate_of, outcomes_or_error, outcomes_ready
from ui.i18n import DEFAULT_LANGUAGE, _, current_language, tr
from ui.state import ScenarioRef
from ui.url_choice import url_backed

STATE_KEY = "client.selected"
QUERY_KEY = "client"
DEFAULT_CLIENT = "java"
DEFAULT_PARTITIONER = {"java": "java", "librdkafka": "consistent_random"}


def normalise(value: object) -> str:
    """A known client from user input (the URL); anything else is the default."""
    text = str(value or "").strip().lower()
    return text if text in CLIENTS else DEFAULT_CLIENT


def current_client() -> str:
    """The session's client: the last radio choice, else ``?client=``, else Java; kept in the URL."""
    return url_backed(STATE_KEY, QUERY_KEY, DEFAULT_CLIENT, normalise)


def _remember(widget_key: str) -> None:
    st.session_state[STATE_KEY] = normalise(st.session_state.get(widget_key))


def client_choice(page: str) -> str:
    """The radio on ``page`` (key ``client.<page>``); returns ``"java"`` or ``"librdkafka"``."""
    widget_key = f"client.{page}"
    st.session_state[widget_key] = current_client()
    labels = {key: tr(label) for key, label in CLIENTS.items()}  # translated now, looked up later
    st.radio(_("Consumer client"), list(CLIENTS), format_func=labels.__getitem__, horizontal=True,
             key=widget_key, on_change=_remember, args=(widget_key,),
             help=_("Whose assignors the group leader runs: Kafka's Java client, or librdkafka (confluent-kafka "
                    "for Python, Go, .NET, JavaScript; rdkafka for C/C++), which has its own range, roundrobin "
                    "and cooperative-sticky, and its own default partitioner (consistent_random)."))
    return current_client()


def partitioner_note(client: str) -> None:
    """Which partitioner a producer of this client uses by default (Keys)."""
    st.caption(_("A producer of this client places keys with {partitioner} by default; its consumer group's "
                 "assignment for this client is on Assignments and Rebalance.").format(
                     partitioner=tr(PARTITIONERS[DEFAULT_PARTITIONER[client]])))


def assignors_of(client: str) -> tuple[Assignor, ...]:
    """The client strategies and KIP-848 assignors the pages compare for this client."""
    return client_assignors(client)


def offer_note(client: str) -> None:
    """What this client does not offer, said as such (not as an error)."""
    missing = not_offered(client)
    if missing:
        st.caption(_("librdkafka has no {strategies} assignor (its sticky strategy is cooperative-sticky only), "
                     "so it is not shown. The KIP-848 server assignors run in the broker: the same for every "
                     "client.").format(strategies=", ".join(missing)))


def _other(client: str, assignor: Assignor) -> Assignor:
    return Assignor("classic", assignor.name, "java" if client == "librdkafka" else "librdkafka")


def client_notes(ref: ScenarioRef, step: int, client: str, results: dict[Assignor, list | str]) -> None:
    """Teaching points: a verdict per strategy (the same assignment with either client, or how many partitions
    differ), where a consumer of the other client would get other partitions, and where the real librdkafka
    client crashes.  A note never makes the page wait for a worker: the other client's assignors run only when
    kept or inline (``outcomes_ready``; librdkafka's cooperative-sticky on 50,000 partitions x 500 members is a
    minute); the rest are named with their estimate."""
    same: list[str] = []
    differs: list[str] = []
    dear: list[str] = []
    for assignor, outcome in results.items():
        if assignor.group_protocol != "classic" or assignor.name in not_offered("librdkafka"):
            continue
        if not outcomes_ready(ref, _other(client, assignor)):
            dear.append(f"{assignor.name} ({estimate_of(ref, _other(client, assignor)).seconds:,.0f} s)")
            continue
        other = outcomes_or_error(ref, _other(client, assignor))
        if isinstance(outcome, str) or isinstance(other, str):
            librdkafka = assignor if client == "librdkafka" else _other(client, assignor)
            crash = client_crash_of(ref, librdkafka)
            if crash:
                st.warning(_("{strategy}: a group of librdkafka consumers does not get here. {crash}").format(
                    strategy=assignor.name, crash=tr(crash)))
            elif isinstance(other, str) and client == "librdkafka":  # with Java shown it is only noise
                st.caption(_("{strategy}: no comparison with the other client ({reason})").format(
                    strategy=assignor.name, reason=tr(other)))
            continue
        moved, note = client_difference(ref, assignor, _other(client, assignor), step)
        if moved:
            differs.append(_("{strategy} differs on {n} partition(s)").format(strategy=assignor.name, n=moved))
        else:
            same.append(assignor.name)
        if note:
            st.info(note if current_language() == DEFAULT_LANGUAGE
                    else translated_note(assignor.name, client, outcome[step].assignment, other[step].assignment))
    verdict(same, differs)
    if dear:
        st.caption(_("Not compared with the {other} client here, to keep this page quick (its estimated work): "
                     "{strategies}. Choose that client above to see its assignment.").format(
            other=NAMES["java" if client == "librdkafka" else "librdkafka"], strategies=", ".join(dear)))


def verdict(same: Sequence[str], differs: Sequence[str]) -> None:
    """One line: which strategies give the same assignment with a Java and a librdkafka leader here, and on how
    many partitions the others differ."""
    parts = [_("same here: {strategies}").format(strategies=", ".join(same))] if same else []
    parts += list(differs)
    if parts:
        st.caption(_("Java vs librdkafka at this step: {verdict}.").format(verdict="; ".join(parts)))


def _listed(tps: Sequence[TopicPartition]) -> str:
    ordered = sorted(tps, key=lambda tp: (tp.topic, tp.partition))
    text = ", ".join(str(tp) for tp in ordered[:MAX_LISTED_PARTITIONS])
    more = len(ordered) - MAX_LISTED_PARTITIONS
    if not text:
        return _("nothing")
    return _("{partitions} and {n} more").format(partitions=text, n=more) if more > 0 else text


def translated_note(strategy: str, shown_client: str, shown: Mapping[str, Sequence[TopicPartition]],
                    other: Mapping[str, Sequence[TopicPartition]]) -> str:
    """``engine.consumer.librdkafka.teaching.client_note`` worded in the session's language: the same members
    and partitions, its words from the catalogue (English pages show the engine's own note)."""
    differ = differing_members(shown, other)
    listed = "; ".join(f"{m} {_listed(other.get(m, ()))} ({NAMES[shown_client]}: {_listed(shown.get(m, ()))})"
                       for m in differ[:MAX_LISTED_MEMBERS])
    if len(differ) > MAX_LISTED_MEMBERS:
        listed += _("; and {n} more").format(n=len(differ) - MAX_LISTED_MEMBERS)
    other_client = "librdkafka" if shown_client == "java" else "java"
    return _("{strategy}: a {other} consumer would get different partitions than a {shown} consumer for {n} of "
             "{members} members: {listed}.").format(strategy=strategy, other=NAMES[other_client],
                                                    shown=NAMES[shown_client], n=len(differ),
                                                    members=len(set(shown) | set(other)), listed=listed)

