"""The client choice shared by Assignments, Rebalance and Keys: "Java client" or "librdkafka client".

Most non-Java services (confluent-kafka for Python, Go, .NET, JavaScript) run librdkafka: its own
range, roundrobin and cooperative-sticky in the group leader, and its own default partitioner
(``consistent_random``).  The choice lives in ``st.session_state["client.selected"]`` (so it survives page
switches) and in the share link as ``?client=librdkafka`` (absent for the default, Java), the way the
language is kept (``ui.text.i18n.current_language``).  Each page has its own radio (``client.<page>``).
What the other client would do differently is ``ui.assignments.client_notes``.
"""

from __future__ import annotations

import streamlit as st

from engine.comparison import CLIENTS, Assignor, client_assignors, not_offered
from engine.producer.partitioners import PARTITIONERS
from ui.text.i18n import _, tr
from ui.text.url_choice import url_backed

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
